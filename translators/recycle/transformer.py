"""From Lark's parse tree of ``recycle.lark`` to the typed syntax tree of :mod:`.nodes`.

One method per grammar rule (or alias), each building the node for that construct with the
rule's line and column. Rules marked ``!`` in the grammar give their keyword as a string.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from lark import Token, Transformer, v_args
from lark.tree import Meta

from translators.recycle.nodes import (
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

N = TypeVar("N", bound=Node)


def _at(meta: Meta, node: N) -> N:
    object.__setattr__(node, "line", getattr(meta, "line", 0))
    object.__setattr__(node, "column", getattr(meta, "column", 0))
    return node


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
        return _at(m, Var(str(c[0])[1:]))

    def name(self, m: Meta, c: list[Any]) -> Name:
        return _at(m, Name(str(c[0])))

    def int_literal(self, m: Meta, c: list[Any]) -> IntLit:
        return _at(m, IntLit(int(c[0])))

    # ------------------------------------------------------------ game structure
    def game(self, m: Meta, c: list[Any]) -> Game:
        declarations = tuple(x for x in c if isinstance(x, Declare))
        setup = next(x for x in c if isinstance(x, Setup))
        flow = tuple(c[len(declarations) + 1 : -1])
        return _at(m, Game(declarations, setup, flow, cast(Scoring, c[-1])))

    def declare(self, m: Meta, c: list[Any]) -> Declare:
        return _at(m, Declare(c[0], c[1]))

    def setup(self, m: Meta, c: list[Any]) -> Setup:
        teams = c[1] if len(c) > 1 and isinstance(c[1], CreateTeams) else None
        decks = tuple(c[2:] if teams is not None else c[1:])
        return _at(m, Setup(c[0], teams, decks))

    def create_players(self, m: Meta, c: list[Any]) -> CreatePlayers:
        return _at(m, CreatePlayers(c[0]))

    def scoring(self, m: Meta, c: list[Any]) -> Scoring:
        return _at(m, Scoring(c[0], c[1]))

    def stage(self, m: Meta, c: list[Any]) -> Stage:
        return _at(m, Stage(c[0], c[1], tuple(c[2:])))

    def end_condition(self, m: Meta, c: list[Any]) -> Any:
        return c[0]

    def choice(self, m: Meta, c: list[Any]) -> Choice:
        return _at(m, Choice(tuple(c)))

    def do(self, m: Meta, c: list[Any]) -> Do:
        return _at(m, Do(tuple(c)))

    def conditional(self, m: Meta, c: list[Any]) -> Conditional:
        return _at(m, Conditional(c[0], c[1]))

    def let(self, m: Meta, c: list[Any]) -> Let:
        return _at(m, Let(c[0], c[1], c[2]))

    # ------------------------------------------------------------ actions
    def action_all(self, m: Meta, c: list[Any]) -> ActionAgg:
        return _at(m, ActionAgg("all", c[0], c[1], c[2]))

    def action_any(self, m: Meta, c: list[Any]) -> ActionAgg:
        return _at(m, ActionAgg("any", c[0], c[1], c[2]))

    def move(self, m: Meta, c: list[Any]) -> Move:
        return _at(m, Move(c[0], c[1]))

    def remember(self, m: Meta, c: list[Any]) -> Remember:
        return _at(m, Remember(c[0], c[1]))

    def forget(self, m: Meta, c: list[Any]) -> Forget:
        return _at(m, Forget(c[0]))

    def shuffle(self, m: Meta, c: list[Any]) -> Shuffle:
        return _at(m, Shuffle(c[0]))

    def faro_shuffle(self, m: Meta, c: list[Any]) -> FaroShuffle:
        return _at(m, FaroShuffle(c[0], c[1]))

    def set_int(self, m: Meta, c: list[Any]) -> IntUpdate:
        return _at(m, IntUpdate("set", c[0], c[1]))

    def inc_int(self, m: Meta, c: list[Any]) -> IntUpdate:
        return _at(m, IntUpdate("inc", c[0], c[1]))

    def dec_int(self, m: Meta, c: list[Any]) -> IntUpdate:
        return _at(m, IntUpdate("dec", c[0], c[1]))

    def set_str(self, m: Meta, c: list[Any]) -> SetStr:
        return _at(m, SetStr(c[0], c[1]))

    def set_points(self, m: Meta, c: list[Any]) -> SetPoints:
        return _at(m, SetPoints(c[0], tuple(c[1:])))

    put_points = set_points

    def award(self, m: Meta, c: list[Any]) -> Award:
        return _at(m, Award(tuple(c[:-1]), c[-1]))

    def condition_pair(self, m: Meta, c: list[Any]) -> AttrPair:
        return _at(m, AttrPair(c[0], c[1]))

    condition_pair_old = condition_pair

    def condition_pair_paren(self, m: Meta, c: list[Any]) -> AttrPair:
        token = cast(Token, c[1])
        value = Name(str(token), line=token.line or 0, column=token.column or 0)
        return _at(m, AttrPair(c[0], value))

    def cycle(self, m: Meta, c: list[Any]) -> Cycle:
        return _at(m, Cycle(c[0], c[1]))

    def turn_pass(self, m: Meta, c: list[Any]) -> TurnPass:
        return _at(m, TurnPass())

    def repeat(self, m: Meta, c: list[Any]) -> Repeat:
        return _at(m, Repeat(c[0], c[1]))

    def repeat_all(self, m: Meta, c: list[Any]) -> RepeatAll:
        return _at(m, RepeatAll(c[0]))

    def create_teams(self, m: Meta, c: list[Any]) -> CreateTeams:
        return _at(m, CreateTeams(tuple(c)))

    def team_spec(self, m: Meta, c: list[Any]) -> TeamSpec:
        members = tuple(int(x) for x in c if isinstance(x, Token))
        return _at(m, TeamSpec(members, tuple(x for x in c if isinstance(x, TeamSpec))))

    def create_deck(self, m: Meta, c: list[Any]) -> CreateDeck:
        name = str(c[0]) if isinstance(c[0], Token) else None
        rest = c[1:] if name is not None else c
        return _at(m, CreateDeck(rest[0], rest[1], name))

    def deck(self, m: Meta, c: list[Any]) -> Deck:
        return _at(m, Deck(tuple(c)))

    def attribute(self, m: Meta, c: list[Any]) -> Attribute:
        names = tuple(str(x) for x in c if isinstance(x, Token))
        return _at(m, Attribute(names, tuple(x for x in c if isinstance(x, Attribute))))

    # ------------------------------------------------------------ owners
    def game_owner(self, m: Meta, c: list[Any]) -> GameOwner:
        return _at(m, GameOwner())

    def relative_player(self, m: Meta, c: list[Any]) -> RelativePlayer:
        return _at(m, RelativePlayer(c[0]))

    def player_at(self, m: Meta, c: list[Any]) -> PlayerAt:
        return _at(m, PlayerAt(c[0]))

    def owner_of(self, m: Meta, c: list[Any]) -> OwnerOf:
        return _at(m, OwnerOf(c[0]))

    def relative_team(self, m: Meta, c: list[Any]) -> RelativeTeam:
        return _at(m, RelativeTeam(c[0]))

    def team_at(self, m: Meta, c: list[Any]) -> TeamAt:
        return _at(m, TeamAt(c[0]))

    def team_of(self, m: Meta, c: list[Any]) -> TeamOf:
        return _at(m, TeamOf(c[0]))

    # ------------------------------------------------------------ integers and strings
    def arith(self, m: Meta, c: list[Any]) -> Arith:
        return _at(m, Arith(cast(Any, str(c[0])), c[1], c[2]))

    def mod(self, m: Meta, c: list[Any]) -> Arith:
        return _at(m, Arith("%", c[0], c[1]))

    def tri(self, m: Meta, c: list[Any]) -> Tri:
        return _at(m, Tri(c[0]))

    def fib(self, m: Meta, c: list[Any]) -> Fib:
        return _at(m, Fib(c[0]))

    def random(self, m: Meta, c: list[Any]) -> Random:
        return _at(m, Random(None, c[0]) if len(c) == 1 else Random(c[0], c[1]))

    def size(self, m: Meta, c: list[Any]) -> Size:
        return _at(m, Size(c[0]))

    def sum(self, m: Meta, c: list[Any]) -> Sum:
        return _at(m, Sum(c[0], c[1]))

    def score(self, m: Meta, c: list[Any]) -> Score:
        return _at(m, Score(c[0], c[1]))

    def int_storage(self, m: Meta, c: list[Any]) -> IntStorage:
        return _at(m, IntStorage(c[0], c[1]))

    def int_agg(self, m: Meta, c: list[Any]) -> IntAgg:
        return _at(m, IntAgg(c[0], c[1], c[2]))

    def str_storage(self, m: Meta, c: list[Any]) -> StrStorage:
        return _at(m, StrStorage(c[0], c[1]))

    def cardatt(self, m: Meta, c: list[Any]) -> CardAtt:
        return _at(m, CardAtt(c[0], c[1]))

    def point_storage(self, m: Meta, c: list[Any]) -> PointStorage:
        return _at(m, PointStorage(c[0], c[1]))

    # ------------------------------------------------------------ cards and collections
    def card_at(self, m: Meta, c: list[Any]) -> CardAt:
        return _at(m, CardAt(c[0], c[1]))

    card_at_index = card_at

    def extreme_card(self, m: Meta, c: list[Any]) -> ExtremeCard:
        return _at(m, ExtremeCard(c[0], c[1], c[2]))

    def actual(self, m: Meta, c: list[Any]) -> ActualCard:
        return _at(m, ActualCard(c[0]))

    def location(self, m: Meta, c: list[Any]) -> CardLocation:
        return _at(m, CardLocation(c[0], c[1], c[2]))

    def new_name(self, m: Meta, c: list[Any]) -> NewName:
        return _at(m, NewName())

    def set_op(self, m: Meta, c: list[Any]) -> SetOp:
        return _at(m, SetOp(c[0], _parts(c[1:])))

    def sort(self, m: Meta, c: list[Any]) -> Sort:
        return _at(m, Sort(c[0], c[1]))

    def filter(self, m: Meta, c: list[Any]) -> Filter:
        return _at(m, Filter(c[0], c[1], c[2]))

    def collection_at(self, m: Meta, c: list[Any]) -> CollectionAt:
        return _at(m, CollectionAt(c[0], c[1]))

    collection_at_index = collection_at

    def slice(self, m: Meta, c: list[Any]) -> Slice:
        return _at(m, Slice(c[0], c[1], c[2]))

    def run(self, m: Meta, c: list[Any]) -> Run:
        return _at(m, Run(c[0], c[1], c[2], c[3]))

    def tuples(self, m: Meta, c: list[Any]) -> Tuples:
        return _at(m, Tuples(c[0], c[1], c[2]))

    def partition(self, m: Meta, c: list[Any]) -> Partition:
        return _at(m, Partition(c[0], _parts(c[1:])))

    def subsets(self, m: Meta, c: list[Any]) -> Subsets:
        return _at(m, Subsets(c[0]))

    def runs(self, m: Meta, c: list[Any]) -> Runs:
        return _at(m, Runs(c[0], c[1], c[2], c[3]))

    def cards_agg(self, m: Meta, c: list[Any]) -> CardsAgg:
        return _at(m, CardsAgg(c[0], c[1], c[2]))

    def name_list(self, m: Meta, c: list[Any]) -> NameList:
        return _at(m, NameList(tuple(str(x) for x in c)))

    def all_players(self, m: Meta, c: list[Any]) -> AllPlayers:
        return _at(m, AllPlayers())

    def all_teams(self, m: Meta, c: list[Any]) -> AllTeams:
        return _at(m, AllTeams())

    def other(self, m: Meta, c: list[Any]) -> Others:
        return _at(m, Others(c[0]))

    def range(self, m: Meta, c: list[Any]) -> Range:
        return _at(m, Range(c[0], c[1]))

    # ------------------------------------------------------------ booleans
    def conj(self, m: Meta, c: list[Any]) -> And:
        return _at(m, And(tuple(c)))

    def disj(self, m: Meta, c: list[Any]) -> Or:
        return _at(m, Or(tuple(c)))

    def neg(self, m: Meta, c: list[Any]) -> Not:
        return _at(m, Not(c[0]))

    def compare(self, m: Meta, c: list[Any]) -> Compare:
        left, right = c[1], c[2]
        kind = _compare_kind(left)
        if kind == "unknown":
            kind = _compare_kind(right)
        return _at(m, Compare(cast(Any, str(c[0])), left, right, kind))

    def bool_all(self, m: Meta, c: list[Any]) -> BoolAgg:
        return _at(m, BoolAgg("all", c[0], c[1], c[2]))

    def bool_any(self, m: Meta, c: list[Any]) -> BoolAgg:
        return _at(m, BoolAgg("any", c[0], c[1], c[2]))

