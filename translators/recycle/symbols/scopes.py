"""Checks on variables: every use bound in scope, of a kind that fits where it is used.

Variables are bound by ``declare`` (the whole game), ``let`` (its body), ``all``/``any``/
``filter`` (their body or condition) and the 0.5 ``put points`` (global point maps). A use
outside every binding of its name is reported as undeclared, or as out of scope when the name
is bound elsewhere. Where the grammar says what a position holds (a card, an integer, a card
collection...), a variable of another kind there is an error; comparisons must compare like
with like, and ``<``, ``>``, ``<=``, ``>=`` only integers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ggp.errors import Location, Problem
from translators.recycle.syntax.kinds import BINDERS, kind_of, point_map_variables
from translators.recycle.syntax.nodes import (
    ActionAgg,
    ActualCard,
    Arith,
    AttrPair,
    Award,
    BoolAgg,
    CardAt,
    CardAtt,
    CardLocation,
    CardsAgg,
    CollectionAt,
    Compare,
    CreateDeck,
    CreatePlayers,
    Cycle,
    Declare,
    ExtremeCard,
    FaroShuffle,
    Fib,
    Filter,
    Forget,
    Game,
    IntAgg,
    IntStorage,
    IntUpdate,
    Kind,
    Let,
    Move,
    Node,
    OwnerOf,
    Partition,
    PlayerAt,
    PointStorage,
    Random,
    Range,
    Remember,
    Repeat,
    Run,
    Runs,
    Score,
    Scoring,
    SetOp,
    SetPoints,
    SetStr,
    Shuffle,
    Size,
    Slice,
    Sort,
    StrStorage,
    Subsets,
    Sum,
    TeamAt,
    TeamOf,
    Tri,
    Tuples,
    Var,
)

_INT = frozenset({"int"})
_STR = frozenset({"str"})
_CARD = frozenset({"card"})
_CARDS = frozenset({"cards"})
_OWNER = frozenset({"player", "team"})
_PLAYER = frozenset({"player"})
_POINTS = frozenset({"points"})
_COLLECTION = frozenset({"cards", "groups", "strs", "ints", "players", "teams", "team"})

#: What each position of the tree holds, where the grammar says: (class, field) -> kinds.
EXPECTED: dict[tuple[type, str], frozenset[str]] = {
    **{(cls, f): _INT for cls, f in [
        (Arith, "left"), (Arith, "right"), (Tri, "arg"), (Fib, "arg"), (Random, "low"),
        (Random, "high"), (PlayerAt, "index"), (TeamAt, "index"), (CardAt, "position"),
        (CollectionAt, "position"), (Slice, "count"), (Run, "length"), (Tuples, "size"),
        (Runs, "length"), (Range, "low"), (Range, "high"), (IntUpdate, "value"),
        (Award, "points"), (Repeat, "count"), (CreatePlayers, "count"), (Scoring, "value"),
    ]},
    **{(cls, f): _STR for cls, f in [
        (IntStorage, "name"), (StrStorage, "name"), (PointStorage, "name"), (CardAtt, "key"),
        (SetStr, "value"), (AttrPair, "key"), (AttrPair, "value"), (Partition, "key"),
    ]},
    **{(cls, f): _CARD for cls, f in [
        (Score, "card"), (CardAtt, "card"), (OwnerOf, "card"), (ActualCard, "card"),
        (Move, "source"), (Move, "target"), (Remember, "source"), (Remember, "target"),
        (Forget, "card"),
    ]},
    **{(cls, f): _CARDS for cls, f in [
        (Sum, "cards"), (ExtremeCard, "cards"), (CardAt, "cards"), (SetOp, "parts"),
        (Sort, "cards"), (Slice, "cards"), (Run, "cards"), (Tuples, "cards"),
        (Partition, "parts"), (Subsets, "cards"), (Runs, "cards"), (CardsAgg, "body"),
        (Shuffle, "cards"), (FaroShuffle, "first"), (FaroShuffle, "second"),
        (CreateDeck, "location"),
    ]},
    **{(cls, f): _POINTS for cls, f in [
        (Sum, "points"), (Score, "points"), (ExtremeCard, "points"), (Sort, "points"),
        (Run, "points"), (Tuples, "points"), (Runs, "points"),
    ]},
    **{(cls, "collection"): _COLLECTION for cls in (Size, IntAgg, Filter, CardsAgg, BoolAgg, ActionAgg)},
    **{(cls, "owner"): _OWNER for cls in (IntStorage, StrStorage, PointStorage, CardLocation)},
    (CardLocation, "name"): frozenset({"str", "int"}),
    (TeamOf, "player"): _PLAYER,
    (Cycle, "target"): _PLAYER,
}

_KIND_WORDS: dict[str, str] = {
    "int": "an integer", "str": "a string", "bool": "a condition", "card": "a card",
    "cards": "a card collection", "groups": "a collection of card collections",
    "player": "a player", "team": "a team", "strs": "a collection of strings",
    "ints": "a range of integers", "players": "a collection of players",
    "teams": "a collection of teams", "points": "a point map",
}
_COMPARABLE = ("int", "str", "card", "player", "team")
_PLURALS = {"str": "strings", "card": "cards", "player": "players", "team": "teams"}


def kind_words(kind: str) -> str:
    """A kind in words: ``cards`` is "a card collection"."""
    return _KIND_WORDS.get(kind, kind)


def _expected_words(kinds: frozenset[str]) -> str:
    if kinds == _COLLECTION:
        return "a collection"
    return " or ".join(kind_words(k) for k in sorted(kinds))


class _ScopeChecker:
    """One walk over the game with the variables in scope; collects problems."""

    def __init__(self, game: Game):
        self.file = game.source
        self.problems: list[Problem] = []
        self.binders: dict[str, list[Node]] = {}
        for node in game.walk():
            if type(node) in BINDERS:
                self.binders.setdefault(getattr(node, BINDERS[type(node)][1]).name, []).append(node)
        self.uses: dict[int, int] = {}

    def problem(self, node: Node, message: str, severity: str = "error") -> None:
        self.problems.append(Problem(Location(self.file, node.line, node.column), message,
                                     "warning" if severity == "warning" else "error"))

    def use(self, var: Var, env: Mapping[str, tuple[Kind, Node | None]], expected: frozenset[str] | None) -> None:
        bound = env.get(var.name)
        if bound is None:
            elsewhere = self.binders.get(var.name)
            if elsewhere:
                where = elsewhere[0]
                what = getattr(where, "quantifier", type(where).__name__.lower())
                what = "all" if what in ("cardsagg", "intagg") else what
                self.problem(var, f"'{var.name} is used out of scope: it is only defined inside the "
                             f"`{what}` at line {where.line}")
            else:
                self.problem(var, f"'{var.name} is not declared (no `declare`, `let`, `all`, `any` "
                             "or `filter` defines it here)")
            return
        kind, binder = bound
        if binder is not None:
            self.uses[id(binder)] = self.uses.get(id(binder), 0) + 1
        if expected is None or kind == "unknown" or kind in expected:
            return
        if kind == "groups" and expected == _CARDS:
            self.problem(var, f"'{var.name} holds a collection of card collections, used here as "
                         "one card collection", "warning")
            return
        self.problem(var, f"'{var.name} is {kind_words(kind)}, but {_expected_words(expected)} "
                     "is expected here")

    def compare(self, node: Compare) -> None:
        left, right = kind_of(node.left), kind_of(node.right)
        for side, kind in ((node.left, left), (node.right, right)):
            if kind not in _COMPARABLE and kind != "unknown":
                self.problem(side, f"cannot compare {kind_words(kind)}: `{node.op}` compares "
                             "integers, strings, cards, players or teams")
                return
        if "unknown" not in (left, right) and left != right:
            self.problem(node, f"`{node.op}` compares {kind_words(left)} with {kind_words(right)}")
        elif node.op in ("<", ">", "<=", ">=") and node.kind not in ("int", "unknown"):
            self.problem(node, f"`{node.op}` compares integers only, not {_PLURALS[node.kind]}")

    def walk(self, node: Node, env: Mapping[str, tuple[Kind, Node | None]]) -> None:
        if isinstance(node, Compare):
            self.compare(node)
        binder = BINDERS.get(type(node))
        inner = env
        if binder is not None:
            var = getattr(node, binder[1])
            inner = {**env, var.name: (var.kind, node)}
        for f in fields(node):
            if f.name in ("line", "column") or (binder is not None and f.name == binder[1]):
                continue
            scope = inner if binder is not None and f.name in binder[2] else env
            value = getattr(node, f.name)
            if isinstance(node, SetPoints) and f.name == "target" and isinstance(value, Var):
                continue
            for item in value if isinstance(value, tuple) else (value,):
                self.visit(item, node, f.name, scope)

    def visit(self, item: Any, parent: Node, field: str, env: Mapping[str, tuple[Kind, Node | None]]) -> None:
        if isinstance(item, Var):
            expected = EXPECTED.get((type(parent), field))
            if isinstance(parent, Compare):
                expected = None
            self.use(item, env, expected)
        elif isinstance(item, Node):
            self.walk(item, env)


def check_variables(game: Game) -> list[Problem]:
    """Undeclared and out-of-scope variables, variables of the wrong kind, unused names."""
    checker = _ScopeChecker(game)
    env: dict[str, tuple[Kind, Node | None]] = {name: (kind, None) for name, kind in point_map_variables(game).items()}
    declared: list[tuple[Declare | Let, Var]] = []
    for declaration in game.declarations:
        checker.walk(declaration.value, env)
        env[declaration.var.name] = (declaration.var.kind, declaration)
        declared.append((declaration, declaration.var))
    for part in (game.setup, *game.flow, game.scoring):
        checker.walk(part, env)
    declared.extend((node, node.var) for node in game.walk() if isinstance(node, Let))
    for binder, var in declared:
        if id(binder) not in checker.uses:
            checker.problem(var, f"'{var.name} is defined but never used", "warning")
    return checker.problems
