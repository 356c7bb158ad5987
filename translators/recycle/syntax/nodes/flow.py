"""Game flow: stages, choices, sequences, conditions and ``let``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Union

from translators.recycle.syntax.nodes.actions import (
    ActionAgg,
    CreateDeck,
    CreateTeams,
    Cycle,
    FaroShuffle,
    Forget,
    IntUpdate,
    Move,
    Remember,
    Repeat,
    RepeatAll,
    SetPoints,
    SetStr,
    Shuffle,
    TurnPass,
)
from translators.recycle.syntax.nodes.base import Node, Var

if TYPE_CHECKING:
    from translators.recycle.syntax.nodes.logic import Boolean, Value


@dataclass(frozen=True)
class Do(Node):
    """``(do (ITEM...))``: the items in order."""

    items: tuple[Item, ...]


@dataclass(frozen=True)
class Choice(Node):
    """``(choice (ITEM...))``: the current player picks one enabled option."""

    items: tuple[Item, ...]


@dataclass(frozen=True)
class Conditional(Node):
    """``(CONDITION BODY)``: BODY only when the condition holds."""

    condition: Boolean
    body: Body


@dataclass(frozen=True)
class Let(Node):
    """``(let VALUE 'V BODY)``: names a value for BODY."""

    value: Value
    var: Var
    body: Choice | Item


@dataclass(frozen=True)
class Stage(Node):
    """``(stage player|team (end CONDITION) ITEM...)``: turns over a cycle of players or
    teams, the body once per turn, until the end condition holds (checked before each turn)."""

    kind: Literal["player", "team"]
    end: Boolean
    body: tuple[FlowItem, ...]


#: What a ``do``/``choice`` item, a condition or ``let`` can hold.
Body = Union[
    Do, Let, Move, Remember, Forget, Shuffle, FaroShuffle, IntUpdate, SetStr, SetPoints, Cycle,
    TurnPass, Repeat, RepeatAll, CreateTeams, CreateDeck, ActionAgg,
]
Item = Union[Conditional, Body]
#: What a game or stage is made of.
FlowItem = Union[Stage, Choice, Do, ActionAgg, Let]
