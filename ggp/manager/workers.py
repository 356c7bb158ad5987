"""Matches in worker processes on this machine: :class:`WorkerBackend` and the worker's loop.

Each worker is a fresh interpreter (as a player's process is, see :mod:`ggp.manager.process`)
running :func:`main` on one end of a pipe. It receives the game and the batch's settings once,
then plays one job at a time with a :class:`~ggp.manager.jobs.JobPlayer` (its players in
processes of their own, kept from match to match), writes each match to the store and its
record file step by step itself, and sends the final record back.

On the pipe, items are tuples ``(KIND, PAYLOAD)``: to the worker ``("init", (GAME, SETTINGS,
LOG_LEVEL, SYS_PATH))``, ``("job", JOB)``, ``("stop", SIGNUM)``, ``("exit", None)``; from it
``("ready", PID)`` or ``("failed", DETAIL)``, and ``("done", RECORD)`` per job.

Workers run in a session of their own, so a Ctrl-C at the terminal (or a signal sent to the
command's process group) reaches only the command, which stops them with ``stop``: the match
in progress sends ABORT to its players and ends ``aborted``. A worker whose pipe closes (the
command was killed), or that is sent SIGINT or SIGTERM itself, stops its match the same way.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import ggp
from ggp.errors import GGPError
from ggp.gdl.rules import GameDescription
from ggp.manager.jobs import HostSettings, JobPlayer, MatchJob
from ggp.manager.record import MatchRecord

log = logging.getLogger(__name__)

#: Seconds a worker may take to start (interpreter, imports, the game).
STARTUP_SECONDS = 60.0
#: Seconds the matches in progress get to stop (send ABORT, write their records).
STOP_SECONDS = 5.0
_ENTRY = "from ggp.manager.workers import main; main()"


class WorkerError(GGPError):
    """A worker process could not be started."""


class _Worker:
    """One worker process and the thread reading its pipe into the backend's queue."""

    def __init__(self, number: int, init: tuple[Any, ...], results: queue.Queue[tuple[_Worker, str, Any]]):
        import socket

        self.number = number
        self.job: MatchJob | None = None
        self.ready = threading.Event()
        self.failure: str | None = None
        self._results = results
        mine, theirs = socket.socketpair()
        self.conn = Connection(mine.detach())
        env = dict(os.environ)
        source = str(Path(ggp.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _ENTRY, str(theirs.fileno())], pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL, stdout=2, env=env, start_new_session=True)
        except OSError as exc:
            self.conn.close()
            raise WorkerError(f"cannot start a worker process: {exc}") from None
        finally:
            theirs.close()
        self._lock = threading.Lock()
        self.send(("init", init))
        self._reader = threading.Thread(target=self._read, name=f"ggp-worker-{number}", daemon=True)
        self._reader.start()

    def send(self, item: tuple[str, Any]) -> bool:
        """Send ``item``; False when the worker is gone."""
        with self._lock:
            try:
                self.conn.send(item)
                return True
            except (OSError, ValueError):
                return False

    def _read(self) -> None:
        while True:
            try:
                kind, payload = self.conn.recv()
            except (EOFError, OSError):
                break
            if kind == "ready":
                self.ready.set()
            elif kind == "failed":
                self.failure = str(payload)
                self.ready.set()
            else:
                self._results.put((self, kind, payload))
        try:
            code = self.process.wait(2.0)
        except subprocess.TimeoutExpired:
            code = None
        if self.failure is None and not self.ready.is_set():
            self.failure = f"the worker process ended (status {code}) before it was ready"
        self.ready.set()
        self._results.put((self, "lost", code))

    def close(self) -> None:
        """Ask the worker to leave; terminate, then kill it if it does not."""
        self.send(("exit", None))
        for end in (None, self.process.terminate, self.process.kill):
            if end is not None:
                end()
            try:
                self.process.wait(2.0)
                break
            except subprocess.TimeoutExpired:
                continue
        self.conn.close()


