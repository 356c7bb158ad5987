"""Statements: actions (moving cards, changing storage, turn order, repetition, game creation)
and the game's flow (stages, choices, sequences, conditions, ``let``)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Literal, Union

from translators.recycle.syntax.nodes.base import Node, Var
from translators.recycle.syntax.nodes.expressions import (
    Boolean,
    CardExpr,
    CardsExpr,
    Collection,
    IntExpr,
    IntStorage,
    OwnerOf,
    PointStorage,
    Relative,
    StrExpr,
    StrStorage,
    Value,
)

# -------- Actions: moving cards, changing storage, turn order, repetition, and game creation steps


@dataclass(frozen=True)
class Move(Node):
    """``(move CARD TO)``: move a card onto a position of another location."""

    source: CardExpr
    target: CardExpr


@dataclass(frozen=True)
class Remember(Node):
    """``(remember CARD TO)``: copy a card into a ``mem`` location."""

    source: CardExpr
    target: CardExpr


@dataclass(frozen=True)
class Forget(Node):
    """``(forget CARD)``: drop a remembered copy."""

    card: CardExpr


@dataclass(frozen=True)
class Shuffle(Node):
    """``(shuffle CARDS)``: put the cards in a random order."""

    cards: CardsExpr


@dataclass(frozen=True)
class FaroShuffle(Node):
    """``(shuffle faro A B)``: interleave two collections."""

    first: CardsExpr
    second: CardsExpr


@dataclass(frozen=True)
class IntUpdate(Node):
    """``(set|inc|dec (OWNER sto NAME) N)``."""

    op: Literal["set", "inc", "dec"]
    storage: IntStorage
    value: IntExpr


@dataclass(frozen=True)
class SetStr(Node):
    """``(set (OWNER str NAME) VALUE)``."""

    storage: StrStorage
    value: StrExpr


@dataclass(frozen=True)
class AttrPair(Node):
    """``(KEY : VALUE)`` in an award: the card has VALUE for KEY (0.5: ``(KEY (VALUE))``)."""

    key: StrExpr
    value: StrExpr


@dataclass(frozen=True)
class Award(Node):
    """``((KEY : VALUE)... POINTS)``: a card matching every pair gets POINTS (awards add up)."""

    pairs: tuple[AttrPair, ...]
    points: IntExpr


@dataclass(frozen=True)
class SetPoints(Node):
    """``(set (OWNER points NAME) (AWARD...))``, or in 0.5 ``(put points 'VAR (AWARD...))``
    (then ``target`` is the variable)."""

    target: PointStorage | Var
    awards: tuple[Award, ...]


@dataclass(frozen=True)
class Cycle(Node):
    """``(cycle next X)`` queues who plays next; ``(cycle current X)`` changes who plays now.

    X is ``(owner CARD)``, a player variable, or ``current``/``next``/``previous``.
    """

    which: Literal["next", "current"]
    target: OwnerOf | Var | Relative


@dataclass(frozen=True)
class TurnPass(Node):
    """``(turn pass)``: an action that changes nothing."""


@dataclass(frozen=True)
class Repeat(Node):
    """``(repeat N ACTION)``."""

    count: IntExpr
    action: Action


@dataclass(frozen=True)
class RepeatAll(Node):
    """``(repeat all (move ...))`` or ``(repeat all (forget ...))``: until the source is empty."""

    action: Move | Forget


@dataclass(frozen=True)
class TeamSpec(Node):
    """``(0, 2)``: one team by seat numbers (sub-teams, allowed by the grammar, nest)."""

    members: tuple[int, ...]
    subteams: tuple[TeamSpec, ...] = ()


@dataclass(frozen=True)
class CreateTeams(Node):
    """``(create teams (0, 2) (1, 3))``; players not named get a team of their own."""

    teams: tuple[TeamSpec, ...]


@dataclass(frozen=True)
class Attribute(Node):
    """One parenthesised group of a deck description: names, then nested groups.

    At the top of a deck, ``(KEY (V1, V2) ...)`` is a key (one name) whose children are value
    groups; a value group ``(RED (SUIT ...))`` lists values whose cards also get the nested keys.
    """

    names: tuple[str, ...]
    children: tuple[Attribute, ...] = ()


@dataclass(frozen=True)
class Deck(Node):
    """``(deck ATTRIBUTE...)``: one card for each combination of the attributes' values."""

    attributes: tuple[Attribute, ...]

    def cards(self) -> list[dict[str, str]]:
        """The cards this deck makes, each as its key-to-value map, in creation order."""
        result: list[dict[str, str]] = [{}]
        for key in self.attributes:
            result = [dict(a, **b) for a, b in product(result, _key_cards(key))]
        return result


def _key_cards(key: Attribute) -> list[dict[str, str]]:
    cards: list[dict[str, str]] = []
    for name in key.names:
        for group in key.children:
            for value in group.names:
                sub: list[dict[str, str]] = [{name: value}]
                for nested in group.children:
                    sub = [dict(a, **b) for a, b in product(sub, _key_cards(nested))]
                cards.extend(sub)
    return cards


@dataclass(frozen=True)
class CreateDeck(Node):
    """``(create deck [NAME] CARDS (deck ...))``: make the cards in a location."""

    location: CardsExpr
    deck: Deck
    name: str | None = None


@dataclass(frozen=True)
class ActionAgg(Node):
    """``(all COLLECTION 'V ITEM)`` does ITEM for every element; ``(any ...)`` in a ``choice``
    offers one option per element (in a ``do`` it acts like ``all``)."""

    quantifier: Literal["all", "any"]
    collection: Collection
    var: Var
    body: Item


Action = Union[
    Move, Remember, Forget, Shuffle, FaroShuffle, IntUpdate, SetStr, SetPoints, Cycle,
    TurnPass, Repeat, RepeatAll, CreateTeams, CreateDeck, ActionAgg,
]


# -------- Game flow: stages, choices, sequences, conditions and ``let``


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
