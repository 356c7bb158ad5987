"""Deadlines: a point in :func:`time.monotonic` time, passed to whoever must finish by it (players,
beliefs, the manager)."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Deadline:
    """The moment (``time.monotonic()`` seconds) by which an answer is due."""

    at: float

    @classmethod
    def after(cls, seconds: float, start: float | None = None) -> Deadline:
        """The deadline ``seconds`` after ``start`` (default: now)."""
        return cls((time.monotonic() if start is None else start) + seconds)

    def remaining(self) -> float:
        """Seconds left (0 once passed)."""
        return max(0.0, self.at - time.monotonic())

    @property
    def expired(self) -> bool:
        """True once the deadline has passed."""
        return time.monotonic() >= self.at

    def earlier(self, seconds: float) -> Deadline:
        """A deadline ``seconds`` before this one."""
        return Deadline(self.at - seconds)

    def share(self, fraction: float) -> Deadline:
        """The deadline after ``fraction`` of the time left from now."""
        now = time.monotonic()
        return Deadline(now + max(0.0, self.at - now) * fraction)

    def __repr__(self) -> str:
        return f"<Deadline in {self.at - time.monotonic():.3f}s>"
