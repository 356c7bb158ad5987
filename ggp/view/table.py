"""The table as a person reads it: a plain model of one state seen by one viewer.

:func:`build_table` turns what a viewer knows (:class:`~ggp.view.knowledge.Knowledge`) into a
:class:`Table`: for card games an area per owner (the game's, then each player's) with its
piles (cards face up where the viewer knows them, a count of face-down cards where not, and
which cards those may be) and its stored values (chips, the last bid); for other games the
state's facts grouped by relation. Web pages, the console player and ``--watch`` draw the same
model (:mod:`ggp.view.text` draws it as text).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ggp.gdl.terms import Constant, Function, Term, sort_key
from ggp.view import scheme
from ggp.view.cards import CardFace, words
from ggp.view.glossary import Glossary
from ggp.view.knowledge import Knowledge


@dataclass(frozen=True)
class Pile:
    """A location's cards: ``cards`` face up (bottom first), ``hidden`` more face down, and
    ``maybe``: the cards the hidden ones may be, each with its chance of being here."""

    location: str
    name: str
    visibility: str
    seen_by: str
    cards: tuple[CardFace, ...] = ()
    hidden: int = 0
    maybe: tuple[tuple[str, float], ...] = ()
    secret: bool = False

    @property
    def size(self) -> int:
        """How many cards the pile holds."""
        return len(self.cards) + self.hidden


@dataclass(frozen=True)
class Value:
    """A stored value shown at a place: a name and its value (``?`` when not known)."""

    name: str
    value: str
    number: bool = False


@dataclass(frozen=True)
class Area:
    """What belongs to one owner: the game's (the middle of the table) or a player's."""

    owner: str
    title: str
    piles: tuple[Pile, ...] = ()
    values: tuple[Value, ...] = ()
    to_move: bool = False
    goal: int | None = None
    you: bool = False


@dataclass(frozen=True)
class Board:
    """A relation ``(R X Y V)`` holding one value per square, as a grid: ``cells[i][j]`` is the
    value at row ``rows[i]`` and column ``columns[j]`` (empty where none is known)."""

    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class FactGroup:
    """The facts of one relation: rows of arguments (in words) with their probability, and the
    relation drawn as a board where it is one."""

    relation: str
    arity: int
    rows: tuple[tuple[tuple[str, ...], float], ...]
    board: Board | None = None


@dataclass(frozen=True)
class Table:
    """One state as ``viewer`` knows it (None: everything)."""

    viewer: str | None
    card_game: bool
    areas: tuple[Area, ...] = ()
    facts: tuple[FactGroup, ...] = ()
    to_move: tuple[str, ...] = ()
    terminal: bool = False
    goals: Mapping[str, int] = field(default_factory=dict)
    exact: bool = True

    def area(self, owner: str) -> Area | None:
        """The area of ``owner``, if the table has one."""
        return next((a for a in self.areas if a.owner == owner), None)


def build_table(glossary: Glossary, knowledge: Knowledge, *, to_move: Iterable[Term] = (),
                terminal: bool = False, goals: Mapping[Constant, int] | None = None) -> Table:
    """The table of ``knowledge`` (see the module doc); ``to_move`` are the roles that choose
    now, ``goals`` the goal values to show (at the end of a match)."""
    movers = tuple(str(r) for r in to_move)
    shown_goals = {str(r): v for r, v in (goals or {}).items()}
    viewer = str(knowledge.role) if knowledge.role is not None else None
    if not glossary.card_game:
        return Table(viewer, False, facts=_facts(glossary, knowledge), to_move=movers, terminal=terminal,
                     goals=shown_goals, exact=knowledge.exact)
    piles = _piles(glossary, knowledge)
    values = _values(knowledge)
    owners = [scheme.GAME, *(str(r) for r in glossary.players)]
    owners += [w.owner for w in glossary.locations if w.owner not in owners]
    owners += [o for o in values if o not in owners]
    areas = []
    for owner in dict.fromkeys(owners):
        title = "Table" if owner == scheme.GAME else owner
        areas.append(Area(owner, title, tuple(piles.get(owner, ())), tuple(values.get(owner, ())),
                          owner in movers, shown_goals.get(owner), owner == viewer))
    return Table(viewer, True, tuple(areas), (), movers, terminal, shown_goals, knowledge.exact)


def _natural(term: Term) -> tuple[object, ...]:
    text = str(term)
    digits = "".join(ch for ch in text if ch.isdigit())
    stem = "".join(ch for ch in text if not ch.isdigit())
    return (stem, int(digits) if digits else -1, text)


def _piles(glossary: Glossary, knowledge: Knowledge) -> dict[str, list[Pile]]:
    """Every location's pile, by owner."""
    here: dict[Term, list[Term]] = {w.term: [] for w in glossary.locations}
    counts: dict[Term, int] = {}
    tops: dict[Term, Term] = {}
    memory: dict[tuple[Term, Term], int] = {}
    for fluent in knowledge.known:
        placed = scheme.card_place(fluent)
        if placed is not None:
            here.setdefault(placed[1].term, []).append(placed[0])
            continue
        counted = scheme.count_of(fluent)
        if counted is not None:
            counts[counted[0]] = counted[1]
            continue
        top = scheme.top_of(fluent)
        if top is not None:
            tops[top[0]] = top[1]
            continue
        remembered = scheme.memory_position(fluent)
        if remembered is not None:
            memory[(remembered[0], remembered[1])] = remembered[2]
    maybe = _whereabouts(glossary, knowledge)
    out: dict[str, list[Pile]] = {}
    omniscient = knowledge.role is None
    for where in glossary.locations:
        cards = sorted(here.get(where.term, ()), key=lambda c: (memory.get((where.term, c), 0), _natural(c)))
        top_card = tops.get(where.term)
        if top_card is not None and top_card in cards:
            cards.remove(top_card)
            cards.append(top_card)
        chances = maybe.get(where.term, {})
        total = counts.get(where.term)
        if total is None:
            total = len(cards) + (0 if omniscient else round(sum(chances.values())))
        faces = tuple(glossary.cards[c] if c in glossary.cards else _unknown_face(glossary, c) for c in cards)
        listed = tuple(sorted(((glossary.text(c), p) for c, p in chances.items()), key=lambda x: (-x[1], x[0])))
        out.setdefault(where.owner, []).append(Pile(
            str(where.term), words(where.name), where.vis, scheme.seen_by(where), faces,
            max(0, total - len(cards)), listed, omniscient and not where.public))
    return out


