"""The game manager's clocks: when each answer is due.

A player's answer is due ``clock`` seconds after the manager opens the connection, plus
``slack`` for the network (real managers allow about a second). ``stop`` and ``abort`` answers
get the play clock, so a player that never answers cannot hold a finished match.
"""

from __future__ import annotations

from dataclasses import dataclass

from ggp.deadline import Deadline
from ggp.errors import GGPError


class ClockError(GGPError, ValueError):
    """Clock settings that cannot work (negative or zero clocks)."""


@dataclass(frozen=True)
class Clocks:
    """Start clock, play clock and network slack, in seconds."""

    start: float = 10.0
    play: float = 5.0
    slack: float = 1.0

    def __post_init__(self) -> None:
        if not (self.start > 0 and self.play > 0 and self.slack >= 0):
            raise ClockError(f"clocks must be positive (start {self.start}, play {self.play}, "
                             f"slack {self.slack})")

    def start_deadline(self) -> Deadline:
        """When ``ready`` is due, counted from now."""
        return Deadline.after(self.start + self.slack)

    def play_deadline(self) -> Deadline:
        """When a move is due, counted from now."""
        return Deadline.after(self.play + self.slack)

    def stop_deadline(self) -> Deadline:
        """When ``done`` (or ``aborted``) is due, counted from now."""
        return Deadline.after(self.play + self.slack)
