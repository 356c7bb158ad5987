"""Positional relations: fluents that give each key exactly one value, such as where a card is.

A relation ``(at ?card ?place)`` holds one place per card in every state of a card game; a
board ``(cell ?x ?y ?piece)`` one piece per square. Such a relation is found from states (no
key with two values in any of them), and it lets a belief speak of *where each thing is*
(:mod:`ggp.belief.marginals`) and repair a particle by exchanging the places of two things
(:mod:`ggp.belief.repair`). The last argument is the value; the others are the key.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ggp.gdl.terms import Function, Term
from ggp.reasoner.machine import State

#: A relation by name and arity.
Relation = tuple[str, int]
#: A positional fluent split into its relation, key and value.
Placed = tuple[Relation, tuple[Term, ...], Term]


@dataclass(frozen=True)
class Positions:
    """The relations that are positional in every state looked at."""

    relations: frozenset[Relation]

    def split(self, fluent: Term) -> Placed | None:
        """``fluent`` as (relation, key, value), or None when its relation is not positional."""
        if not isinstance(fluent, Function):
            return None
        relation = (fluent.name, len(fluent.args))
        if relation not in self.relations:
            return None
        return relation, fluent.args[:-1], fluent.args[-1]

    @staticmethod
    def join(placed: Placed) -> Term:
        """The fluent of (relation, key, value)."""
        (name, _), key, value = placed
        return Function(name, (*key, value))


def find_positions(states: Iterable[State]) -> Positions:
    """The relations of arity two or more in which no key has two values in any of ``states``
    (and that hold for at least two keys somewhere)."""
    candidates: dict[Relation, bool] = {}
    keys: dict[Relation, int] = {}
    for state in states:
        seen: set[tuple[Relation, tuple[Term, ...]]] = set()
        counts: dict[Relation, int] = {}
        for fluent in state.fluents:
            if not isinstance(fluent, Function) or len(fluent.args) < 2:
                continue
            relation = (fluent.name, len(fluent.args))
            if candidates.get(relation) is False:
                continue
            key = (relation, fluent.args[:-1])
            if key in seen:
                candidates[relation] = False
                continue
            seen.add(key)
            candidates.setdefault(relation, True)
            counts[relation] = counts.get(relation, 0) + 1
        for relation, n in counts.items():
            keys[relation] = max(keys.get(relation, 0), n)
    return Positions(frozenset(r for r, ok in candidates.items() if ok and keys.get(r, 0) >= 2))
