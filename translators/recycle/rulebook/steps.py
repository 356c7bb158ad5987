"""Control resolution and arithmetic tables as a few relations with arguments.

Resolving control (:mod:`translators.recycle.emit.control`) walks a small tree from each resume
point; every node of it, and every seat it reads on the way, is made as a numbered relation
(``run_7``, ``skip_7``, ``more_3``, ``next_seat_2``) so that the inlining and merging passes
treat each on its own. Once they are done, this pass folds what is left of each family into one
relation whose first arguments say which member it is:

- ``(ctl FROM)``: control resolves from resume point ``FROM`` (the value of ``(pc FROM)``);
- ``(runs STEP K)``: the guards of step ``STEP`` hold, read with the ``K``-th seats they are
  read with (a walk meets a step again after a stage went round with other seats);
  ``(run FROM STEP K)``: the walk from ``FROM`` reaches ``STEP`` (the ``K``-th time) and runs
  it; ``(skip FROM STEP K)``: it reaches it and skips it (its guards do not hold);
- ``(over STAGE K)``: the end condition of stage ``STAGE`` holds (with the ``K``-th seats);
  ``(done FROM STAGE K)``: the walk leaves the stage; ``(more FROM STAGE K)``: it runs another
  pass of it;
- ``(join FROM WHERE K)``: control goes on at step or item ``WHERE`` with the ``K``-th seats
  (walks that meet there, from any resume point, share what follows);
- ``(next_seat STAGE K ?v)``, ``(seat_of STAGE K ?v)``, ``(team_of_seat STAGE K ?v)``: the
  ``K``-th seat the walks read for stage ``STAGE`` (the one after its current seat, a copy of
  another stage's, the team of a seat).

The arithmetic tables whose names held numbers take them as arguments too
(:meth:`~translators.recycle.emit.arith.Tables.keys`): ``(between 0 36 ?z)``,
``(ge 22 0 52 ?x)`` (x >= 22 for x in 0..52), ``(above 23 ?z)``, ``(plus_upto 23 ?x ?y ?z)``.

``FROM`` and ``STEP`` are the names ``(pc X)`` and ``(at_step X)`` use, ``STAGE`` the stage's
word (:func:`~translators.recycle.rulebook.names.stage_words`, as in ``rseat_last``); ``K`` counts in the order the walks are built, so the same game
gives the same names. The ground program is the same up to the names of its atoms. The
families recurse through each other only positively and at ground arguments (a node reads its
parent), and ``runs`` and ``over`` read the state and seats, never a node, so the rules stay
stratified relation by relation. A member an earlier pass gave other arguments (merged over
seats) keeps its own name, as does a family whose name the rules already use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ggp.gdl.rules import Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function

Group = tuple[str, list[Rule]]


def fold_steps(groups: list[Group], keys: Mapping[str, tuple[str, tuple[str, ...]]]) -> list[Group]:
    """``groups`` with every relation of ``keys`` (name -> family and key) read and written as
    ``(family key... args...)`` (see the module doc)."""
    prefix = step_atoms(groups, keys)
    if not prefix:
        return groups

    def atom(a: Function | Constant) -> Function | Constant:
        found = prefix.get(a.name)
        if found is None:
            return a
        return Function(found[0], found[1] + (a.args if isinstance(a, Function) else ()))

    names = frozenset(prefix)
    return [(comment, [map_atoms(r, atom, names) for r in rules]) for comment, rules in groups]


def step_atoms(groups: list[Group], keys: Mapping[str, tuple[str, tuple[str, ...]]]
               ) -> dict[str, tuple[str, tuple[Constant, ...]]]:
    """What :func:`fold_steps` does to each relation it folds: its family and the constants put
    before its arguments."""
    arities: dict[str, set[int]] = {}
    for _, rules in groups:
        for r in rules:  # a relation has the arity of its heads wherever it is read
            if r.head.name in keys:
                arities.setdefault(r.head.name, set()).add(len(r.head.args) if isinstance(r.head, Function) else 0)
    native = {family: min(n for name, ns in arities.items() if keys[name][0] == family for n in ns)
              for family in {keys[name][0] for name in arities}}
    for family in {r.head.name for _, rules in groups for r in rules} & set(native):
        del native[family]  # a relation of that name is there already: leave its family be
    prefix: dict[str, tuple[str, tuple[Constant, ...]]] = {
        name: (keys[name][0], tuple(Constant(k) for k in keys[name][1]))
        for name, ns in arities.items() if ns == {native.get(keys[name][0])}
    }
    return prefix


def map_atoms(r: Rule, atom: Callable[[Function | Constant], Function | Constant],
              names: frozenset[str] | None = None) -> Rule:
    """``r`` with ``atom`` applied to its head and to every atom of its body (``true`` and
    ``does`` too: ``atom`` returns what it does not rename as it is); when ``names`` (the
    relations ``atom`` renames) is given, a rule that reads none of them is returned as it is."""
    if names is not None and r.head.name not in names and not any(_reads(lit, names) for lit in r.body):
        return r

    def literal(lit: Literal) -> Literal:
        if isinstance(lit, Not):
            return Not(literal(lit.literal), lit.loc)
        if isinstance(lit, Or):
            return Or(tuple(literal(p) for p in lit.literals), lit.loc)
        if isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct):
            return atom(lit)
        return lit

    head = atom(r.head)
    body = tuple(literal(b) for b in r.body)
    return r if head is r.head and body == r.body else Rule(head, body, r.loc)


def _reads(lit: Literal, names: frozenset[str]) -> bool:
    """Whether a literal reads one of ``names``."""
    if isinstance(lit, Not):
        return _reads(lit.literal, names)
    if isinstance(lit, Or):
        return any(_reads(p, names) for p in lit.literals)
    return not isinstance(lit, Distinct) and lit.name in names


__all__ = ["fold_steps", "map_atoms", "step_atoms"]
