"""The CardStock engine's transcript and option texts, read in the translation's words: an
engine card's attributes, a place as ``(owner, visibility, NAME)``, what an option moves and
sets, and how many of its effects a state of the translation shows (the replay's matching of
the engine's chosen option to a move, ``replay.py``)."""

from __future__ import annotations

import re

from ggp.gdl.terms import Constant, Function, Term
from ggp.reasoner.machine import State
from ggp.view.scheme import stored_values

#: An engine card as its transcript writes it: ``id!KEY=VALUE;KEY=VALUE:DECKNAME``.
CARD = re.compile(r"^\d+!([^:]*):\S*")
#: A moved card in the transcript: ``M:card from -> to``.
MOVE = re.compile(r"^M:(\S+) ")
#: A card moved, with its places: ``M:card OWNER:TYPE:NAME -> OWNER:TYPE:NAME``.
MOVE_PLACES = re.compile(r"^M:(\S+) (\S+):(\S+):(\S+) -> (\S+):(\S+):(\S+)")
#: A card made: ``C:card OWNER TYPE NAME``.
MADE = re.compile(r"^C:(\S+) (\S+) (\S+) (\S+)")
#: The engine's collection types as the translation's visibility names (memory is not compared).
VIS = {"INVISIBLE": "iloc", "VISIBLE": "vloc", "HIDDEN": "hloc"}
#: A value set, with its owner and key: ``S:owner KEY VALUE``.
SET_FULL = re.compile(r"^S:(\S+) (\S+) (\S+)$")
#: A string or integer set by an option: ``S:owner KEY VALUE``.
SET = re.compile(r"^S:\S+ \S+ (\S+)")
#: The player a ``cycle next`` or ``cycle current`` option names (its ``NextAction`` and
#: ``SetPlayerAction`` texts).
CYCLE = re.compile(r"^(?:NextAction: Next player|SetPlayerAction: Set player): (\d+)$")


def engine_card_key(text: str) -> frozenset[tuple[str, str]] | None:
    """The attributes of an engine card (``0!RANK=J;SUIT=HEARTS:DEFAULT``), or None."""
    m = CARD.match(text)
    if m is None:
        return None
    return frozenset(tuple(kv.split("=", 1)) for kv in m.group(1).split(";") if "=" in kv)


def place(owner: str, kind: str, name: str) -> tuple[str, str, str]:
    owner = "game" if owner == "table" else (f"player{owner[1:]}" if re.fullmatch(r"p\d+", owner) else owner)
    return owner, VIS.get(kind, kind.lower()), name.upper().rstrip("_")


def card_places(state: State) -> dict[str, set[tuple[str, str, str]]]:
    out: dict[str, set[tuple[str, str, str]]] = {}
    for fluent in state.fluents:
        if isinstance(fluent, Function) and fluent.name == "at" and len(fluent.args) == 2:
            loc = fluent.args[1]
            if isinstance(loc, Function) and loc.name == "loc" and len(loc.args) == 3:
                owner, vis, name = (str(a) for a in loc.args)
                out.setdefault(str(fluent.args[0]), set()).add((owner, vis, name.upper().rstrip("_")))
    return out


def canonical(move: Term, names: dict[frozenset[tuple[str, str]], set[str]]) -> str:
    """``move`` with each card constant replaced by its attributes (identical cards alike)."""
    key_of = {c: repr(sorted(k)) for k, cs in names.items() for c in cs}
    return " ".join(key_of.get(w, w) for w in str(move).replace("(", " ( ").replace(")", " ) ").split())


def effects_seen(option: str, state: State, names: dict[frozenset[tuple[str, str]], set[str]],
                  before: dict[str, set[tuple[str, str, str]]] | None = None) -> int:
    """How many of an engine option's effects (a card where it goes, a value set) hold in ``state``;
    with the card places ``before`` the move, a card counts only if it came from the engine's
    source place, followed through the option's moves: a card drawn then played is where the
    option's last move of it puts it."""
    values = {(v.owner, v.name, v.value) for v in stored_values(state.fluents)}
    places = card_places(state)
    now = {card: set(where) for card, where in before.items()} if before is not None else None
    moves: list[set[str]] = []
    last: dict[str, tuple[str, str, str]] = {}
    seen = 0
    for action in option.split("; "):
        m = MOVE_PLACES.match(action)
        if m:
            card = engine_card_key(m.group(1))
            source = place(m.group(2), m.group(3), m.group(4))
            target = place(m.group(5), m.group(6), m.group(7))
            cards = names.get(card, set()) if card is not None else set()
            if now is not None:
                cards = {c for c in cards if source in now.get(c, ())}
                for c in cards:
                    now[c] = {target}
            for c in cards:
                last[c] = target
            moves.append(cards)
            continue
        s = SET_FULL.match(action)
        if s:
            owner = place(s.group(1), "VISIBLE", "X")[0]
            key, value = s.group(2).lower(), s.group(3).lower()
            seen += (owner, key, value) in values
    return seen + sum(any(last[c] in places.get(c, ()) for c in cards) for cards in moves)


def words(option: str, names: dict[frozenset[tuple[str, str]], set[str]],
           places: dict[str, set[tuple[str, str, str]]] | None = None) -> set[str]:
    """What identifies an engine option: the cards its moves move and the values its
    assignments set, in lower case. With the translation's card ``places``, a moved card is
    one of the identical cards at the place the engine moved it from (drawing a SIX from the
    stock is not playing a SIX from the hand)."""
    out: set[str] = set()
    for action in option.split("; "):
        m = MOVE.match(action)
        if m:
            key = engine_card_key(m.group(1))
            cards = names.get(key, set()) if key is not None else set()
            full = MOVE_PLACES.match(action)
            if places is not None and full is not None:
                source = place(full.group(2), full.group(3), full.group(4))
                cards = {c for c in cards if source in places.get(c, ())} or cards
            out |= cards
            continue
        s = SET.match(action)
        if s:
            out.add(s.group(1).lower())
            continue
        cycle = CYCLE.match(action)
        if cycle:
            out.add(f"player{cycle.group(1)}")
    return out


def move_words(move: Term) -> set[str]:
    """What a move of the translation names: ``(choose K X...)`` its bindings ``X...`` (``K`` is
    the option's place in the choice), another move its name and arguments."""
    if isinstance(move, Constant):
        return {move.name}
    if isinstance(move, Function):
        if move.name == "choose":
            return {str(a) for a in move.args[1:]}
        return {move.name} | {str(a) for a in move.args}
    return set()


__all__ = ["CARD", "CYCLE", "MADE", "MOVE", "MOVE_PLACES", "SET", "SET_FULL", "VIS", "canonical", "card_places",
           "effects_seen", "engine_card_key", "move_words", "place", "words"]
