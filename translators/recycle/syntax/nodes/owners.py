"""Owners of storage and card locations: the game, players and teams."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Union

from translators.recycle.syntax.nodes.base import Node, Var

if TYPE_CHECKING:
    from translators.recycle.syntax.nodes.cards import CardExpr
    from translators.recycle.syntax.nodes.values import IntExpr

#: A seat relative to the current turn of the innermost stage.
Relative = Literal["current", "previous", "next"]


@dataclass(frozen=True)
class GameOwner(Node):
    """``game``: the table, owner of shared storage and locations."""


@dataclass(frozen=True)
class RelativePlayer(Node):
    """``(current player)``, ``(previous player)`` or ``(next player)``."""

    which: Relative


@dataclass(frozen=True)
class PlayerAt(Node):
    """``(N player)``: the player in seat N (seats count from 0)."""

    index: IntExpr


@dataclass(frozen=True)
class OwnerOf(Node):
    """``(owner CARD)``: the player whose location holds the card."""

    card: CardExpr


@dataclass(frozen=True)
class RelativeTeam(Node):
    """``(current team)``, ``(previous team)`` or ``(next team)``."""

    which: Relative


@dataclass(frozen=True)
class TeamAt(Node):
    """``(N team)``: team number N (from 0)."""

    index: IntExpr


@dataclass(frozen=True)
class TeamOf(Node):
    """``(team PLAYER)``: the team the player is on."""

    player: PlayerExpr


#: A player: a variable bound to a player, or one of the player forms.
PlayerExpr = Union[Var, RelativePlayer, PlayerAt, OwnerOf]
#: A team (a variable bound to a team is a :class:`Var`).
TeamExpr = Union[RelativeTeam, TeamAt, TeamOf]
#: What can own storage and locations: the game, a player, a team, or a variable holding one.
Owner = Union[GameOwner, Var, RelativePlayer, PlayerAt, OwnerOf, RelativeTeam, TeamAt, TeamOf]
