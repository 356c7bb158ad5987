"""The groups of ``(partition KEY CARDS)``: one per value of KEY, the cards of CARDS with it.

A group is a filter of CARDS by KEY's value, bound as an alias (:func:`groups_of`); a choice
forks over KEY's values with the value chosen as the filter's (``lower.py``), or, for the
groups a filter keeps, has one option per group (:func:`kept_groups`). A group counts only when
it holds cards (:func:`holds_cards`): the engine makes no empty part.
"""

from __future__ import annotations

from typing import Any

from translators.recycle.ir.elements import partition_parts
from translators.recycle.ir.nodes import Alias, Env
from translators.recycle.symbols.model import GameModel
from translators.recycle.syntax.nodes import (
    ActionAgg,
    CardAtt,
    Compare,
    Filter,
    IntLit,
    Name,
    Node,
    Partition,
    Size,
    Var,
)


def with_value(key: Name, source: Any, value: Name | Var, number: int, at: dict[str, int]) -> Filter:
    """The cards of ``source`` whose ``key`` is ``value`` (a name, or a variable bound to one),
    filtered by a variable numbered ``number``."""
    card = Var(f"_G{number}", kind="card", **at)
    return Filter(source, card, Compare("==", CardAtt(key, card, **at), value, kind="str", **at), **at)


def groups_of(model: GameModel, node: ActionAgg, coll: Partition, coll_env: Env, first: int) -> list[Alias]:
    """The groups of ``coll`` (``node`` aggregates over them), one per value of KEY, their
    variables numbered from ``first``."""
    key, source, values = partition_parts(model, coll, coll_env)
    at = {"line": coll.line, "column": coll.column}
    return [Alias(with_value(key, source, Name(value, **at), first + n, at), coll_env, (id(node), value))
            for n, value in enumerate(values)]


def holds_cards(group: str, where: Node) -> Compare:
    """``(> (size 'GROUP) 0)``, written where ``where`` is."""
    at = {"line": where.line, "column": where.column}
    return Compare(">", Size(Var(group, kind="cards", **at), **at), IntLit(0, **at), kind="int", **at)


def kept_groups(inner: ActionAgg, kept: Filter, kept_env: Env, env: Env, conditions: list[tuple[Node, Env]],
                groups: list[Alias]) -> list[tuple[Any, Env, list[tuple[Node, Env]]]]:
    """The options of ``(any (filter (partition KEY CARDS) 'G COND) 'G BODY)``: one per group
    (``groups``, one per value of KEY), legal when the group holds cards and COND holds of it."""
    tests = (holds_cards(kept.var.name, kept), kept.condition)
    return [(inner.body, env.bind(inner.var.name, group), conditions + [(test, kept_env.bind(kept.var.name, group))
                                                                        for test in tests]) for group in groups]


__all__ = ["groups_of", "holds_cards", "kept_groups", "with_value"]
