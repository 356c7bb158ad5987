"""``(range A..B)`` with bounds computed in play, written as a filter of a range of literals.

CardStock reads a range's bounds when it reads the range and goes over every integer between
them (``GameIterator.ProcessIntRange``): a bet of 1 up to the chips a player holds is
``(any (range 1..((current player) sto CHIPS)) 'B ...)`` in a choice. GDL-II needs the moves a
choice can offer known before play, so such a range is rewritten here, on the syntax tree, to::

    (filter (range LO..HI) 'RANGE_L_C (and (>= 'RANGE_L_C A) (<= 'RANGE_L_C B)))

where ``L_C`` is the range's line and column and ``LO..HI`` its *span*: every integer the bounds
can reach, from the integer-range analysis of the rewritten game. As for computed repeats, the
translator rewrites, analyses and rewrites again until the spans are stable
(``analysis/spans.py``, ``translate._lowered``). The filter is read where the range was: in a
choice its condition is the option's legality, in a condition or a count it is evaluated in
the state it is read in, as the engine reads the bounds; in the scoring, in the final state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast

from translators.recycle.ir.repeats import Site, is_computed, literal_names
from translators.recycle.ir.rewrite import map_children, rewrite_flow
from translators.recycle.syntax.nodes import (
    ActionAgg,
    And,
    Compare,
    Do,
    Filter,
    Game,
    GameOwner,
    IntExpr,
    IntLit,
    IntStorage,
    IntUpdate,
    Name,
    Node,
    Range,
    Scoring,
    Var,
)

#: The integers a range computed in play is made of: its least and largest.
Span = tuple[int, int]


def var_name(site: Site) -> str:
    """The name of the variable of the filter that stands for the range at ``site``."""
    return f"RANGE_{site[0]}_{site[1]}"


def computed_ranges(game: Game) -> dict[Site, Range]:
    """The ranges of the game's play and scoring whose bounds the text does not fix, by site."""
    literal = literal_names(game)
    return {(node.line, node.column): node for item in (*game.flow, game.scoring) for node in item.walk()
            if isinstance(node, Range) and _computed(node, literal)}


def first_span(node: Range) -> Span:
    """A span to lower a range with before any analysis: its literal bounds, else 0."""
    low = node.low.value if isinstance(node.low, IntLit) else 0
    high = node.high.value if isinstance(node.high, IntLit) else low
    return low, max(low, high)


def expand_ranges(game: Game, spans: Mapping[Site, Span]) -> Game:
    """``game`` with every range computed in play rewritten to a filter of the range of its span
    (:func:`first_span` for a site ``spans`` does not give)."""
    literal = literal_names(game)

    def rewrite(node: Any) -> Node:
        if isinstance(node, Range):
            return _filtered(node, spans.get((node.line, node.column), first_span(node)))
        return _frozen(node, literal)

    def when(node: Node) -> bool:
        return (isinstance(node, Range) and _computed(node, literal)) or (
            isinstance(node, ActionAgg) and node.quantifier == "all" and _over_span(node.collection))

    def rewrite_all(node: Node) -> Node:
        node = map_children(node, rewrite_all)
        return rewrite(node) if when(node) else node

    game = rewrite_flow(game, when, rewrite)
    scoring = rewrite_all(game.scoring)  # read in the final state, with each player as the current one
    return game if scoring == game.scoring else replace(game, scoring=cast(Scoring, scoring))


def _filtered(node: Range, span: Span) -> Filter:
    at = {"line": node.line, "column": node.column}
    var = Var(var_name((node.line, node.column)), kind="int", **at)
    within = And((Compare(">=", var, node.low, kind="int", **at), Compare("<=", var, node.high, kind="int", **at)), **at)
    return Filter(Range(IntLit(span[0], **at), IntLit(span[1], **at), **at), var, within, **at)


def _over_span(node: Any) -> bool:
    """Whether ``node`` is the filter a range computed in play was rewritten to."""
    return (isinstance(node, Filter) and isinstance(node.collection, Range)
            and node.var.name == var_name((node.line, node.column)))


def _frozen(node: ActionAgg, literal: frozenset[str]) -> Do:
    """An ``all`` action over a range computed in play: its bounds read once, when it starts
    (``GameIterator`` evaluates the collection, then runs the body for each integer), into
    cells of the game ``RANGE_L_C_LOW`` and ``_HIGH``: the body may change what they read."""
    at = {"line": node.line, "column": node.column}
    span = node.collection
    assert isinstance(span, Filter) and isinstance(span.condition, And)
    items: list[Any] = []
    tests = []
    for test, end in zip(span.condition.args, ("LOW", "HIGH")):
        assert isinstance(test, Compare)
        if is_computed(test.right, literal):
            cell = IntStorage(GameOwner(**at), Name(f"{span.var.name}_{end}", **at), **at)
            items.append(IntUpdate("set", cell, cast(IntExpr, test.right), **at))
            test = replace(test, right=cell)
        tests.append(test)
    items.append(replace(node, collection=replace(span, condition=replace(span.condition, args=tuple(tests)))))
    return Do(tuple(items), **at)


def _computed(node: Range, literal: frozenset[str]) -> bool:
    return is_computed(node.low, literal) or is_computed(node.high, literal)


__all__ = ["Span", "computed_ranges", "expand_ranges", "first_span", "var_name"]
