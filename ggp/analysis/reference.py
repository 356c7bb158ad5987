"""The analysis's figures beside the CardStock engine's own, where a reference file has them
(``../shared/reference/cardstock-random-play.json``: per RECYCLE file name, 500 games of
uniform random players): win share by seat, turns (choices) per game, options per turn, and
each seat's share of the turns.

A figure **agrees** when the difference between the two is within 1.96 standard errors of the
difference (the analysis's error from its interval, the engine's from its own sample: a share's
binomial error, a mean's standard deviation over the square root of its games), or, for a
figure the engine gives without its spread, when the engine's value lies in the analysis's
interval. The comparison means something only for matches of random players.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ggp.analysis.metric import Dataset
from ggp.analysis.outcome import win_shares
from ggp.analysis.stats import Estimate, mean_estimate, proportion_estimate, ratio_estimate
from ggp.errors import GGPError

Z95 = 1.959964


class ReferenceError(GGPError):
    """A reference file that cannot be read."""


@dataclass(frozen=True)
class Comparison:
    """One figure: ours (with its interval), the engine's value and standard error (None when
    the file gives no spread), and whether they agree (see the module doc)."""

    figure: str
    ours: Estimate
    engine: float
    engine_se: float | None

    @property
    def z(self) -> float | None:
        """The difference in standard errors of the difference (None without errors)."""
        if self.ours.value is None or self.engine_se is None or self.ours.low is None or self.ours.high is None:
            return None
        se = math.hypot((self.ours.high - self.ours.low) / (2 * Z95), self.engine_se)
        return (self.ours.value - self.engine) / se if se > 0 else (0.0 if self.ours.value == self.engine else math.inf)

    @property
    def agrees(self) -> bool:
        """Whether the two agree (see the module doc)."""
        if self.ours.value is None:
            return False
        z = self.z
        if z is not None:
            return abs(z) <= Z95
        return self.ours.contains(self.engine, 1e-9)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"figure": self.figure, "ours": self.ours.to_json(), "engine": self.engine,
                "engine_se": None if self.engine_se is None else round(self.engine_se, 5),
                "z": None if self.z is None else round(self.z, 3), "agrees": self.agrees}


def load_reference(path: str | Path, game_file: str) -> dict[str, Any] | None:
    """The entry for ``game_file``'s name in the reference file (None when it has none);
    raises :class:`ReferenceError` for a file that is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReferenceError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ReferenceError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ReferenceError(f"{path}: not a reference file (a JSON object by game file name)")
    entry = data.get(Path(game_file).name)
    return entry if isinstance(entry, dict) else None


def compare(data: Dataset, entry: dict[str, Any]) -> list[Comparison]:
    """Our figures beside the engine's ``entry`` (see the module doc)."""
    done = data.finished
    seats = len(data.seats)
    if int(entry.get("players", seats)) != seats:
        raise ReferenceError(f"the reference is for {entry.get('players')} players, the game has {seats}")
    games = int(entry.get("completed") or entry.get("games_run") or 0)
    out = []
    for s, share in enumerate(entry.get("win_share_tie_split", [])[:seats]):
        ours = proportion_estimate(sum(win_shares(t.goals or ())[s] for t in done), len(done))
        out.append(Comparison(f"win share of {data.seats[s]}", ours, float(share),
                              math.sqrt(share * (1 - share) / games) if games else None))
    if "choices_mean" in entry:
        ours = mean_estimate([float(len(t.turns)) for t in done])
        std = entry.get("choices_std")
        out.append(Comparison("turns per game", ours, float(entry["choices_mean"]),
                              float(std) / math.sqrt(games) if std is not None and games else None))
    if "options_per_decision_mean" in entry:
        ours = ratio_estimate([(sum(d.options for d in t.turns), len(t.turns)) for t in done])
        out.append(Comparison("options per turn", ours, float(entry["options_per_decision_mean"]), None))
    for s, share in enumerate(entry.get("decision_share_by_seat", [])[:seats]):
        ours = ratio_estimate([(sum(1 for d in t.turns if d.seat == s), len(t.turns)) for t in done])
        out.append(Comparison(f"share of the turns of {data.seats[s]}", ours, float(share), None))
    return out


__all__ = ["Comparison", "ReferenceError", "compare", "load_reference"]
