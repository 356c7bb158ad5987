"""The simplest players: ``random`` (uniform over legal moves) and ``legal`` (the first one)."""

from __future__ import annotations

from ggp.gdl.terms import Term
from ggp.players.base import Player, TurnView
from ggp.players.registry import register


@register
class RandomPlayer(Player):
    """Plays a legal move chosen uniformly with its ``rng``."""

    name = "random"
    summary = "plays a uniformly random legal move"
    particles = 8

    def play(self, view: TurnView) -> Term:
        """A uniformly random legal move."""
        return view.legal_moves[self.rng.randrange(len(view.legal_moves))]


@register
class LegalPlayer(Player):
    """Plays the first legal move (in term order), as the Dresden manager's substitute does."""

    name = "legal"
    summary = "plays the first legal move in term order"
    particles = 8

    def play(self, view: TurnView) -> Term:
        """The first legal move."""
        return view.legal_moves[0]
