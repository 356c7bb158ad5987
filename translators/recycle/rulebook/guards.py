"""Step guards that read the program counter, for top-down provers.

Nearly every rule of a step starts with its guard ``(at_step K)``. A top-down prover without
indexing (the GameController's, and so HyperPlay) proves each guard by copying every
``at_step`` rule of the game (about 40 in Agram) for each step point it is asked about, and
again for every role's percepts (the state is set anew for each): most of its time on the
translations went there. Where control reaches ``K`` only from the resume point ``K`` itself,
``(<= (at_step K) (true (pc K)))`` being the only rule for ``K`` (a step that follows another in
one block), this pass writes the guard as ``(true (pc K))``, one lookup of the state's single
``pc`` fact. ``at_step`` keeps its rules (tools and people read the step being played). The
meaning of the rules is unchanged.

The prover also evaluates a body left to right, so the step guard of every rule is put first
(ground, it binds nothing and only cuts): ``(<= (npc s2i1) (at_step k1) part_trick ...)``.
"""

from __future__ import annotations

from ggp.gdl.rules import Literal, Rule
from ggp.gdl.terms import Constant, Function, Term
from translators.recycle.rulebook.steps import map_atoms

Group = tuple[str, list[Rule]]

STEP = "at_step"


def pc_guards(groups: list[Group]) -> list[Group]:
    """``groups`` with ``(at_step K)`` read as ``(true (pc K))`` where that is its only rule, and
    the step guards first in every body."""
    defs: dict[Term, list[Rule]] = {}
    for _, rs in groups:
        for r in rs:
            if r.head.name == STEP and isinstance(r.head, Function) and len(r.head.args) == 1:
                defs.setdefault(r.head.args[0], []).append(r)
    simple: dict[Function | Constant, Function | Constant] = {}
    if any(not isinstance(step, Constant) for step in defs):
        defs = {}  # a rule for any step point: no step has a single rule
    for step, rs in defs.items():
        if len(rs) != 1:
            continue
        pc = Function("true", (Function("pc", (step,)),))
        if rs[0].body == (pc,):
            simple[Function(STEP, (step,))] = pc

    def guarded(r: Rule) -> Rule:
        if r.head.name == STEP:
            return r
        body = list(map_atoms(r, lambda atom: simple.get(atom, atom)).body)
        first = [b for b in body if _is_guard(b)]
        body = first + [b for b in body if not _is_guard(b)]
        return r if tuple(body) == r.body else Rule(r.head, tuple(body), r.loc)

    return [(comment, [guarded(r) for r in rs]) for comment, rs in groups]


def _is_guard(lit: Literal) -> bool:
    """A step guard at a constant step point: ``(at_step K)`` or ``(true (pc K))``."""
    if not isinstance(lit, Function) or len(lit.args) != 1:
        return False
    if lit.name == "true":
        inner = lit.args[0]
        return isinstance(inner, Function) and inner.name == "pc" and len(inner.args) == 1 \
            and isinstance(inner.args[0], Constant)
    return lit.name == STEP and isinstance(lit.args[0], Constant)


__all__ = ["pc_guards"]
