"""A whole RECYCLE game: declarations, setup, flow and scoring."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ggp.errors import Problem
from translators.recycle.syntax.nodes.base import Node, Var
from translators.recycle.syntax.nodes.expressions import IntExpr, IntLit, Value
from translators.recycle.syntax.nodes.statements import (
    CreateDeck,
    CreateTeams,
    FlowItem,
    Repeat,
)


@dataclass(frozen=True)
class Declare(Node):
    """``(declare VALUE 'V)``: a constant for the whole game."""

    value: Value
    var: Var


@dataclass(frozen=True)
class CreatePlayers(Node):
    """``(create players N)``."""

    count: IntExpr


@dataclass(frozen=True)
class Setup(Node):
    """``(setup (create players N) [(create teams ...)] (create deck ...)...)``.

    ``decks`` holds the ``create deck`` steps, or ``repeat`` steps around them.
    """

    players: CreatePlayers
    teams: CreateTeams | None
    decks: tuple[CreateDeck | Repeat, ...]


@dataclass(frozen=True)
class Scoring(Node):
    """``(scoring max|min N)``: N, evaluated with each player as ``(current player)``, ranks
    the players (highest first for ``max``, lowest for ``min``)."""

    order: Literal["min", "max"]
    value: IntExpr


@dataclass(frozen=True)
class Game(Node):
    """``(game ...)``. ``source`` names the file; ``warnings`` are those found reading it
    (such as text after the game, which the engine ignores)."""

    declarations: tuple[Declare, ...]
    setup: Setup
    flow: tuple[FlowItem, ...]
    scoring: Scoring
    source: str | None = field(default=None, compare=False)
    warnings: tuple[Problem, ...] = field(default=(), compare=False)

    def player_count(self) -> int | None:
        """The number of players, when it is a literal or a declared literal."""
        count: object = self.setup.players.count
        if isinstance(count, Var):
            values = [d.value for d in self.declarations if d.var.name == count.name]
            count = values[-1] if values else None
        return count.value if isinstance(count, IntLit) else None
