"""``repeat all`` moving from a collection the engine builds anew for each move: one card moves.

CardStock builds the moves of ``(repeat all (move (top COLL) TO))`` before it runs any of them
(``GameIterator.ProcessRepeat``: as many as COLL holds cards), each from the syntax again
(``ProcessMove``). Where COLL is a location, each move reads the location's top when it runs, so
every card goes. Where COLL is a collection computed from locations and written in the move (a
``filter``, ``union``, ``intersect``, ``disjunction``, ``sort``, the top or bottom N cards of a
location), each build makes a collection of its own holding the same cards, and every move takes
the same card: the first moves it, the others move it from where it now lies to that same place,
which changes nothing. So does a variable a ``let`` (or ``declare``) binds to a ``filter`` of cards: the engine
keeps the filter's cards as a list and makes a new collection of them at each read
(``ProcessCardStorageVar``; Go Fish's ``(repeat all (move (top 'THEIRRANK) ...))`` passes one
card). Such a ``repeat all`` is rewritten here to the single move it is. A variable bound to a
location, or to a group by ``all`` over a partition, is one collection shared by the moves, each
taking its top card when it runs: every card goes, in the engine and here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from translators.recycle.ir.rewrite import map_children, map_part
from translators.recycle.syntax.nodes import (
    CardAt,
    CardLocation,
    Filter,
    Game,
    Let,
    Move,
    Node,
    RepeatAll,
    Var,
)


def _resolved(value: Any, lets: Mapping[str, Any]) -> Any:
    """What a ``let`` value stands for (through variables bound by enclosing ``let``)."""
    return lets.get(value.name) if isinstance(value, Var) else value


def _single_move(node: Node, lets: Mapping[str, Any]) -> Move | None:
    """The move of ``node`` when it is a ``repeat all`` move whose collection the engine builds
    anew for each move."""
    if not isinstance(node, RepeatAll) or not isinstance(node.action, Move):
        return None
    source = node.action.source
    if not isinstance(source, CardAt):
        return None
    if isinstance(source.cards, Var):
        return node.action if isinstance(lets.get(source.cards.name), Filter) else None
    return None if isinstance(source.cards, CardLocation) else node.action


def _rewrite(node: Node, lets: Mapping[str, Any]) -> Node:
    if isinstance(node, Let):
        inner, body = {**lets, node.var.name: _resolved(node.value, lets)}, node.body
        return map_children(node, lambda child: _rewrite(child, inner if child is body else lets))
    var = getattr(node, "var", None)
    if isinstance(var, Var) and var.name in lets:  # an aggregate's own variable hides the let's
        lets = {k: v for k, v in lets.items() if k != var.name}
    node = map_children(node, lambda child: _rewrite(child, lets))
    return _single_move(node, lets) or node


def moves_built_once(game: Game) -> Game:
    """``game`` with each ``repeat all`` move out of a collection built anew for each move made
    its one move."""
    declared: dict[str, Any] = {}
    for declare in game.declarations:
        declared[declare.var.name] = _resolved(declare.value, declared)
    flow = map_part(game.flow, lambda node: _rewrite(node, declared))
    return game if flow is game.flow else replace(game, flow=flow)


__all__ = ["moves_built_once"]
