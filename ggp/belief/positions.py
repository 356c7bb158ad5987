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


class PlaceWatch:
    """Which places a role cannot see into: values of positional relations that a key can
    enter or leave in a step whose percepts do not name it.

    A player sees the cards that enter its own hand and the discard pile, not those that enter
    an opponent's hand or leave the stock face down. Transitions that explain what the role saw
    are noted (:meth:`note`); a fluent whose place was never entered or left unnamed is one the
    role can see, so that where every particle agrees on it, the role knows it.
    """

    def __init__(self) -> None:
        self.hidden: set[tuple[Relation, Term]] = set()

    def note(self, before: frozenset[Term], after: frozenset[Term], named: set[Term]) -> None:
        """A transition from fluents ``before`` to ``after`` in a step whose percepts name ``named``."""
        for fluent in before.symmetric_difference(after):
            if isinstance(fluent, Function) and len(fluent.args) >= 2 \
                    and not any(k in named for k in fluent.args[:-1]):
                self.hidden.add(((fluent.name, len(fluent.args)), fluent.args[-1]))

    def visible(self, placed: Placed) -> bool:
        """Whether the place of ``placed`` was never seen entered or left unnamed."""
        return (placed[0], placed[2]) not in self.hidden
