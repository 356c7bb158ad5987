"""``repeat`` with a computed count, written as guarded copies of its action.

CardStock evaluates a repeat's count once, when the repeat starts, then runs the action that
many times (``GameIterator.ProcessRepeat``). A count the program text fixes (a literal, a
declared literal, a variable an enclosing ``all`` binds to a literal) is unrolled by the lowering
itself. Any other count (``(repeat (game sto N) ...)``, ``(repeat (size (game iloc STOCK)) ...)``)
is rewritten here, on the syntax tree, to::

    (do ((set (game sto REPEAT_L_C) COUNT)
         ((> (game sto REPEAT_L_C) 0) ACTION)
         ((> (game sto REPEAT_L_C) 1) ACTION)
         ...
         ((> (game sto REPEAT_L_C) K-1) ACTION)))

where ``L_C`` is the repeat's line and column: a storage cell of the game that freezes the count
(the action may change what the count reads), and ``K`` the largest value the count can take.
``K`` comes from the integer-range analysis of the rewritten game, so the translator rewrites,
analyses and rewrites again until ``K`` is stable (:func:`repeat_bounds`'s caller, see
``translate.analysed``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from translators.recycle.ir.rewrite import rewrite_flow
from translators.recycle.syntax.nodes import (
    Compare,
    Conditional,
    Do,
    Game,
    GameOwner,
    IntLit,
    IntStorage,
    IntUpdate,
    Let,
    Name,
    Node,
    Repeat,
    Var,
)

#: Where a computed repeat is in the source: its line and column.
Site = tuple[int, int]


def cell_name(site: Site) -> str:
    """The name of the game's storage cell that holds the count of the repeat at ``site``."""
    return f"REPEAT_{site[0]}_{site[1]}"


def computed_repeats(game: Game) -> list[Site]:
    """The repeats of the game's play (not its setup) whose count the text does not fix."""
    computed = _let_bound(game)
    return sorted({(node.line, node.column) for node in _flow_nodes(game)
                   if isinstance(node, Repeat) and _is_computed(node.count, computed)})


def expand_repeats(game: Game, bounds: Mapping[Site, int]) -> Game:
    """``game`` with every computed repeat rewritten to guarded copies of its action, as many as
    ``bounds`` gives for its site (1 for a site it does not give)."""
    computed = _let_bound(game)

    return rewrite_flow(game, lambda node: isinstance(node, Repeat) and _is_computed(node.count, computed),
                        lambda node: _guarded_copies(node, max(bounds.get((node.line, node.column), 1), 0)))


def _guarded_copies(node: Repeat, times: int) -> Do:
    at = {"line": node.line, "column": node.column}
    cell = IntStorage(GameOwner(**at), Name(cell_name((node.line, node.column)), **at), **at)
    items: list[Any] = [IntUpdate("set", cell, node.count, **at)]
    for i in range(times):
        items.append(Conditional(Compare(">", cell, IntLit(i, **at), kind="int", **at), node.action, **at))
    return Do(tuple(items), **at)


def _flow_nodes(game: Game) -> list[Node]:
    return [node for item in game.flow for node in item.walk()]


def _let_bound(game: Game) -> frozenset[str]:
    """The variables a ``let`` or ``declare`` binds to something other than a literal."""
    bound = [(node.var.name, node.value) for node in game.walk() if isinstance(node, Let)]
    bound += [(d.var.name, d.value) for d in game.declarations]
    return frozenset(name for name, value in bound if not isinstance(value, (IntLit, Name)))


def _is_computed(count: Any, let_bound: frozenset[str]) -> bool:
    if isinstance(count, IntLit):
        return False
    if isinstance(count, Var):
        return count.name in let_bound
    return True


__all__ = ["Site", "cell_name", "computed_repeats", "expand_repeats"]
