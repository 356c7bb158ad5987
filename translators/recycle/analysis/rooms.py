"""How many members the groups of ``subsets``, ``runs`` and ``tuples`` are made of, site by site.

A group is a set of *slots* (``ir/groups.py``); a collection gets as many slots as it can hold
cards at once (``analysis/capacity.py`` through :meth:`.ranges.Ranges.card_bound`), up to
``MOST_SLOTS`` of its kind, else ``SLOTS`` and a warning: a game where it holds more ends with
``(failed slots)``. The runs of a collection whose cards can all score only differently
(one point value each, no two alike: the runs of a suit by rank) are made over one slot per
value instead, whatever the collection holds; the subsets of a collection that can hold more
than its slots, under a filter bounding their points or size from above, are the card sets the
filter can pick (``analysis/picks.py``). The game is lowered with the default slots,
these are decided from that lowering's analyses, and it is lowered again with them
(``translate.py``).
"""

from __future__ import annotations

from collections import Counter

from ggp.errors import Location, Problem
from translators.recycle.analysis.picks import CHOSEN_LIMIT, PICK_LIMIT, picked_sets
from translators.recycle.analysis.places import card_number
from translators.recycle.analysis.ranges import Ranges
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.groups import SLOTS, Room, group_kind, room_for
from translators.recycle.ir.nodes import Env
from translators.recycle.ir.repeats import Site
from translators.recycle.syntax.nodes import Runs, Subsets, Tuples


def _group_bounds(program: ir.Program, ranges: Ranges) -> dict[Site, tuple[Subsets | Runs | Tuples, int]]:
    """For each site where groups are made, its collection and how many cards that can hold at
    once (``analysis/capacity.py``)."""
    return {site: (uses[0][0], max(_most(coll, env, ranges) for coll, env, _ in uses))
            for site, uses in sorted(program.group_sites.items())}


def site_room(uses: list[ir.GroupUse], ranges: Ranges, chosen: bool = False) -> Room:
    """The slots the groups made at a site are made of: one per point value for runs whose
    cards all score apart; as many as the collection can hold (:func:`.groups.room_for`); or,
    past those, the card sets the filters around every use can pick (more where every use is a
    choice among them, ``chosen``: those are data, ``ir/setchoice.py``)."""
    coll = uses[0][0]
    most = max(_most(c, env, ranges) for c, env, _ in uses)
    room = valued_room(uses, ranges) or room_for(coll, most)
    if room.size >= most or room.low is not None or not isinstance(coll, Subsets):
        return room
    sets = picked_room(uses, ranges, CHOSEN_LIMIT if chosen else PICK_LIMIT)
    return room if sets is None else Room(0, sets=sets)


def picked_room(uses: list[ir.GroupUse], ranges: Ranges, limit: int = PICK_LIMIT) -> tuple[tuple[str, ...], ...] | None:
    """Every card set the filters around the uses of a site can pick (None: a use without
    one, or more than ``limit``: ``analysis/picks.py``)."""
    found: set[tuple[str, ...]] = set()
    for coll, env, picker in uses:
        if picker is None:
            return None
        cond, var, cond_env = picker
        cards = ranges.domains.ordered(coll.cards, env)
        sets = picked_sets(cond, var, cond_env, cards, ranges, limit)
        if sets is None:
            return None
        found.update(sets)
    return tuple(sorted(found, key=lambda s: (len(s), [card_number(cid) for cid in s])))


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


#: The most point values a collection's runs are made over, one slot each.
MOST_VALUES = 26


def valued_room(uses: list[ir.GroupUse], ranges: Ranges) -> Room | None:
    """One slot per point value for the runs made at a site, when at each use every card the
    collection can hold scores one value and no two alike (None otherwise)."""
    held: set[int] = set()
    for coll, env, _ in uses:
        if not isinstance(coll, Runs):
            return None
        values = [ranges.pointmaps.card_values(coll.points, env, cid) for cid in ranges.domains.cards(coll.cards, env)]
        if any(len(v) != 1 for v in values):
            return None
        each = [min(v) for v in values]
        if len(set(each)) != len(each):
            return None
        held.update(each)
    if not held or max(held) - min(held) >= MOST_VALUES:
        return None
    return Room(max(held) - min(held) + 1, min(held))


def group_rooms(program: ir.Program, ranges: Ranges) -> dict[Site, Room]:
    """The slots the groups made at each site are made of: one per point value for runs whose
    cards all score apart, else as many as the collection can hold (:func:`.groups.room_for`; a
    game where a collection holds more ends with ``(failed slots)``)."""
    return {site: site_room(uses, ranges, site not in program.enumerated)
            for site, uses in sorted(program.group_sites.items())}


def slot_warnings(program: ir.Program, ranges: Ranges, source: str) -> list[Problem]:
    """A warning for each collection whose groups are made of fewer members than it can hold."""
    return [slot_warning(source, site, coll, most)
            for site, (coll, most) in _group_bounds(program, ranges).items()
            if _short(site_room(program.group_sites[site], ranges, site not in program.enumerated), most)]


def slot_warning(source: str, site: Site, coll: Subsets | Runs | Tuples, most: int, read: bool = False) -> Problem:
    """The warning for groups of ``coll`` made of fewer members than the ``most`` it can hold
    (``read``: by a condition or a count, which fails where play reads it, and where the
    scoring does reads the first members' groups only)."""
    then = (f"a game where they hold more than {SLOTS} ends with `(failed slots)` where play reads them (the "
            f"scoring reads the groups of their first {SLOTS} only)" if read else
            f"a game where they hold more than {SLOTS} ends there with `(failed slots)`")
    return Problem(Location(source, *site),
                   f"the {group_kind(coll)} of these cards are made of their first {SLOTS} (by card id); they can "
                   f"hold up to {most}, and {then}", "warning")


def short_site(uses: list[ir.GroupUse], ranges: Ranges) -> int | None:
    """How many cards the collection of a site's uses can hold, where its groups are made of
    fewer (None where they are not)."""
    most = max(_most(coll, env, ranges) for coll, env, _ in uses)
    return most if _short(site_room(uses, ranges), most) else None


def _short(room: Room, most: int) -> bool:
    """Whether a room of slots in card-id order holds fewer members than the collection can."""
    return room.low is None and room.sets is None and room.size < most


__all__ = ["MOST_VALUES", "group_rooms", "picked_room", "short_site", "site_room", "slot_warning", "slot_warnings",
           "valued_room"]
