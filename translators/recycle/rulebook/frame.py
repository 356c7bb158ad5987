"""The card frame axiom by step, for top-down provers.

The card fluents stay by one rule, ``(<= (next (at ?c ?l)) (true (at ?c ?l)) (not (moving
?c)))``, with ``(moving ?c)`` read off every move rule of the game (``(move I C FROM TO)`` and
its kin). clingo grounds that once; a top-down prover (the GameController's, and so HyperPlay)
proves ``(moving C)`` for every card in every state, and each proof tries every move rule of the
game, most of them only to find that their step is not the current one: in Agram about 1 100
rule copies a state, half the prover's time.

Every move rule runs in one step point (its body reads ``(at_step K)``, a constant). This pass
groups the step points that move cards the same way (the same move bodies once their
``at_step`` is left out: the 24 unrolled deal steps of Agram are one group) and defines
``moving`` per group: ``(frame_N_step)`` holds in the group's steps, ``(frame_N_moving C)``
says card C moves (the group's move bodies, under that guard), and ::

    (<= (moving ?c) frame_1_step (frame_1_moving ?c))
    ...
    (<= (moving ?c) frame_M_step (frame_M_moving ?c))

so a card's ``(moving C)`` tries one short rule per group, all but one stopped by their
(remembered) guard, and then only the moves of the current step. (A frame rule per group would
ask even less of the prover but multiplies the ground frame rules by the groups: 10 % of the
fast reasoner's speed on Hearts.) The names get the game's words from
:func:`~.names.word_names` like any ``PREFIX_N``. When a move rule has no constant step (or
``moving`` is read elsewhere than in the frame) the rules are left as they are. The meaning of
the rules is unchanged.
"""

from __future__ import annotations

from ggp.gdl.rules import Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle.rulebook.inline import substitute

Group = tuple[str, list[Rule]]

STEP = "at_step"


def frame_by_step(groups: list[Group]) -> list[Group]:
    """``groups`` with the card frame axiom written per group of step points (module doc)."""
    rules = [r for _, rs in groups for r in rs]
    frame = [r for r in rules if _is_frame(r)]
    moving = [r for r in rules if r.head.name == "moving"]
    if len(frame) != 1 or not moving:
        return groups
    relations: set[str] = set()
    for r in moving:
        lit = r.body[0] if len(r.body) == 1 else None
        if not (isinstance(r.head, Function) and isinstance(lit, Function) and len(lit.args) == 4
                and lit.args[1] == r.head.args[0] and isinstance(lit.args[1], Variable)):
            return groups
        relations.add(lit.name)
    readers = [r for r in rules if r not in frame and any(_reads(lit, "moving") for lit in r.body)]
    if readers:
        return groups
    # the move bodies of each step point, the step's guard left out, with canonical variables
    by_step: dict[Term, dict[tuple[Term, tuple[Literal, ...]], None]] = {}  # ordered sets
    for r in rules:
        if r.head.name not in relations or not isinstance(r.head, Function):
            continue
        guard = next((lit for lit in r.body if isinstance(lit, Function) and lit.name == STEP
                      and len(lit.args) == 1 and isinstance(lit.args[0], Constant)), None)
        if guard is None:
            return groups
        card = r.head.args[1]
        body = tuple(lit for lit in r.body if lit is not guard)
        mover = _canonical(card, body)
        by_step.setdefault(guard.args[0], {})[mover] = None
    kinds: dict[tuple[tuple[Term, tuple[Literal, ...]], ...], list[Term]] = {}
    for step, movers in by_step.items():
        kinds.setdefault(tuple(movers), []).append(step)
    C = Variable("c")
    new: list[Rule] = []
    for n, (kind, steps) in enumerate(kinds.items(), start=1):
        active = Constant(f"frame_{n}_step")
        moves = f"frame_{n}_moving"
        new.append(Rule(Function("moving", (C,)), (active, Function(moves, (C,)))))
        new += [Rule(active, (Function(STEP, (step,)),)) for step in steps]
        new += [Rule(Function(moves, (card,)), (active, *body)) for card, body in kind]
    out: list[Group] = []
    for comment, rs in groups:
        if frame[0] in rs:
            kept = [r for r in rs if r.head.name != "moving"]
            out.append((comment, kept + new))
        else:
            out.append((comment, [r for r in rs if r.head.name != "moving"]))
    return out


def _is_frame(r: Rule) -> bool:
    """``(<= (next (at ?c ?l)) (true (at ?c ?l)) (not (moving ?c)))``."""
    if not (isinstance(r.head, Function) and r.head.name == "next" and len(r.body) == 2):
        return False
    fluent = r.head.args[0]
    if not (isinstance(fluent, Function) and fluent.name == "at" and len(fluent.args) == 2):
        return False
    held, gone = r.body
    return (held == Function("true", (fluent,)) and isinstance(gone, Not)
            and gone.literal == Function("moving", (fluent.args[0],)))


def _reads(lit: Literal, name: str) -> bool:
    if isinstance(lit, Not):
        return _reads(lit.literal, name)
    if isinstance(lit, Or):
        return any(_reads(p, name) for p in lit.literals)
    return isinstance(lit, (Function, Constant)) and lit.name == name


def _canonical(card: Term, body: tuple[Literal, ...]) -> tuple[Term, tuple[Literal, ...]]:
    """The card and body with their variables renamed in order of appearance (``?m1``...)."""
    order: list[Variable] = list(dict.fromkeys(card.variables()))
    for lit in body:
        order += [v for v in _variables(lit) if v not in order]
    binding: dict[Variable, Term] = {v: Variable(f"m{i}") for i, v in enumerate(order, start=1)}
    return card.substitute(binding), tuple(substitute(lit, binding) for lit in body)


def _variables(lit: Literal) -> list[Variable]:
    if isinstance(lit, Not):
        return _variables(lit.literal)
    if isinstance(lit, Or):
        return [v for p in lit.literals for v in _variables(p)]
    if isinstance(lit, Distinct):
        return [*lit.left.variables(), *lit.right.variables()]
    return list(lit.variables())


__all__ = ["frame_by_step"]
