"""Kinds of RECYCLE expressions, and the pass that gives every variable its kind.

An LALR(1) parser cannot tell an integer variable from a card variable; the binding can.
:func:`resolve` walks the tree with the variables in scope (``declare``, ``let``, the variable
of ``all``/``any``/``filter``, and the 0.5 ``put points`` maps, which are global) and returns a
copy in which every :class:`~.nodes.Var` has its ``kind`` and every comparison of two
variables knows what it compares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from translators.recycle.syntax.nodes import (
    ELEMENT_KIND,
    ActionAgg,
    ActualCard,
    AllPlayers,
    AllTeams,
    And,
    Arith,
    BoolAgg,
    CardAt,
    CardAtt,
    CardLocation,
    CardsAgg,
    CollectionAt,
    Compare,
    CompareKind,
    ExtremeCard,
    Fib,
    Filter,
    Game,
    IntAgg,
    IntLit,
    IntStorage,
    Kind,
    Let,
    Name,
    NameList,
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
    Run,
    Runs,
    Score,
    SetOp,
    SetPoints,
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

_FIXED_KINDS: dict[type, Kind] = {
    **{cls: "int" for cls in (IntLit, Arith, Tri, Fib, Random, Size, Sum, Score, IntStorage, IntAgg)},
    **{cls: "str" for cls in (Name, StrStorage, CardAtt)},
    **{cls: "bool" for cls in (And, Or, Not, Compare, BoolAgg)},
    **{cls: "card" for cls in (CardAt, ExtremeCard, ActualCard)},
    **{cls: "cards" for cls in (CardLocation, SetOp, Sort, CollectionAt, Slice, Run)},
    **{cls: "groups" for cls in (Tuples, Partition, Subsets, Runs, CardsAgg)},
    **{cls: "player" for cls in (RelativePlayer, PlayerAt, OwnerOf)},
    **{cls: "team" for cls in (RelativeTeam, TeamAt, TeamOf)},
    NameList: "strs",
    Range: "ints",
    AllPlayers: "players",
    AllTeams: "teams",
    PointStorage: "points",
}

#: Variable-binding nodes: the field holding the bound variable, and the fields it is visible in.
BINDERS: dict[type, tuple[str, str, tuple[str, ...]]] = {
    # class: (field giving the element's collection or the value, variable field, scope fields)
    Let: ("value", "var", ("body",)),
    Filter: ("collection", "var", ("condition",)),
    ActionAgg: ("collection", "var", ("body",)),
    BoolAgg: ("collection", "var", ("condition",)),
    CardsAgg: ("collection", "var", ("body",)),
    IntAgg: ("collection", "var", ("body",)),
}


def kind_of(node: Any) -> Kind:
    """What an expression evaluates to (as far as the text tells; ``unknown`` otherwise)."""
    if isinstance(node, Var):
        return node.kind
    if isinstance(node, Filter):
        kind = kind_of(node.collection)
        return "players" if kind == "team" else kind
    if isinstance(node, Others):
        return "players" if node.kind == "player" else "teams"
    return _FIXED_KINDS.get(type(node), "unknown")


def element_kind(collection_kind: Kind) -> Kind:
    """The kind of the elements of a collection of the given kind."""
    return ELEMENT_KIND.get(collection_kind, "unknown")


def binding_kind(node: Node) -> Kind:
    """The kind of the variable a binder (``let``, ``filter``, ``all``, ``any``) introduces."""
    value = getattr(node, BINDERS[type(node)][0])
    return kind_of(value) if isinstance(node, Let) else element_kind(kind_of(value))


def compare_kind(left: Any, right: Any) -> CompareKind:
    """What a comparison compares, from its (resolved) operands."""
    for side in (left, right):
        kind = kind_of(side)
        if kind in ("int", "str", "card", "player", "team"):
            return kind
    return "unknown"


def point_map_variables(game: Game) -> dict[str, Kind]:
    """The 0.5 point maps (``put points 'VAR``): global names of kind ``points``."""
    return {
        node.target.name: "points"
        for node in game.walk()
        if isinstance(node, SetPoints) and isinstance(node.target, Var)
    }


def resolve(game: Game) -> Game:
    """A copy of ``game`` with the kinds of variables and comparisons filled in."""
    env: dict[str, Kind] = point_map_variables(game)
    declarations = []
    for declaration in game.declarations:
        value = _resolve(declaration.value, env)
        kind = kind_of(value)
        declarations.append(replace(declaration, value=value, var=replace(declaration.var, kind=kind)))
        env[declaration.var.name] = kind
    rest = {
        name: _resolve(getattr(game, name), env) for name in ("setup", "flow", "scoring")
    }
    return replace(game, declarations=tuple(declarations), **rest)


def _resolve(node: Any, env: Mapping[str, Kind]) -> Any:
    if isinstance(node, tuple):
        items = tuple(_resolve(item, env) for item in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if not isinstance(node, Node):
        return node
    if isinstance(node, Var):
        kind = env.get(node.name, "unknown")
        return node if kind == node.kind else replace(node, kind=kind)
    binder = BINDERS.get(type(node))
    if binder is not None:
        source_field, var_field, scope_fields = binder
        source = _resolve(getattr(node, source_field), env)
        partial = replace(node, **{source_field: source})
        kind = binding_kind(partial)
        inner = {**env, getattr(node, var_field).name: kind}
        changes = {var_field: replace(getattr(node, var_field), kind=kind), source_field: source}
        for name in scope_fields:
            changes[name] = _resolve(getattr(node, name), inner)
        return replace(node, **changes)
    changes = {}
    for f in fields(node):
        if f.name in ("line", "column"):
            continue
        old = getattr(node, f.name)
        new = _resolve(old, env)
        if new is not old:
            changes[f.name] = new
    if isinstance(node, Compare):
        left = changes.get("left", node.left)
        right = changes.get("right", node.right)
        kind = compare_kind(left, right)
        if kind != node.kind:
            changes["kind"] = kind
    return replace(node, **changes) if changes else node


__all__ = ["BINDERS", "binding_kind", "compare_kind", "element_kind", "kind_of", "resolve"]
