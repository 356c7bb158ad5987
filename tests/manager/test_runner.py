"""The match runner with in-process players; records, the store and replays."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ggp.gdl.load import load_game
from ggp.gdl.terms import Term
from ggp.manager.client import LocalPlayer, PlayerSpecError, parse_url
from ggp.manager.clocks import ClockError, Clocks
from ggp.manager.record import MatchRecord, RecordError, read_record, write_record
from ggp.manager.replay import ReplayError, replay
from ggp.manager.runner import (
    MatchSettings,
    MatchSetupError,
    new_match_id,
    run_match,
    with_did_percepts,
)
from ggp.manager.seating import make_client
from ggp.manager.store import (
    MatchStore,
    StoreError,
    default_record_path,
    default_store_path,
)
from ggp.protocol.messages import parse_message
from ggp.reasoner import make_machine
from tests.conftest import RULESHEETS, shared_path
from tests.server.support import REASONER

CLOCKS = Clocks(2.0, 1.0, 0.5)


def local(spec: str, seed: int) -> LocalPlayer:
    client = make_client(spec, random.Random(seed), REASONER, in_process=True)
    assert isinstance(client, LocalPlayer)
    return client


def match(path: Path, specs: list[str], seed: int, protocol: str = "auto") -> MatchRecord:
    clients = [local(spec, seed * 10 + i) for i, spec in enumerate(specs)]
    return run_match(load_game(path), clients, MatchSettings(CLOCKS, seed, protocol, REASONER))


def test_a_seed_fixes_the_whole_match() -> None:
    first = match(RULESHEETS / "blind_tictactoe.kif", ["random", "random"], 4)
    again = match(RULESHEETS / "blind_tictactoe.kif", ["random", "random"], 4)
    other = match(RULESHEETS / "blind_tictactoe.kif", ["random", "random"], 5)
    assert [s.joint_move for s in first.steps] == [s.joint_move for s in again.steps]
    assert [s.joint_move for s in first.steps] != [s.joint_move for s in other.steps]
    assert first.goals == again.goals and first.status == "finished" and not first.errors


def test_record_holds_the_match() -> None:
    record = match(RULESHEETS / "blind_tictactoe.kif", ["random", "legal"], 1)
    description = load_game(RULESHEETS / "blind_tictactoe.kif")
    assert record.roles == ["white", "black", "random"]
    assert record.players == {"white": "random", "black": "legal"}
    assert record.game_sha256 == description.digest() and record.seed == 1
    assert (record.start_clock, record.play_clock, record.slack) == (2.0, 1.0, 0.5)
    machine = make_machine(description, REASONER)
    state = machine.initial_state()
    for step in record.steps:
        joint = tuple(Term.parse(m) for m in step.joint_move)
        percepts = machine.percepts(state, joint)
        assert step.percepts == {str(r): sorted(str(p) for p in percepts[r]) for r in machine.roles}
        assert set(step.answers) == {"white", "black"} and all(a.seconds >= 0 for a in step.answers.values())
        assert step.joint_move[1] == str(machine.legal_moves(state, machine.roles[1])[0])  # "legal"
        state = machine.next_state(state, joint)
    assert record.goals == {str(r): v for r, v in machine.goals(state).items()}


def test_monty_hall_random_is_played_by_the_manager() -> None:
    path = shared_path("corpus", "gdl2", "montyhall.gdl")
    record = match(path, ["random"], 2)
    assert record.players == {"candidate": "random"} and len(record.steps) == 3
    hide, open_door = record.steps[0].joint_move[1], record.steps[1].joint_move[1]
    assert hide.startswith("(hide_car") and open_door.startswith("(open_door")
    assert record.steps[1].percepts["candidate"] == sorted(["(does candidate noop)", open_door])
    assert replay(record, REASONER).goals == record.goals


def test_gdl2_protocol_adds_the_did_rule_for_plain_games() -> None:
    path = RULESHEETS / "tictactoe.kif"
    record = match(path, ["random", "random"], 3, protocol="gdl2")
    assert "(<= (sees ?p (did ?q ?m)) (role ?p) (does ?q ?m))" in record.game_kif
    assert record.game_sha256 == with_did_percepts(load_game(path)).digest()
    first = record.steps[0]
    assert first.percepts["x"] == first.percepts["o"] == sorted(
        f"(did {r} {m})" for r, m in zip(["x", "o"], first.joint_move))
    assert replay(record, REASONER).goals == record.goals
    plain = match(path, ["random", "random"], 3)
    assert plain.steps[0].percepts == {"x": [], "o": []}


def test_setup_errors() -> None:
    with pytest.raises(MatchSetupError, match="2 player roles .* but 1 players"):
        match(RULESHEETS / "tictactoe.kif", ["random"], 1)
    with pytest.raises(MatchSetupError, match="unknown protocol"):
        match(RULESHEETS / "tictactoe.kif", ["random", "random"], 1, protocol="gdl3")
    with pytest.raises(ClockError):
        Clocks(0, 1)
    for url in ("http://host", "ftp://h:1", "http://h:1/path", "http://h:port"):
        with pytest.raises(PlayerSpecError):
            parse_url(url)
    assert parse_url("http://127.0.0.1:9147/") == ("127.0.0.1", 9147)


def test_match_ids_are_protocol_names() -> None:
    match_id = new_match_id("/games/Blind Tic-Tac-Toe.kif")
    assert match_id.startswith("blind_tic-tac-toe.")
    assert str(parse_message(f"(abort {match_id})")) == f"(abort {match_id})"


def test_records_are_written_atomically_and_read_back(tmp_path: Path) -> None:
    record = match(RULESHEETS / "tictactoe.kif", ["legal", "random"], 1)
    path = write_record(record, tmp_path / "deep" / "m.json")
    assert [p.name for p in path.parent.iterdir()] == ["m.json"]  # no temporary file left
    again = read_record(path)
    assert again == record
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "steps": [}')
    with pytest.raises(RecordError, match=r"bad.json:1:\d+: not JSON"):
        read_record(bad)
    bad.write_text('{"format": 1}')
    with pytest.raises(RecordError, match="malformed match record"):
        read_record(bad)
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.json")


def test_replay_catches_tampering(tmp_path: Path) -> None:
    record = match(RULESHEETS / "tictactoe.kif", ["random", "random"], 2)
    data = record.to_json()
    data["steps"][1]["joint_move"][0], data["steps"][1]["joint_move"][1] = "(mark 9 9)", "noop"
    with pytest.raises(ReplayError, match=r"^turn 1: x played \(mark 9 9\), which is not legal$"):
        replay(MatchRecord.from_json(data), REASONER)
    data = record.to_json()
    data["goals"] = {role: 77 for role in data["goals"]}
    with pytest.raises(ReplayError, match="not the rules' goals"):
        replay(MatchRecord.from_json(data), REASONER)
    data = record.to_json()
    data["game_kif"] = data["game_kif"].replace("(index 3)", "(index 4)")
    with pytest.raises(ReplayError, match="SHA-256"):
        replay(MatchRecord.from_json(data), REASONER)
    data = record.to_json()
    data["steps"] = data["steps"][:-1]
    with pytest.raises(ReplayError, match="not over"):
        replay(MatchRecord.from_json(data), REASONER)
    blind = match(RULESHEETS / "blind_tictactoe.kif", ["random", "random"], 2).to_json()
    blind["steps"][0]["percepts"]["white"] = ["ok", "extra"]
    with pytest.raises(ReplayError, match="turn 0: white's percepts"):
        replay(MatchRecord.from_json(blind), REASONER)


def test_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GGP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("GGP_MATCH_DB", raising=False)
    assert default_store_path() == tmp_path / "data" / "matches.sqlite3"
    assert default_record_path("m1") == tmp_path / "data" / "records" / "m1.json"
    monkeypatch.setenv("GGP_MATCH_DB", str(tmp_path / "other.db"))
    assert default_store_path() == tmp_path / "other.db"
    records = [match(RULESHEETS / "tictactoe.kif", ["random", "random"], seed) for seed in (1, 2)]
    with MatchStore() as store:
        for record in records:
            store.add(record, tmp_path / f"{record.match_id}.json")
        store.add(records[0])  # replacing keeps one row per match
        rows = store.rows()
        assert [row.match_id for row in rows] == [r.match_id for r in records]
        assert rows[1].goals == records[1].goals and rows[1].steps == len(records[1].steps)
        assert rows[0].record_path is None and rows[1].record_path is not None
        assert str(rows[1]).startswith(records[1].match_id + "\t")
        assert store.get(records[1].match_id) == records[1]
        with pytest.raises(StoreError, match="no match 'nope'"):
            store.get("nope")
    assert (tmp_path / "other.db").exists()
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(StoreError, match="cannot open"):
        MatchStore(tmp_path / "dir.db")


def test_record_json_is_plain(tmp_path: Path) -> None:
    record = match(shared_path("corpus", "gdl2", "montyhall.gdl"), ["legal"], 9)
    data = json.loads(json.dumps(record.to_json()))
    assert data["format"] == 1 and data["status"] == "finished"
    assert set(data) >= {"match_id", "game_kif", "game_sha256", "roles", "players", "start_clock",
                         "play_clock", "seed", "steps", "goals", "errors", "events", "seconds"}


def test_a_database_of_the_first_schema_is_read_and_stays_writable_by_it(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE matches (match_id TEXT PRIMARY KEY, started TEXT NOT NULL, finished TEXT NOT NULL, "
                "status TEXT NOT NULL, game TEXT, game_sha256 TEXT NOT NULL, players TEXT NOT NULL, goals TEXT NOT NULL, "
                "steps INTEGER NOT NULL, errors INTEGER NOT NULL, record_path TEXT, record TEXT NOT NULL)")
    record = match(RULESHEETS / "tictactoe.kif", ["random", "random"], 1)
    old.execute("INSERT INTO matches VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (record.match_id, record.started, record.finished, record.status, None, record.game_sha256, "{}",
                 "{}", len(record.steps), 0, None, json.dumps(record.to_json())))
    old.commit()
    with MatchStore(path) as store:
        assert store.get(record.match_id) == record
        assert [row.tournament for row in store.rows()] == [None]
        newer = match(RULESHEETS / "tictactoe.kif", ["random", "random"], 2)
        store.add(newer, tournament="t", index=0)
        assert [r.match_id for r in store.tournament_records("t")[0]] == [newer.match_id]
    # The first version's writer (twelve values into matches) still works on it.
    old.execute("INSERT OR REPLACE INTO matches VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                ("m3", "", "", "finished", None, "", "{}", "{}", 0, 0, None, "{}"))
    old.commit()
    old.close()
