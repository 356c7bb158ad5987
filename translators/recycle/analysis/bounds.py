"""How often each effect of a program can run: the loop bounds the integer ranges and the pile
capacities are computed with (:func:`execution_bounds`)."""

from __future__ import annotations

from typing import Any

from translators.recycle.analysis.loops import stage_passes
from translators.recycle.ir import nodes as ir
from translators.recycle.symbols.model import CHOICE_LIMIT, STUCK_NODES, GameModel
from translators.recycle.syntax.nodes import Compare, IntLit


def _has_choice(items: list[ir.Item]) -> bool:
    """Whether a stage body makes choices (directly or in nested stages)."""
    for item in items:
        if isinstance(item, ir.ChoiceNode):
            return True
        if isinstance(item, ir.StageNode) and _has_choice(item.body):
            return True
    return False


def execution_bounds(program: ir.Program, model: GameModel, nested: bool = True) -> dict[int, int | None]:
    """For each effect, a (heuristic) bound on how many times it runs.

    A loop (a stage) whose passes are bounded by its control state (a betting round: see
    :mod:`.loops`) runs at most that many passes. Otherwise, a loop whose every pass makes ``k``
    choices runs at most ``500 // k + 1`` passes
    in all (CardStock's limit), and we also assume it runs at most as many passes as there are
    cards and players (a pass of a card game moves or plays a card); a loop that makes no choice
    is assumed to run one round of its cycle (one pass per player or team) each time it is
    entered, or until the largest constant its end compares with, whichever is more (at most
    half of ``STUCK_NODES``: a pass is two of the engine's nodes, its end check and an item, and
    the engine stops after ``STUCK_NODES`` without a choice), one whose nested stages make choices as many passes as there are cards and players
    (only when ``nested``: the translator falls back to one round when that bound makes some
    cell's range too large, e.g. Cribbage's hand loop around its scoring). Nested loops multiply.
    A game without any choice runs at most ``STUCK_NODES`` of the engine's nodes (then the
    engine ends it): no effect in it runs more often.
    """
    out: dict[int, int | None] = {}
    cards = len(model.cards)

    def visit(items: list[ir.Item], factor: int) -> None:
        for item in items:
            if isinstance(item, ir.Block):
                for effect in item.effects:
                    out[effect.id] = factor
            elif isinstance(item, ir.ChoiceNode):
                for option in item.options:
                    for effect in option.effects:
                        out[effect.id] = factor
            else:
                k = sum(1 for x in item.body if isinstance(x, ir.ChoiceNode))
                rounds = model.players if item.ref.kind == "player" else len(model.teams)
                exact = stage_passes(model, program, item) if k else None
                if exact is not None:
                    passes = exact
                elif k:
                    # a stage that ends when a count reaches a constant runs until it does
                    passes = min(CHOICE_LIMIT // k + 1, max(cards + rounds, _end_threshold(item.end) + 1))
                elif nested and _has_choice(item.body):
                    passes = cards + rounds
                elif not program.choices:
                    passes = STUCK_NODES
                else:  # a stage that ends when a count reaches a constant runs until it does
                    passes = min(STUCK_NODES // 2, max(rounds, _end_threshold(item.end)) + 1)
                visit(item.body, factor * passes)

    visit(program.body, 1)
    if not program.choices:
        return {effect: min(bound, STUCK_NODES) if bound is not None else None for effect, bound in out.items()}
    return out


def _end_threshold(end: Any) -> int:
    """The largest integer constant a stage's end condition compares with (0 when none)."""
    return max((side.value for node in end.walk() if isinstance(node, Compare)
                for side in (node.left, node.right) if isinstance(side, IntLit)), default=0)


__all__ = ["execution_bounds"]
