"""The static model of a RECYCLE game: seats, teams, cards, card locations, storage, names.

Everything here is known before play: the number of players, the teams, every card (ids
``c1``... in creation order, duplicates from repeated decks being distinct cards), every card
location a program can name (owner x visibility x name, names expanded over declared name
lists), every storage cell, and which role can see which location. The translator's GDL
vocabulary (:mod:`.vocabulary`) spells these as terms.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from translators.recycle.syntax.kinds import kind_of
from translators.recycle.syntax.nodes import (
    ActionAgg,
    AllPlayers,
    AllTeams,
    BoolAgg,
    CardLocation,
    CardsAgg,
    CreateDeck,
    Filter,
    Game,
    GameOwner,
    IntAgg,
    IntLit,
    IntStorage,
    Name,
    NameList,
    Node,
    PlayerAt,
    PointStorage,
    RelativePlayer,
    Repeat,
    SetPoints,
    Stage,
    StrStorage,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: CardStock stops a game once more than this many choices were made (after the 501st; the
#: translation ends it as a draw when the 502nd is due).
CHOICE_LIMIT = 500
#: CardStock ends a game once it has run this many nodes without a choice ("Game stuck in
#: loop", ``GameIterator.AdvanceToChoice``: a stage's end check, an item of a stage body).
STUCK_NODES = 201

#: Who can own storage and card locations.
OwnerKind = str  # "game" | "player" | "team"


@dataclass(frozen=True, order=True)
class Location:
    """A concrete card location: owner (``game``, ``player2``, ``team1``), visibility, name."""

    owner: str
    vis: str
    name: str

    @property
    def owner_kind(self) -> OwnerKind:
        """``game``, ``player`` or ``team``."""
        return "game" if self.owner == "game" else ("player" if self.owner.startswith("player") else "team")

    def __str__(self) -> str:
        return f"({self.owner} {self.vis} {self.name})"


@dataclass(frozen=True)
class Card:
    """One card: its id, its attributes (key -> value, RECYCLE spelling) and where it is made."""

    id: str
    attrs: tuple[tuple[str, str], ...]
    home: Location

    def attr(self, key: str) -> str | None:
        """The card's value for ``key`` (None when it has none)."""
        return dict(self.attrs).get(key)


@dataclass
class GameModel:
    """Everything static about a game."""

    game: Game
    players: int
    teams: list[tuple[int, ...]]
    cards: list[Card]
    locations: list[Location]
    names: list[str]
    int_cells: dict[tuple[OwnerKind, str], None] = field(default_factory=dict)
    str_cells: dict[tuple[OwnerKind, str], None] = field(default_factory=dict)
    point_maps: dict[tuple[OwnerKind, str], None] = field(default_factory=dict)
    stage_ids: dict[int, str] = field(default_factory=dict)
    declared: dict[str, Node] = field(default_factory=dict)
    #: Each card's constant in the rules (made by :func:`~.vocabulary.card_constant` on first use).
    card_names: dict[str, str] = field(default_factory=dict)

    @property
    def seats(self) -> list[str]:
        """The players' names in seat order (``player0``...)."""
        return [f"player{i}" for i in range(self.players)]

    @property
    def team_names(self) -> list[str]:
        """The teams' names (``team0``...)."""
        return [f"team{i}" for i in range(len(self.teams))]

    def team_of(self, seat: int) -> int:
        """The team of a seat."""
        for index, members in enumerate(self.teams):
            if seat in members:
                return index
        raise KeyError(seat)

    def owners(self, kind: OwnerKind) -> list[str]:
        """Every owner of a kind."""
        if kind == "game":
            return ["game"]
        return self.seats if kind == "player" else self.team_names

    def stage_id(self, stage: Stage) -> str:
        """The id (``s1``...) of a stage node."""
        return self.stage_ids[id(stage)]

    def visible(self, seat: int, loc: Location) -> bool:
        """Whether the player in ``seat`` sees the cards of ``loc`` (the engine's visibility)."""
        if loc.vis in ("vloc", "mem"):
            return True
        if loc.vis == "hloc":
            return False
        own = loc.owner == f"player{seat}"
        return own if loc.vis == "iloc" else (loc.owner_kind == "player" and not own)

    def cards_at_start(self, loc: Location) -> list[Card]:
        """The cards created in a location, bottom first."""
        return [c for c in self.cards if c.home == loc]


def _literal_int(node: object, declared: dict[str, Node]) -> int | None:
    if isinstance(node, Var) and node.name in declared:
        node = declared[node.name]
    return node.value if isinstance(node, IntLit) else None


def owner_kind(node: object) -> OwnerKind:
    """The kind of owner an owner expression denotes."""
    if isinstance(node, GameOwner):
        return "game"
    kind = kind_of(node)
    if kind in ("player", "team"):
        return kind
    raise TranslationError(node, "this owner is neither the game, a player nor a team")


def _name_lists(game: Game, declared: dict[str, Node]) -> dict[str, set[str]]:
    """For each variable name, the names it can stand for (from name lists it ranges over)."""
    out: dict[str, set[str]] = {}
    for node in game.walk():
        if isinstance(node, (ActionAgg, BoolAgg, CardsAgg, Filter, IntAgg)):
            coll: Node = node.collection
            if isinstance(coll, Var) and coll.name in declared:
                coll = declared[coll.name]
            if isinstance(coll, NameList):
                out.setdefault(node.var.name, set()).update(coll.names)
    return out


def _storage_names(node: Node, lists: dict[str, set[str]]) -> list[str]:
    """The names a storage expression can have: its literal NAME, or the names of the list its
    variable ranges over; none for other nodes and other names."""
    name = getattr(node, "name", None) if isinstance(node, (IntStorage, StrStorage, PointStorage)) else None
    if isinstance(name, Name):
        return [name.text]
    if isinstance(name, Var) and name.name in lists:
        return sorted(lists[name.name])
    return []


