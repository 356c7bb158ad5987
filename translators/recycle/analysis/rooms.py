"""How many members the groups of ``subsets``, ``runs`` and ``tuples`` are made of, site by site.

A group is a set of *slots* (``ir/groups.py``); a collection gets as many slots as it can hold
cards at once (``analysis/capacity.py`` through :meth:`.ranges.Ranges.card_bound`), up to
``MOST_SLOTS`` of its kind, else ``SLOTS`` and a warning: a game where it holds more ends with
``(failed slots)``. The game is lowered with the default slots, these are decided from that
lowering's analyses, and it is lowered again with them (``translate.py``).
"""

from __future__ import annotations

from collections import Counter

from ggp.errors import Location, Problem
from translators.recycle.analysis.ranges import Ranges
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.groups import SLOTS, group_kind, room_for
from translators.recycle.ir.nodes import Env
from translators.recycle.ir.repeats import Site
from translators.recycle.syntax.nodes import Runs, Subsets, Tuples


def _group_bounds(program: ir.Program, ranges: Ranges) -> dict[Site, tuple[Subsets | Runs | Tuples, int]]:
    """For each site where groups are made, its collection and how many cards that can hold at
    once (``analysis/capacity.py``)."""
    return {site: (uses[0][0], max(_most(coll, env, ranges) for coll, env in uses))
            for site, uses in sorted(program.group_sites.items())}


def _most(coll: Subsets | Runs | Tuples, env: Env, ranges: Ranges) -> int:
    """How many cards the groups of a collection are made from: the cards it can hold at once;
    for ``tuples``, whose groups are cards of equal points, no more than can score alike (four
    of a rank in a standard deck, however many a hand drawn to in a loop may hold)."""
    most = ranges.card_bound(coll.cards, env)
    if isinstance(coll, Tuples):
        alike = Counter(value for cid in ranges.domains.cards(coll.cards, env)
                        for value in ranges.pointmaps.card_values(coll.points, env, cid))
        most = min(most, max(alike.values(), default=0))
    return most


def group_rooms(program: ir.Program, ranges: Ranges) -> dict[Site, int]:
    """How many members the groups made at each site are made of (:func:`.groups.room_for`; a
    game where a collection holds more ends with ``(failed slots)``)."""
    return {site: room_for(coll, most) for site, (coll, most) in _group_bounds(program, ranges).items()}


def slot_warnings(program: ir.Program, ranges: Ranges, source: str) -> list[Problem]:
    """A warning for each collection whose groups are made of fewer members than it can hold."""
    return [Problem(Location(source, line, column),
                    f"the {group_kind(coll)} of these cards are made of their first {SLOTS} (by card id); they can "
                    f"hold up to {most}, and a game where they hold more than {SLOTS} ends there with `(failed slots)`",
                    "warning")
            for (line, column), (coll, most) in _group_bounds(program, ranges).items() if room_for(coll, most) < most]


__all__ = ["group_rooms", "slot_warnings"]
