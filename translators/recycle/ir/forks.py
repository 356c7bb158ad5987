"""Choices among groups written inside a choice of a card: ``(any CARDS 'C (any GROUPS 'G BODY))``.

A choice offers one option per group of ``subsets``, ``runs`` or ``tuples`` (``ir/groups.py``),
and forks over cards within an option. When the groups are chosen inside the ``any`` over
cards, the inner ``any`` is lifted out: one option per group, each the ``any`` over cards with
the groups' body, the conditions between the two kept (:func:`lift_groups`). The engine offers
the same pairs of a card and a group. A choice among the groups of a partition that a filter
keeps is one option per group, under the filter's condition (:func:`kept_groups`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from translators.recycle.ir.nodes import Alias, Env
from translators.recycle.syntax.nodes import (
    ActionAgg,
    Compare,
    Conditional,
    Filter,
    IntLit,
    Node,
    Runs,
    Size,
    Subsets,
    Tuples,
)


def is_groups(coll: Any) -> bool:
    """Whether a collection, as written, is made of groups: ``subsets``, ``runs``, ``tuples``, or
    a filter of them."""
    while isinstance(coll, Filter):
        coll = coll.collection
    return isinstance(coll, (Subsets, Runs, Tuples))


def groups_any(item: Any) -> ActionAgg | None:
    """The ``any`` over groups an item is (under conditions), or None."""
    while isinstance(item, Conditional):
        item = item.body
    return item if isinstance(item, ActionAgg) and item.quantifier == "any" and is_groups(item.collection) else None


def lift_groups(fork: ActionAgg) -> tuple[ActionAgg, ActionAgg] | None:
    """``(any CARDS 'C COND... (any GROUPS 'G BODY))`` as ``(any CARDS 'C COND... BODY)`` and the
    ``any`` over groups lifted out of it (None when its body is not such an ``any``)."""
    chosen = groups_any(fork.body)
    if chosen is None:
        return None
    conditions = []
    body = fork.body
    while isinstance(body, Conditional):
        conditions.append(body)
        body = body.body
    inner: Any = chosen.body
    for condition in reversed(conditions):
        inner = replace(condition, body=inner)
    return replace(fork, body=inner), chosen




def kept_groups(inner: ActionAgg, kept: Filter, kept_env: Env, env: Env, conditions: list[tuple[Node, Env]],
                groups: list[Alias]) -> list[tuple[Any, Env, list[tuple[Node, Env]]]]:
    """The options of ``(any (filter (partition KEY CARDS) 'G COND) 'G BODY)``: one per group
    (``groups``, one per value of KEY), legal when the group holds cards and COND holds of it."""
    at = {"line": kept.line, "column": kept.column}
    some = Compare(">", Size(kept.var, **at), IntLit(0, **at), kind="int", **at)
    return [(inner.body, env.bind(inner.var.name, group),
             conditions + [(cond, kept_env.bind(kept.var.name, group)) for cond in (some, kept.condition)])
            for group in groups]


__all__ = ["groups_any", "is_groups", "kept_groups", "lift_groups"]
