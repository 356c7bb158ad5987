"""Collections other than cards: names, numbers, players and teams; and every collection."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Union

from translators.recycle.syntax.nodes.base import Node, Var
from translators.recycle.syntax.nodes.cards import (
    CardLocation,
    CardsAgg,
    CollectionAt,
    Filter,
    Partition,
    Run,
    Runs,
    SetOp,
    Slice,
    Sort,
    Subsets,
    Tuples,
)
from translators.recycle.syntax.nodes.owners import RelativeTeam, TeamAt, TeamOf

if TYPE_CHECKING:
    from translators.recycle.syntax.nodes.values import IntExpr


@dataclass(frozen=True)
class NameList(Node):
    """``(A, B, C)``: a collection of string literals."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class AllPlayers(Node):
    """``player``: every player, in seat order."""


@dataclass(frozen=True)
class AllTeams(Node):
    """``team``: every team."""


@dataclass(frozen=True)
class Others(Node):
    """``(other player)`` or ``(other team)``: all but the current one."""

    kind: Literal["player", "team"]


@dataclass(frozen=True)
class Range(Node):
    """``(range LOW..HIGH)``: the integers from LOW to HIGH (inclusive, as the engine does)."""

    low: IntExpr
    high: IntExpr


#: Anything ``all``, ``any``, ``filter`` and ``size`` can go over. A team stands for its players.
Collection = Union[
    Var, CardLocation, SetOp, Sort, Filter, CollectionAt, Slice, Run,
    Tuples, Partition, Subsets, Runs, CardsAgg,
    NameList, AllPlayers, AllTeams, Others, Range, RelativeTeam, TeamAt, TeamOf,
]
