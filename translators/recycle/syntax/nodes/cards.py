"""Cards, card collections, and collections of card collections ("groups")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Union

from translators.recycle.syntax.nodes.base import Node, Var

if TYPE_CHECKING:
    from translators.recycle.syntax.nodes.collections import Collection
    from translators.recycle.syntax.nodes.logic import Boolean
    from translators.recycle.syntax.nodes.owners import Owner
    from translators.recycle.syntax.nodes.values import IntExpr, PointMap, StrExpr

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