def _location_names(loc: CardLocation, lists: dict[str, set[str]]) -> list[str]:
    if isinstance(loc.name, Name):
        return [loc.name.text]
    if isinstance(loc.name, Var) and loc.name.name in lists:
        return sorted(lists[loc.name.name])
    raise TranslationError(loc, "a card location's name must be a NAME or a variable over a list of names")


#: The most cards a game may create (the largest corpus game has 56).
MAX_CARDS = 10_000
#: The most players a game may have (the corpus's games have 2 to 7).
MAX_PLAYERS = 100


def _decks(game: Game, declared: dict[str, Node]) -> Iterable[tuple[CreateDeck, int]]:
    """The setup's decks with how many copies of each are made, in the engine's order: every
    plain ``create deck`` first, then the repeated ones (``GameIterator.ProcessSetup``), so an
    unshuffled pile is dealt from the same card."""
    for step in game.setup.decks:
        if isinstance(step, CreateDeck):
            yield step, 1
    for step in game.setup.decks:
        if isinstance(step, Repeat):
            times = _literal_int(step.count, declared)
            if times is None or not isinstance(step.action, CreateDeck):
                raise TranslationError(step, "a repeated deck needs a literal count")
            yield step.action, times


def written_names(game: Game) -> set[str]:
    """Every NAME the game's text writes (in name lists too)."""
    names: set[str] = set()
    for node in game.walk():
        if isinstance(node, Name):
            names.add(node.text)
        elif isinstance(node, NameList):
            names.update(node.names)
    return names


def build_model(game: Game) -> GameModel:
    """The static model of a (resolved) game."""
    declared: dict[str, Node] = {d.var.name: d.value for d in game.declarations}
    players = game.player_count()
    if players is None or players < 1:
        raise TranslationError(game.setup.players, "the number of players must be a literal or a declared literal")
    if players > MAX_PLAYERS:
        raise TranslationError(game.setup.players, f"{players} players: at most {MAX_PLAYERS} (each is a role of the rules)")
    teams: list[tuple[int, ...]] = []
    if game.setup.teams is not None:
        for spec in game.setup.teams.teams:
            if spec.subteams:
                raise TranslationError(spec, "nested sub-teams are not supported")
            teams.append(tuple(spec.members))
    named = {s for t in teams for s in t}
    teams += [(s,) for s in range(players) if s not in named]
    lists = _name_lists(game, declared)
    model = GameModel(game, players, teams, [], [], [], declared=declared)
    locations: set[Location] = set()
    for node in game.walk():
        if isinstance(node, CardLocation) and not isinstance(node.name, (IntLit,)):
            kind = owner_kind(node.owner)
            for owner in model.owners(kind):
                for name in _location_names(node, lists):
                    locations.add(Location(owner, node.visibility, name))
        elif isinstance(node, CardLocation):
            raise TranslationError(node, "numbered card locations are not supported")
        labels = _storage_names(node, lists)
        if isinstance(node, IntStorage) and labels:
            for label in labels:
                model.int_cells[(owner_kind(node.owner), label)] = None
        elif isinstance(node, StrStorage) and labels:
            for label in labels:
                model.str_cells[(owner_kind(node.owner), label)] = None
        elif isinstance(node, PointStorage) and labels:
            for label in labels:
                model.point_maps[(owner_kind(node.owner), label)] = None
        elif isinstance(node, SetPoints) and isinstance(node.target, Var):
            model.point_maps[("game", node.target.name)] = None
        elif isinstance(node, (IntStorage, StrStorage, PointStorage)):
            raise TranslationError(node, "storage names must be literal NAMEs")
    count = 0
    for create, times in _decks(game, declared):
        place, owner = _setup_home(create, model.seats)
        home = Location(owner, place.visibility, _location_names(place, lists)[0])
        locations.add(home)
        for _ in range(times):
            for attrs in create.deck.cards():
                count += 1
                if count > MAX_CARDS:
                    raise TranslationError(create, f"the game creates more than {MAX_CARDS} cards (each card is a "
                                           "constant of the rules and a fluent of every state)")
                model.cards.append(Card(f"c{count}", tuple(attrs.items()), home))
    model.locations = sorted(locations)
    names = written_names(game)
    for card in model.cards:
        for key, value in card.attrs:
            names.update((key, value))
    model.names = sorted(names)
    stages = [n for n in game.walk() if isinstance(n, Stage)]
    model.stage_ids = {id(s): f"s{i + 1}" for i, s in enumerate(stages)}
    for node in game.walk():
        if isinstance(node, (AllTeams,)) and len(teams) == 0:
            raise TranslationError(node, "the game has no teams")
        if isinstance(node, AllPlayers):
            pass
    return model


def _setup_home(create: CreateDeck, seats: list[str]) -> tuple[CardLocation, str]:
    """The location a deck is created in, and its owner: the game, or a player named by its seat
    or as the setup sees it (the current player is the first seat)."""
    location = create.location
    if isinstance(location, CardLocation):
        owner = location.owner
        if isinstance(owner, GameOwner):
            return location, "game"
        if isinstance(owner, PlayerAt) and isinstance(owner.index, IntLit) and owner.index.value < len(seats):
            return location, seats[owner.index.value]
        if isinstance(owner, RelativePlayer):
            return location, seats[{"current": 0, "next": 1 % len(seats), "previous": -1}[owner.which]]
    raise TranslationError(create, "decks are created in a location of the game or of a player named by "
                                   "its number, `(0 player)`, or as `(current player)`")


__all__ = ["Card", "GameModel", "Location", "OwnerKind", "build_model", "owner_kind", "written_names"]
