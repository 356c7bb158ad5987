"""Players in processes of their own: :class:`ProcessPlayer` and the child loop that hosts them.

A :class:`ProcessPlayer` starts a child process that hosts a
:class:`~ggp.server.service.PlayerService` for the player named by the spec, so players share
an interpreter lock neither with the manager nor with each other. The child is a fresh
interpreter (``fork`` is unsafe: the manager has threads) started on this module's :func:`main`
with the manager's ``sys.path`` and working directory, like multiprocessing's ``spawn``, but
without running the manager's main script again. This module is transport only: the two ends
talk over one pipe (framed and pickled by :mod:`multiprocessing.connection`), and the service
does the rest, as behind ``ggp serve``.

On the pipe every item is a tuple ``(KIND, ID, PAYLOAD)``:

- manager to child: ``("init", 0, (SPEC, RNG, REASONER, LOG_LEVEL, SYS_PATH))`` first;
  ``("message", id, (TEXT, REMAINING))``, one GGP message as text and the seconds left until
  the manager's deadline; ``("new", id, RNG)``, continue with a fresh player seeded by ``RNG``
  (the next match); ``("exit", 0, None)``.
- child to manager: ``("ready", 0, PID)`` once the player exists, or ``("failed", 0, DETAIL)``;
  per request ``("answer", id, BODY)``, ``("rejected", id, DETAIL)`` (the service refused the
  message: ``http``), ``("error", id, DETAIL)`` (an exception: ``error``), ``("renewed", id,
  "")``.

The child handles each message on a thread of its own (an ``abort`` can overtake a ``play``),
counts its clocks from when a message arrived, as the HTTP server counts from the connection,
and learns its safety margin from how late its answers leave: after the service's deadline or
after the manager's (arrival plus ``REMAINING``), whichever is earlier. It ignores SIGINT and
SIGTERM (the manager handles them and sends ``abort``), reads nothing from the console (its standard
output goes to standard error, keeping the manager's output clean) and exits when the pipe
closes, so it does not outlive a manager that was killed. The manager's side never waits past
a message's deadline; when the child dies, waiting and later requests are answered ``closed``
with the reason, and :meth:`ProcessPlayer.new_match` starts a new child.
"""

from __future__ import annotations

import itertools
import logging
import os
import queue
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import ggp
from ggp.deadline import Deadline
from ggp.errors import GGPError
from ggp.manager.client import CLOSED, ERROR, HTTP, TIMEOUT, PlayerClient, Reply
from ggp.players.registry import create_player
from ggp.protocol.messages import Message, ProtocolError
from ggp.server.service import PlayerService

log = logging.getLogger(__name__)

#: Seconds a child may take to start: the interpreter, imports, the player object.
STARTUP_SECONDS = 30.0
#: Seconds a running child may take to make a fresh player before it counts as hung.
RENEW_SECONDS = 10.0
#: Seconds a child gets to leave after ``exit`` before it is killed.
EXIT_GRACE = 1.0

_INIT, _MESSAGE, _NEW, _EXIT = "init", "message", "new", "exit"
_READY, _FAILED, _ANSWER, _REJECTED, _ERROR, _RENEWED = "ready", "failed", "answer", "rejected", "error", "renewed"
_GONE = "gone"  # not on the pipe: the manager's side noticed that the child is gone
#: Messages a child answers at once (a ``play`` waiting for its deadline, an ``abort``, ...).
_HANDLERS = 16
#: Signals the child ignores: the manager handles Ctrl-C and SIGTERM (also when they are sent
#: to the whole process group) by aborting the match, then ends the child.
_IGNORED = (signal.SIGINT, signal.SIGTERM)
#: What the child runs: this module's main() on the pipe's file descriptor.
_ENTRY = "from ggp.manager.process import main; main()"


class PlayerProcessError(GGPError):
    """A player's process could not be started or renewed."""


