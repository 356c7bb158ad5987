"""``repeat`` with a computed count, written as guarded copies of its action.

CardStock evaluates a repeat's count once, when the repeat starts, then runs the action that
many times (``GameIterator.ProcessRepeat``). A count the program text fixes (a literal, a
declared literal, a variable an enclosing ``all`` binds to a literal) is unrolled by the lowering
itself. Any other count (``(repeat (game sto N) ...)``, ``(repeat (size (game iloc STOCK)) ...)``)
is rewritten here, on the syntax tree, to::

    ((> COUNT 0)
     (do ((set (game sto REPEAT_L_C) COUNT)
          ((> (game sto REPEAT_L_C) 0) ACTION)
          ((> (game sto REPEAT_L_C) 1) ACTION)
          ...
          ((> (game sto REPEAT_L_C) K-1) ACTION))))

where ``L_C`` is the repeat's line and column: a storage cell of the game that freezes the count
(the action may change what the count reads), and ``K`` the largest value the count can take.
The outer condition changes nothing where the repeat runs, but a repeat of no pass makes no
action, and CardStock does not offer an option that makes none: as an option's first action,
the condition is the option's legality (not for a count that draws a ``random`` number, which a
second reading would draw again).
``K`` comes from the integer-range analysis of the rewritten game, so the translator rewrites,
analyses and rewrites again until ``K`` is stable (:func:`repeat_bounds`'s caller, see
``translate.analysed``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from translators.recycle.ir.nodes import Env, Fixed, deref
from translators.recycle.ir.rewrite import rewrite_flow
from translators.recycle.syntax.nodes import (
    Compare,
    Conditional,
    Declare,
    Do,
    Game,
    GameOwner,
    IntLit,
    IntStorage,
    IntUpdate,
    Let,
    Name,
    Node,
    Random,
    Repeat,
    SetPoints,
    SetStr,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: Where a computed repeat is in the source: its line and column.
Site = tuple[int, int]


def cell_name(site: Site) -> str:
    """The name of the game's storage cell that holds the count of the repeat at ``site``."""
    return f"REPEAT_{site[0]}_{site[1]}"


def computed_repeats(game: Game) -> list[Site]:
    """The repeats of the game's play (not its setup) whose count the text does not fix."""
    literal = literal_names(game)
    return sorted({(node.line, node.column) for node in _flow_nodes(game)
                   if isinstance(node, Repeat) and is_computed(node.count, literal)})


def expand_repeats(game: Game, bounds: Mapping[Site, int]) -> Game:
    """``game`` with every computed repeat rewritten to guarded copies of its action, as many as
    ``bounds`` gives for its site (1 for a site it does not give)."""
    literal = literal_names(game)
    return rewrite_flow(game, lambda node: isinstance(node, Repeat) and is_computed(node.count, literal),
                        lambda node: _guarded_copies(node, max(bounds.get((node.line, node.column), 1), 0)))


def unrolled_passes(node: Repeat, env: Env) -> int:
    """The copies of its action a repeat whose count the text fixes is written out as (a
    literal, or a variable bound to one): the count, or one where a pass does what all do."""
    count, _ = deref(node.count, env)
    binding = env.get(count.name) if isinstance(count, Var) else None
    if isinstance(binding, Fixed):
        times = int(binding.term.name)
    elif isinstance(count, IntLit):
        times = count.value
    else:
        raise TranslationError(node, "`repeat` needs a literal count")
    return min(times, 1) if built_once(node.action) else times


def built_once(action: Any) -> bool:
    """Whether a repeat of ``action`` does what one does: CardStock builds every pass's action
    before it runs one (``ProcessRepeat``), and a ``set``, ``inc`` or ``dec`` computes the value
    it writes as it is built (``IncAction``: the cell read then plus the step), so every pass
    writes the same value: ``(repeat 3 (inc X 1))`` adds 1."""
    return isinstance(action, (IntUpdate, SetStr, SetPoints))


def _guarded_copies(node: Repeat, times: int) -> Node:
    at = {"line": node.line, "column": node.column}
    if built_once(node.action):
        times = min(times, 1)
    cell = IntStorage(GameOwner(**at), Name(cell_name((node.line, node.column)), **at), **at)
    items: list[Any] = [IntUpdate("set", cell, node.count, **at)]
    for i in range(times):
        items.append(Conditional(Compare(">", cell, IntLit(i, **at), kind="int", **at), node.action, **at))
    copies = Do(tuple(items), **at)
    if any(isinstance(part, Random) for part in node.count.walk()):
        return copies  # read once: a second reading would draw another number
    # a repeat of no pass makes no action: as an option's first action, the option is not offered
    return Conditional(Compare(">", node.count, IntLit(0, **at), kind="int", **at), copies, **at)


def _flow_nodes(game: Game) -> list[Node]:
    return [node for item in game.flow for node in item.walk()]


def literal_names(game: Game) -> frozenset[str]:
    """The variables bound only by ``declare`` or ``let`` to a literal: every other variable
    (of a ``let`` of an expression, of a choice's ``any``, of an ``all``) may stand for a value
    computed in play."""
    literal: set[str] = set()
    other: set[str] = set()
    for node in list(game.declarations) + [n for n in game.walk() if not isinstance(n, Declare)]:
        var = getattr(node, "var", None)
        if isinstance(var, Var):
            value = getattr(node, "value", None) if isinstance(node, (Declare, Let)) else None
            (literal if isinstance(value, (IntLit, Name)) else other).add(var.name)
    return frozenset(literal - other)


def is_computed(count: Any, literal: frozenset[str]) -> bool:
    """Whether an integer the text gives (a count, a bound) may be computed in play (see
    :func:`literal_names`)."""
    return not isinstance(count, IntLit) and not (isinstance(count, Var) and count.name in literal)


__all__ = ["Site", "built_once", "cell_name", "computed_repeats", "expand_repeats", "is_computed", "literal_names", "unrolled_passes"]
