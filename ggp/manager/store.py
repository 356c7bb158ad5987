"""The match database: every hosted match in one SQLite file, for ``ggp matches``.

Where things go (first match wins):

- the database: ``--db PATH``, else ``$GGP_MATCH_DB``, else ``DATA/matches.sqlite3``;
- a record file: ``--record PATH``, else ``DATA/records/MATCH_ID.json``;

where ``DATA`` is ``$GGP_DATA_DIR``, else ``$XDG_DATA_HOME/ggp``, else ``~/.local/share/ggp``.
The database keeps the whole record too, so ``ggp matches show`` works after files move.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ggp.errors import GGPError
from ggp.manager.record import MatchRecord, RecordError
from ggp.paths import data_dir as data_dir  # re-exported: ggp.players.memory reads it here

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match_id    TEXT PRIMARY KEY,
    started     TEXT NOT NULL,
    finished    TEXT NOT NULL,
    status      TEXT NOT NULL,
    game        TEXT,
    game_sha256 TEXT NOT NULL,
    players     TEXT NOT NULL,
    goals       TEXT NOT NULL,
    steps       INTEGER NOT NULL,
    errors      INTEGER NOT NULL,
    record_path TEXT,
    record      TEXT NOT NULL
)
"""


class StoreError(GGPError):
    """The match database cannot be opened or has no such match."""


def default_store_path() -> Path:
    """``$GGP_MATCH_DB`` or ``DATA/matches.sqlite3``."""
    explicit = os.environ.get("GGP_MATCH_DB")
    return Path(explicit) if explicit else data_dir() / "matches.sqlite3"


def default_record_path(match_id: str) -> Path:
    """``DATA/records/MATCH_ID.json``."""
    return data_dir() / "records" / f"{match_id}.json"


@dataclass(frozen=True)
class MatchRow:
    """One line of ``ggp matches list``."""

    match_id: str
    started: str
    status: str
    game: str | None
    players: dict[str, str]
    goals: dict[str, int]
    steps: int
    errors: int
    record_path: str | None

    def __str__(self) -> str:
        game = Path(self.game).name if self.game else "-"
        players = ",".join(f"{r}={p}" for r, p in self.players.items())
        goals = ",".join(f"{r}={g}" for r, g in self.goals.items()) or "-"
        return (f"{self.match_id}\t{self.started}\t{game}\t{self.status}\t{self.steps} steps\t"
                f"{self.errors} errors\tgoals {goals}\tplayers {players}")


class MatchStore:
    """The SQLite database of matches at ``path`` (created on first use)."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_store_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), timeout=10.0)
            self._db.execute(_SCHEMA)
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the match database {self.path}: {exc}") from None

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, record: MatchRecord, record_path: str | Path | None = None) -> None:
        """Insert or replace ``record``."""
        try:
            self._db.execute(
                "INSERT OR REPLACE INTO matches VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (record.match_id, record.started, record.finished, record.status, record.game_source,
                 record.game_sha256, json.dumps(record.players), json.dumps(record.goals),
                 len(record.steps), len(record.errors), str(record_path) if record_path else None,
                 json.dumps(record.to_json())),
            )
            self._db.commit()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to the match database {self.path}: {exc}") from None

    def rows(self) -> list[MatchRow]:
        """Every match, oldest first."""
        cursor = self._db.execute(
            "SELECT match_id, started, status, game, players, goals, steps, errors, record_path "
            "FROM matches ORDER BY started, match_id")
        return [MatchRow(m, s, st, g, json.loads(p), json.loads(go), n, e, rp)
                for m, s, st, g, p, go, n, e, rp in cursor]

    def get(self, match_id: str) -> MatchRecord:
        """The record of ``match_id``; raises :class:`StoreError` when there is none."""
        row = self._db.execute("SELECT record FROM matches WHERE match_id = ?", (match_id,)).fetchone()
        if row is None:
            raise StoreError(f"no match {match_id!r} in {self.path}")
        try:
            return MatchRecord.from_json(json.loads(row[0]))
        except (json.JSONDecodeError, RecordError) as exc:
            raise StoreError(f"the stored record of {match_id!r} is damaged: {exc}") from None
