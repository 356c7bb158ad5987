"""Conditions (booleans), and the values ``declare`` and ``let`` can name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from translators.recycle.syntax.nodes.base import Node, Var
from translators.recycle.syntax.nodes.cards import ActualCard, CardAt, ExtremeCard
from translators.recycle.syntax.nodes.collections import Collection
from translators.recycle.syntax.nodes.owners import (
    OwnerOf,
    PlayerAt,
    RelativePlayer,
    RelativeTeam,
    TeamAt,
    TeamOf,
)
from translators.recycle.syntax.nodes.values import (
    Arith,
    CardAtt,
    Fib,
    IntAgg,
    IntLit,
    IntStorage,
    Name,
    Random,
    Score,
    Size,
    StrStorage,
    Sum,
    Tri,
)

CompareOp = Literal["==", "!=", "<", ">", "<=", ">="]
#: What a comparison compares; ``unknown`` when both sides are variables of unknown kind.
CompareKind = Literal["int", "str", "card", "player", "team", "unknown"]


@dataclass(frozen=True)
class And(Node):
    """``(and B1 B2 ...)``: two or more conditions all hold."""

    args: tuple[Boolean, ...]


@dataclass(frozen=True)
class Or(Node):
    """``(or B1 B2 ...)``: at least one of two or more conditions holds."""

    args: tuple[Boolean, ...]


@dataclass(frozen=True)
class Not(Node):
    """``(not B)``."""

    arg: Boolean


@dataclass(frozen=True)
class Compare(Node):
    """``(OP LEFT RIGHT)``: integers compare with any operator; strings, cards, players and
    teams with ``==`` and ``!=`` only. ``kind`` says which of these is compared."""

    op: CompareOp
    left: Operand
    right: Operand
    kind: CompareKind = "unknown"


@dataclass(frozen=True)
class BoolAgg(Node):
    """``(all COLLECTION 'V B)`` or ``(any ...)``: B for every element, or for some element."""

    quantifier: Literal["all", "any"]
    collection: Collection
    var: Var
    condition: Boolean


Boolean = Union[And, Or, Not, Compare, BoolAgg]

#: What a comparison can compare.
Operand = Union[
    Var, IntLit, Arith, Tri, Fib, Random, Size, Sum, Score, IntStorage, IntAgg,
    Name, StrStorage, CardAtt, CardAt, ExtremeCard, ActualCard,
    RelativePlayer, PlayerAt, OwnerOf, RelativeTeam, TeamAt, TeamOf,
]

#: What ``declare`` and ``let`` can name: an integer, a string, a condition or a collection.
Value = Union[
    Var, IntLit, Arith, Tri, Fib, Random, Size, Sum, Score, IntStorage, IntAgg,
    Name, StrStorage, CardAtt,
    And, Or, Not, Compare, BoolAgg,
    Collection,
]
