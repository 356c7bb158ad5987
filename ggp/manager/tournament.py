"""Tournaments: many matches of one game, the players rotated over the seats.

Match ``i`` (from 0) seats the player specs rotated by ``i``: seat ``j`` (the ``j``-th role other
than ``random``) gets ``specs[(i + j) % n]``, so every spec plays every seat equally often when
the number of matches is a multiple of the number of seats. Each match runs through the same
runner as ``ggp match`` (:class:`~ggp.manager.runner.MatchRunner`) with its own seed (derived from
the tournament's) and fresh players: the player in seat ``j`` of match ``i`` is seeded with
``random.Random(f"{seed}/{i}/{j}")``. One client per spec (each player in a process of its own,
see :mod:`ggp.manager.seating`) is started before the first match and kept to the end, with a
fresh player for every match. The summary pools every goal a spec received, whatever the seat;
a spec given twice (self-play) is reported once.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ggp.gdl.rules import RANDOM, GameDescription
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord, write_record
from ggp.manager.runner import MatchRunner, MatchSettings, MatchSetupError
from ggp.manager.seating import close_all, open_clients, wait_ready

#: The range of GDL goal values: a mean's confidence interval is clipped to it.
GOAL_RANGE = (0.0, 100.0)

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


def seating(specs: Sequence[str], match: int) -> list[str]:
    """The specs in seat order for match number ``match`` (rotated by ``match``)."""
    n = len(specs)
    return [specs[(match + j) % n] for j in range(n)]


@dataclass
class TournamentResult:
    """What a tournament produced: every goal each spec got, and the matches' problems."""

    specs: list[str]
    matches: int = 0
    goals: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    interrupted: bool = False

    def summary(self) -> dict[str, Any]:
        """``{"matches": N, "mean_goals": {SPEC: x}, "ci95": {SPEC: [lo, hi]}}`` (null without goals;
        the interval clipped to the goals' range, 0 to 100)."""
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
        return {"matches": self.matches, "mean_goals": means, "ci95": intervals}


def play_tournament(
    description: GameDescription,
    specs: Sequence[str],
    matches: int,
    clocks: Clocks,
    seed: int,
    reasoner: str | None = None,
    protocol: str = "auto",
    record_dir: Path | None = None,
    progress: Callable[[int, MatchRecord], None] | None = None,
    in_process: bool = False,
) -> TournamentResult:
    """Play ``matches`` matches of ``description`` between ``specs`` (one per seat, rotated).

    Stops early (``interrupted``) when a match was aborted by Ctrl-C. Records are written to
    ``record_dir`` when given. Raises :class:`MatchSetupError` when the number of specs is not
    the number of seats. With ``in_process`` every player runs in this process (debugging).
    The clients are closed at the end, also after an error or Ctrl-C.
    """
    seats = [r for r in description.roles if r != RANDOM]
    if len(specs) != len(seats):
        raise MatchSetupError(f"the game has {len(seats)} player roles ({' '.join(map(str, seats))}) "
                              f"but {len(specs)} players were given")
    if matches < 1:
        raise MatchSetupError(f"the number of matches must be positive, not {matches}")
    result = TournamentResult(list(specs))
    n = len(specs)
    # Match 0 seats spec k in seat k: the clients start with that match's players.
    clients = open_clients(specs, [random.Random(f"{seed}/0/{k}") for k in range(n)], reasoner,
                           in_process=in_process, wait=False)
    try:
        for i in range(matches):
            order = [(i + j) % n for j in range(n)]  # seat j: specs[order[j]], as seating() says
            if i > 0:
                for j, k in enumerate(order):
                    clients[k].new_match(random.Random(f"{seed}/{i}/{j}"))
            match_seed = random.Random(f"{seed}/match/{i}").getrandbits(31)
            settings = MatchSettings(clocks, match_seed, protocol, reasoner)
            runner = MatchRunner(description, [clients[k] for k in order], settings, close_clients=False)
            wait_ready(clients)  # the first match: they started while its machine was built
            record = runner.run()
            if record_dir is not None:
                write_record(record, record_dir / f"{record.match_id}.json")
            if record.status == "aborted":
                result.interrupted = True
                break
            result.matches += 1
            for role, spec in zip(seats, seating(specs, i)):
                value = record.goals.get(str(role))
                if value is not None:
                    result.goals.setdefault(spec, []).append(float(value))
            result.errors.extend(f"match {i}: {line}" for line in record.errors)
            if progress is not None:
                progress(i, record)
    finally:
        close_all(clients)
    return result
