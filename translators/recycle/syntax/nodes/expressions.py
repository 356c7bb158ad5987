"""Expressions: owners, integers, strings and point maps, cards and card collections, other
collections, and conditions. One module, because they nest in each other every way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from translators.recycle.syntax.nodes.base import Node, Var

# -------- Owners of storage and card locations: the game, players and teams


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


# -------- Integer and string expressions, storage, and point maps


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


# -------- Cards, card collections, and collections of card collections ("groups")


#: An end of a collection: ``top`` is the last element, ``bottom`` the first.
End = Literal["top", "bottom"]
#: Where in a collection: an end, or an index from the bottom (0).
Position = Union[End, "IntExpr"]
#: Card location visibility: ``vloc`` everyone, ``iloc`` the owner only, ``hloc`` nobody,
#: ``oloc`` others (not the owner), ``mem`` copies of cards remembered, seen by everyone.
Visibility = Literal["vloc", "iloc", "hloc", "oloc", "mem"]


# ---------------------------------------------------------------- cards

@dataclass(frozen=True)
class CardAt(Node):
    """``(top CARDS)``, ``(bottom CARDS)`` or ``(N CARDS)``: one card of a collection."""

    position: Position
    cards: CardsExpr


@dataclass(frozen=True)
class ExtremeCard(Node):
    """``(max CARDS using POINTS)`` or ``(min ...)``: a highest or lowest scoring card."""

    which: Literal["max", "min"]
    cards: CardsExpr
    points: PointMap


@dataclass(frozen=True)
class ActualCard(Node):
    """``(actual CARD)``: the card itself in its real location (not a virtual copy)."""

    card: CardExpr


# ---------------------------------------------------------------- card collections

@dataclass(frozen=True)
class NewName(Node):
    """``new`` in place of a location name."""


@dataclass(frozen=True)
class CardLocation(Node):
    """``(OWNER VISIBILITY NAME)``: a named card location, e.g. ``(game iloc STOCK)``."""

    owner: Owner
    visibility: Visibility
    name: StrExpr | IntExpr | NewName


@dataclass(frozen=True)
class SetOp(Node):
    """``(union ...)``, ``(intersect ...)`` or ``(disjunction ...)`` of card collections.

    ``parts`` is either the collections, or one :class:`CardsAgg` whose groups are combined.
    """

    op: Literal["union", "intersect", "disjunction"]
    parts: tuple[CardsExpr, ...] | CardsAgg


@dataclass(frozen=True)
class Sort(Node):
    """``(sort CARDS using POINTS)``: the cards ordered by points."""

    cards: CardsExpr
    points: PointMap


@dataclass(frozen=True)
class Filter(Node):
    """``(filter COLLECTION 'V CONDITION)``: the elements for which the condition holds.

    The result is a collection of the same kind as ``collection`` (``var.kind`` is the
    element kind).
    """

    collection: Collection
    var: Var
    condition: Boolean


@dataclass(frozen=True)
class CollectionAt(Node):
    """``(top GROUPS)``, ``(bottom GROUPS)`` or ``(N GROUPS)``: one collection of a group."""

    position: Position
    groups: GroupsExpr


@dataclass(frozen=True)
class Slice(Node):
    """``(top N CARDS)`` or ``(bottom N CARDS)``: the N cards at one end."""

    end: End
    count: IntExpr
    cards: CardsExpr


@dataclass(frozen=True)
class Run(Node):
    """``(run top N CARDS using POINTS)``: the longest run (of at least N) at one end."""

    end: End
    length: IntExpr
    cards: CardsExpr
    points: PointMap


# ---------------------------------------------------------------- groups

@dataclass(frozen=True)
class Tuples(Node):
    """``(tuples N CARDS using POINTS)``: the sets of N cards of equal points."""

    size: IntExpr
    cards: CardsExpr
    points: PointMap


@dataclass(frozen=True)
class Partition(Node):
    """``(partition KEY CARDS...)``: the cards split by their value for KEY."""

    key: StrExpr
    parts: tuple[CardsExpr, ...] | CardsAgg


@dataclass(frozen=True)
class Subsets(Node):
    """``(subsets CARDS)``: every subset of the cards."""

    cards: CardsExpr


@dataclass(frozen=True)
class Runs(Node):
    """``(runs largest N CARDS using POINTS)`` or ``(runs all ...)``: runs of length N or more."""

    mode: Literal["largest", "all"]
    length: IntExpr
    cards: CardsExpr
    points: PointMap


@dataclass(frozen=True)
class CardsAgg(Node):
    """``(all COLLECTION 'V CARDS)``: one card collection per element."""

    collection: Collection
    var: Var
    body: CardsExpr


CardExpr = Union[Var, CardAt, ExtremeCard, ActualCard]
CardsExpr = Union[Var, CardLocation, SetOp, Sort, Filter, CollectionAt, Slice, Run]
GroupsExpr = Union[Tuples, Partition, Subsets, Runs, CardsAgg]


# -------- Collections other than cards: names, numbers, players and teams; and every collection


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


# -------- Conditions (booleans), and the values ``declare`` and ``let`` can name


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
