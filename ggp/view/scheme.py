"""The vocabulary of translated card games: the one module that knows how the RECYCLE
translator (``translators.recycle``, docs/translation.md) spells a card table in GDL-II.

Everything else in :mod:`ggp.view` asks this module what a fluent, a location, a percept or a
move of a translated game means, so a change of the translator's naming is followed here alone.
Today's scheme:

- ``(at CARD LOC)``: where each card is; ``(count LOC N)`` cards per location; ``(ontop LOC
  CARD)`` the known top card of an ordered pile; ``(copy CARD LOC)`` a card remembered in a
  memory location, ``(cpos LOC CARD N)`` its place there;
- a location is ``(loc OWNER VIS NAME)``, OWNER ``game``, a player role or a team, VIS one of
  :data:`VISIBILITY`;
- ``(card C)`` and ``(attr C KEY VALUE)`` static facts (kept when rules use them);
- ``(sto OWNER NAME N)`` integers, ``(wsto OWNER NAME DIGIT-POSITION DIGIT)`` wide integers,
  ``(str OWNER NAME VALUE)`` strings (``unset`` before the first assignment);
- percepts ``(moved I FROM TO CARD)`` (``hidden`` for a card the role may not see), and the
  storage fluents themselves;
- choices are ``(choose K ARGS...)`` (option K of the current choice): names that say nothing of
  what the move does, so their labels are found from their effects (:mod:`ggp.view.moves`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ggp.gdl.terms import Constant, Function, Term

AT, COPY, LOC, COUNT, ONTOP, CPOS = "at", "copy", "loc", "count", "ontop", "cpos"
CARD, ATTR = "card", "attr"
STO, WSTO, STR = "sto", "wsto", "str"
MOVED, HIDDEN, UNSET = "moved", "hidden", "unset"
CHOOSE = "choose"
GAME = "game"
#: The positional relation that says where each card is, as (name, arity).
CARD_RELATION = (AT, 2)
#: What each visibility of a location means: who sees its cards.
VISIBILITY = {
    "vloc": "face up",
    "iloc": "seen by its owner",
    "hloc": "face down",
    "oloc": "seen by the others",
    "mem": "remembered",
}
#: Relations of the translation that are bookkeeping, never shown (control, order, flags).
INTERNAL = frozenset({"pc", "choices", "seat", "queue", "flag", "lost", "ontop", "pmap", "failed", "count",
                      "cpos", "ccount", "cdepth", "forgot"})


@dataclass(frozen=True, order=True)
class Location:
    """A card location: its term, owner (``game``, a role, a team), visibility and name."""

    owner: str
    vis: str
    name: str
    term: Term

    @property
    def public(self) -> bool:
        """True when every role sees its cards."""
        return self.vis in ("vloc", "mem")

    def visible_to(self, role: str) -> bool:
        """Whether ``role`` sees the cards of this location (the translation's ``canview``)."""
        if self.public:
            return True
        if self.vis == "iloc":
            return self.owner == role
        if self.vis == "oloc":
            return self.owner != role and role != "random"
        return False


def location(term: Term) -> Location | None:
    """``term`` as a location, or None when it is not one."""
    if isinstance(term, Function) and term.name == LOC and len(term.args) == 3 \
            and all(isinstance(a, Constant) for a in term.args) and str(term.args[1]) in VISIBILITY:
        owner, vis, name = (str(a) for a in term.args)
        return Location(owner, vis, name, term)
    return None


def card_place(fluent: Term) -> tuple[Term, Location] | None:
    """``(at CARD LOC)`` (or a memory's ``(copy CARD LOC)``) as (card, location)."""
    if isinstance(fluent, Function) and fluent.name in (AT, COPY) and len(fluent.args) == 2:
        where = location(fluent.args[1])
        if where is not None:
            return fluent.args[0], where
    return None


def top_of(fluent: Term) -> tuple[Term, Term] | None:
    """``(ontop LOC CARD)`` as (location term, card)."""
    if isinstance(fluent, Function) and fluent.name == ONTOP and len(fluent.args) == 2:
        return fluent.args[0], fluent.args[1]
    return None


def count_of(fluent: Term) -> tuple[Term, int] | None:
    """``(count LOC N)`` as (location term, N)."""
    if isinstance(fluent, Function) and fluent.name == COUNT and len(fluent.args) == 2 \
            and location(fluent.args[0]) is not None and _integer(fluent.args[1]) is not None:
        return fluent.args[0], _integer(fluent.args[1]) or 0
    return None


def memory_position(fluent: Term) -> tuple[Term, Term, int] | None:
    """``(cpos LOC CARD N)`` as (location term, card, N)."""
    if isinstance(fluent, Function) and fluent.name == CPOS and len(fluent.args) == 3 \
            and _integer(fluent.args[2]) is not None:
        return fluent.args[0], fluent.args[1], _integer(fluent.args[2]) or 0
    return None


@dataclass(frozen=True)
class Stored:
    """A stored value: owner, name, value (text) and whether it is a number."""

    owner: str
    name: str
    value: str
    number: bool


def stored_values(fluents: Iterable[Term]) -> list[Stored]:
    """The integers and strings stored in ``fluents`` (wide integers assembled from their
    digits; unset strings left out), in a stable order."""
    out: list[Stored] = []
    digits: dict[tuple[str, str], dict[int, int]] = {}
    for fluent in fluents:
        if not isinstance(fluent, Function) or not all(isinstance(a, Constant) for a in fluent.args):
            continue
        args = [str(a) for a in fluent.args]
        if fluent.name == STO and len(args) == 3 and _integer(fluent.args[2]) is not None:
            out.append(Stored(args[0], args[1], args[2], True))
        elif fluent.name == STR and len(args) == 3 and args[2] != UNSET:
            out.append(Stored(args[0], args[1], args[2], False))
        elif fluent.name == WSTO and len(args) == 4:
            position, digit = _integer(fluent.args[2]), _integer(fluent.args[3])
            if position is not None and digit is not None:
                digits.setdefault((args[0], args[1]), {})[position] = digit
    for (owner, name), places in digits.items():
        out.append(Stored(owner, name, str(wide_value(places)), True))
    return sorted(out, key=lambda s: (s.owner, s.name))


def wide_value(digits: dict[int, int]) -> int:
    """A wide integer from its decimal digits by position: the translation keeps ``K`` digits of
    the value plus ``5 x 10^(K-1)``, so that negative values are digits too."""
    width = max(digits, default=0) + 1
    return int(sum(d * 10 ** p for p, d in digits.items()) - 5 * 10 ** (width - 1))


def stored_key(fluent: Term) -> tuple[str, str] | None:
    """(owner, name) of a storage fluent, or None."""
    if isinstance(fluent, Function) and fluent.name in (STO, STR, WSTO) and len(fluent.args) >= 3:
        return str(fluent.args[0]), str(fluent.args[1])
    return None


def seen_by(where: Location) -> str:
    """Who sees the cards of ``where``, in words."""
    if where.vis == "iloc":
        return f"seen by {where.owner}" if where.owner != GAME else "face down"
    if where.vis == "oloc":
        return f"seen by all but {where.owner}"
    return VISIBILITY[where.vis]


def shuffled(percept: Term) -> Location | None:
    """The location of a ``(shuffled LOC)`` percept."""
    if isinstance(percept, Function) and percept.name == "shuffled" and len(percept.args) == 1:
        return location(percept.args[0])
    return None


def is_bookkeeping(fluent: Term) -> bool:
    """True for the translation's control and ordering fluents, which a person never needs."""
    name = fluent.name if isinstance(fluent, (Constant, Function)) else ""
    return name in INTERNAL


@dataclass(frozen=True)
class CardMove:
    """A card moving from one location to another (``card`` None: a card the role may not see)."""

    card: Term | None
    source: Location
    target: Location


def moved_percept(percept: Term) -> CardMove | None:
    """``(moved I FROM TO CARD)`` as a card move."""
    if isinstance(percept, Function) and percept.name == MOVED and len(percept.args) == 4:
        source, target = location(percept.args[1]), location(percept.args[2])
        if source is not None and target is not None:
            card = percept.args[3]
            return CardMove(None if card == Constant(HIDDEN) else card, source, target)
    return None


def stored_percept(percept: Term) -> Stored | None:
    """A storage fluent seen as a percept, as a stored value."""
    found = stored_values([percept])
    return found[0] if len(found) == 1 and not (isinstance(percept, Function) and percept.name == WSTO) else None


def card_facts(facts: Iterable[Term]) -> tuple[list[Term], dict[Term, list[tuple[str, str]]]]:
    """The cards declared by ``(card C)`` facts and their ``(attr C KEY VALUE)`` attributes."""
    cards: list[Term] = []
    attributes: dict[Term, list[tuple[str, str]]] = {}
    for fact in facts:
        if isinstance(fact, Function) and fact.name == CARD and len(fact.args) == 1:
            cards.append(fact.args[0])
        elif isinstance(fact, Function) and fact.name == ATTR and len(fact.args) == 3:
            attributes.setdefault(fact.args[0], []).append((str(fact.args[1]), str(fact.args[2])))
    return cards, attributes


def is_choice(move: Term) -> bool:
    """True for a translated choice, ``(choose K ...)``, whose name says nothing of its effect."""
    return (isinstance(move, Function) and move.name == CHOOSE) or move == Constant(CHOOSE)


def choice_index(move: Term) -> int | None:
    """K of ``(choose K ...)``."""
    if isinstance(move, Function) and move.name == CHOOSE and move.args:
        return _integer(move.args[0])
    return None


def _integer(term: Term) -> int | None:
    text = str(term)
    if isinstance(term, Constant) and text.lstrip("-").isdigit():
        return int(text)
    return None
