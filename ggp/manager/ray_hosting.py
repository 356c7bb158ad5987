"""Matches on a Ray cluster (the optional extra ``ggp[ray]``): :class:`RayBackend`.

``ray`` is ``auto`` (start a local cluster of this machine's cores) or a cluster's address
(``ray://HOST:10001``, ``HOST:6379``; every node needs this project installed with the same
Python). Each Ray worker is an actor holding a :class:`~ggp.manager.jobs.JobPlayer` (its
players in processes of their own on that node, kept from match to match) and plays one match
at a time. The match database and the record files are on this machine: an actor pinned to
this node (:class:`_JournalHost`) writes every match step by step as the workers report it, so
the cluster's nodes need no shared disk. A stop (Ctrl-C, SIGTERM) is passed to the workers,
whose matches send ABORT and end ``aborted``.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from typing import Any

from ggp.errors import GGPError
from ggp.gdl.rules import GameDescription
from ggp.manager.jobs import HostSettings, JobPlayer, MatchJob
from ggp.manager.journal import StoreJournal
from ggp.manager.record import MatchRecord, Step
from ggp.manager.stopping import STOP_SIGNALS

#: Seconds the matches in progress get to stop (send ABORT, write their records).
STOP_SECONDS = 5.0


class RayUnavailable(GGPError):
    """Ray is not installed, or the cluster cannot be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'ggp[ray]'") from None
    return ray


class _JournalHost:
    """Writes the matches reported by the workers (one :class:`StoreJournal` each, with its own
    copy of the record, to which each reported step is added), on the driver's machine."""

    def __init__(self, settings: HostSettings):
        self.settings = settings
        self.open: dict[str, tuple[StoreJournal, MatchRecord]] = {}

    def begin(self, job: MatchJob, record: MatchRecord) -> None:
        journal = self.settings.journal(job)
        self.open[record.match_id] = (journal, record)
        journal.begin(record)

    def step(self, match_id: str, step: Step, errors: list[str]) -> None:
        if match_id in self.open:
            journal, record = self.open[match_id]
            record.steps.append(step)
            record.errors = errors
            journal.step(record, step)

    def end(self, record: MatchRecord) -> None:
        journal, _ = self.open.pop(record.match_id, (None, None))
        if journal is not None:
            journal.end(record)

    def flush(self) -> int:
        """Called last: every report before it has been written."""
        return len(self.open)


class _RemoteJournal:
    """A worker's journal for one match: the reports go to the driver's :class:`_JournalHost`
    (a step at a time: the host keeps the record)."""

    def __init__(self, host: Any, job: MatchJob, ray: Any):
        self.host = host
        self.job = job
        self.ray = ray

    def begin(self, record: MatchRecord) -> None:
        self.host.begin.remote(self.job, record)

    def step(self, record: MatchRecord, step: Step) -> None:
        self.host.step.remote(record.match_id, step, list(record.errors))

    def end(self, record: MatchRecord) -> None:
        self.ray.get(self.host.end.remote(record))  # written before the match counts as over


class _Worker:
    """A Ray actor playing jobs one at a time; :meth:`stop` runs beside :meth:`play`."""

    def __init__(self, description: GameDescription, settings: HostSettings, journal: Any):
        import ray

        self.player = JobPlayer(description, settings, journal=False)
        self.journal = journal
        self.ray = ray

    def play(self, job: MatchJob) -> MatchRecord:
        return self.player.play(job, _RemoteJournal(self.journal, job, self.ray))

    def stop(self, signum: int) -> None:
        self.player.stop(signum)

    def close(self) -> None:
        self.player.close()


class RayBackend:
    """Matches on Ray actors, at most ``workers`` at once (default: the cluster's CPUs)."""

    def __init__(self, description: GameDescription, settings: HostSettings, address: str,
                 workers: int | None = None):
        ray = _ray()
        self.ray = ray
        env = {k: v for k, v in os.environ.items() if k.startswith("GGP_")}
        kwargs: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False,
                                  "include_dashboard": False, "runtime_env": {"env_vars": env}}
        # Ray installs handlers of its own for SIGTERM (and others) that end the process at once:
        # this command's handlers (stop the matches, record them) come back after it starts.
        handlers = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
        logging.disable(logging.WARNING)  # Ray's notes while it starts (its token, its dashboard)
        try:
            if address == "auto":
                ray.init(num_cpus=workers or os.cpu_count() or 1, **kwargs)
            else:
                ray.init(address=address, **kwargs)
        except Exception as exc:  # noqa: BLE001 - Ray's own errors are of many kinds
            raise RayUnavailable(f"cannot start or reach the Ray cluster {address!r}: {exc}") from None
        finally:
            logging.disable(logging.NOTSET)
            if threading.current_thread() is threading.main_thread():
                for signum, handler in handlers.items():
                    if handler is not None:
                        signal.signal(signum, handler)
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
        self.journal = ray.remote(num_cpus=0)(_JournalHost).options(scheduling_strategy=here).remote(settings)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.slots = max(1, workers or cpus)
        game = ray.put(description)
        actor = ray.remote(num_cpus=min(1, cpus / self.slots), max_concurrency=2)(_Worker)
        self._actors = [actor.remote(game, settings, self.journal) for _ in range(self.slots)]
        self._running: dict[Any, tuple[Any, MatchJob]] = {}  # object ref -> (actor, job)

    def submit(self, job: MatchJob) -> None:
        """Give ``job`` to an idle actor."""
        busy = {id(a) for a, _ in self._running.values()}
        actor = next(a for a in self._actors if id(a) not in busy)
        self._running[actor.play.remote(job)] = (actor, job)

    def next(self) -> tuple[MatchJob, MatchRecord | None]:
        """The next job to end: its record, or None when its worker died."""
        while True:
            done, _ = self.ray.wait(list(self._running), num_returns=1, timeout=0.5)
            if done:
                break
        ref = done[0]
        _, job = self._running.pop(ref)
        try:
            record: MatchRecord = self.ray.get(ref)
        except self.ray.exceptions.RayError:
            return job, None
        return job, record

    def stop(self, signum: int) -> list[tuple[MatchJob, MatchRecord | None]]:
        """Stop the matches in progress; their records."""
        for actor, _ in self._running.values():
            actor.stop.remote(signum)
        ended: list[tuple[MatchJob, MatchRecord | None]] = []
        deadline = time.monotonic() + STOP_SECONDS
        while self._running and time.monotonic() < deadline:
            done, _ = self.ray.wait(list(self._running), num_returns=1, timeout=max(0.01, deadline - time.monotonic()))
            for ref in done:
                _, job = self._running.pop(ref)
                try:
                    ended.append((job, self.ray.get(ref)))
                except self.ray.exceptions.RayError:
                    ended.append((job, None))
        return ended

    def close(self) -> None:
        """End the actors (and their players' processes), write what is left, leave the cluster."""
        ray = self.ray
        try:
            ray.get([a.close.remote() for a in self._actors], timeout=10)
            ray.get(self.journal.flush.remote(), timeout=10)
        except Exception:  # noqa: BLE001 - shutting down: best effort
            pass
        ray.shutdown()


__all__ = ["RayBackend", "RayUnavailable"]
