"""From Lark's parse tree of ``recycle.lark`` to the typed syntax tree of :mod:`.nodes`.

One method per grammar rule (or alias), each building the node for that construct with the
rule's line and column. Rules marked ``!`` in the grammar give their keyword as a string.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from lark import Token, Transformer, v_args
from lark.tree import Meta

from translators.recycle.syntax.nodes import (
    ActionAgg,
    ActualCard,
    AllPlayers,
    AllTeams,
    And,
    Arith,
    Attribute,
    AttrPair,
    Award,
    BoolAgg,
    CardAt,
    CardAtt,
    CardLocation,
    CardsAgg,
    Choice,
    CollectionAt,
    Compare,
    CompareKind,
    Conditional,
    CreateDeck,
    CreatePlayers,
    CreateTeams,
    Cycle,
    Deck,
    Declare,
    Do,
    ExtremeCard,
    FaroShuffle,
    Fib,
    Filter,
    Forget,
    Game,
    GameOwner,
    IntAgg,
    IntLit,
    IntStorage,
    IntUpdate,
    Let,
    Move,
    Name,
    NameList,
    NewName,
    Node,
    Not,
    Or,
    Others,
    OwnerOf,
    Partition,
    PlayerAt,
    PointStorage,
    Random,
    Range,
    RelativePlayer,
    RelativeTeam,
    Remember,
    Repeat,
    RepeatAll,
    Run,
    Runs,
    Score,
    Scoring,
    SetOp,
    SetPoints,
    SetStr,
    Setup,
    Shuffle,
    Size,
    Slice,
    Sort,
    Stage,
    StrStorage,
    Subsets,
    Sum,
    TeamAt,
    TeamOf,
    TeamSpec,
    Tri,
    Tuples,
    TurnPass,
    Var,
)


class _Position(TypedDict):
    line: int
    column: int


def _pos(meta: Meta) -> _Position:
    """The ``line`` and ``column`` arguments of a node built for a rule."""
    return {"line": getattr(meta, "line", 0), "column": getattr(meta, "column", 0)}


def _compare_kind(node: Node) -> CompareKind:
    """What a comparison operand is, from its form alone (``unknown`` for a variable)."""
    if isinstance(node, (IntLit, Arith, Tri, Fib, Random, Size, Sum, Score, IntStorage, IntAgg)):
        return "int"
    if isinstance(node, (Name, StrStorage, CardAtt)):
        return "str"
    if isinstance(node, (CardAt, ExtremeCard, ActualCard)):
        return "card"
    if isinstance(node, (RelativePlayer, PlayerAt, OwnerOf)):
        return "player"
    if isinstance(node, (RelativeTeam, TeamAt, TeamOf)):
        return "team"
    return "unknown"


def _parts(children: list[Any]) -> Any:
    """The operands of ``union``/``partition``: a tuple of collections, or one ``all``."""
    if len(children) == 1 and isinstance(children[0], CardsAgg):
        return children[0]
    return tuple(children)


@v_args(meta=True)
class ToNodes(Transformer[Token, Any]):
    """Builds :mod:`.nodes` objects from the parse tree, bottom up; every method gets the
    rule's ``meta`` (its position) and its children."""

    # ------------------------------------------------------------ fragments and tokens
    def start(self, m: Meta, c: list[Any]) -> Any:
        return c[0]

    frag_item = frag_flow = frag_boolean = frag_int = frag_str = start
    frag_card = frag_collection = frag_owner = frag_value = start

    def _keyword(self, m: Meta, c: list[Any]) -> str:
        return str(c[0])

    scoring_order = stage_kind = cycle_which = relative_word = visibility = _keyword
    set_operator = extreme = end = runs_mode = _keyword

    def var(self, m: Meta, c: list[Any]) -> Var:
        return Var(str(c[0])[1:], **_pos(m))

    def name(self, m: Meta, c: list[Any]) -> Name:
        return Name(str(c[0]), **_pos(m))

    def int_literal(self, m: Meta, c: list[Any]) -> IntLit:
        return IntLit(int(c[0]), **_pos(m))

    # ------------------------------------------------------------ game structure
    def game(self, m: Meta, c: list[Any]) -> Game:
        declarations = tuple(x for x in c if isinstance(x, Declare))
        setup = next(x for x in c if isinstance(x, Setup))
        flow = tuple(c[len(declarations) + 1 : -1])
        return Game(declarations, setup, flow, cast(Scoring, c[-1]), **_pos(m))

    def declare(self, m: Meta, c: list[Any]) -> Declare:
        return Declare(c[0], c[1], **_pos(m))

    def setup(self, m: Meta, c: list[Any]) -> Setup:
        teams = c[1] if len(c) > 1 and isinstance(c[1], CreateTeams) else None
        decks = tuple(c[2:] if teams is not None else c[1:])
        return Setup(c[0], teams, decks, **_pos(m))

    def create_players(self, m: Meta, c: list[Any]) -> CreatePlayers:
        return CreatePlayers(c[0], **_pos(m))

    def scoring(self, m: Meta, c: list[Any]) -> Scoring:
        return Scoring(c[0], c[1], **_pos(m))

    def stage(self, m: Meta, c: list[Any]) -> Stage:
        return Stage(c[0], c[1], tuple(c[2:]), **_pos(m))

    def end_condition(self, m: Meta, c: list[Any]) -> Any:
        return c[0]

    def choice(self, m: Meta, c: list[Any]) -> Choice:
        return Choice(tuple(c), **_pos(m))

    def do(self, m: Meta, c: list[Any]) -> Do:
        return Do(tuple(c), **_pos(m))

    def conditional(self, m: Meta, c: list[Any]) -> Conditional:
        return Conditional(c[0], c[1], **_pos(m))

    def let(self, m: Meta, c: list[Any]) -> Let:
        return Let(c[0], c[1], c[2], **_pos(m))

    # ------------------------------------------------------------ actions
    def action_all(self, m: Meta, c: list[Any]) -> ActionAgg:
        return ActionAgg("all", c[0], c[1], c[2], **_pos(m))

    def action_any(self, m: Meta, c: list[Any]) -> ActionAgg:
        return ActionAgg("any", c[0], c[1], c[2], **_pos(m))

    def move(self, m: Meta, c: list[Any]) -> Move:
        return Move(c[0], c[1], **_pos(m))

    def remember(self, m: Meta, c: list[Any]) -> Remember:
        return Remember(c[0], c[1], **_pos(m))

    def forget(self, m: Meta, c: list[Any]) -> Forget:
        return Forget(c[0], **_pos(m))

    def shuffle(self, m: Meta, c: list[Any]) -> Shuffle:
        return Shuffle(c[0], **_pos(m))

    def faro_shuffle(self, m: Meta, c: list[Any]) -> FaroShuffle:
        return FaroShuffle(c[0], c[1], **_pos(m))

    def set_int(self, m: Meta, c: list[Any]) -> IntUpdate:
        return IntUpdate("set", c[0], c[1], **_pos(m))

    def inc_int(self, m: Meta, c: list[Any]) -> IntUpdate:
        return IntUpdate("inc", c[0], c[1], **_pos(m))

    def dec_int(self, m: Meta, c: list[Any]) -> IntUpdate:
        return IntUpdate("dec", c[0], c[1], **_pos(m))

    def set_str(self, m: Meta, c: list[Any]) -> SetStr:
        return SetStr(c[0], c[1], **_pos(m))

    def set_points(self, m: Meta, c: list[Any]) -> SetPoints:
        return SetPoints(c[0], tuple(c[1:]), **_pos(m))

    put_points = set_points

    def award(self, m: Meta, c: list[Any]) -> Award:
        return Award(tuple(c[:-1]), c[-1], **_pos(m))

    def condition_pair(self, m: Meta, c: list[Any]) -> AttrPair:
        return AttrPair(c[0], c[1], **_pos(m))

    condition_pair_old = condition_pair

    def condition_pair_paren(self, m: Meta, c: list[Any]) -> AttrPair:
        token = cast(Token, c[1])
        value = Name(str(token), line=token.line or 0, column=token.column or 0)
        return AttrPair(c[0], value, **_pos(m))

    def cycle(self, m: Meta, c: list[Any]) -> Cycle:
        return Cycle(c[0], c[1], **_pos(m))

    def turn_pass(self, m: Meta, c: list[Any]) -> TurnPass:
        return TurnPass(**_pos(m))

    def repeat(self, m: Meta, c: list[Any]) -> Repeat:
        return Repeat(c[0], c[1], **_pos(m))

    def repeat_all(self, m: Meta, c: list[Any]) -> RepeatAll:
        return RepeatAll(c[0], **_pos(m))

    def create_teams(self, m: Meta, c: list[Any]) -> CreateTeams:
        return CreateTeams(tuple(c), **_pos(m))

    def team_spec(self, m: Meta, c: list[Any]) -> TeamSpec:
        members = tuple(int(x) for x in c if isinstance(x, Token))
        return TeamSpec(members, tuple(x for x in c if isinstance(x, TeamSpec)), **_pos(m))

    def create_deck(self, m: Meta, c: list[Any]) -> CreateDeck:
        name = str(c[0]) if isinstance(c[0], Token) else None
        rest = c[1:] if name is not None else c
        return CreateDeck(rest[0], rest[1], name, **_pos(m))

    def deck(self, m: Meta, c: list[Any]) -> Deck:
        return Deck(tuple(c), **_pos(m))

    def attribute(self, m: Meta, c: list[Any]) -> Attribute:
        names = tuple(str(x) for x in c if isinstance(x, Token))
        return Attribute(names, tuple(x for x in c if isinstance(x, Attribute)), **_pos(m))

    # ------------------------------------------------------------ owners
    def game_owner(self, m: Meta, c: list[Any]) -> GameOwner:
        return GameOwner(**_pos(m))

    def relative_player(self, m: Meta, c: list[Any]) -> RelativePlayer:
        return RelativePlayer(c[0], **_pos(m))

    def player_at(self, m: Meta, c: list[Any]) -> PlayerAt:
        return PlayerAt(c[0], **_pos(m))

    def owner_of(self, m: Meta, c: list[Any]) -> OwnerOf:
        return OwnerOf(c[0], **_pos(m))

    def relative_team(self, m: Meta, c: list[Any]) -> RelativeTeam:
        return RelativeTeam(c[0], **_pos(m))

    def team_at(self, m: Meta, c: list[Any]) -> TeamAt:
        return TeamAt(c[0], **_pos(m))

    def team_of(self, m: Meta, c: list[Any]) -> TeamOf:
        return TeamOf(c[0], **_pos(m))

    # ------------------------------------------------------------ integers and strings
    def arith(self, m: Meta, c: list[Any]) -> Arith:
        return Arith(cast(Any, str(c[0])), c[1], c[2], **_pos(m))

    def mod(self, m: Meta, c: list[Any]) -> Arith:
        return Arith("%", c[0], c[1], **_pos(m))

    def tri(self, m: Meta, c: list[Any]) -> Tri:
        return Tri(c[0], **_pos(m))

    def fib(self, m: Meta, c: list[Any]) -> Fib:
        return Fib(c[0], **_pos(m))

    def random(self, m: Meta, c: list[Any]) -> Random:
        return Random(None, c[0], **_pos(m)) if len(c) == 1 else Random(c[0], c[1], **_pos(m))

    def size(self, m: Meta, c: list[Any]) -> Size:
        return Size(c[0], **_pos(m))

    def sum(self, m: Meta, c: list[Any]) -> Sum:
        return Sum(c[0], c[1], **_pos(m))

    def score(self, m: Meta, c: list[Any]) -> Score:
        return Score(c[0], c[1], **_pos(m))

    def int_storage(self, m: Meta, c: list[Any]) -> IntStorage:
        return IntStorage(c[0], c[1], **_pos(m))

    def int_agg(self, m: Meta, c: list[Any]) -> IntAgg:
        return IntAgg(c[0], c[1], c[2], **_pos(m))

    def str_storage(self, m: Meta, c: list[Any]) -> StrStorage:
        return StrStorage(c[0], c[1], **_pos(m))

    def cardatt(self, m: Meta, c: list[Any]) -> CardAtt:
        return CardAtt(c[0], c[1], **_pos(m))

    def point_storage(self, m: Meta, c: list[Any]) -> PointStorage:
        return PointStorage(c[0], c[1], **_pos(m))

    # ------------------------------------------------------------ cards and collections
    def card_at(self, m: Meta, c: list[Any]) -> CardAt:
        return CardAt(c[0], c[1], **_pos(m))

    card_at_index = card_at

    def extreme_card(self, m: Meta, c: list[Any]) -> ExtremeCard:
        return ExtremeCard(c[0], c[1], c[2], **_pos(m))

    def actual(self, m: Meta, c: list[Any]) -> ActualCard:
        return ActualCard(c[0], **_pos(m))

    def location(self, m: Meta, c: list[Any]) -> CardLocation:
        return CardLocation(c[0], c[1], c[2], **_pos(m))

    def new_name(self, m: Meta, c: list[Any]) -> NewName:
        return NewName(**_pos(m))

    def set_op(self, m: Meta, c: list[Any]) -> SetOp:
        return SetOp(c[0], _parts(c[1:]), **_pos(m))

    def sort(self, m: Meta, c: list[Any]) -> Sort:
        return Sort(c[0], c[1], **_pos(m))

    def filter(self, m: Meta, c: list[Any]) -> Filter:
        return Filter(c[0], c[1], c[2], **_pos(m))

    def collection_at(self, m: Meta, c: list[Any]) -> CollectionAt:
        return CollectionAt(c[0], c[1], **_pos(m))

    collection_at_index = collection_at

    def slice(self, m: Meta, c: list[Any]) -> Slice:
        return Slice(c[0], c[1], c[2], **_pos(m))

    def run(self, m: Meta, c: list[Any]) -> Run:
        return Run(c[0], c[1], c[2], c[3], **_pos(m))

    def tuples(self, m: Meta, c: list[Any]) -> Tuples:
        return Tuples(c[0], c[1], c[2], **_pos(m))

    def partition(self, m: Meta, c: list[Any]) -> Partition:
        return Partition(c[0], _parts(c[1:]), **_pos(m))

    def subsets(self, m: Meta, c: list[Any]) -> Subsets:
        return Subsets(c[0], **_pos(m))

    def runs(self, m: Meta, c: list[Any]) -> Runs:
        return Runs(c[0], c[1], c[2], c[3], **_pos(m))

    def cards_agg(self, m: Meta, c: list[Any]) -> CardsAgg:
        return CardsAgg(c[0], c[1], c[2], **_pos(m))

    def name_list(self, m: Meta, c: list[Any]) -> NameList:
        return NameList(tuple(str(x) for x in c), **_pos(m))

    def all_players(self, m: Meta, c: list[Any]) -> AllPlayers:
        return AllPlayers(**_pos(m))

    def all_teams(self, m: Meta, c: list[Any]) -> AllTeams:
        return AllTeams(**_pos(m))

    def other(self, m: Meta, c: list[Any]) -> Others:
        return Others(c[0], **_pos(m))

    def range(self, m: Meta, c: list[Any]) -> Range:
        return Range(c[0], c[1], **_pos(m))

    # ------------------------------------------------------------ booleans
    def conj(self, m: Meta, c: list[Any]) -> And:
        return And(tuple(c), **_pos(m))

    def disj(self, m: Meta, c: list[Any]) -> Or:
        return Or(tuple(c), **_pos(m))

    def neg(self, m: Meta, c: list[Any]) -> Not:
        return Not(c[0], **_pos(m))

    def compare(self, m: Meta, c: list[Any]) -> Compare:
        left, right = c[1], c[2]
        kind = _compare_kind(left)
        if kind == "unknown":
            kind = _compare_kind(right)
        return Compare(cast(Any, str(c[0])), left, right, kind, **_pos(m))

    def bool_all(self, m: Meta, c: list[Any]) -> BoolAgg:
        return BoolAgg("all", c[0], c[1], c[2], **_pos(m))

    def bool_any(self, m: Meta, c: list[Any]) -> BoolAgg:
        return BoolAgg("any", c[0], c[1], c[2], **_pos(m))

