"""Integer cells the game writes and never reads.

A counter no condition, value or score reads (a ``TURNS`` kept by habit, a cell set by a typo)
changes nothing in play; the rules keep no value for it, so that it has no range to overflow:
its range is an estimate where loops are involved, and a game whose counter went past it ended
``(failed overflow)`` where the engine played on (an Eights whose turn count was written to
another name, found by the differential fuzz). Every player sees every cell change in the
engine; such a cell's changes are not seen here, being no part of the game.
"""

from __future__ import annotations

from translators.recycle.ir.elements import storage_family
from translators.recycle.ir.nodes import Env
from translators.recycle.syntax.nodes import Game, IntStorage, IntUpdate, Node
from translators.recycle.translation_error import TranslationError


def unread_families(game: Game) -> frozenset[tuple[str, str]]:
    """The (owner kind, NAME) families of the integer cells ``game`` writes by a literal name
    and reads nowhere (a cell read by a name computed in play may be any: then none)."""
    written: set[tuple[str, str]] = set()
    read: set[tuple[str, str]] = set()
    stack: list[Node] = [game]
    while stack:  # by structure, not identity: a rewrite may use one cell node to write and read
        node = stack.pop()
        if isinstance(node, IntUpdate):
            family = _family(node.storage)
            if family is not None:
                written.add(family)
            stack.append(node.value)
            stack.extend(node.storage.subnodes())  # its owner, its name
            continue
        if isinstance(node, IntStorage):
            family = _family(node)
            if family is None:
                return frozenset()
            read.add(family)
        stack.extend(node.subnodes())
    return frozenset(written - read)


def _family(node: IntStorage) -> tuple[str, str] | None:
    """A cell's family by its literal name (None for a name computed in play)."""
    try:
        return storage_family(node, Env())
    except TranslationError:
        return None


__all__ = ["unread_families"]
