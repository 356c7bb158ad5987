"""Card faces: a readable name, a corner index and a suit for each card of a game.

A card is known by its attributes (``rank jack``, ``suit hearts``: from the rules' ``attr``
facts or a translation's card table) or, lacking them, by the words of its term (``jack``,
``(card ace spades)``). :func:`card_faces` names a whole deck at once, so that an attribute
that another one determines across the deck (``color`` by ``suit``) is left out of the name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ggp.gdl.terms import Function, Term

#: Corner indices of rank words (other ranks: their digits, or their first letters).
RANK_INDEX = {
    "ace": "A", "king": "K", "queen": "Q", "jack": "J", "knave": "J", "joker": "★",
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13",
}
#: Symbols of the French suits, by the words a game may use for them.
SUIT_SYMBOL = {
    "hearts": "♥", "heart": "♥", "diamonds": "♦", "diamond": "♦",
    "spades": "♠", "spade": "♠", "clubs": "♣", "club": "♣",
}
RED_SUITS = frozenset({"♥", "♦"})
RANK_KEYS = ("rank", "value", "face", "number", "kind")
SUIT_KEYS = ("suit", "colour", "color")


@dataclass(frozen=True)
class CardFace:
    """How a card is shown: ``name`` (``Queen of hearts``), ``index`` (``Q``), ``suit`` (a
    symbol, or a word's first letters, or empty), ``red``, and its attributes."""

    term: str
    name: str
    index: str
    suit: str
    red: bool
    attributes: tuple[tuple[str, str], ...] = ()


def words(text: str) -> str:
    """A GDL name as words: ``last_card`` -> ``last card`` (numbers as they are)."""
    if re.fullmatch(r"-?\d+", text):
        return text
    return re.sub(r"[_\-]+", " ", text).strip() or text


def term_words(term: Term) -> list[str]:
    """The atoms of ``term`` in order, without a leading ``card`` functor."""
    if isinstance(term, Function):
        atoms = [a for arg in term.args for a in term_words(arg)]
        return atoms if term.name == "card" else [term.name, *atoms]
    return [term.name]


def _redundant(attrs: Mapping[Term, Sequence[tuple[str, str]]]) -> set[str]:
    """Keys whose value another single key determines on every card (and that are not the
    rank or suit themselves)."""
    decks = list(attrs.values())
    keys = list(dict.fromkeys(k for card in decks for k, _ in card))
    out: set[str] = set()
    for key in keys:
        if key in RANK_KEYS or key in SUIT_KEYS[:1]:
            continue
        for other in keys:
            if other == key or other in out:
                continue
            seen: dict[str | None, str | None] = {}
            if all(seen.setdefault(dict(c).get(other), dict(c).get(key)) == dict(c).get(key) for c in decks):
                out.add(key)
                break
    return out


def _face(term: Term, values: Sequence[tuple[str, str]], drop: set[str]) -> CardFace:
    attrs = {k: v for k, v in values}
    rank = next((attrs[k] for k in RANK_KEYS if k in attrs), None)
    suit = next((attrs[k] for k in SUIT_KEYS if k in attrs), None)
    shown = [v for k, v in values if k not in drop] if values else term_words(term)
    if not values:
        rank = next((w for w in shown if w in RANK_INDEX or w.isdigit()), None)
        suit = next((w for w in shown if w in SUIT_SYMBOL), None)
    if rank is not None and suit is not None and len(shown) == 2 and set(shown) == {rank, suit}:
        name = f"{words(rank)} of {words(suit)}"
    else:
        name = " ".join(words(w) for w in shown)
    name = name[:1].upper() + name[1:]
    index = _index(rank if rank is not None else (shown[0] if shown else str(term)))
    symbol = SUIT_SYMBOL.get(suit, "") if suit is not None else ""
    if suit is not None and not symbol:
        symbol = words(suit)[:2].capitalize()
    red = symbol in RED_SUITS or attrs.get("color") == "red" or attrs.get("colour") == "red"
    return CardFace(str(term), name, index, symbol, red, tuple(values))


def _index(rank: str) -> str:
    if rank in RANK_INDEX:
        return RANK_INDEX[rank]
    if rank.lstrip("-").isdigit():
        return rank
    return words(rank)[:2].capitalize()


def card_faces(cards: Iterable[Term], attributes: Mapping[Term, Sequence[tuple[str, str]]]) -> dict[Term, CardFace]:
    """The face of every card, named from its attributes (in the order given) where it has
    some, else from its term."""
    cards = list(cards)
    drop = _redundant({c: attributes[c] for c in cards if attributes.get(c)})
    return {card: _face(card, attributes.get(card, ()), drop) for card in cards}
