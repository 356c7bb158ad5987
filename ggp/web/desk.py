"""Desks: where a person sits to play a match from a browser (no HTTP here).

A :class:`Desk` is the meeting point of the ``web`` player (:mod:`ggp.web.player`), which
publishes what its role sees and the moves it may make and waits for a choice, and the page
that shows them and sends the person's choice (:mod:`ggp.web.desk_server`). It accepts a choice
only while a turn is open, only for that turn, and only among its legal moves. Each change
bumps a version number, so a page can wait for the next change.

The :class:`DeskRegistry` hands desks out by secret token; a player that is done with its desk
(the match ended, or the player was dropped) leaves it free for the next player, so a person
keeps one page through a whole tournament.
"""

from __future__ import annotations

import secrets
import threading
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ggp.gdl.terms import Term

#: What a desk is doing.
IDLE, WATCHING, CHOOSING, OVER = "idle", "watching", "choosing", "over"


@dataclass(frozen=True)
class Choice:
    """The answer to a person's choice: accepted, or refused with an HTTP-like status and why."""

    accepted: bool
    status: int
    message: str
    label: str = ""


@dataclass
class Scene:
    """What a desk shows: the match, the table (any object the server can draw), the log of
    what the person did and saw, the moves to choose from (term text to (move, label)), the
    deadline (monotonic seconds), the play clock, and a message (``warning``: a bad one)."""

    match_id: str = ""
    role: str = ""
    game: str = ""
    turn: int | None = None
    table: Any = None
    moves: dict[str, tuple[Term, str]] = field(default_factory=dict)
    deadline: float | None = None
    clock: float = 0.0
    message: str = ""
    warning: bool = False
    log: list[tuple[str, list[str]]] = field(default_factory=list)
    goals: Mapping[str, float] = field(default_factory=dict)


class Desk:
    """One person's seat (see the module doc)."""

    def __init__(self, token: str, number: int):
        self.token = token
        self.number = number
        self.status = IDLE
        self.scene = Scene()
        self.version = 0
        self._changed = threading.Condition()
        self._choice: Term | None = None
        self.seen_version = 0

    # --- the player's side ----------------------------------------------------------------------

    def show(self, status: str, **changes: Any) -> None:
        """Change the status and any field of the scene; ends an open choice."""
        with self._changed:
            self.status = status
            for key, value in changes.items():
                setattr(self.scene, key, value)
            if status != CHOOSING:
                self.scene.moves = {}
                self.scene.deadline = None
            self._choice = None
            self.version += 1
            self._changed.notify_all()

    def note(self, heading: str, lines: list[str]) -> None:
        """Add an entry to the log."""
        with self._changed:
            self.scene.log.append((heading, lines))
            self.version += 1
            self._changed.notify_all()

    def wait_choice(self, until: float) -> Term | None:
        """The move the person chose before ``until`` (monotonic seconds), or None."""
        with self._changed:
            while self._choice is None and self.status == CHOOSING:
                left = until - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(left)
            return self._choice

    def wait_seen(self, version: int, until: float) -> bool:
        """Wait until a page has fetched ``version`` (or later), at most until ``until``."""
        with self._changed:
            while self.seen_version < version:
                left = until - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True

    # --- the page's side ----------------------------------------------------------------------

    def choose(self, turn: Any, text: Any) -> Choice:
        """The person chose ``text`` (a move's term as text) for ``turn``."""
        if not isinstance(turn, int) or isinstance(turn, bool) or not isinstance(text, str):
            return Choice(False, 400, "a choice needs the turn (a whole number) and the move (text)")
        with self._changed:
            if self.status != CHOOSING or self.scene.turn != turn or self._choice is not None:
                now = self.scene.turn
                return Choice(False, 409, f"turn {turn} is not open for a choice"
                              + (f" (the turn now is {now})" if now is not None else ""))
            found = self.scene.moves.get(" ".join(text.split()).lower())
            if found is None:
                return Choice(False, 400, f"{text[:80]!r} is not one of your legal moves now")
            if self.scene.deadline is not None and time.monotonic() > self.scene.deadline:
                return Choice(False, 409, "the time for this turn is up")
            self._choice = found[0]
            self.version += 1
            self._changed.notify_all()
            return Choice(True, 200, "", found[1])

    def wait_change(self, version: int, timeout: float) -> int:
        """Wait (at most ``timeout`` seconds) for a version later than ``version``; the current one."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    def fetched(self, version: int) -> None:
        """A page has fetched ``version``."""
        with self._changed:
            if version > self.seen_version:
                self.seen_version = version
                self._changed.notify_all()

    @property
    def chosen(self) -> bool:
        """True when the open turn's choice was made."""
        return self._choice is not None


class DeskRegistry:
    """The desks of one process, by token (see the module doc)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._desks: list[Desk] = []
        self._holders: dict[str, weakref.ref[Any] | None] = {}

    def claim(self, holder: object) -> tuple[Desk, bool]:
        """A free desk for ``holder`` (kept until it releases it or is gone) and whether it is new."""
        with self._lock:
            for desk in self._desks:
                ref = self._holders.get(desk.token)
                if ref is None or ref() is None:
                    self._holders[desk.token] = weakref.ref(holder)
                    return desk, False
            desk = Desk(secrets.token_urlsafe(12), len(self._desks) + 1)
            self._desks.append(desk)
            self._holders[desk.token] = weakref.ref(holder)
            return desk, True

    def release(self, desk: Desk) -> None:
        """Make ``desk`` free for the next player."""
        with self._lock:
            self._holders[desk.token] = None

    def get(self, token: str) -> Desk | None:
        """The desk of ``token``."""
        if not token.isascii():
            return None
        with self._lock:
            return next((d for d in self._desks if secrets.compare_digest(d.token, token)), None)

    def __len__(self) -> int:
        return len(self._desks)