class ProcessPlayer(PlayerClient):
    """A registered or ``module:Class`` player in a child process of its own (see the module doc).

    The child starts at once, seeded with ``rng``; the constructor waits until it is ready
    (at most ``startup_timeout`` seconds, else :class:`PlayerProcessError`) unless ``wait`` is
    False, in which case call :meth:`wait_ready` before the match (several children then start
    in parallel).
    """

    def __init__(self, spec: str, rng: random.Random, reasoner: str | None = None, *,
                 startup_timeout: float = STARTUP_SECONDS, wait: bool = True):
        self.spec = spec
        self.reasoner = reasoner
        self.startup_timeout = startup_timeout
        #: Seconds the last child took to become ready (None until it was).
        self.startup_seconds: float | None = None
        self._closed = False
        self._lock = threading.Lock()
        self._child = _Child(spec, rng, reasoner)
        if wait:
            self.wait_ready()

    @property
    def pid(self) -> int:
        """The process id of the current child."""
        return self._child.pid

    def wait_ready(self) -> None:
        """Wait until the child has made its player; raises :class:`PlayerProcessError` (after
        stopping the child) when it failed or took longer than ``startup_timeout``."""
        child = self._child
        if not child.ready.wait(max(0.0, child.started + self.startup_timeout - time.monotonic())):
            child.stop()
            raise PlayerProcessError(f"player {self.spec}: its process was not ready within "
                                     f"{self.startup_timeout:g} s")
        if child.failure is not None:
            child.stop()
            raise PlayerProcessError(f"player {self.spec}: {child.failure}")
        if self.startup_seconds is None:
            self.startup_seconds = child.ready_after

    def send(self, message: Message, deadline: Deadline) -> Reply:
        """Hand ``message`` to the child; its answer or why there is none, never after ``deadline``."""
        began = time.monotonic()

        def failed(kind: str, detail: str) -> Reply:
            return Reply(None, time.monotonic() - began, kind, detail)

        if self._closed:
            return failed(CLOSED, "the player's process was closed")
        remaining = deadline.remaining()
        if remaining <= 0:
            return failed(TIMEOUT, "no time left to send")
        result = self._child.request(_MESSAGE, (str(message), remaining), deadline)
        if result is None:
            return failed(TIMEOUT, "no answer within the clock")
        kind, payload = result
        if kind == _ANSWER:
            return Reply(payload, time.monotonic() - began)
        if kind == _REJECTED:
            return failed(HTTP, f"rejected: {payload}")
        if kind == _ERROR:
            return failed(ERROR, payload)
        return failed(CLOSED, payload)

    def new_match(self, rng: random.Random) -> None:
        """Continue with a fresh player seeded by ``rng``; a new child if the old one died or
        hangs. Raises :class:`PlayerProcessError` when the player cannot be made."""
        with self._lock:
            if self._closed:
                raise PlayerProcessError(f"player {self.spec}: the client is closed")
            child = self._child
            result = child.request(_NEW, rng, Deadline.after(RENEW_SECONDS))
            if result is not None and result[0] == _RENEWED:
                return
            if result is not None and result[0] == _ERROR:
                raise PlayerProcessError(f"player {self.spec}: {result[1]}")
            why = result[1] if result is not None else "it did not answer"
            log.warning("player %s: starting a new process (%s)", self.spec, why)
            child.stop()
            self._child = _Child(self.spec, rng, self.reasoner)
        self.startup_seconds = None
        self.wait_ready()

    def close(self) -> None:
        """Stop the child (asked to exit, killed if it does not); waiting sends return
        ``closed``. Closing twice is harmless."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._child.stop()


class _Pending:
    """A request waiting for the child's answer."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: tuple[str, str] = (_GONE, "")

    def resolve(self, kind: str, payload: str) -> None:
        self.result = (kind, payload)
        self.done.set()


