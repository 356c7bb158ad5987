"""Players: the :class:`~ggp.players.base.Player` interface, the registry and built-in players."""

from __future__ import annotations

from ggp.players.base import MatchInfo, Player, StartView, TurnView
from ggp.players.deadline import Deadline
from ggp.players.registry import (
    available_players,
    create_player,
    player_class,
    register,
)

__all__ = [
    "Deadline", "MatchInfo", "Player", "StartView", "TurnView", "available_players", "create_player",
    "player_class", "register",
]
