"""Stopping on a signal: SIGTERM (sent by process managers, containers, CI and Ray) stops a
match or a tournament as Ctrl-C does.

:func:`stop_on_signals` makes SIGINT and SIGTERM raise :class:`Interrupted` (a
``KeyboardInterrupt``, which the match runner turns into ``abort`` to every player and an
``aborted`` record) in the main thread, once: while the program stops, further signals are
ignored, so a second Ctrl-C cannot cut the abort short. :func:`exit_status` gives the
conventional status (128 + the signal number: 130 for SIGINT, 143 for SIGTERM).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Interrupted(KeyboardInterrupt):
    """Raised by :func:`stop_on_signals` for SIGINT or SIGTERM; ``signum`` says which."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


_last: list[int] = []


def signal_of(exc: BaseException) -> int:
    """The signal behind an interrupt: its own, else the last one :func:`stop_on_signals` saw
    (a library may have turned it into a plain ``KeyboardInterrupt``), else SIGINT."""
    if isinstance(exc, Interrupted):
        return exc.signum
    return _last[-1] if _last else int(signal.SIGINT)


def describe_interrupt(exc: BaseException) -> str:
    """``SIGTERM``, ``SIGINT`` (Ctrl-C, or any other ``KeyboardInterrupt``)."""
    return signal.Signals(signal_of(exc)).name


def exit_status(exc: BaseException) -> int:
    """128 plus the signal's number (130 for Ctrl-C)."""
    return 128 + signal_of(exc)


#: The signals that stop a match.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, the first SIGINT or SIGTERM raises :class:`Interrupted` in the main
    thread and later ones are ignored; the old handlers come back after it. Does nothing
    outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        if fired.is_set():
            return
        fired.set()
        _last.append(signum)
        raise Interrupted(signum)

    old = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


__all__ = ["Interrupted", "STOP_SIGNALS", "describe_interrupt", "exit_status", "signal_of", "stop_on_signals"]
