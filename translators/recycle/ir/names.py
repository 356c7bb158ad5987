"""Storage and location names computed in play, written as one guarded copy per possible name.

The name of a storage cell or card location may be any string expression: ``('P sto (cardatt
SUIT 'C))``, ``((current player) vloc (game str PILE))``; CardStock evaluates it when the action
runs. The rules name every cell and location by a constant, so an action (a move, a ``set``, an
``inc``...) whose names are computed is rewritten, on the syntax tree, to one copy per possible
name, each guarded by the name being that one::

    (inc ('P sto (cardatt SUIT 'C)) 1)
      =>  (do (((== (cardatt SUIT 'C) HEARTS) (inc ('P sto HEARTS) 1))
               ((== (cardatt SUIT 'C) SPADES) (inc ('P sto SPADES) 1)) ...))

The possible names are the values of the attribute for ``cardatt``, and every name of the game
otherwise. When the name reads anything but attributes of card variables (the top of a pile, a
stored string) the action could change it between copies: it is first frozen in a string cell of
the game, ``(set (game str NAME_L_C) EXPR)``, and the copies compare that cell. A numbered
location ``(game iloc 3)`` is the location named ``3``.

An integer cell read with a computed name outside an action (a condition, the scoring) is the
sum over the possible names of the cells whose name is the value: ``(all (filter (HEARTS,
SPADES...) 'K (== 'K EXPR)) 'K ('P sto 'K))``; the cards of a location so named are the union
of the locations whose name is the value. A comparison that reads a string cell, or the top card
of a location, named in play is one alternative per possible name: ``(or (and (== EXPR N1)
COMPARE[N1]) ...)``; a card's points read through such a name (``(score (top ('P vloc (game str
BEST))) using P)``, in the scoring too) the sum over the possible names of the read under that
name, as for an integer cell.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from translators.recycle.ir.rewrite import map_children, map_part
from translators.recycle.symbols.model import written_names
from translators.recycle.syntax.nodes import (
    And,
    Arith,
    CardAt,
    CardAtt,
    CardLocation,
    CardsAgg,
    Compare,
    Conditional,
    Do,
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
    Node,
    Or,
    PointStorage,
    Random,
    Remember,
    RepeatAll,
    Score,
    SetOp,
    SetPoints,
    SetStr,
    Shuffle,
    Size,
    StrStorage,
    Sum,
    Tri,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: The actions whose storage and location names are rewritten.
ACTIONS = (Move, Remember, Forget, Shuffle, IntUpdate, SetStr, SetPoints, RepeatAll)
#: The nodes that name a cell or a location by their ``name`` field.
NAMED = (IntStorage, StrStorage, PointStorage, CardLocation)
#: Integer expressions, which cannot name a location (a literal number is read as a name).
NUMBERS = (Arith, Tri, Fib, Random, Size, Sum, Score, IntStorage, IntAgg)


def frozen_name(node: Node) -> str:
    """The name of the game's string cell that freezes a computed name (by its position)."""
    return f"NAME_{node.line}_{node.column}"


