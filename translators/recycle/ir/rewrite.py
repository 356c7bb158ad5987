"""Rewriting a syntax tree: a node with its children mapped, unchanged parts shared."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from translators.recycle.syntax.nodes import Game, Node

#: Fields of a node that are not parts of the program (a game's ``source`` file name and
#: ``warnings``; a move's ``source`` is a part).
NOT_CHILDREN = frozenset({"line", "column", "warnings"})


def map_children(node: Node, child: Callable[[Any], Any]) -> Node:
    """``node`` with ``child`` applied to each of its parts (each item of a tuple of parts); the
    node itself when nothing changes."""
    changes = {}
    for fld in fields(node):
        if fld.name in NOT_CHILDREN:
            continue
        value = getattr(node, fld.name)
        new = map_part(value, child)
        if new is not value:
            changes[fld.name] = new
    return replace(node, **changes) if changes else node


def map_part(value: Any, child: Callable[[Any], Any]) -> Any:
    """``child`` of a part, or of each item of a tuple of parts (the tuple itself when no item
    changes); other values as they are."""
    if isinstance(value, tuple):
        items = tuple(map_part(item, child) for item in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    return child(value) if isinstance(value, Node) else value


def rewrite_flow(game: Game, when: Callable[[Node], bool], make: Callable[[Any], Node]) -> Game:
    """``game`` with every node of its play for which ``when`` holds replaced by ``make(node)``
    (its children rewritten first); ``game`` itself when nothing changes."""

    def rewrite(node: Node) -> Node:
        node = map_children(node, rewrite)
        return make(node) if when(node) else node

    flow = map_part(game.flow, rewrite)
    return game if flow is game.flow else replace(game, flow=flow)


__all__ = ["NOT_CHILDREN", "map_children", "map_part", "rewrite_flow"]