def _unknown_face(glossary: Glossary, card: Term) -> CardFace:
    text = glossary.text(card)
    return CardFace(str(card), text, text[:2], "", False)


def _whereabouts(glossary: Glossary, knowledge: Knowledge) -> dict[Term, dict[Term, float]]:
    """For each location, the cards the viewer does not know the place of that may be there,
    with their chances."""
    out: dict[Term, dict[Term, float]] = {}
    for (relation, key), values in knowledge.places.items():
        if relation != scheme.CARD_RELATION or len(key) != 1:
            continue
        card = key[0]
        if any(Function(scheme.AT, (card, place)) in knowledge.known for place in values):
            continue
        for place, p in values.items():
            if p > 0:
                out.setdefault(place, {})[card] = p
    return out


def _values(knowledge: Knowledge) -> dict[str, list[Value]]:
    """Stored values by owner: known ones, and ``?`` for those the viewer is not sure of."""
    out: dict[str, list[Value]] = {}
    seen: set[tuple[str, str]] = set()
    for stored in scheme.stored_values(knowledge.known):
        seen.add((stored.owner, stored.name))
        out.setdefault(stored.owner, []).append(Value(words(stored.name), stored.value, stored.number))
    for fluent in sorted(knowledge.chances, key=sort_key):
        key = scheme.stored_key(fluent)
        if key is not None and key not in seen:
            seen.add(key)
            out.setdefault(key[0], []).append(Value(words(key[1]), "?", str(fluent).startswith(f"({scheme.STO}")))
    return out


def _facts(glossary: Glossary, knowledge: Knowledge) -> tuple[FactGroup, ...]:
    """Known and possible fluents grouped by relation (relations in order of name)."""
    groups: dict[tuple[str, int], list[tuple[Term, float]]] = {}
    for fluent in knowledge.known:
        groups.setdefault(_relation(fluent), []).append((fluent, 1.0))
    for fluent, p in knowledge.chances.items():
        groups.setdefault(_relation(fluent), []).append((fluent, p))
    out = []
    for (name, arity), rows in sorted(groups.items()):
        rows.sort(key=lambda row: (-row[1], sort_key(row[0])))
        out.append(FactGroup(words(name), arity, tuple(
            (tuple(glossary.text(a) for a in _args(f)) or (words(name),), p) for f, p in rows),
            _board([f for f, p in rows if p >= 1], glossary) if arity == 3 else None))
    return tuple(out)


#: A board has at most this many rows and columns.
BOARD_SIDE = 16


def _board(facts: list[Term], glossary: Glossary) -> Board | None:
    """``facts`` of one relation ``(R X Y V)`` as a board, when each square has one value and
    the squares span at least two rows and two columns."""
    squares: dict[tuple[Term, Term], Term] = {}
    for fact in facts:
        x, y, value = _args(fact)
        if (x, y) in squares:
            return None
        squares[(x, y)] = value
    xs = sorted({x for x, _ in squares}, key=sort_key)
    ys = sorted({y for _, y in squares}, key=sort_key)
    if not 2 <= len(xs) <= BOARD_SIDE or not 2 <= len(ys) <= BOARD_SIDE:
        return None
    cells = tuple(tuple(glossary.text(squares[(x, y)]) if (x, y) in squares else "" for x in xs) for y in ys)
    return Board(tuple(glossary.text(y) for y in ys), tuple(glossary.text(x) for x in xs), cells)


def _relation(fluent: Term) -> tuple[str, int]:
    if isinstance(fluent, Function):
        return fluent.name, len(fluent.args)
    return (fluent.name if isinstance(fluent, Constant) else str(fluent)), 0


def _args(fluent: Term) -> tuple[Term, ...]:
    return fluent.args if isinstance(fluent, Function) else ()
