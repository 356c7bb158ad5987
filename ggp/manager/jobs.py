"""One match to play, as a value: :class:`MatchJob`, the settings every match of a batch shares
(:class:`HostSettings`), and :func:`play_job`, which plays a job wherever it runs (this process,
a worker process, a Ray worker) with clients kept from match to match.

Everything a match's result depends on is in its job: who sits where, the match's seed (the
``random`` role and substitutions) and each seat's player seed, so a job plays the same moves
in any worker, in any order, on any machine (as far as the players' use of time allows).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from ggp.errors import GGPError
from ggp.gdl.rules import RANDOM, GameDescription
from ggp.manager.clocks import Clocks
from ggp.manager.journal import Journal, StoreJournal
from ggp.manager.record import NOT_PLAYED, MatchRecord
from ggp.manager.runner import MatchRunner, MatchSettings, sent_description
from ggp.manager.seating import ClientPool
from ggp.manager.store import MatchStore
from ggp.reasoner.machine import StateMachine


@dataclass(frozen=True)
class MatchJob:
    """A match to play: its number ``index`` (unique among the jobs of a batch; in a tournament,
    the match's number), ``specs`` in seat order (the roles other than ``random``), ``seed`` for
    the match, ``player_seeds`` (``random.Random(s)`` for the player in each seat), the match id,
    and, for a tournament's match, the tournament's id."""

    index: int
    specs: tuple[str, ...]
    seed: int
    player_seeds: tuple[str, ...]
    match_id: str
    tournament: str | None = None

    def retried(self, attempt: int) -> MatchJob:
        """The same match under a new id, for its ``attempt``-th retry."""
        return replace(self, match_id=f"{self.match_id}.r{attempt}")


@dataclass(frozen=True)
class HostSettings:
    """What every match of a batch shares: clocks, message form, reasoner, where records go
    (``db``: the match database, None for the default; ``store`` False: none; ``record_dir``:
    a record file per match there, None: no files), and ``in_process`` (debugging)."""

    clocks: Clocks = field(default_factory=Clocks)
    protocol: str = "auto"
    reasoner: str | None = None
    db: str | None = None
    store: bool = True
    record_dir: str | None = None
    in_process: bool = False

    def journal(self, job: MatchJob, database: MatchStore | None = None) -> StoreJournal:
        """The journal a job's match is written to (through ``database`` when given, which is
        left open)."""
        return StoreJournal(self.db, store=self.store, files=self.record_dir is not None,
                            record_dir=self.record_dir, tournament=job.tournament, index=job.index,
                            database=database)


def not_played(description: GameDescription, job: MatchJob, settings: HostSettings, reason: str) -> MatchRecord:
    """The record of a job whose match could not begin (e.g. a player's process did not start)."""
    sent = sent_description(description, settings.protocol)
    seats = [str(r) for r in description.roles if r != RANDOM]
    clocks = settings.clocks
    record = MatchRecord(job.match_id, description.source, sent.to_kif(), sent.digest(),
                         [str(r) for r in description.roles], dict(zip(seats, job.specs)), clocks.start,
                         clocks.play, clocks.slack, job.seed, settings.protocol)
    record.started = record.finished = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
    record.status = NOT_PLAYED
    record.errors.append(f"not played: {reason}")
    return record


class JobPlayer:
    """Plays jobs one after another in this process, keeping the players' processes (a
    :class:`ClientPool`) between matches; :meth:`stop` stops the match in progress (from any
    thread) and every later one."""

    def __init__(self, description: GameDescription, settings: HostSettings, journal: bool = True):
        self.description = description
        self.settings = settings
        self.use_journal = journal
        self.pool = ClientPool(settings.reasoner, in_process=settings.in_process, keep=16)
        self._machine: StateMachine | None = None  # the manager's, built once for every match
        self._database: MatchStore | None = None  # kept open from match to match
        self._runner: MatchRunner | None = None
        self._stop_signal: int | None = None

    def play(self, job: MatchJob, journal: Journal | None = None) -> MatchRecord:
        """Play ``job`` and return its record (``journal``: where it goes as it is played;
        default: the settings' store and files)."""
        from ggp.manager.stopping import Interrupted

        if self._stop_signal is not None:
            raise Interrupted(self._stop_signal)
        if journal is None and self.use_journal:
            if self._database is None and self.settings.store:
                self._database = MatchStore(self.settings.db)
            journal = self.settings.journal(job, self._database)
        try:
            clients = self.pool.take(list(job.specs), [random.Random(s) for s in job.player_seeds])
        except GGPError as exc:
            record = not_played(self.description, job, self.settings, str(exc))
            if journal is not None:
                journal.begin(record)
                journal.end(record)
            return record
        s = self.settings
        try:
            settings = MatchSettings(s.clocks, job.seed, s.protocol, s.reasoner, job.match_id)
            if self._machine is None:
                self._machine = MatchRunner.machine_for(self.description, settings)
            runner = MatchRunner(self.description, clients, settings, close_clients=False, journal=journal,
                                 machine=self._machine)
            self._runner = runner
            if self._stop_signal is not None:
                runner.stop(self._stop_signal)
            return runner.run()
        finally:
            self._runner = None
            self.pool.give_back(clients)

    def stop(self, signum: int) -> None:
        """Stop the match in progress (it ends ``aborted``) and refuse later ones."""
        self._stop_signal = signum
        runner = self._runner
        if runner is not None:
            runner.stop(signum)

    def close(self) -> None:
        """End the players' processes; close the database."""
        self.pool.close()
        if self._database is not None:
            self._database.close()
            self._database = None


def resolve(path: str | Path | None) -> str | None:
    """``path`` made absolute (workers may run elsewhere), or None."""
    return str(Path(path).resolve()) if path is not None else None


__all__ = ["HostSettings", "JobPlayer", "MatchJob", "not_played", "resolve"]
