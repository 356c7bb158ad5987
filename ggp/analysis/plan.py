"""What an analysis is to do, and what it has done, in its output folder: ``plan.json`` (the
game, the players, the seeds, the tournaments that play its matches) and ``traces.jsonl``
(one :class:`~ggp.analysis.trace.MatchTrace` per line, appended as each match is traced), so
``ggp analyze --resume DIR`` finishes a stopped analysis without playing or tracing a match
twice.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ggp.analysis.trace import MatchTrace, TraceError
from ggp.errors import GGPError

PLAN, TRACES = "plan.json", "traces.jsonl"
#: The experiments of an analysis: the players under study, and a strong player among baseline ones.
MAIN, ORDER = "main", "order"
FORMAT = 1


class PlanError(GGPError):
    """An output folder without a readable plan."""


@dataclass
class AnalysisPlan:
    """An analysis (see the module doc): the game (its file, rules as KIF and their SHA-256),
    seed, ``games`` matches between ``players`` (one spec per seat, rotated), ``order_games``
    matches of ``order_player`` against ``baseline`` players, ``rollouts`` per option, the
    clocks (start, play, slack), reasoner, match database, a CardStock reference file, and the
    tournament id of each experiment once it began."""

    game: str
    game_kif: str
    game_source: str | None
    game_sha256: str
    seed: int
    games: int
    players: list[str]
    order_player: str | None
    order_games: int
    rollouts: int
    clocks: list[float]
    baseline: str = "random"
    reasoner: str | None = None
    db: str | None = None
    reference: str | None = None
    tournaments: dict[str, str] = field(default_factory=dict)
    format: int = FORMAT

    def save(self, folder: Path) -> None:
        """Write ``folder/plan.json`` (atomically)."""
        folder.mkdir(parents=True, exist_ok=True)
        temp = folder / (PLAN + ".tmp")
        temp.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")
        os.replace(temp, folder / PLAN)

    @classmethod
    def load(cls, folder: Path) -> AnalysisPlan:
        """Read ``folder/plan.json``; raises :class:`PlanError` naming the file."""
        path = folder / PLAN
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise PlanError(f"{path}: cannot read: {exc.strerror} (is {folder} the --out folder of an analysis?)") from None
        except json.JSONDecodeError as exc:
            raise PlanError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PlanError(f"{path}: not an analysis plan of format {FORMAT}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise PlanError(f"{path}: not an analysis plan: {exc}") from None

    def settings_json(self) -> dict[str, Any]:
        """The settings a report shows (not the rules)."""
        data = asdict(self)
        for key in ("game_kif", "game_source", "game_sha256", "format"):
            data.pop(key)
        return data


def read_traces(folder: Path) -> dict[tuple[str, str], MatchTrace]:
    """The traces written so far, by (experiment, match id); a line cut short by a kill (the
    last) is ignored, any other bad line is an error naming it."""
    path = folder / TRACES
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").split("\n")
    found: dict[tuple[str, str], MatchTrace] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            trace = MatchTrace.from_json(json.loads(line))
        except (json.JSONDecodeError, TraceError) as exc:
            if number == len(lines):
                break  # the last line, without its newline: cut short by a kill
            raise PlanError(f"{path}:{number}: {exc}") from None
        found[(trace.experiment, trace.match_id)] = trace
    return found


class TraceWriter:
    """Appends traces to ``folder/traces.jsonl``, one line each, flushed as written."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / TRACES
        self._file = path.open("a", encoding="utf-8")
        if path.stat().st_size and not path.read_bytes().endswith(b"\n"):
            self._file.write("\n")  # after a line cut short

    def write(self, trace: MatchTrace) -> None:
        """Append ``trace``."""
        self._file.write(json.dumps(trace.to_json(), separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()


__all__ = ["AnalysisPlan", "MAIN", "ORDER", "PLAN", "PlanError", "TRACES", "TraceWriter", "read_traces"]
