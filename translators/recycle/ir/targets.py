"""Where an action puts a card: the location of a ``(top LOC)``, ``(bottom LOC)`` or ``(N LOC)``
target, read through ``let`` aliases."""

from __future__ import annotations

from typing import Any

from translators.recycle.ir.nodes import Env, deref
from translators.recycle.syntax.nodes import CardAt, CardLocation, Node
from translators.recycle.translation_error import TranslationError


def place_of(target: Any, env: Env) -> tuple[Node, str]:
    """The location of a move's target ``(top LOC)``, ``(bottom LOC)`` or ``(N LOC)``, and
    which of these it is (``top``, ``bottom``, ``index``)."""
    real, _ = deref(target, env)
    if isinstance(real, CardAt) and real.position in ("top", "bottom"):
        return location(real.cards, env), str(real.position)
    if isinstance(real, CardAt):
        return location(real.cards, env), "index"
    raise TranslationError(target, "a card is moved to `(top LOCATION)`, `(bottom LOCATION)` or `(N LOCATION)`")


def end_of(target: Any, env: Env) -> tuple[Node, str]:
    """The location of a ``(top LOC)``, ``(bottom LOC)`` or ``(N LOC)`` target of ``remember``,
    and which (``top``, ``bottom``, ``index``)."""
    if not isinstance(target, CardAt):
        raise TranslationError(target, "a card is remembered at `(top|bottom LOCATION)` or `(N LOCATION)`")
    return location(target.cards, env), target.position if isinstance(target.position, str) else "index"


def location(node: Node, env: Env) -> Node:
    """A card location expression (through aliases)."""
    real, _ = deref(node, env)
    if not isinstance(real, CardLocation):
        raise TranslationError(node, "a card location `(OWNER iloc|vloc|hloc|mem NAME)` is expected here")
    return node


__all__ = ["end_of", "location", "place_of"]
