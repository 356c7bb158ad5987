"""Where groups are made, site by site: the slots each site's groups are made of (decided from a
first lowering, ``analysis/rooms.py``), every use of a site, and the card sets of a choice among
them as data (``ir/setchoice.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.groups import SLOTS, Room, group_site, only_set
from translators.recycle.ir.nodes import Env, Picker
from translators.recycle.ir.repeats import Site
from translators.recycle.syntax.nodes import Runs, Subsets, Tuples


@dataclass
class GroupSites:
    """The groups' sites of one lowering."""

    #: The slots the groups made at each site are made of (default :data:`.groups.SLOTS`).
    rooms: Mapping[Site, Room]
    #: Each site's collections, with the filter directly around each use.
    uses: dict[Site, list[ir.GroupUse]] = field(default_factory=dict)
    #: The sites with a use that is not a choice among their groups.
    enumerated: set[Site] = field(default_factory=set)
    #: The card sets of each site a choice takes as data.
    tables: dict[Site, ir.SetTable] = field(default_factory=dict)

    def room(self, coll: Subsets | Runs | Tuples, env: Env, picker: Picker | None, chosen: bool = False) -> Room:
        """The slots the groups of ``coll`` are made of (the use recorded, with the filter
        directly around it, and whether a choice among them makes it)."""
        self.uses.setdefault(group_site(coll), []).append((coll, env, picker))
        if not chosen:
            self.enumerated.add(group_site(coll))
        return self.site_room(coll, env, picker)

    def site_room(self, coll: Subsets | Runs | Tuples, env: Env, picker: Picker | None, nth: int = -1) -> Room:
        """The slots the groups of ``coll`` are made of, decided for its site (``nth``: see
        :func:`.groups.only_set`)."""
        return only_set(self.rooms.get(group_site(coll), Room(SLOTS)), nth)


__all__ = ["GroupSites"]