class _Child:
    """One child process and the two threads that move items over its pipe."""

    def __init__(self, spec: str, rng: random.Random, reasoner: str | None):
        self.spec = spec
        self.ready = threading.Event()
        self.failure: str | None = None
        self.ready_after: float | None = None
        self.gone: str | None = None
        self._pending: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._outbox: queue.SimpleQueue[tuple[str, int, Any] | None] = queue.SimpleQueue()
        mine, theirs = socket.socketpair()
        self.conn = Connection(mine.detach())
        env = dict(os.environ)  # the child imports this very ggp, wherever it came from
        source = str(Path(ggp.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
        self.started = time.monotonic()
        # The child inherits the signal mask: SIGINT and SIGTERM stay blocked until it ignores them.
        masked = hasattr(signal, "pthread_sigmask")
        old = signal.pthread_sigmask(signal.SIG_BLOCK, set(_IGNORED)) if masked else set()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _ENTRY, str(theirs.fileno())], pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL, stdout=2, env=env)
        except OSError as exc:
            self.conn.close()
            raise PlayerProcessError(f"player {spec}: cannot start a process: {exc}") from None
        finally:
            if masked:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
            theirs.close()
        self.pid = self.process.pid
        level = logging.getLogger().getEffectiveLevel()
        self._outbox.put((_INIT, 0, (spec, rng, reasoner, level, list(sys.path))))
        self._reader = threading.Thread(target=self._read, name=f"ggp-player-{spec}-read", daemon=True)
        self._writer = threading.Thread(target=self._write, name=f"ggp-player-{spec}-write", daemon=True)
        self._reader.start()
        self._writer.start()

    def request(self, kind: str, payload: object, deadline: Deadline) -> tuple[str, str] | None:
        """Send a request and wait for its answer until ``deadline``; None on timeout."""
        pending = _Pending()
        with self._lock:
            if self.gone is not None:
                return _GONE, self.gone
            ident = next(self._ids)
            self._pending[ident] = pending
        self._outbox.put((kind, ident, payload))
        if pending.done.wait(max(0.0, deadline.remaining())):
            return pending.result
        with self._lock:
            self._pending.pop(ident, None)
        return None

    def stop(self) -> None:
        """Ask the child to exit; kill it if it does not (it ignores SIGTERM); wait until it has."""
        self._outbox.put((_EXIT, 0, None))
        self._outbox.put(None)
        for end in (None, self.process.kill):
            if end is not None:
                end()
            try:
                self.process.wait(EXIT_GRACE)
                break
            except subprocess.TimeoutExpired:
                continue
        self._reader.join(EXIT_GRACE)
        self._settle("the player's process was closed")
        self.conn.close()

    def _write(self) -> None:
        while True:
            item = self._outbox.get()
            if item is None:
                return
            try:
                self.conn.send(item)
            except (OSError, ValueError):
                return  # the child is gone: the reader says why
            except Exception as exc:  # noqa: BLE001 - e.g. an rng that cannot be pickled
                self._resolve(item[1], _ERROR, f"cannot send to the player's process: {type(exc).__name__}: {exc}")

    def _read(self) -> None:
        while True:
            try:
                kind, ident, payload = self.conn.recv()
            except (EOFError, OSError):
                break
            if kind == _READY:
                self.ready_after = time.monotonic() - self.started
                self.ready.set()
            elif kind == _FAILED:
                self.failure = str(payload)
                self.ready.set()
            else:
                self._resolve(ident, kind, str(payload))
        try:
            code: int | None = self.process.wait(EXIT_GRACE)
        except subprocess.TimeoutExpired:
            code = None
        self._settle(_exit_reason(code))

    def _resolve(self, ident: int, kind: str, payload: str) -> None:
        with self._lock:
            pending = self._pending.pop(ident, None)
        if pending is not None:  # else the request timed out: a late answer is dropped
            pending.resolve(kind, payload)

    def _settle(self, reason: str) -> None:
        """Mark the child gone and answer every waiting request with ``reason``."""
        with self._lock:
            if self.gone is None:
                self.gone = reason
            reason = self.gone
            waiting = list(self._pending.values())
            self._pending.clear()
        if self.failure is None and not self.ready.is_set():
            self.failure = reason
        self.ready.set()
        for pending in waiting:
            pending.resolve(_GONE, reason)


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "the player's process closed its pipe"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the player's process was killed by {name}"
    return f"the player's process exited with status {code}"


