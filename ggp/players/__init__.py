"""Players: the :class:`~ggp.players.base.Player` interface, the registry and built-in players.

Write a player by subclassing :class:`Player` (see ``docs/players.md``); the session hands it a
:class:`TurnView` each turn, with the role's :class:`~ggp.belief.Belief` and its weighted
particles.
"""

from __future__ import annotations

from ggp.deadline import Deadline
from ggp.players.base import MatchInfo, Player, StartView, TurnView
from ggp.players.registry import (
    available_players,
    create_player,
    player_class,
    register,
)

__all__ = [
    "Deadline", "MatchInfo", "Player", "StartView", "TurnView", "available_players",
    "create_player", "player_class", "register",
]
