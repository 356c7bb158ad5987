"""Tournaments: many matches of one game, the players rotated over the seats, run in this
process, in worker processes or on a Ray cluster, stored as they end, resumable.

**Seating.** With as many players as seats, match ``i`` (from 0) seats the specs rotated by
``i``: seat ``j`` (the ``j``-th role other than ``random``) gets ``specs[(i + j) % n]``. With more
players than seats (a round robin) the schedule is every set of ``k`` players (for ``k`` seats,
in the order the players were given) in each of its ``k`` rotations, and match ``i`` takes
entry ``i`` modulo its length. A whole number of schedules plays every player in every seat
equally often against every other.

**Seeds.** Match ``i`` gets the seed ``random.Random(f"{seed}/match/{i}").getrandbits(31)`` and the
player in its seat ``j`` ``random.Random(f"{seed}/{i}/{j}")``: a match's moves do not depend on where,
when or in which order it is played, so one worker, several, or Ray give the same records.

**Storage.** Each match is written to the match database step by step as it is played (and,
with a record directory, to ``DIR/MATCH_ID.json``), tagged with the tournament's id and its number.
The tournament's settings (players, seed, clocks, the rules) are stored first, so
:func:`resume_tournament` can finish a tournament that was stopped or killed: the matches that
ended (``finished``, or ``error`` when the rules failed) are kept, the others are played again
under a new id (their partial records stay in the database).

**Summary.** Every goal a player received in any seat, pooled (a spec given twice is one player),
its mean and 95 % confidence interval, and an OpenSkill rating (:mod:`ggp.manager.ratings`).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ggp.gdl.kif import parse_kif
from ggp.gdl.rules import RANDOM, GameDescription
from ggp.gdl.validate import prepare
from ggp.manager.batch import run_matches
from ggp.manager.clocks import Clocks
from ggp.manager.jobs import HostSettings, MatchJob, resolve
from ggp.manager.ratings import pooled_goals, rate
from ggp.manager.record import ERROR, FINISHED, NOT_PLAYED, MatchRecord
from ggp.manager.runner import MatchSetupError, check_endpoints, new_match_id
from ggp.manager.stopping import signal_of
from ggp.manager.store import MatchStore, StoreError, TournamentRow
from ggp.players.registry import player_class

#: The range of GDL goal values: a mean's confidence interval is clipped to it.
GOAL_RANGE = (0.0, 100.0)
#: Statuses of a match that counts as played (its record is the match's result).
PLAYED = (FINISHED, ERROR)

#: Two-sided 97.5 % quantiles of Student's t for 1 to 30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (normal beyond 30,
    with a first-order correction)."""
    if df < 1:
        raise ValueError("degrees of freedom must be positive")
    if df <= len(_T975):
        return _T975[df - 1]
    return 1.959964 * (1 + 1.23 / df)


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95 % confidence interval (Student's t; the mean itself for one value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def schedule(players: int, seats: int) -> list[tuple[int, ...]]:
    """The seatings of a round (see the module doc): player numbers in seat order."""
    if players < seats:
        raise MatchSetupError(f"{seats} seats need at least {seats} players, not {players}")
    if players == seats:
        return [tuple((i + j) % players for j in range(seats)) for i in range(players)]
    return [tuple(group[(r + j) % seats] for j in range(seats))
            for group in itertools.combinations(range(players), seats) for r in range(seats)]


def seating(specs: Sequence[str], match: int, seats: int | None = None) -> list[str]:
    """The specs in seat order for match number ``match``."""
    rounds = schedule(len(specs), len(specs) if seats is None else seats)
    return [specs[k] for k in rounds[match % len(rounds)]]


def default_matches(players: int, seats: int, at_least: int = 10) -> int:
    """The smallest whole number of rounds with at least ``at_least`` matches."""
    length = len(schedule(players, seats))
    return length * max(1, math.ceil(at_least / length))


@dataclass(frozen=True)
class TournamentPlan:
    """Who plays which match with which seeds (see the module doc)."""

    tournament_id: str
    specs: tuple[str, ...]
    seats: int
    matches: int
    seed: int

    def job(self, i: int, attempt: int = 0) -> MatchJob:
        """Match ``i``'s job; its id ``TOURNAMENT.mI`` (``.aN`` for the ``N``-th new attempt)."""
        rounds = schedule(len(self.specs), self.seats)
        order = rounds[i % len(rounds)]
        match_seed = random.Random(f"{self.seed}/match/{i}").getrandbits(31)
        suffix = f".a{attempt}" if attempt else ""
        return MatchJob(i, tuple(self.specs[k] for k in order), match_seed,
                        tuple(f"{self.seed}/{i}/{j}" for j in range(self.seats)),
                        f"{self.tournament_id}.m{i}{suffix}", self.tournament_id)


@dataclass
class TournamentResult:
    """What a tournament produced: every goal each spec got, the matches' problems, ratings."""

    specs: list[str]
    matches: int = 0
    not_played: int = 0
    goals: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    interrupted: bool = False
    #: The signal that stopped the tournament (None when it ran to its end).
    signal: int | None = None
    tournament_id: str | None = None
    records: dict[int, MatchRecord] = field(default_factory=dict)

    def add(self, index: int, record: MatchRecord) -> None:
        """Count match ``index``'s final record (played, or not played)."""
        if record.status == NOT_PLAYED:
            self.not_played += 1
            self.errors.extend(f"match {index}: {line}" for line in record.errors)
            return
        self.records[index] = record
        self.matches += 1
        for role, spec in record.players.items():
            value = record.goals.get(role)
            if value is not None:
                self.goals.setdefault(spec, []).append(float(value))
        self.errors.extend(f"match {index}: {line}" for line in record.errors)

    def ratings(self) -> dict[str, Any] | None:
        """Each spec's rating as JSON data (null for a spec never rated against another), or
        None without ``openskill``."""
        players = list(dict.fromkeys(self.specs))
        results = [pooled_goals(self.records[i].players, self.records[i].goals) for i in sorted(self.records)]
        rated = rate(players, results)
        if rated is None:
            return None
        met = {p for goals in results if len(goals) > 1 for p in goals}
        return {p: rated[p].to_json() if p in met else None for p in players}

    def summary(self) -> dict[str, Any]:
        """``{"tournament", "matches", "not_played", "mean_goals", "ci95", "rating"}``: mean goals
        and intervals null without goals, the interval clipped to the goals' range (0 to 100);
        ``rating`` absent without ``openskill``."""
        means: dict[str, float | None] = {}
        intervals: dict[str, list[float] | None] = {}
        for spec in dict.fromkeys(self.specs):
            values = self.goals.get(spec, [])
            if values:
                mean, lo, hi = mean_ci95(values)
                lo, hi = max(lo, GOAL_RANGE[0]), min(hi, GOAL_RANGE[1])
                means[spec], intervals[spec] = round(mean, 4), [round(lo, 4), round(hi, 4)]
            else:
                means[spec], intervals[spec] = None, None
        out: dict[str, Any] = {"tournament": self.tournament_id, "matches": self.matches,
                               "not_played": self.not_played, "mean_goals": means, "ci95": intervals}
        ratings = self.ratings()
        if ratings is not None:
            out["rating"] = ratings
        return out


def new_tournament_id(description: GameDescription) -> str:
    """A fresh tournament id such as ``t.tictactoe.20250101t120000.a1b2c3``."""
    return "t." + new_match_id(description.source)


def _settings_json(plan: TournamentPlan, host: HostSettings, description: GameDescription) -> dict[str, Any]:
    clocks = host.clocks
    return {"specs": list(plan.specs), "seats": plan.seats, "matches": plan.matches, "seed": plan.seed,
            "clocks": [clocks.start, clocks.play, clocks.slack], "protocol": host.protocol,
            "reasoner": host.reasoner, "record_dir": host.record_dir, "in_process": host.in_process,
            "game_kif": description.to_kif(), "game_source": description.source}


def check_tournament(description: GameDescription, specs: Sequence[str], matches: int | None) -> int:
    """The number of matches to play (None: :func:`default_matches`); raises
    :class:`MatchSetupError` for fewer specs than seats, a URL given twice, or no matches."""
    seats = [r for r in description.roles if r != RANDOM]
    if len(specs) < len(seats):
        raise MatchSetupError(f"the game has {len(seats)} player roles ({' '.join(map(str, seats))}) "
                              f"but {len(specs)} players were given")
    check_endpoints(list(specs), [f"player {i + 1}" for i in range(len(specs))])
    if matches is None:
        matches = default_matches(len(specs), len(seats))
    if matches < 1:
        raise MatchSetupError(f"the number of matches must be positive, not {matches}")
    return matches


def play_tournament(
    description: GameDescription,
    specs: Sequence[str],
    matches: int | None,
    clocks: Clocks,
    seed: int,
    reasoner: str | None = None,
    protocol: str = "auto",
    record_dir: Path | None = None,
    progress: Callable[[int, MatchRecord], None] | None = None,
    in_process: bool = False,
    *,
    db: str | Path | None = None,
    store: bool = True,
    workers: int | None = None,
    ray: str | None = None,
    tournament_id: str | None = None,
    capacity: dict[str, int] | None = None,
) -> TournamentResult:
    """Play ``matches`` matches (None: :func:`default_matches`) of ``description`` between
    ``specs`` (see the module doc), in ``workers`` processes or on Ray (``ray``: an address or
    ``auto``), storing each in the database ``db`` (None: the default; ``store`` False: none)
    and, with ``record_dir``, as files. ``progress(done, record)`` is called as each match ends.

    Stops early (``interrupted``) on Ctrl-C or SIGTERM, after the matches in progress were
    aborted and recorded. Raises :class:`MatchSetupError` for fewer specs than seats, a URL
    given twice, or no matches. With ``in_process`` every player runs in the process playing
    the match (debugging).
    """
    seats = [r for r in description.roles if r != RANDOM]
    matches = check_tournament(description, specs, matches)
    plan = TournamentPlan(tournament_id or new_tournament_id(description), tuple(specs), len(seats), matches, seed)
    host = HostSettings(clocks, protocol, reasoner, resolve(db) if store else None, store,
                        resolve(record_dir), in_process)
    if store:
        with MatchStore(host.db) as database:
            database.add_tournament(TournamentRow(
                plan.tournament_id, datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
                description.source, description.digest(), _settings_json(plan, host, description)))
    return _run(description, plan, host, [plan.job(i) for i in range(matches)], {}, progress,
                workers, ray, capacity)


def resume_tournament(
    tournament_id: str,
    db: str | Path | None = None,
    progress: Callable[[int, MatchRecord], None] | None = None,
    *,
    workers: int | None = None,
    ray: str | None = None,
    capacity: dict[str, int] | None = None,
) -> TournamentResult:
    """Finish the stored tournament ``tournament_id``: keep its ended matches, play the others
    (see the module doc). Raises :class:`~ggp.manager.store.StoreError` for an unknown id."""
    with MatchStore(resolve(db)) as database:
        row = database.tournament(tournament_id)
        stored = database.tournament_records(tournament_id)
    s = row.settings
    try:
        description, _ = prepare(parse_kif(s["game_kif"], s["game_source"]))
        plan = TournamentPlan(tournament_id, tuple(s["specs"]), int(s["seats"]), int(s["matches"]), int(s["seed"]))
        host = HostSettings(Clocks(*s["clocks"]), s["protocol"], s["reasoner"], resolve(db), True, s["record_dir"],
                            bool(s["in_process"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise StoreError(f"the stored settings of tournament {tournament_id!r} are damaged: {exc}") from None
    if description.digest() != row.game_sha256:
        raise StoreError(f"the rules stored with tournament {tournament_id!r} do not match their SHA-256")
    kept: dict[int, MatchRecord] = {}
    jobs = []
    for i in range(plan.matches):
        ended = [r for r in stored.get(i, []) if r.status in PLAYED]
        if ended:
            kept[i] = ended[-1]
        else:
            jobs.append(plan.job(i, attempt=len(stored.get(i, []))))
    return _run(description, plan, host, jobs, kept, progress, workers, ray, capacity)


def _run(description: GameDescription, plan: TournamentPlan, host: HostSettings, jobs: list[MatchJob],
         kept: dict[int, MatchRecord], progress: Callable[[int, MatchRecord], None] | None,
         workers: int | None, ray: str | None, capacity: dict[str, int] | None) -> TournamentResult:
    result = TournamentResult(list(plan.specs), tournament_id=plan.tournament_id)
    final: dict[int, MatchRecord] = dict(kept)
    index = {job.match_id: job.index for job in jobs}
    done = len(kept)
    if (ray is not None or (workers or 1) > 1) and not host.in_process:
        for spec in dict.fromkeys(plan.specs):
            if not spec.startswith(("http://", "https://")) and player_class(spec).in_process:
                raise MatchSetupError(f"player {spec} plays in the manager's process (it reads the console): "
                                      "it cannot play in a worker process; leave out --workers and --ray")
    batch = run_matches(description, jobs, host, workers=workers, ray=ray, capacity=capacity) if jobs else None
    records = iter(batch) if batch is not None else None
    try:
        for record in records or ():
            i = index.get(record.match_id)
            if i is None:
                i = _index_of(record.match_id)
            if record.status in PLAYED or record.status == NOT_PLAYED:
                final[i] = record
                done += 1
                if progress is not None:
                    progress(done, record)
    except KeyboardInterrupt as exc:  # between two records: the batch stops what it runs
        result.interrupted, result.signal = True, signal_of(exc)
    finally:
        if records is not None:
            records.close()
    if batch is not None and batch.interrupted is not None:
        result.interrupted, result.signal = True, batch.interrupted
    for i in sorted(final):
        result.add(i, final[i])
    return result


def _index_of(match_id: str) -> int:
    """The match number in a retried job's id (``TOURNAMENT.mI.aN.rK``)."""
    for part in reversed(match_id.split(".")):
        if part.startswith("m") and part[1:].isdigit():
            return int(part[1:])
    raise ValueError(f"not a tournament match id: {match_id}")


def records_by_index(records: Iterable[MatchRecord]) -> dict[int, MatchRecord]:
    """Tournament records by match number (the last of several attempts)."""
    return {_index_of(r.match_id): r for r in records}


__all__ = ["GOAL_RANGE", "TournamentPlan", "TournamentResult", "check_tournament", "default_matches", "mean_ci95", "new_tournament_id",
           "play_tournament", "records_by_index", "resume_tournament", "schedule", "seating", "t975"]
