"""The match database: every hosted match in one SQLite file, for ``ggp matches``.

Where things go (first match wins):

- the database: ``--db PATH``, else ``$GGP_MATCH_DB``, else ``DATA/matches.sqlite3``;
- a record file: ``--record PATH``, else ``DATA/records/MATCH_ID.json``;

where ``DATA`` is ``$GGP_DATA_DIR``, else ``$XDG_DATA_HOME/ggp``, else ``~/.local/share/ggp``.
The database keeps the whole record too, so ``ggp matches show`` works after files move.

A match is committed step by step while it runs (:meth:`MatchStore.begin`, :meth:`~MatchStore.add_step`,
then :meth:`~MatchStore.add` at the end): its row says ``running`` and its steps so far are in the
``match_steps`` table, so a manager killed outright loses at most the step in flight. The
database runs in write-ahead-log mode, so several managers (the workers of a tournament) write
and readers read at the same time. Tournaments (:mod:`ggp.manager.tournament`) keep their
settings in the ``tournaments`` table, and each of their matches names its tournament and its
number in it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ggp.errors import GGPError
from ggp.manager.record import MatchRecord, RecordError, Step, step_from_json
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
);
CREATE TABLE IF NOT EXISTS match_steps (
    match_id TEXT NOT NULL,
    turn     INTEGER NOT NULL,
    step     TEXT NOT NULL,
    PRIMARY KEY (match_id, turn)
);
CREATE TABLE IF NOT EXISTS tournaments (
    tournament_id TEXT PRIMARY KEY,
    created       TEXT NOT NULL,
    game          TEXT,
    game_sha256   TEXT NOT NULL,
    settings      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_matches (
    match_id         TEXT PRIMARY KEY,
    tournament_id    TEXT NOT NULL,
    tournament_index INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tournament_matches_by_tournament ON tournament_matches (tournament_id);
"""


