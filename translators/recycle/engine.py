"""The real CardStock engine as an outside program: find the conformance runner, run it, read it.

The runner (``conformance/cardstock``, GPL v3, built by its ``build.sh``) plays RECYCLE games with
CardStock's uniform random players under Mono. This module only starts it as a separate process
and parses what it prints: :func:`engine_figures` gives the statistics under the reference's field
names (``../shared/reference/cardstock-random-play.json``, the ``engine`` side of
:func:`translators.recycle.refstats.compare`); :func:`engine_trace` gives every game's decisions
(seat, the options as the engine describes them, the index chosen), its transcript lines and its
end. Where the runner is: ``$CARDSTOCK_RUNNER`` if set, else ``conformance/cardstock/.build/runner.exe``
in the project's checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ggp.errors import GGPError

#: The environment variable naming the runner (``runner.exe``) to use.
RUNNER_ENV = "CARDSTOCK_RUNNER"
#: Where ``conformance/cardstock/build.sh`` puts the runner in a checkout of the project.
DEFAULT_RUNNER = Path(__file__).resolve().parents[2] / "conformance" / "cardstock" / ".build" / "runner.exe"
#: Seconds a run may take by default before it is stopped.
DEFAULT_TIMEOUT = 600.0


class EngineError(GGPError):
    """The CardStock runner failed, timed out, or printed what it should not."""


class EngineMissing(EngineError):
    """The CardStock runner, or Mono to run it, is not installed here."""


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: the options the engine offered (its descriptions) and the index chosen."""

    game: int
    index: int
    seat: int
    options: tuple[str, ...]
    chosen: int

    @property
    def count(self) -> int:
        """How many options were offered."""
        return len(self.options)


@dataclass(frozen=True)
class GameEnd:
    """How one game ended (``completed``, ``choice_limit`` or ``exception``), after how many
    decisions, with the final scores and the winners (ties all win) when it completed."""

    game: int
    ending: str
    choices: int
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    scoring_direction: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class TranscriptLine:
    """A line of the engine's transcript of one game (``O:`` a shuffled collection, ``M:`` a card
    moved, ``S:`` a value set, ``t:`` whose turn...)."""

    game: int
    text: str


@dataclass(frozen=True)
class EngineTrace:
    """Everything the runner's ``--trace`` printed, in order, and the statistics at the end."""

    events: tuple[Decision | GameEnd | TranscriptLine, ...]
    figures: dict[str, Any]

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """The decisions of all games, in order."""
        return tuple(e for e in self.events if isinstance(e, Decision))

    @property
    def ends(self) -> tuple[GameEnd, ...]:
        """Each game's end, in order."""
        return tuple(e for e in self.events if isinstance(e, GameEnd))

    def game(self, index: int) -> tuple[Decision | GameEnd | TranscriptLine, ...]:
        """The events of game ``index``."""
        return tuple(e for e in self.events if e.game == index)


def find_runner(runner: str | Path | None = None) -> Path:
    """The runner to use: ``runner``, else ``$CARDSTOCK_RUNNER``, else :data:`DEFAULT_RUNNER`;
    :class:`EngineMissing` when it is not there."""
    chosen = Path(runner or os.environ.get(RUNNER_ENV) or DEFAULT_RUNNER)
    if not chosen.is_file():
        raise EngineMissing(f"the CardStock runner {chosen} is absent: build it with conformance/cardstock/build.sh "
                            f"(it needs Mono: apt-get install mono-mcs mono-runtime), or name it in ${RUNNER_ENV}")
    return chosen


def find_mono() -> str:
    """The ``mono`` program; :class:`EngineMissing` when it is not installed."""
    mono = shutil.which("mono")
    if mono is None:
        raise EngineMissing("Mono is not installed, so the CardStock runner cannot run (apt-get install mono-runtime)")
    return mono


def run_engine(file: str | Path, *options: str, runner: str | Path | None = None,
               timeout: float = DEFAULT_TIMEOUT) -> list[str]:
    """Run the runner on ``file`` with ``options``; its standard output, line by line."""
    exe = find_runner(runner)
    mono = find_mono()
    if not Path(file).is_file():
        raise EngineError(f"{file}: no such file")
    command = [mono, str(exe), str(file), *options]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        raise EngineError(f"the CardStock engine on {file} did not finish within {timeout:g} s") from exc
    except OSError as exc:
        raise EngineError(f"cannot run {' '.join(command)}: {exc}") from exc
    if done.returncode != 0:
        said = done.stderr.strip() or done.stdout.strip() or "(nothing)"
        raise EngineError(f"the CardStock engine failed on {file} (exit status {done.returncode}):\n{said}")
    return done.stdout.splitlines()


def engine_figures(file: str | Path, games: int = 500, seed: int | None = None, *, limit: int = 500,
                   runner: str | Path | None = None, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
    """The engine's statistics of ``games`` random games of ``file`` (game ``i`` seeded with
    ``seed + i``; by default ``seed`` is the CRC-32 of the file's name, as the reference's)."""
    lines = run_engine(file, *_options(games, seed, limit), runner=runner, timeout=timeout)
    if not lines:
        raise EngineError(f"the CardStock engine printed nothing for {file}")
    return _json(lines[-1], file, len(lines))


def engine_trace(file: str | Path, games: int = 1, seed: int | None = None, *, limit: int = 500,
                 runner: str | Path | None = None, timeout: float = DEFAULT_TIMEOUT) -> EngineTrace:
    """Every event of ``games`` random games of ``file`` (see :class:`EngineTrace`)."""
    lines = run_engine(file, *_options(games, seed, limit), "--trace", runner=runner, timeout=timeout)
    if not lines:
        raise EngineError(f"the CardStock engine printed nothing for {file}")
    events = tuple(_event(_json(line, file, n), file, n) for n, line in enumerate(lines[:-1], 1))
    return EngineTrace(events, _json(lines[-1], file, len(lines)))


def _options(games: int, seed: int | None, limit: int) -> list[str]:
    if games < 1 or limit < 1:
        raise ValueError(f"games and limit must be at least 1 (got {games} and {limit})")
    out = ["--games", str(games), "--limit", str(limit)]
    return out + (["--seed", str(seed)] if seed is not None else [])


def _json(line: str, file: str | Path, n: int) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError as exc:
        raise EngineError(f"the CardStock engine's output for {file}, line {n}, is not JSON: {line[:200]!r}") from exc
    if not isinstance(value, dict):
        raise EngineError(f"the CardStock engine's output for {file}, line {n}, is not a JSON object: {line[:200]!r}")
    return value


def _event(data: dict[str, Any], file: str | Path, n: int) -> Decision | GameEnd | TranscriptLine:
    try:
        kind = data["event"]
        if kind == "decision":
            return Decision(int(data["game"]), int(data["decision"]), int(data["seat"]),
                            tuple(str(o) for o in data["options"]), int(data["chosen"]))
        if kind == "end":
            return GameEnd(int(data["game"]), str(data["ending"]), int(data["choices"]),
                           tuple(int(s) for s in data.get("scores", ())), tuple(int(w) for w in data.get("winners", ())),
                           data.get("scoring_direction"), data.get("error"))
        if kind == "log":
            return TranscriptLine(int(data["game"]), str(data["text"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise EngineError(f"the CardStock engine's output for {file}, line {n}, lacks a field: {exc}") from exc
    raise EngineError(f"the CardStock engine's output for {file}, line {n}, has an unknown event {kind!r}")
