"""Running a list of matches and getting their records as they finish: :func:`run_matches`.

The matches (:class:`~ggp.manager.jobs.MatchJob`) run in this process one after another
(``workers`` 1), in ``workers`` processes of this machine (:mod:`ggp.manager.workers`), or on a
Ray cluster (:mod:`ggp.manager.ray_hosting`); every record is written to the match database and
its record file by the process that plays it, step by step, and yielded here as the match ends.
A job's result does not depend on where or when it runs, so every way gives the same records
for the same jobs.

Remote players (``http://HOST:PORT``) are never sent more matches at once than they accept:
``capacity`` (by URL, default 1: a GGP player plays one match at a time; ``ggp serve --matches
N`` says N in its answer to ``(info)``, see :func:`endpoint_capacity`). A job waits while one of
its endpoints is full, and later jobs that fit go first.

Ctrl-C and SIGTERM (as ``KeyboardInterrupt``, see :mod:`ggp.manager.stopping`) stop every
match in progress: each sends ABORT to its players and writes its partial record (``aborted``);
those records are yielded, then the iteration ends with :attr:`MatchBatch.interrupted` set.
"""

from __future__ import annotations

import logging
import signal
from collections import deque
from collections.abc import Generator, Sequence
from typing import Protocol

from ggp.deadline import Deadline
from ggp.gdl.rules import GameDescription
from ggp.manager.client import RemotePlayer, same_endpoint
from ggp.manager.jobs import HostSettings, JobPlayer, MatchJob
from ggp.manager.record import ABORTED, MatchRecord
from ggp.manager.runner import MatchSetupError
from ggp.manager.stopping import signal_of
from ggp.protocol.messages import Info, ProtocolError, parse_info_reply

log = logging.getLogger(__name__)


class Backend(Protocol):
    """Where matches run: at most :attr:`slots` at once."""

    slots: int

    def submit(self, job: MatchJob) -> None:
        """Start ``job`` (a slot is free)."""

    def next(self) -> tuple[MatchJob, MatchRecord | None]:
        """Wait for a job to end: its record, or None when the process playing it died."""

    def stop(self, signum: int) -> list[tuple[MatchJob, MatchRecord | None]]:
        """Stop every match in progress; their (aborted) records."""

    def close(self) -> None:
        """Release the workers."""


class SerialBackend:
    """One match at a time, in this process (the players in processes of their own)."""

    slots = 1

    def __init__(self, description: GameDescription, settings: HostSettings):
        self.player = JobPlayer(description, settings)
        self._queued: deque[MatchJob] = deque()

    def submit(self, job: MatchJob) -> None:
        """Queue ``job``; it is played by :meth:`next`."""
        self._queued.append(job)

    def next(self) -> tuple[MatchJob, MatchRecord | None]:
        """Play the queued job (an interrupt makes its record ``aborted``)."""
        job = self._queued.popleft()
        return job, self.player.play(job)

    def stop(self, signum: int) -> list[tuple[MatchJob, MatchRecord | None]]:
        """Nothing runs between calls of :meth:`next`."""
        self._queued.clear()
        return []

    def close(self) -> None:
        """End the players' processes."""
        self.player.close()


def endpoint_capacity(url: str, seconds: float = 5.0) -> int:
    """How many matches at once the player server at ``url`` accepts: the ``(capacity N)`` of
    its ``(info)`` answer (``ggp serve --matches N``), else 1."""
    reply = RemotePlayer(url).send(Info(), Deadline.after(seconds))
    if reply.text is None:
        return 1
    try:
        return max(1, parse_info_reply(reply.text).capacity or 1)
    except ProtocolError:
        return 1


class _Endpoints:
    """Free slots per remote endpoint (URLs reaching one server share them)."""

    def __init__(self, capacity: dict[str, int]):
        self._keys: dict[str, str] = {}
        self._free: dict[str, int] = {}
        for url, slots in capacity.items():
            key = next((k for k in self._free if same_endpoint(k, url)), url)
            self._keys[url] = key
            self._free[key] = min(self._free.get(key, slots), slots)

    def _of(self, job: MatchJob) -> list[str]:
        return [self._keys[s] for s in job.specs if s in self._keys]

    def fits(self, job: MatchJob) -> bool:
        return all(self._free[k] > 0 for k in self._of(job))

    def take(self, job: MatchJob) -> None:
        for key in self._of(job):
            self._free[key] -= 1

    def give(self, job: MatchJob) -> None:
        for key in self._of(job):
            self._free[key] += 1


