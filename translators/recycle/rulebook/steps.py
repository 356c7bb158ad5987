"""Control resolution as a few relations with arguments, instead of a proposition per node.

Resolving control (:mod:`translators.recycle.emit.control`) walks a small tree from each resume
point; every node of it is made as a numbered proposition (``run_7``, ``skip_7``, ``more_3``)
so that the inlining and merging passes can treat each on its own. Once they are done, this
pass folds what is left of each family into one relation whose arguments say where the node is:

- ``(ctl FROM)``: control resolves from resume point ``FROM`` (the value of ``(pc FROM)``);
- ``(runs FROM STEP K)``: the guards of step ``STEP`` hold, the ``K``-th time the walk from
  ``FROM`` meets that step (it meets a step again only after a stage went round with other
  seats); ``(run FROM STEP K)``: the walk reaches ``STEP`` there and runs it;
  ``(skip FROM STEP K)``: it reaches it and skips it (its guards do not hold);
- ``(over FROM STAGE K)``: the end condition of stage ``STAGE`` holds there;
  ``(done FROM STAGE K)``: the walk leaves the stage; ``(more FROM STAGE K)``: it runs another
  pass of it.

``FROM`` and ``STEP`` are the names ``(pc X)`` and ``(at_step X)`` use, ``STAGE`` the stage's
id as in ``(seat STAGE P)``. The ground program is the same up to the names of its atoms: each
node is still one ground atom, read by the same rules. The families recurse through each other
only positively and at ground arguments (a node reads its parent), and ``runs`` and ``over``
read the state, never a node, so the rules stay stratified relation by relation. A node that an
earlier pass gave arguments (merged over seats) keeps its own relation, to be named from words.
"""

from __future__ import annotations

from collections.abc import Mapping

from ggp.gdl.rules import Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function

Group = tuple[str, list[Rule]]


def fold_steps(groups: list[Group], keys: Mapping[str, tuple[str, tuple[str, ...]]]) -> list[Group]:
    """``groups`` with every proposition of ``keys`` (name -> family and key) read and written as
    ``(family key...)`` (see the module doc)."""
    with_args = {atom.name for _, rules in groups for r in rules for atom in _all_atoms(r)
                 if isinstance(atom, Function) and atom.name in keys}
    atoms: dict[str, Function] = {
        name: Function(family, tuple(Constant(k) for k in key))
        for name, (family, key) in keys.items() if name not in with_args
    }
    if not atoms:
        return groups

    def atom(a: Function | Constant) -> Function | Constant:
        return atoms.get(a.name, a) if isinstance(a, Constant) else a

    def literal(lit: Literal) -> Literal:
        if isinstance(lit, Not):
            return Not(literal(lit.literal), lit.loc)
        if isinstance(lit, Or):
            return Or(tuple(literal(p) for p in lit.literals), lit.loc)
        if isinstance(lit, Constant):
            return atom(lit)
        return lit

    out: list[Group] = []
    for comment, rules in groups:
        new = []
        for r in rules:
            head = atom(r.head)
            body = tuple(literal(b) for b in r.body)
            new.append(r if head is r.head and body == r.body else Rule(head, body, r.loc))
        out.append((comment, new))
    return out


def _all_atoms(r: Rule) -> list[Function | Constant]:
    found: list[Function | Constant] = [r.head]

    def visit(lit: Literal) -> None:
        if isinstance(lit, Not):
            visit(lit.literal)
        elif isinstance(lit, Or):
            for part in lit.literals:
                visit(part)
        elif isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct):
            found.append(lit)

    for lit in r.body:
        visit(lit)
    return found


__all__ = ["fold_steps"]
