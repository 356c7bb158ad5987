"""The match database across versions: a database an earlier version made still takes matches."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ggp.cli import main
from ggp.manager.store import MatchStore
from tests.conftest import RULESHEETS

#: The matches table as an earlier version left it (two more columns, since moved elsewhere).
OLD_MATCHES = """CREATE TABLE matches (
    match_id TEXT PRIMARY KEY, started TEXT NOT NULL, finished TEXT NOT NULL, status TEXT NOT NULL,
    game TEXT, game_sha256 TEXT NOT NULL, players TEXT NOT NULL, goals TEXT NOT NULL,
    steps INTEGER NOT NULL, errors INTEGER NOT NULL, record_path TEXT, record TEXT NOT NULL,
    tournament TEXT, tournament_index INTEGER)"""


def test_a_database_with_more_columns_still_takes_matches(tmp_path: Path) -> None:
    db = tmp_path / "matches.sqlite3"
    with sqlite3.connect(db) as connection:
        connection.execute(OLD_MATCHES)
    game = str(RULESHEETS / "kuhn.rcy")
    assert main(["match", game, "--player", "random", "--player", "random", "--seed", "1", "--db", str(db),
                 "--record", str(tmp_path / "kuhn.json")]) == 0
    with MatchStore(db) as store:
        rows = store.rows()
        assert len(rows) == 1 and store.get(rows[0].match_id).status == "finished"
