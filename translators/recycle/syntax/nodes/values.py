"""Integer and string expressions, storage, and point maps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Union

from translators.recycle.syntax.nodes.base import Node, Var

if TYPE_CHECKING:
    from translators.recycle.syntax.nodes.cards import CardExpr, CardsExpr
    from translators.recycle.syntax.nodes.collections import Collection
    from translators.recycle.syntax.nodes.owners import Owner

#: Integer operators; ``//`` divides rounding down, ``%`` is the remainder (0.5's ``mod``),
#: ``^`` raises to a power.
ArithOp = Literal["+", "-", "*", "//", "%", "^"]


@dataclass(frozen=True)
class IntLit(Node):
    """A non-negative integer literal."""

    value: int


@dataclass(frozen=True)
class Arith(Node):
    """``(OP LEFT RIGHT)`` for OP in ``+ - * // % ^`` (``(mod A B)`` reads as ``%``)."""

    op: ArithOp
    left: IntExpr
    right: IntExpr


@dataclass(frozen=True)
class Tri(Node):
    """``(tri N)``: the N-th triangular number."""

    arg: IntExpr


@dataclass(frozen=True)
class Fib(Node):
    """``(fib N)``: the N-th Fibonacci number."""

    arg: IntExpr


@dataclass(frozen=True)
class Random(Node):
    """``(random HIGH)`` (``low`` is None: 0 to HIGH) or ``(random LOW..HIGH)``, inclusive."""

    low: IntExpr | None
    high: IntExpr


@dataclass(frozen=True)
class Size(Node):
    """``(size COLLECTION)``: the number of elements."""

    collection: Collection


@dataclass(frozen=True)
class Sum(Node):
    """``(sum CARDS using POINTS)``: the cards' points added up."""

    cards: CardsExpr
    points: PointMap


@dataclass(frozen=True)
class Score(Node):
    """``(score CARD using POINTS)``: one card's points."""

    card: CardExpr
    points: PointMap


@dataclass(frozen=True)
class IntStorage(Node):
    """``(OWNER sto NAME)``: an integer kept by the game, a player or a team (starts at 0)."""

    owner: Owner
    name: StrExpr


@dataclass(frozen=True)
class IntAgg(Node):
    """``(all COLLECTION 'V (OWNER sto NAME))``: the sum of a storage over a collection (0.5)."""

    collection: Collection
    var: Var
    body: IntStorage


@dataclass(frozen=True)
class Name(Node):
    """A string literal, written in capitals: ``HEARTS``."""

    text: str


@dataclass(frozen=True)
class StrStorage(Node):
    """``(OWNER str NAME)``: a string kept by the game, a player or a team."""

    owner: Owner
    name: StrExpr


@dataclass(frozen=True)
class CardAtt(Node):
    """``(cardatt KEY CARD)``: the card's value for KEY (empty string when absent)."""

    key: StrExpr
    card: CardExpr


@dataclass(frozen=True)
class PointStorage(Node):
    """``(OWNER points NAME)``: a point map kept by the game, a player or a team."""

    owner: Owner
    name: StrExpr


IntExpr = Union[Var, IntLit, Arith, Tri, Fib, Random, Size, Sum, Score, IntStorage, IntAgg]
StrExpr = Union[Var, Name, StrStorage, CardAtt]
#: A point map: owned storage, or (RECYCLE 0.5) a variable set by ``put points``.
PointMap = Union[PointStorage, Var]
