"""A translated game: the rules, their KIF text and what is known about them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ggp.errors import Problem
from ggp.gdl.rules import GameDescription
from translators.recycle.symbols.model import GameModel


@dataclass
class Translation:
    """A translated game: the rules, their KIF text and what is known about them."""

    description: GameDescription
    kif: str
    model: GameModel
    steps: dict[str, str]
    lines: dict[str, int]
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    #: Per named move (``bet``, ``discard``; not ``(choose K ...)``), its option's place in its choice.
    option_places: dict[str, int] = field(default_factory=dict)

    @property
    def has_chance(self) -> bool:
        """Whether the game has a ``random`` role."""
        return self.description.has_random


__all__ = ["Translation"]