# --- the child --------------------------------------------------------------------------------


def main() -> None:
    """The child process (``sys.argv[1]``: the pipe's file descriptor): make the player, then
    answer the manager's requests until the pipe closes; leaves with ``os._exit`` (reasoning
    threads may still run in native code)."""
    for signum in _IGNORED:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(_IGNORED))
    status = 0
    try:
        conn = Connection(int(sys.argv[1]))
        kind, _, payload = conn.recv()
        assert kind == _INIT, kind
        spec, rng, reasoner, level, path = payload
        sys.path[:] = path
        logging.basicConfig(level=level, stream=sys.stderr,
                            format=spec.replace("%", "%%") + " (player process): %(name)s: %(message)s")
        _Host(conn, spec, reasoner).run(rng)
    except (EOFError, OSError):
        pass  # the manager went away before the player was made
    except BaseException:  # noqa: BLE001 - report, then leave at once
        log.exception("a player's process failed")
        status = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


class _Host:
    """The child's side of the pipe: one :class:`PlayerService`, renewed for each match."""

    def __init__(self, conn: Connection, spec: str, reasoner: str | None):
        self.conn = conn
        self.spec = spec
        self.reasoner = reasoner
        self.service: PlayerService | None = None
        self._send_lock = threading.Lock()
        # Each message on a thread of its own (reused: starting a thread per message costs more
        # than the rest of the round trip); an answer waits at most for its deadline.
        self._threads = ThreadPoolExecutor(_HANDLERS, thread_name_prefix="ggp-message")

    def run(self, rng: random.Random) -> None:
        try:
            self._renew(rng)
        except Exception as exc:  # noqa: BLE001 - the manager reports it
            self._reply(_FAILED, 0, f"{type(exc).__name__}: {exc}")
            return
        self._reply(_READY, 0, os.getpid())
        while True:
            try:
                kind, ident, payload = self.conn.recv()
            except (EOFError, OSError):
                return  # the manager closed the pipe or died
            if kind == _EXIT:
                return
            if kind == _NEW:
                try:
                    self._renew(payload)
                except Exception as exc:  # noqa: BLE001 - the manager reports it
                    self._reply(_ERROR, ident, f"{type(exc).__name__}: {exc}")
                else:
                    self._reply(_RENEWED, ident, "")
            elif kind == _MESSAGE:
                text, remaining = payload
                self._threads.submit(self._answer, ident, text, remaining, time.monotonic())

    def _renew(self, rng: random.Random) -> None:
        player = create_player(self.spec, rng=rng, reasoner=self.reasoner)
        old = self.service
        if old is not None:
            old.close()
        self.service = PlayerService(player, reasoner=self.reasoner, margin=old.margin if old else None)

    def _answer(self, ident: int, text: str, remaining: float, received_at: float) -> None:
        service = self.service
        assert service is not None
        try:
            answer = service.handle_text(text, received_at)
        except ProtocolError as exc:
            self._reply(_REJECTED, ident, str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - the player crashed: the manager substitutes
            self._reply(_ERROR, ident, f"{type(exc).__name__}: {exc}")
            return
        self._reply(_ANSWER, ident, answer.body)
        if answer.deadline is not None:
            decided = min(answer.deadline.at, answer.ready_at, received_at + remaining)
            service.margin.record(time.monotonic() - decided)

    def _reply(self, kind: str, ident: int, payload: object) -> None:
        with self._send_lock:
            try:
                self.conn.send((kind, ident, payload))
            except (OSError, ValueError):
                pass  # the manager is gone; the main loop sees the closed pipe


__all__ = ["RENEW_SECONDS", "STARTUP_SECONDS", "PlayerProcessError", "ProcessPlayer", "main"]