class WorkerBackend:
    """``workers`` processes, one match each at a time (see the module doc)."""

    def __init__(self, description: GameDescription, settings: HostSettings, workers: int):
        self.slots = workers
        level = logging.getLogger().getEffectiveLevel()
        self._init = (description, settings, level, list(sys.path))
        self._results: queue.Queue[tuple[_Worker, str, Any]] = queue.Queue()
        self._numbers = iter(range(10**9))
        self._workers: list[_Worker] = []
        try:
            for _ in range(workers):
                self._workers.append(_Worker(next(self._numbers), self._init, self._results))
            for worker in self._workers:
                self._wait_ready(worker)
        except BaseException:
            self.close()
            raise

    def _wait_ready(self, worker: _Worker) -> None:
        if not worker.ready.wait(STARTUP_SECONDS):
            raise WorkerError(f"a worker process was not ready within {STARTUP_SECONDS:g} s")
        if worker.failure is not None:
            raise WorkerError(f"a worker process failed: {worker.failure}")

    def submit(self, job: MatchJob) -> None:
        """Hand ``job`` to an idle worker."""
        worker = next(w for w in self._workers if w.job is None)
        worker.job = job
        if not worker.send(("job", job)):
            self._results.put((worker, "lost", None))

    def next(self) -> tuple[MatchJob, MatchRecord | None]:
        """The next job to end: its record, or None when its worker died (a new one replaces it)."""
        while True:
            try:
                worker, kind, payload = self._results.get(timeout=0.5)
            except queue.Empty:
                continue
            job, worker.job = worker.job, None
            if kind == "lost":
                self._replace(worker)
                if job is not None:
                    return job, None
                continue
            if job is not None:
                return job, payload

    def _replace(self, worker: _Worker) -> None:
        if worker not in self._workers:
            return
        self._workers.remove(worker)
        worker.close()
        fresh = _Worker(next(self._numbers), self._init, self._results)
        self._workers.append(fresh)
        self._wait_ready(fresh)

    def stop(self, signum: int) -> list[tuple[MatchJob, MatchRecord | None]]:
        """Stop the matches in progress; their records (None for a worker that died)."""
        busy = [w for w in self._workers if w.job is not None]
        for worker in busy:
            worker.send(("stop", signum))
        ended: list[tuple[MatchJob, MatchRecord | None]] = []
        deadline = time.monotonic() + STOP_SECONDS
        while any(w.job is not None for w in busy) and time.monotonic() < deadline:
            try:
                worker, kind, payload = self._results.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            job, worker.job = worker.job, None
            if job is not None:
                ended.append((job, payload if kind == "done" else None))
        return ended

    def close(self) -> None:
        """End every worker (and so their players' processes)."""
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.send(("exit", None))
        for worker in workers:
            worker.close()


# --- the worker -------------------------------------------------------------------------------


def main() -> None:
    """The worker process (``sys.argv[1]``: the pipe's file descriptor); see the module doc."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # until the worker can stop its match (see _serve)
    status = 0
    try:
        conn = Connection(int(sys.argv[1]))
        kind, payload = conn.recv()
        assert kind == "init", kind
        description, settings, level, path = payload
        sys.path[:] = path
        logging.basicConfig(level=level, stream=sys.stderr, format="worker: %(name)s: %(message)s")
        _serve(conn, description, settings)
    except (EOFError, OSError):
        pass
    except BaseException:  # noqa: BLE001 - report, then leave
        log.exception("a worker process failed")
        status = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def _serve(conn: Connection, description: GameDescription, settings: HostSettings) -> None:
    try:
        player = JobPlayer(description, settings)
    except Exception as exc:  # noqa: BLE001 - the command reports it
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    jobs: queue.SimpleQueue[MatchJob | None] = queue.SimpleQueue()
    send_lock = threading.Lock()

    def read() -> None:
        while True:
            try:
                kind, payload = conn.recv()
            except (EOFError, OSError):
                player.stop(signal.SIGTERM)  # the command is gone: stop, record, leave
                break
            if kind == "job":
                jobs.put(payload)
            elif kind == "stop":
                player.stop(payload)
            elif kind == "exit":
                break
        jobs.put(None)

    threading.Thread(target=read, name="ggp-worker-pipe", daemon=True).start()
    # A signal sent to the worker itself (a service manager ending every process of the
    # command) stops its match as the command's stop does, then the worker leaves.
    def stop(number: int, frame: object) -> None:
        player.stop(number)
        jobs.put(None)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)
    conn.send(("ready", os.getpid()))
    try:
        while (job := jobs.get()) is not None:
            try:
                record = player.play(job)
            except KeyboardInterrupt:  # stopped before the match began: nothing was played
                from ggp.manager.jobs import not_played

                record = not_played(description, job, settings, "the tournament was stopped")
            with send_lock:
                try:
                    conn.send(("done", record))
                except (OSError, ValueError):
                    pass
    finally:
        player.close()


__all__ = ["WorkerBackend", "WorkerError", "main"]
