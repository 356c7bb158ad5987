"""The groups of ``subsets``, ``runs`` and ``tuples``, enumerated before play over *slots*.

Slot j holds the j-th member of a collection in card-id order; a group is a set of slots
(:class:`~.nodes.SlotSet`) with the checks under which it is one of the collection's groups
(:class:`~.nodes.SlotCheck`: its slots are filled; for runs, their cards make a run, for
``largest`` one that no other member extends at either end). The runs of a collection whose
cards all score differently (the runs of a suit, by rank) are made over *valued* slots
instead, one per point value (:class:`Room`): a run is then a stretch of consecutive slots,
all filled (for ``largest``, the slots just outside it empty), however many cards the
collection holds. ``all`` over groups runs its
body once per group (``lower.py``, the checks guarding it); a choice among groups has one
option per group (the checks making it legal); a condition's ``any``/``all`` and a count go
through them the same way (:func:`group_members`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import point_values, static_literal
from translators.recycle.ir.nodes import Env, Picker, deref
from translators.recycle.symbols.model import GameModel
from translators.recycle.syntax.nodes import (
    Compare,
    Filter,
    IntLit,
    Node,
    Runs,
    Score,
    Subsets,
    Tuples,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: How many members of a collection its groups are made of when the analysis cannot bound how
#: many it holds (more: ``(failed slots)``).
SLOTS = 5
#: The most slots a collection's groups are made of when it is bounded: subsets (2^N groups),
#: runs and tuples.
MOST_SLOTS = {"subsets": 8, "runs": 10, "tuples": 10}


@dataclass(frozen=True)
class Room:
    """The slots a collection's groups are made of: ``size`` slots holding its members in
    card-id order; or, with ``low``, one slot per point value from ``low`` (slot j holds the
    member worth ``low + j - 1``: runs of a collection whose cards all score differently); or,
    with ``sets``, no slots: the card sets a filter of its subsets can pick, each a group
    (``analysis/picks.py``)."""

    size: int
    low: int | None = None
    sets: tuple[tuple[str, ...], ...] | None = None


def room_for(coll: Subsets | Runs | Tuples, most: int) -> Room:
    """The slots of groups of a collection that can hold ``most`` cards at once: that many, up
    to :data:`MOST_SLOTS` of its kind; else :data:`SLOTS`."""
    return Room(max(most, 1) if most <= MOST_SLOTS[group_kind(coll)] else SLOTS)


def only_set(room: Room, nth: int) -> Room:
    """A room of card sets narrowed to its ``nth`` set (a choice's option made alone); any
    other room as it is."""
    if room.sets is not None and 0 <= nth < len(room.sets):
        return Room(0, sets=room.sets[nth:nth + 1])
    return room


def group_site(coll: Subsets | Runs | Tuples) -> tuple[int, int]:
    """Where a collection of groups is written (its rooms are decided by site)."""
    return coll.line, coll.column


def group_kind(coll: Subsets | Runs | Tuples) -> str:
    """``subsets``, ``runs`` or ``tuples``."""
    return "subsets" if isinstance(coll, Subsets) else "runs" if isinstance(coll, Runs) else "tuples"

Group = tuple[ir.SlotSet | ir.CardGroup, Sequence[ir.SlotCheck | ir.CardsIn]]


def group_elements(model: GameModel, coll: Subsets | Runs | Tuples, env: Env, empty: bool = False,
                   room: Room = Room(SLOTS)) -> list[Group]:
    """Every group the collection can have, with its checks: the subsets of the first
    ``room`` members (the empty one too when ``empty``), the runs among them (over valued
    slots: the stretches of N or more), or for each value the point map gives every N of the
    first ``room`` cards scoring it (the engine's ``CardGrouping.TuplesOfSize``)."""
    at: dict[str, Any] = {"line": coll.line, "column": coll.column}
    if isinstance(coll, Subsets) and room.sets is not None:
        every = ([()] if empty else []) + list(room.sets)
        return [(ir.CardGroup(coll.cards, cards, **at), [ir.CardsIn(coll.cards, cards, **at)] if cards else [])
                for cards in every]
    if isinstance(coll, Runs) and room.low is not None:
        return _valued_runs(coll, env, room)
    if isinstance(coll, Tuples):
        size = static_literal(coll.size, env)
        if size is None or size < 1:
            raise TranslationError(coll, "`tuples` needs a literal size")
        out: list[Group] = []
        for value in point_values(model, coll.points, env):
            card = Var(f"_T{coll.line}_{coll.column}_{value}", kind="card", **at)
            scoring = Compare("==", Score(card, coll.points, **at), IntLit(value, **at), kind="int", **at)
            scored = Filter(coll.cards, card, scoring, **at)
            for slots in combinations(range(1, room.size + 1), size):
                out.append((ir.SlotSet(scored, slots, room.size, **at),
                            [ir.SlotCheck("exist", scored, slots, room=room.size, **at)]))
        return out
    base = coll.cards
    least = 0 if empty else 1
    if isinstance(coll, Runs):
        least = static_literal(coll.length, env) or 1
    out = []
    for size in range(least, room.size + 1):
        for slots in combinations(range(1, room.size + 1), size):
            checks = [ir.SlotCheck("exist", base, slots, room=room.size, **at)]
            if isinstance(coll, Runs):  # a largest run is a run that no member extends
                kind = "largest" if coll.mode == "largest" else "run"
                checks.append(ir.SlotCheck(kind, base, slots, coll.points, size, room.size, **at))
            order = coll.points if isinstance(coll, Runs) else None
            out.append((ir.SlotSet(base, slots, room.size, order, **at), checks))
    return out


def _valued_runs(coll: Runs, env: Env, room: Room) -> list[Group]:
    """The runs of N or more over valued slots. ``largest``: each stretch of slots all filled,
    the slots just outside it empty (the engine's sorted walk closes a run at a gap). ``all``:
    the engine's walk starts a run at every card, keeps a run each time it extends one of N or
    more and at its stretch's end, and keeps the run itself, not a copy, so every copy kept is
    the run as it ends: from each filled slot S to the end E of its stretch, E - S + 2 - N
    times."""
    at: dict[str, Any] = {"line": coll.line, "column": coll.column}
    least = max(static_literal(coll.length, env) or 1, 1)
    out: list[Group] = []
    for first in range(1, room.size + 1):
        for last in range(first + least - 1, room.size + 1):
            slots = tuple(range(first, last + 1))
            checks = [ir.SlotCheck("exist", coll.cards, slots, coll.points, room=room.size, low=room.low, **at)]
            ends = (first - 1, last + 1) if coll.mode == "largest" else (last + 1,)
            outside = tuple(j for j in ends if 1 <= j <= room.size)
            if outside:
                checks.append(ir.SlotCheck("vacant", coll.cards, outside, coll.points, room=room.size, low=room.low, **at))
            copies = 1 if coll.mode == "largest" else last - first + 2 - least
            out += [(ir.SlotSet(coll.cards, slots, room.size, coll.points, room.low, **at), checks)] * copies
    return out


def _empty(group: ir.Binding) -> bool:
    """Whether a group is the empty subset."""
    if not isinstance(group, ir.Alias):
        return False
    return (isinstance(group.expr, ir.SlotSet) and not group.expr.slots
            or isinstance(group.expr, ir.CardGroup) and not group.expr.cards)


#: A group as an element: its binding and the conditions under which it is one.
Member = tuple[ir.Binding, list[tuple[Node, Env]]]


def group_members(model: GameModel, coll: Any, env: Env,
                  room_of: Callable[[Subsets | Runs | Tuples, Env, Picker | None], Room],
                  picker: Picker | None = None) -> list[Member] | None:
    """The groups of ``subsets``, ``runs`` or ``tuples``, or of a ``filter`` of them, each
    with the conditions under which it is one (its checks; the filter's condition, and not
    empty: the engine's filter, ``ProcessCStorageCollectionFilter``, drops the empty subset),
    every group the engine can offer (the empty subset too, its first), made over
    ``room_of(coll, env, picker)`` slots (``picker``: the filter directly around it); None
    for another collection."""
    real, real_env = deref(coll, env)
    if isinstance(real, Filter):
        inner = group_members(model, real.collection, real_env, room_of, (real.condition, real.var.name, real_env))
        return None if inner is None else [
            (group, conds + [(real.condition, real_env.bind(real.var.name, group))])
            for group, conds in inner if not _empty(group)]
    if not isinstance(real, (Subsets, Runs, Tuples)):
        return None
    room = room_of(real, real_env, picker)
    return [(ir.Alias(group, real_env), [(check, real_env) for check in checks])
            for group, checks in group_elements(model, real, real_env, empty=True, room=room)]


__all__ = ["MOST_SLOTS", "SLOTS", "Group", "Member", "Room", "group_elements", "group_kind", "group_members", "group_site", "only_set",
           "room_for"]
