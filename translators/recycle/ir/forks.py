"""Choices among groups written inside a choice of a card: ``(any CARDS 'C (any GROUPS 'G BODY))``.

A choice offers one option per group of ``subsets``, ``runs`` or ``tuples`` (``ir/groups.py``),
and forks over cards within an option. When the groups are chosen inside the ``any`` over
cards, the inner ``any`` is lifted out: one option per group, each the ``any`` over cards with
the groups' body, the conditions between the two kept (:func:`lift_groups`). The engine offers
the same pairs of a card and a group. An ``any`` over groups after other actions of an option is
lifted out of its ``do`` the same way (:func:`groups_first`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from translators.recycle.ir.footprints import clash, describe
from translators.recycle.ir.nodes import Env
from translators.recycle.syntax.nodes import (
    ActionAgg,
    Conditional,
    Do,
    Filter,
    Runs,
    Subsets,
    Tuples,
)
from translators.recycle.translation_error import TranslationError


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


def groups_first(item: Do, env: Env) -> ActionAgg | None:
    """``(do (A... (any GROUPS 'G BODY) B...))`` as ``(any GROUPS 'G (do (A... BODY B...)))``
    when the actions ``A...`` change nothing the groups read (the engine reads them after
    running those actions, the translation in the decision's state: the same groups then; a
    located error where they change what the groups read); None for anything else. (Where
    there is no group, the engine offers the other actions alone: a difference.)"""
    for index, part in enumerate(item.items):
        if isinstance(part, ActionAgg) and part.quantifier == "any" and is_groups(part.collection):
            before = tuple((action, env) for action in item.items[:index])
            changed = clash(before, part.collection, env)
            if changed:
                raise TranslationError(part, f"this `any` reads {describe(changed)}, which actions of the option "
                                             "before it change (the engine offers its groups as those actions "
                                             "leave the game): make the choice before those actions")
            at = {"line": item.line, "column": item.column}
            body = Do(item.items[:index] + (part.body,) + item.items[index + 1:], **at)
            return replace(part, body=body)
    return None


__all__ = ["groups_any", "groups_first", "is_groups", "lift_groups"]
