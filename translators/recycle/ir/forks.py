"""Choices among groups written inside a choice of a card: ``(any CARDS 'C (any GROUPS 'G BODY))``.

A choice offers one option per group of ``subsets``, ``runs`` or ``tuples`` (``ir/groups.py``),
and forks over cards within an option. When the groups are chosen inside the ``any`` over
cards, the inner ``any`` is lifted out: one option per group, each the ``any`` over cards with
the groups' body, the conditions between the two kept (:func:`lift_groups`). The engine offers
the same pairs of a card and a group.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from translators.recycle.syntax.nodes import (
    ActionAgg,
    Conditional,
    Filter,
    Runs,
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


__all__ = ["groups_any", "is_groups", "lift_groups"]
