"""The root of the RECYCLE syntax tree: :class:`Node`, variables and value kinds.

Every node is an immutable dataclass that remembers where it starts in the source (1-based
``line`` and ``column``); positions take no part in equality, so a tree re-read from printed
text equals the original.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Literal

#: What a value is, as far as the program text tells. ``cards`` is a card collection,
#: ``groups`` a collection of card collections (``tuples``, ``partition``...), ``strs``,
#: ``ints``, ``players`` and ``teams`` collections of those; ``points`` a point map.
Kind = Literal[
    "int", "str", "bool", "card", "cards", "groups", "player", "team",
    "strs", "ints", "players", "teams", "points", "unknown",
]

#: The kind of the elements of a collection of each kind (a team is a collection of players).
ELEMENT_KIND: dict[Kind, Kind] = {
    "cards": "card",
    "groups": "cards",
    "strs": "str",
    "ints": "int",
    "players": "player",
    "teams": "team",
    "team": "player",
}


@dataclass(frozen=True)
class Node:
    """A node of the syntax tree; ``line`` and ``column`` locate its first character."""

    line: int = field(default=0, compare=False, repr=False, kw_only=True)
    column: int = field(default=0, compare=False, repr=False, kw_only=True)

    def subnodes(self) -> Iterator[Node]:
        """The nodes directly below this one, in field order."""
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, tuple):
                for item in value:
                    if isinstance(item, Node):
                        yield item

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first, in source order."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.subnodes())))


@dataclass(frozen=True)
class Var(Node):
    """A variable ``'NAME`` (``name`` is without the quote).

    ``kind`` is what the variable holds, found from where it is bound (``declare``, ``let``,
    ``all``/``any``, ``filter``, ``put points``); ``unknown`` when no binding is in scope.
    """

    name: str
    kind: Kind = "unknown"
