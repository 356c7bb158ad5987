"""Writing a syntax tree back as RECYCLE text (v0.5.10 forms, indented like the corpus).

Re-reading the printed text gives an equal tree. The 0.5 forms are written in their 0.5.10
equivalents where one exists (``mod`` as ``%``, ``(KEY (VALUE))`` as ``(KEY : VALUE)``); a
``put points`` map (a variable) stays ``put points``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Union

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

#: Lines longer than this are broken, one part per line.
WIDTH = 96
#: When a form is broken, how many of its first parts stay on the line of its keyword.
_HEAD_PARTS = {
    "all": 2, "any": 2, "filter": 2, "let": 2, "set": 1, "inc": 1, "dec": 1, "put points": 1,
    "repeat": 1, "stage player": 1, "stage team": 1, "create deck": 1, "partition": 1,
}


@dataclass(frozen=True)
class _Group:
    """A parenthesised form: ``(head item item ...)``; ``head`` may be empty."""

    head: str
    items: tuple[Doc, ...]


Doc = Union[str, _Group]


def _g(head: str, *items: Any) -> _Group:
    return _Group(head, tuple(_doc(i) for i in items))


def _list(items: tuple[Any, ...]) -> _Group:
    return _Group("", tuple(_doc(i) for i in items))


def _dots(low: Any, high: Any) -> list[Doc]:
    a, b = _doc(low), _doc(high)
    if isinstance(a, str) and isinstance(b, str):
        return [f"{a}..{b}"]
    return [a, "..", b]


def _position(position: Any) -> Doc:
    return position if isinstance(position, str) else _doc(position)


def _parts(parts: Any) -> tuple[Any, ...]:
    return parts if isinstance(parts, tuple) else (parts,)


def _team(spec: TeamSpec) -> _Group:
    members = ", ".join(str(m) for m in spec.members)
    return _Group("", (members,) + tuple(_team(s) for s in spec.subteams))


def _attribute(attr: Attribute) -> _Group:
    return _Group("", (", ".join(attr.names),) + tuple(_attribute(a) for a in attr.children))


_RULES: dict[type, Callable[[Any], Doc]] = {
    Var: lambda n: f"'{n.name}",
    Name: lambda n: n.text,
    IntLit: lambda n: str(n.value),
    Arith: lambda n: _g(n.op, n.left, n.right),
    Tri: lambda n: _g("tri", n.arg),
    Fib: lambda n: _g("fib", n.arg),
    Random: lambda n: _g("random", n.high) if n.low is None else _Group("random", tuple(_dots(n.low, n.high))),
    Size: lambda n: _g("size", n.collection),
    Sum: lambda n: _g("sum", n.cards, "using", n.points),
    Score: lambda n: _g("score", n.card, "using", n.points),
    IntStorage: lambda n: _g("", n.owner, "sto", n.name),
    IntAgg: lambda n: _g("all", n.collection, n.var, n.body),
    StrStorage: lambda n: _g("", n.owner, "str", n.name),
    CardAtt: lambda n: _g("cardatt", n.key, n.card),
    PointStorage: lambda n: _g("", n.owner, "points", n.name),
    GameOwner: lambda n: "game",
    RelativePlayer: lambda n: f"({n.which} player)",
    PlayerAt: lambda n: _g("", n.index, "player"),
    OwnerOf: lambda n: _g("owner", n.card),
    RelativeTeam: lambda n: f"({n.which} team)",
    TeamAt: lambda n: _g("", n.index, "team"),
    TeamOf: lambda n: _g("team", n.player),
    CardAt: lambda n: _g("", _position(n.position), n.cards),
    ExtremeCard: lambda n: _g(n.which, n.cards, "using", n.points),
    ActualCard: lambda n: _g("actual", n.card),
    NewName: lambda n: "new",
    CardLocation: lambda n: _g("", n.owner, n.visibility, n.name),
    SetOp: lambda n: _g(n.op, *_parts(n.parts)),
    Sort: lambda n: _g("sort", n.cards, "using", n.points),
    Filter: lambda n: _g("filter", n.collection, n.var, n.condition),
    CollectionAt: lambda n: _g("", _position(n.position), n.groups),
    Slice: lambda n: _g(n.end, n.count, n.cards),
    Run: lambda n: _g("run", n.end, n.length, n.cards, "using", n.points),
    Tuples: lambda n: _g("tuples", n.size, n.cards, "using", n.points),
    Partition: lambda n: _g("partition", n.key, *_parts(n.parts)),
    Subsets: lambda n: _g("subsets", n.cards),
    Runs: lambda n: _g("runs", n.mode, n.length, n.cards, "using", n.points),
    CardsAgg: lambda n: _g("all", n.collection, n.var, n.body),
    NameList: lambda n: "(" + ", ".join(n.names) + ")",
    AllPlayers: lambda n: "player",
    AllTeams: lambda n: "team",
    Others: lambda n: f"(other {n.kind})",
    Range: lambda n: _Group("range", tuple(_dots(n.low, n.high))),
    And: lambda n: _g("and", *n.args),
    Or: lambda n: _g("or", *n.args),
    Not: lambda n: _g("not", n.arg),
    Compare: lambda n: _g(n.op, n.left, n.right),
    BoolAgg: lambda n: _g(n.quantifier, n.collection, n.var, n.condition),
    Move: lambda n: _g("move", n.source, n.target),
    Remember: lambda n: _g("remember", n.source, n.target),
    Forget: lambda n: _g("forget", n.card),
    Shuffle: lambda n: _g("shuffle", n.cards),
    FaroShuffle: lambda n: _g("shuffle faro", n.first, n.second),
    IntUpdate: lambda n: _g(n.op, n.storage, n.value),
    SetStr: lambda n: _g("set", n.storage, n.value),
    AttrPair: lambda n: _g("", n.key, ":", n.value),
    Award: lambda n: _g("", *n.pairs, n.points),
    SetPoints: lambda n: (
        _g("put points", n.target, _list(n.awards)) if isinstance(n.target, Var)
        else _g("set", n.target, _list(n.awards))
    ),
    Cycle: lambda n: _g("cycle " + n.which, n.target),
    TurnPass: lambda n: "(turn pass)",
    Repeat: lambda n: _g("repeat", n.count, n.action),
    RepeatAll: lambda n: _g("repeat all", n.action),
    TeamSpec: _team,
    CreateTeams: lambda n: _g("create teams", *n.teams),
    Attribute: _attribute,
    Deck: lambda n: _g("deck", *n.attributes),
    CreateDeck: lambda n: _g("create deck" + (f" {n.name}" if n.name else ""), n.location, n.deck),
    ActionAgg: lambda n: _g(n.quantifier, n.collection, n.var, n.body),
    Do: lambda n: _g("do", _list(n.items)),
    Choice: lambda n: _g("choice", _list(n.items)),
    Conditional: lambda n: _g("", n.condition, n.body),
    Let: lambda n: _g("let", n.value, n.var, n.body),
    Stage: lambda n: _g(f"stage {n.kind}", _g("end", n.end), *n.body),
    Declare: lambda n: _g("declare", n.value, n.var),
    CreatePlayers: lambda n: _g("create players", n.count),
    Setup: lambda n: _g("setup", n.players, *((n.teams,) if n.teams else ()), *n.decks),
    Scoring: lambda n: _g("scoring " + n.order, n.value),
    Game: lambda n: _g("game", *n.declarations, n.setup, *n.flow, n.scoring),
}


def _doc(value: Any) -> Doc:
    if isinstance(value, (str, _Group)):
        return value
    rule = _RULES.get(type(value))
    if rule is None:
        raise TypeError(f"cannot print {type(value).__name__}")
    return rule(value)


def _flat(doc: Doc) -> str:
    if isinstance(doc, str):
        return doc
    parts = ([doc.head] if doc.head else []) + [_flat(i) for i in doc.items]
    return "(" + " ".join(parts) + ")"


def _layout(doc: Doc, indent: int, out: list[str]) -> None:
    """Append ``doc`` to ``out`` (the current line is ``out[-1]``), breaking long forms."""
    flat = _flat(doc)
    if isinstance(doc, str) or indent + len(flat) <= WIDTH or not doc.items:
        out[-1] += flat
        return
    if doc.head:
        out[-1] += "(" + doc.head
        keep = _HEAD_PARTS.get(doc.head, 0)
        first, rest, inner = None, doc.items, indent + 2
        while keep and len(rest) > 1 and len(out[-1]) + 1 + len(_flat(rest[0])) <= WIDTH:
            out[-1] += " " + _flat(rest[0])
            rest, keep = rest[1:], keep - 1
    else:
        out[-1] += "("
        first, rest, inner = doc.items[0], doc.items[1:], indent + 1
    if first is not None:
        _layout(first, inner, out)
    for item in rest:
        out.append(" " * inner)
        _layout(item, inner, out)
    out[-1] += ")"


def print_recycle(node: Node) -> str:
    """RECYCLE text for a game (ending with a newline) or any other node."""
    out = [""]
    _layout(_doc(node), 0, out)
    text = "\n".join(line.rstrip() for line in out)
    return text + "\n" if isinstance(node, Game) else text