# Inserts name their columns: a database made by an earlier version, with more columns, still
# takes rows.
_INSERT_MATCH = ("INSERT OR REPLACE INTO matches (match_id, started, finished, status, game, game_sha256, players, "
                 "goals, steps, errors, record_path, record) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
_INSERT_MEMBER = "INSERT OR REPLACE INTO tournament_matches (match_id, tournament_id, tournament_index) VALUES (?,?,?)"


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
    tournament: str | None = None
    tournament_index: int | None = None

    def __str__(self) -> str:
        game = Path(self.game).name if self.game else "-"
        players = ",".join(f"{r}={p}" for r, p in self.players.items())
        goals = ",".join(f"{r}={g}" for r, g in self.goals.items()) or "-"
        return (f"{self.match_id}\t{self.started}\t{game}\t{self.status}\t{self.steps} steps\t"
                f"{self.errors} errors\tgoals {goals}\tplayers {players}")


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored: its id, when it began, its game and its settings (JSON data)."""

    tournament_id: str
    created: str
    game: str | None
    game_sha256: str
    settings: dict[str, Any]


class MatchStore:
    """The SQLite database of matches at ``path`` (created on first use)."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_store_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), timeout=30.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            # A commit survives the process being killed; only a power cut may lose the last ones.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
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

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        try:
            with self._db:
                for sql, values in statements:
                    self._db.execute(sql, values)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to the match database {self.path}: {exc}") from None

    def _row(self, record: MatchRecord, record_path: str | Path | None, steps: int) -> tuple[str, tuple[Any, ...]]:
        header = record.to_json()
        if steps != len(record.steps):
            header["steps"] = []  # the steps are in match_steps while the match runs
        values = (record.match_id, record.started, record.finished, record.status, record.game_source,
                  record.game_sha256, json.dumps(record.players), json.dumps(record.goals), steps,
                  len(record.errors), str(record_path) if record_path else None, json.dumps(header))
        return _INSERT_MATCH, values

    def begin(self, record: MatchRecord, record_path: str | Path | None = None,
              tournament: str | None = None, index: int | None = None) -> None:
        """Note a match that begins (status ``running``, no steps yet), of ``tournament`` (its
        match number ``index``) when given."""
        statements = [("DELETE FROM match_steps WHERE match_id = ?", (record.match_id,)),
                      self._row(record, record_path, 0)]
        if tournament is not None and index is not None:
            statements.append((_INSERT_MEMBER,
                               (record.match_id, tournament, index)))
        self._write(statements)

    def add_step(self, record: MatchRecord, step: Step) -> None:
        """Commit one more step of a running match (its row counts it)."""
        self._write([
            ("INSERT OR REPLACE INTO match_steps (match_id, turn, step) VALUES (?,?,?)",
             (record.match_id, step.turn, json.dumps(record_step_json(step)))),
            ("UPDATE matches SET steps = ?, errors = ? WHERE match_id = ?",
             (step.turn + 1, len(record.errors), record.match_id)),
        ])

    def add(self, record: MatchRecord, record_path: str | Path | None = None,
            tournament: str | None = None, index: int | None = None) -> None:
        """Insert or replace the whole ``record`` (its steps move into the row)."""
        statements = [self._row(record, record_path, len(record.steps)),
                      ("DELETE FROM match_steps WHERE match_id = ?", (record.match_id,))]
        if tournament is not None and index is not None:
            statements.append((_INSERT_MEMBER,
                               (record.match_id, tournament, index)))
        self._write(statements)

    def rows(self, tournament: str | None = None) -> list[MatchRow]:
        """Every match (of ``tournament``, when given), oldest first."""
        where, values = ("WHERE t.tournament_id = ?", (tournament,)) if tournament is not None else ("", ())
        cursor = self._db.execute(
            "SELECT m.match_id, started, status, game, players, goals, steps, errors, record_path, t.tournament_id, "
            f"t.tournament_index FROM matches m LEFT JOIN tournament_matches t ON t.match_id = m.match_id {where} "
            "ORDER BY started, m.match_id", values)
        return [MatchRow(m, s, st, g, json.loads(p), json.loads(go), n, e, rp, t, ti)
                for m, s, st, g, p, go, n, e, rp, t, ti in cursor]

    def get(self, match_id: str) -> MatchRecord:
        """The record of ``match_id`` (a running or killed match: with the steps committed so far);
        raises :class:`StoreError` when there is none."""
        row = self._db.execute("SELECT record, steps FROM matches WHERE match_id = ?", (match_id,)).fetchone()
        if row is None:
            raise StoreError(f"no match {match_id!r} in {self.path}")
        try:
            record = MatchRecord.from_json(json.loads(row[0]))
            if len(record.steps) != row[1]:
                cursor = self._db.execute("SELECT step FROM match_steps WHERE match_id = ? ORDER BY turn",
                                          (match_id,))
                record.steps = [step_from_json(json.loads(text)) for text, in cursor]
            return record
        except (json.JSONDecodeError, RecordError) as exc:
            raise StoreError(f"the stored record of {match_id!r} is damaged: {exc}") from None

    # --- tournaments -------------------------------------------------------------------------

    def add_tournament(self, row: TournamentRow) -> None:
        """Store a new tournament's settings."""
        self._write([("INSERT OR REPLACE INTO tournaments (tournament_id, created, game, game_sha256, settings) VALUES (?,?,?,?,?)",
                      (row.tournament_id, row.created, row.game, row.game_sha256, json.dumps(row.settings)))])

    def tournament(self, tournament_id: str) -> TournamentRow:
        """The stored tournament; raises :class:`StoreError` when there is none."""
        row = self._db.execute("SELECT * FROM tournaments WHERE tournament_id = ?", (tournament_id,)).fetchone()
        if row is None:
            known = [r[0] for r in self._db.execute("SELECT tournament_id FROM tournaments ORDER BY created DESC LIMIT 3")]
            hint = f" (latest: {', '.join(known)})" if known else ""
            raise StoreError(f"no tournament {tournament_id!r} in {self.path}{hint}")
        tid, created, game, sha, settings = row
        return TournamentRow(tid, created, game, sha, json.loads(settings))

    def tournament_records(self, tournament_id: str) -> dict[int, list[MatchRecord]]:
        """Every stored record of the tournament by match number, oldest attempt first."""
        found: dict[int, list[MatchRecord]] = {}
        for row in self.rows(tournament_id):
            if row.tournament_index is not None:
                found.setdefault(row.tournament_index, []).append(self.get(row.match_id))
        return found


def record_step_json(step: Step) -> dict[str, Any]:
    """One step as JSON data (as inside a record)."""
    return asdict(step)


__all__ = ["MatchRow", "MatchStore", "StoreError", "TournamentRow", "default_record_path", "default_store_path"]
