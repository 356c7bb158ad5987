"""The game manager: runs matches between players (each in a process of its own, remote, or
in-process) and records them.

:mod:`.runner` (the match loop), :mod:`.clocks` (when answers are due), :mod:`.client` (talking
to players: the interface, remote and in-process players), :mod:`.process` (a player in a
process of its own), :mod:`.seating` (which client a spec gets; clients kept between matches),
:mod:`.record` (match records as JSON), :mod:`.store` (the SQLite match database),
:mod:`.replay` (re-checking a record against its rules).
"""

from __future__ import annotations

from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord, read_record, write_record
from ggp.manager.runner import MatchSettings, run_match

__all__ = ["Clocks", "MatchRecord", "MatchSettings", "read_record", "run_match", "write_record"]
