"""Match records: everything that happened in a match, as one JSON file written atomically.

A record holds the match id, the rules as sent (KIF text and its SHA-256), roles, players,
clocks, seed and message form, then every step (the joint move in role order, each role's
percepts, each player's answer and how long it took, and every substitution with its reason),
problems outside the steps (a player that was not ``ready``, did not answer ``stop``), the goals
and the status (``running``, ``finished``, ``aborted``, ``error`` or ``not_played``). ``ggp replay``
checks a record against its rules (:mod:`ggp.manager.replay`).

While a match runs, :class:`RecordFile` rewrites its file after every step (each step's JSON is
made once, so a step costs a copy of the file, not a new serialisation of the whole match).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ggp.errors import GGPError

#: Version of the record format written by this module.
FORMAT = 1

#: A match in progress (or whose manager was killed: the steps so far are kept).
RUNNING = "running"
#: The game reached a terminal state: the goals are the result.
FINISHED = "finished"
#: Stopped by an interrupt (Ctrl-C, SIGTERM): the steps so far, no goals.
ABORTED = "aborted"
#: The rules failed (no legal move, several goals, no end): no goals.
ERROR = "error"
#: A player did not start (busy, unreachable, no ``ready`` within the start clock): no step was
#: played and there is no result; ``errors`` says why.
NOT_PLAYED = "not_played"


class RecordError(GGPError, ValueError):
    """A record file that cannot be read or is not a match record."""


@dataclass
class Answer:
    """A player's answer to one message: the text (None if none came), seconds, failure."""

    reply: str | None
    seconds: float
    failure: str | None = None
    detail: str = ""


@dataclass
class Substitution:
    """A move the manager played for a role, and why (``timeout``, ``illegal``, ``garbled``, ...)."""

    role: str
    move: str
    reason: str
    detail: str
    reply: str | None = None


@dataclass
class Step:
    """One transition: the joint move (role order), percepts per role, answers, substitutions."""

    turn: int
    joint_move: list[str]
    percepts: dict[str, list[str]]
    answers: dict[str, Answer] = field(default_factory=dict)
    substitutions: list[Substitution] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Event:
    """A problem outside the steps: at ``start``, ``stop`` or ``abort``, for one role."""

    phase: str
    role: str
    reason: str
    detail: str


@dataclass
class MatchRecord:
    """A whole match (see the module doc)."""

    match_id: str
    game_source: str | None
    game_kif: str
    game_sha256: str
    roles: list[str]
    players: dict[str, str]
    start_clock: float
    play_clock: float
    slack: float
    seed: int | None
    protocol: str
    started: str = ""
    finished: str = ""
    seconds: float = 0.0
    status: str = RUNNING
    steps: list[Step] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    goals: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    format: int = FORMAT

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        """Read a record from parsed JSON; raises :class:`RecordError` when it is not one."""
        try:
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise RecordError(f"not a match record of format {FORMAT}")
            fields = dict(data)
            fields["steps"] = [step_from_json(s) for s in data["steps"]]
            fields["events"] = [Event(**e) for e in data.get("events", [])]
            return cls(**fields)
        except RecordError:
            raise
        except (KeyError, TypeError, AttributeError) as exc:
            raise RecordError(f"malformed match record: {type(exc).__name__} {exc}") from None


def step_from_json(data: Any) -> Step:
    """One step from parsed JSON (raises ``KeyError``, ``TypeError`` or ``AttributeError``
    when it is not one; :meth:`MatchRecord.from_json` turns them into :class:`RecordError`)."""
    return Step(data["turn"], list(data["joint_move"]), {k: list(v) for k, v in data["percepts"].items()},
                {k: Answer(**a) for k, a in data.get("answers", {}).items()},
                [Substitution(**x) for x in data.get("substitutions", [])], data.get("seconds", 0.0))


class RecordFile:
    """The record file of a running match, rewritten (atomically, not flushed to disk) after
    each step; :meth:`finish` writes the final record with :func:`write_record`."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._steps: list[str] = []

    def update(self, record: MatchRecord) -> None:
        """Write ``record`` as it is now (its steps' JSON is made once each)."""
        while len(self._steps) < len(record.steps):
            self._steps.append(json.dumps(asdict(record.steps[len(self._steps)])))
        del self._steps[len(record.steps):]
        header = record.to_json()
        header["steps"] = None
        head = json.dumps(header)
        text = head[:-1].replace('"steps": null', '"steps": [\n' + ",\n".join(self._steps) + "\n]", 1) + "}\n"
        _replace(self.path, text, durable=False)

    def finish(self, record: MatchRecord) -> Path:
        """Write the final ``record`` (flushed to disk)."""
        return write_record(record, self.path)


def _replace(path: Path, text: str, durable: bool) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def write_record(record: MatchRecord, path: str | Path) -> Path:
    """Write ``record`` to ``path`` atomically (a temporary file renamed into place)."""
    path = Path(path)
    _replace(path, json.dumps(record.to_json(), indent=1) + "\n", durable=True)
    return path


def read_record(path: str | Path) -> MatchRecord:
    """Read a record file; raises :class:`RecordError` naming the file on any problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    try:
        return MatchRecord.from_json(data)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
