"""A memo keyed by the identity of syntax nodes and environments.

Nodes and environments are compared by identity (hashing an environment walks every binding),
but Python gives a freed object's id to the next one: a memo keyed by ``id(env)`` of a
short-lived environment (``'P`` bound inside an ``all``) answers for another. This memo keeps
the objects of every key alive, so an id it holds is the object's own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class ByIdentity(Generic[V]):
    """Values by the identity of some objects (and an optional hashable part)."""

    def __init__(self) -> None:
        self._values: dict[tuple[Hashable, ...], tuple[tuple[object, ...], V]] = {}

    def get(self, objects: tuple[object, ...], make: Callable[[], V], extra: Hashable = None) -> V:
        """The value for ``objects`` (and ``extra``), made by ``make`` the first time."""
        key = (*map(id, objects), extra)
        if key not in self._values:
            self._values[key] = (objects, make())  # the objects kept: their ids stay theirs
        return self._values[key][1]


__all__ = ["ByIdentity"]