def expand_names(game: Game) -> Game:
    """``game`` with numbered locations named, and every action with computed names rewritten
    to guarded copies (see the module doc)."""
    for node in game.walk():
        if isinstance(node, CardLocation) and isinstance(node.name, NUMBERS):
            raise TranslationError(node.name, "a card location named by a computed number is not supported (nor by "
                                              "the engine, which reads every location name as a string)")
    let_bound = frozenset(n.var.name for n in game.walk() if isinstance(n, Let))
    attributes = _attribute_values(game)
    everything = sorted(written_names(game) | {v for values in attributes.values() for v in values})

    def values_of(expr: Any) -> list[str]:
        if isinstance(expr, CardAtt) and isinstance(expr.key, Name):
            return sorted(attributes.get(expr.key.text, set()))
        return everything

    def action(node: Node) -> Node:
        computed = _computed(node, let_bound)
        if not computed:
            return node
        expr = computed[0]
        at = {"line": expr.line, "column": expr.column}
        items: list[Any] = []
        subject: Any = expr
        if not _stable(expr, let_bound):
            subject = StrStorage(GameOwner(**at), Name(frozen_name(expr), **at), **at)
            items.append(SetStr(subject, expr, **at))
        for value in values_of(expr):
            copy = action(_substitute(node, expr, Name(value, **at)))
            items.append(Conditional(Compare("==", subject, Name(value, **at), kind="str", **at),
                                     copy, **at))  # type: ignore[arg-type]
        return Do(tuple(items), **at)

    def read(node: IntStorage) -> Node:
        """A read of a computed integer cell: the sum of the cells whose name is the value."""
        at = {"line": node.line, "column": node.column}
        key = Var(f"_N{node.line}_{node.column}", kind="str", **at)
        names = NameList(tuple(values_of(node.name)), **at)
        which = Filter(names, key, Compare("==", key, node.name, kind="str", **at), **at)
        return IntAgg(which, key, replace(node, name=key), **at)

    def points_read(node: Score) -> Node:
        """A card's points read through a name computed in play (the top card of a location so
        named, a point map): the sum over the possible names of the read under that name."""
        expr = _computed(node, let_bound)[0]
        at = {"line": expr.line, "column": expr.column}
        key = Var(f"_N{expr.line}_{expr.column}", kind="str", **at)
        which = Filter(NameList(tuple(values_of(expr)), **at), key, Compare("==", key, expr, kind="str", **at), **at)
        return IntAgg(which, key, _substitute(node, expr, key), **at)

    def cards_of(node: CardLocation) -> Node:
        """The cards of a location named in play: the union of the locations whose name is the value."""
        at = {"line": node.line, "column": node.column}
        key = Var(f"_L{node.line}_{node.column}", kind="str", **at)
        names = NameList(tuple(values_of(node.name)), **at)
        computed: Any = node.name
        which = Filter(names, key, Compare("==", key, computed, kind="str", **at), **at)
        return SetOp("union", CardsAgg(which, key, replace(node, name=key), **at), **at)

    def condition(node: Compare) -> Node:
        """A comparison reading a string cell or the top card of a location named in play:
        one alternative per possible name, ``(or (and (== EXPR N1) COMPARE[N1]) ...)``."""
        expr = _computed_reads(node, let_bound)[0]
        at = {"line": expr.line, "column": expr.column}
        alternatives = tuple(And((Compare("==", expr, Name(value, **at), kind="str", **at),
                                  _substitute(node, expr, Name(value, **at))), **at)
                             for value in values_of(expr))
        return Or(alternatives, **at) if len(alternatives) > 1 else alternatives[0]

    def rewrite(node: Node) -> Node:
        if isinstance(node, Compare) and _computed_reads(node, let_bound):
            return rewrite(condition(node))
        if isinstance(node, CardLocation) and isinstance(node.name, IntLit):
            return replace(node, name=Name(str(node.name.value), line=node.name.line, column=node.name.column))
        if isinstance(node, ACTIONS):
            expanded = action(node)
            if expanded is not node:
                return rewrite(expanded)
        elif isinstance(node, IntStorage) and _computed(node, let_bound):
            return read(node)
        elif isinstance(node, Score) and _computed(node, let_bound):
            return rewrite(points_read(node))
        elif isinstance(node, CardAt) and isinstance(node.cards, CardLocation) and _computed(node.cards, let_bound):
            return node  # the top of a location named in play, outside an action: not rewritten
        elif isinstance(node, CardLocation) and _computed(node, let_bound):
            return cards_of(node)
        return map_children(node, rewrite)

    flow = map_part(game.flow, rewrite)
    scoring: Any = rewrite(game.scoring)
    if flow is game.flow and scoring is game.scoring:
        return game
    return replace(game, flow=flow, scoring=scoring)


def _computed(node: Node, let_bound: frozenset[str]) -> list[Any]:
    """The computed name expressions of an action, outermost first."""
    found: list[Any] = []
    for sub in node.walk():
        if isinstance(sub, NAMED):
            name = sub.name
            if isinstance(name, (Name, IntLit, str)):
                continue
            if isinstance(name, Var) and name.name not in let_bound:
                continue  # bound by ``all``/``any`` over names, or declared: known when lowered
            if isinstance(name, Node) and name not in found:
                found.append(name)
    return found


def _computed_reads(node: Node, let_bound: frozenset[str]) -> list[Any]:
    """The computed names of the string cells and of the locations whose top card ``node``
    reads (outside actions: only a comparison can hold them)."""
    found: list[Any] = []
    for sub in node.walk():
        named = sub if isinstance(sub, StrStorage) else sub.cards if isinstance(sub, CardAt) else None
        if isinstance(named, (StrStorage, CardLocation)):
            for name in _computed(named, let_bound):
                if name not in found:
                    found.append(name)
    return found


def _stable(expr: Any, let_bound: frozenset[str]) -> bool:
    """Whether no action can change the value of ``expr`` (an attribute of a card variable)."""
    return (isinstance(expr, CardAtt) and isinstance(expr.key, Name) and isinstance(expr.card, Var)
            and expr.card.name not in let_bound)


def _substitute(node: Any, old: Any, new: Node) -> Any:
    """``node`` with the name expression ``old`` replaced by ``new`` where it names something."""
    if isinstance(node, NAMED) and node.name == old:
        node = replace(node, name=new)  # type: ignore[arg-type]
    return map_children(node, lambda child: _substitute(child, old, new))


def _attribute_values(game: Game) -> dict[str, set[str]]:
    """Every value of every card attribute the game's decks make."""
    out: dict[str, set[str]] = {}
    for node in game.walk():
        deck = getattr(node, "deck", None)
        if deck is not None and hasattr(deck, "cards"):
            for card in deck.cards():
                for key, value in card.items():
                    out.setdefault(key, set()).add(value)
    return out


__all__ = ["expand_names", "frozen_name"]
