"""A game's glossary: readable words for its roles, cards, locations and any term.

Built once per game from its rules alone (:func:`glossary`): the cards of a translated card game
(``(card C)`` facts and where ``init`` puts cards), their attributes (``attr`` facts) and every
location named in the rules. Where the rules keep no attributes, a *card table* registered for
the game file's suffix (:func:`register_card_table`: the command line registers the RECYCLE
translator's) supplies them from the source the rules were translated from.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ggp.gdl.rules import RANDOM, GameDescription, Rule
from ggp.gdl.terms import Constant, Function, Term, sort_key
from ggp.view import scheme
from ggp.view.cards import CardFace, card_faces, words

log = logging.getLogger(__name__)

#: A card table: each card's term (as text) to its attributes, in the game's order.
CardTable = Mapping[str, Sequence[tuple[str, str]]]
#: Card tables by game-file suffix (``.rcy``): a function from the file to its card table.
CARD_TABLES: dict[str, Callable[[Path], CardTable | None]] = {}
_TABLES: dict[tuple[str, float], CardTable | None] = {}
_LOCK = threading.Lock()


def register_card_table(suffix: str, provider: Callable[[Path], CardTable | None]) -> None:
    """Let ``provider`` give the card table of game files ending in ``suffix``."""
    CARD_TABLES[suffix.lower()] = provider


def _card_table(source: str | None) -> CardTable | None:
    """The registered card table of the file ``source`` (None when there is none)."""
    if not source:
        return None
    path = Path(source)
    provider = CARD_TABLES.get(path.suffix.lower())
    if provider is None:
        return None
    try:
        key = (str(path.resolve()), path.stat().st_mtime)
    except OSError:
        return None
    with _LOCK:
        if key not in _TABLES:
            try:
                _TABLES[key] = provider(path)
            except Exception as exc:  # noqa: BLE001 - names are a nicety: never fail a view for them
                log.warning("%s: no card table: %s: %s", source, type(exc).__name__, exc)
                _TABLES[key] = None
        return _TABLES[key]


@dataclass(frozen=True)
class Glossary:
    """Readable names for one game (see the module doc)."""

    roles: tuple[Constant, ...]
    cards: Mapping[Term, CardFace]
    locations: tuple[scheme.Location, ...]

    @property
    def card_game(self) -> bool:
        """True for a game with cards in locations (a translated card game)."""
        return bool(self.cards) and bool(self.locations)

    @property
    def players(self) -> tuple[Constant, ...]:
        """The roles other than ``random``."""
        return tuple(r for r in self.roles if r != RANDOM)

    def card(self, term: Term) -> CardFace | None:
        """The face of card ``term``, or None when it is not a card."""
        return self.cards.get(term)

    def place(self, where: scheme.Location, role: str | None = None) -> str:
        """A location as words: ``the stock``, ``player1's hand``, ``your hand`` (for ``role``)."""
        name = words(where.name)
        if where.owner == scheme.GAME:
            return name
        if role is not None and where.owner == role:
            return f"your {name}"
        return f"{where.owner}'s {name}"

    def text(self, term: Term, role: str | None = None) -> str:
        """``term`` in words: cards by name, locations by owner and name, choices as options."""
        face = self.cards.get(term)
        if face is not None:
            return face.name
        where = scheme.location(term)
        if where is not None:
            return self.place(where, role)
        if isinstance(term, Function):
            index = scheme.choice_index(term) if self.card_game else None
            if index is not None:
                rest = " ".join(self.text(a, role) for a in term.args[1:])
                return f"option {index + 1}" + (f": {rest}" if rest else "")
            return " ".join([words(term.name), *(self.text(a, role) for a in term.args)])
        text = str(term)
        if role is not None and text == role:
            return "you"
        return text if term in self.roles else words(text)


def _ground_terms(rules: Sequence[Rule]) -> Iterator[Term]:
    for rule in rules:
        stack: list[object] = [rule.head, *rule.body]
        while stack:
            item = stack.pop()
            if isinstance(item, Function):
                yield item
                stack.extend(item.args)
            elif hasattr(item, "literal"):
                stack.append(getattr(item, "literal"))
            elif hasattr(item, "literals"):
                stack.extend(getattr(item, "literals"))


def glossary(description: GameDescription) -> Glossary:
    """The glossary of ``description`` (see the module doc)."""
    facts = [r.head for r in description.rules if r.is_fact]
    declared, attributes = scheme.card_facts(facts)
    placed: list[Term] = []
    for fact in facts:
        if isinstance(fact, Function) and fact.name == "init" and len(fact.args) == 1:
            found = scheme.card_place(fact.args[0])
            if found is not None:
                placed.append(found[0])
    cards = list(dict.fromkeys([*declared, *placed]))
    locations: dict[Term, scheme.Location] = {}
    if cards:
        for term in _ground_terms(description.rules):
            if term not in locations and term.is_ground:
                where = scheme.location(term)
                if where is not None:
                    locations[term] = where
    if cards and not any(attributes.get(c) for c in cards):
        table = _card_table(description.source)
        if table is not None and set(table) >= {str(c) for c in cards}:
            attributes = {c: list(table[str(c)]) for c in cards}
    cards.sort(key=sort_key)
    roles = description.roles
    owners = {str(r): i for i, r in enumerate(roles)}
    ordered = sorted(locations.values(),
                     key=lambda w: (w.owner != scheme.GAME, owners.get(w.owner, len(owners)), w.owner))
    return Glossary(roles, card_faces(cards, attributes), tuple(ordered))