class MatchBatch:
    """The records of a list of jobs, as they finish (see :func:`run_matches`)."""

    #: Times a job whose worker process died is tried again before it counts as not played.
    RETRIES = 2

    def __init__(self, description: GameDescription, jobs: Sequence[MatchJob], backend: Backend,
                 capacity: dict[str, int], settings: HostSettings | None = None):
        self.description = description
        self.settings = settings or HostSettings()
        self.jobs = list(jobs)
        self._first = {job.index: job for job in self.jobs}
        self.backend = backend
        self.endpoints = _Endpoints(capacity)
        #: Set when an interrupt stopped the batch: the signal's number.
        self.interrupted: int | None = None

    def __iter__(self) -> Generator[MatchRecord, None, None]:
        pending = deque(self.jobs)
        running: dict[str, MatchJob] = {}
        tries: dict[int, int] = {}
        try:
            while pending or running:
                while len(running) < self.backend.slots and self.interrupted is None:
                    job = next((j for j in pending if self.endpoints.fits(j)), None)
                    if job is None:
                        break
                    pending.remove(job)
                    self.endpoints.take(job)
                    running[job.match_id] = job
                    self.backend.submit(job)
                if not running:
                    break
                job, record = self.backend.next()
                running.pop(job.match_id, None)
                self.endpoints.give(job)
                if record is None:
                    record = self._lost(job, tries, pending)
                    if record is None:
                        continue
                if record.status == ABORTED:
                    self.interrupted = self.interrupted or _aborted_by(record)
                yield record
        except KeyboardInterrupt as exc:
            self.interrupted = signal_of(exc)
            for _, record in self.backend.stop(self.interrupted):
                if record is not None:
                    yield record
        except GeneratorExit:  # the caller stopped reading: the matches in progress are stopped
            if running:
                self.backend.stop(int(signal.SIGTERM))
            raise
        finally:
            self.backend.close()

    def _lost(self, job: MatchJob, tries: dict[int, int], pending: deque[MatchJob]) -> MatchRecord | None:
        """A job whose process died: try it again (under a new id), or give it up as not played."""
        from ggp.manager.jobs import not_played

        tries[job.index] = tries.get(job.index, 0) + 1
        if tries[job.index] <= self.RETRIES:
            log.warning("match %s: its worker process died; trying again", job.match_id)
            pending.appendleft(self._first.get(job.index, job).retried(tries[job.index]))
            return None
        return not_played(self.description, job, self.settings, "its worker process died "
                          f"{tries[job.index]} times")


def _aborted_by(record: MatchRecord) -> int:
    """The signal that aborted ``record`` (its first error says ``interrupted (SIGTERM)``)."""
    for name in ("SIGTERM", "SIGHUP"):
        if any(line.startswith(f"interrupted ({name})") for line in record.errors):
            return int(getattr(signal, name))
    return int(signal.SIGINT)


def run_matches(description: GameDescription, jobs: Sequence[MatchJob], settings: HostSettings, *,
                workers: int | None = None, ray: str | None = None,
                capacity: dict[str, int] | None = None) -> MatchBatch:
    """Play ``jobs`` (see the module doc); iterate over the result for the records as they
    finish. ``workers``: processes on this machine (default 1: this process); ``ray``: a Ray cluster's
    address, or ``auto`` to start a local one (``workers`` then caps the matches at once;
    default: the cluster's CPUs). ``capacity``: matches at once per remote player URL (missing
    URLs: asked with :func:`endpoint_capacity`)."""
    if workers is not None and workers < 1:
        raise MatchSetupError(f"the number of workers must be positive, not {workers}")
    urls = sorted({s for job in jobs for s in job.specs if s.startswith(("http://", "https://"))})
    known = dict(capacity or {})
    for url in urls:
        if url not in known:
            known[url] = endpoint_capacity(url)
    backend: Backend
    if ray is not None:
        from ggp.manager.ray_hosting import RayBackend

        backend = RayBackend(description, settings, ray, workers)
    elif workers is not None and workers > 1:
        from ggp.manager.workers import WorkerBackend

        backend = WorkerBackend(description, settings, min(workers, max(1, len(jobs))))
    else:
        backend = SerialBackend(description, settings)
    return MatchBatch(description, jobs, backend, known, settings)


__all__ = ["Backend", "MatchBatch", "SerialBackend", "endpoint_capacity", "run_matches"]
