"""Which moves a percept reveals: a sound reading of the ground network's ``sees`` rules.

For a ``sees`` atom, each role either is unconstrained or must have played one of a set of
moves whenever the atom holds. An atom's condition is the disjunction of its rule bodies, a
body's the conjunction of its positive literals': a positive ``does(r, m)`` constrains role
``r`` to ``{m}``; a move-dependent derived atom contributes its own condition; fluents,
negative literals, state-only atoms and atoms of recursive components constrain nothing.
Conjunction intersects per role; disjunction unites per role, a role left unconstrained by one
branch being unconstrained. A body that needs two different moves of one role never holds and
drops out of its disjunction.

Sound by construction: each step only weakens what must hold (a body implies each of its
positive literals; an atom implies one of its bodies). Percepts that constrain no role are left
out of :func:`percept_moves` (on a large card game nearly all of them: 72,338 of 73,849).
"""

from __future__ import annotations

from ggp.gdl.terms import Term
from ggp.reasoner.cache import interned
from ggp.reasoner.network import TRUE, Network

#: Per role index, the move indices one of which must be played (a role absent: any move).
Condition = dict[int, frozenset[int]]


def _conjoin(a: Condition, b: Condition) -> Condition:
    if not a:
        return b
    if not b:
        return a
    out = dict(a)
    for role, moves in b.items():
        out[role] = out[role] & moves if role in out else moves
    return out


def _disjoin(branches: list[Condition], roles: int) -> Condition:
    live = [b for b in branches if all(b.values())]
    if not live:
        return {r: frozenset() for r in range(roles)}  # the atom never holds
    out = dict(live[0])
    for branch in live[1:]:
        out = {r: moves | branch[r] for r, moves in out.items() if r in branch}
        if not out:
            break
    return out


def conditions(net: Network) -> dict[int, Condition]:
    """The condition of every move-dependent derived atom of ``net`` (see the module doc)."""
    recursive = {a for component in net.recursive for a in component}
    roles = len(net.roles)
    result: dict[int, Condition] = {}
    for atom in sorted(net.move_dependent, key=net.order.__getitem__):
        if atom in recursive:
            result[atom] = {}
            continue
        branches: list[Condition] = []
        for pos, _ in net.bodies[atom]:
            body: Condition = {}
            for p in pos:
                if p in net.move_of:
                    r, m = net.move_of[p]
                    body = _conjoin(body, {r: frozenset((m,))})
                else:
                    body = _conjoin(body, result.get(p, {}))
            branches.append(body)
        result[atom] = _disjoin(branches, roles)
    return result


def percept_moves(net: Network, role: int) -> dict[Term, tuple[frozenset[Term] | None, ...]]:
    """For each percept the role at index ``role`` can see that constrains some role's move:
    per role (in order), None when unconstrained, else the moves one of which the joint move
    holds whenever the percept is seen. Percepts that constrain no role are left out (absent:
    nothing known); terms are shared (:func:`~ggp.reasoner.cache.interned`), equal entries too."""
    known = conditions(net)
    table: dict[Term, Term] = {}
    entries: dict[tuple[frozenset[Term] | None, ...], tuple[frozenset[Term] | None, ...]] = {}
    result: dict[Term, tuple[frozenset[Term] | None, ...]] = {}
    for term, atom in net.sees[role]:
        cond = {} if atom == TRUE else known.get(atom, {})
        if not cond:
            continue
        entry = tuple(frozenset(interned((net.moves[r][m] for m in cond[r]), table)) if r in cond else None
                      for r in range(len(net.roles)))
        result[interned((term,), table)[0]] = entries.setdefault(entry, entry)
    return result
