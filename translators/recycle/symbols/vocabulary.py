"""How the translated game spells things in GDL: constants, location terms, fluents, moves.

RECYCLE names (``HEARTS``) become lower-case constants (``hearts``); the few that would clash
with GDL keywords or with the translator's own constants get a trailing ``_``. Numbers are
plain integer constants (``-3`` included). Card locations are ``(loc OWNER VIS NAME)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import cast

from ggp.gdl.rules import Literal, Not, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle.symbols.model import GameModel, Location

#: Constants with a meaning of their own in the translation (RECYCLE names avoid them).
RESERVED = frozenset({
    "true", "not", "or", "distinct", "does", "next", "role", "init", "legal", "goal",
    "terminal", "sees", "base", "input", "percept", "random", "noop", "unset", "hidden",
})

#: The value of a string storage cell never set, and of ``cardatt`` on a missing card or key.
UNSET = Constant("unset")
#: Where a percept stands for a card the role cannot see.
HIDDEN = Constant("hidden")
NOOP = Constant("noop")
#: The role that shuffles, deals and breaks ties.
RANDOM = Constant("random")
GAME = Constant("game")


def name(text: str) -> Constant:
    """The constant for a RECYCLE NAME."""
    low = text.lower()
    return Constant(low + "_" if low in RESERVED else low)


def name_text(constant: Constant) -> str:
    """The RECYCLE NAME a constant of :func:`name` stands for (NAMEs are capital letters)."""
    low = constant.name
    if low.endswith("_") and low[:-1] in RESERVED:
        low = low[:-1]
    return low.upper()


def num(value: int) -> Constant:
    """The constant for an integer."""
    return Constant(str(value))


def c(text: str) -> Constant:
    """A constant of the translation's own vocabulary."""
    return Constant(text)


def f(head: str, *args: Term | str | int) -> Function | Constant:
    """``(head args...)`` (a constant without arguments); strings become constants, ints numbers."""
    if not args:
        return Constant(head)
    return Function(head, tuple(_arg(a) for a in args))


def _arg(value: Term | str | int) -> Term:
    if isinstance(value, Term):
        return value
    if isinstance(value, bool):
        raise TypeError("no booleans in terms")
    if isinstance(value, int):
        return num(value)
    return Constant(value)


def card_constant(model: GameModel, card_id: str) -> Constant:
    """The constant of a card, named from its attributes: the values of the fewest attributes
    that tell every card of the game apart, joined by ``_`` in the deck's order (Kuhn's
    ``jack``, ``queen``, ``king``; a 52-card deck's ``ace_spades``); ``c7`` (its number) when no
    set of attributes does, or a name would not be a plain word."""
    if not model.card_names:
        model.card_names.update(_card_names(model))
    return Constant(model.card_names.get(card_id, card_id))


def card_id(model: GameModel, constant: str) -> str | None:
    """The id (``c7``) of the card a constant names, or None."""
    if not model.card_names:
        card_constant(model, model.cards[0].id if model.cards else "")
    for cid, text in model.card_names.items():
        if text == constant:
            return cid
    return None


def _card_names(model: GameModel) -> dict[str, str]:
    cards = model.cards
    keys: list[str] = []
    for item in cards:
        keys += [k for k, _ in item.attrs if k not in keys]
    taken = RESERVED | {"game", "nil", "nowhere", "none"} | set(model.seats) | set(model.team_names) \
        | {name(location.name).name for location in model.locations}
    for size in range(1, min(len(keys), 4) + 1):
        for chosen in itertools.combinations(keys, size):
            labels = ["_".join(name(dict(item.attrs).get(k, "")).name for k in chosen if dict(item.attrs).get(k))
                      for item in cards]
            if len(set(labels)) == len(labels) and all(_plain(x) and x not in taken for x in labels):
                return {item.id: label for item, label in zip(cards, labels)}
    return {item.id: item.id for item in cards}


def _plain(text: str) -> bool:
    return bool(text) and text[0].isalpha() and text.replace("_", "a").isalnum() and text.isascii()


def loc(location: Location) -> Function:
    """``(loc OWNER VIS NAME)``."""
    return Function("loc", (Constant(location.owner), Constant(location.vis), name(location.name)))


def true(fluent: Term) -> Function:
    """``(true fluent)``."""
    return Function("true", (fluent,))


def nxt(fluent: Term) -> Function:
    """``(next fluent)``."""
    return Function("next", (fluent,))


def does(role: Term, move: Term) -> Function:
    """``(does role move)``."""
    return Function("does", (role, move))


def neg(atom: Function | Constant) -> Not:
    """``(not atom)``."""
    return Not(atom)


def rule(head: Function | Constant, *body: Literal | Sequence[Literal]) -> Rule:
    """A rule; a body item may be a literal or a list of literals (flattened)."""
    flat: list[Literal] = []
    for item in body:
        if isinstance(item, (list, tuple)):
            flat.extend(item)
        else:
            flat.append(cast(Literal, item))  # not a list or tuple: a literal
    return Rule(head, tuple(flat))


class Fresh:
    """Fresh GDL variables, named by kind: ``?c1``, ``?n2``... numbered from ``start`` + 1 (past
    the numbers of the variables the lowering bound, so the two never meet in a rule)."""

    def __init__(self, start: int = 0) -> None:
        self.count = start

    def __call__(self, prefix: str = "v") -> Variable:
        self.count += 1
        return Variable(f"{prefix}{self.count}")


__all__ = [
    "GAME", "HIDDEN", "NOOP", "RESERVED", "UNSET", "Fresh", "c", "card_constant", "card_id", "does", "f", "loc", "name",
    "neg", "num", "nxt", "rule", "true",
]
