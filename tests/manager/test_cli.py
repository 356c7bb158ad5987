"""The commands end to end: ``ggp serve`` processes, ``ggp match``, ``matches``, ``replay``, ``players``."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ggp.manager.record import read_record
from ggp.protocol.messages import Abort, parse_message
from tests.conftest import RULESHEETS, ggp, shared_path
from tests.manager.test_faults import service
from tests.server.support import REASONER, FakePlayer, serve_process


def host_match(env: dict[str, str], game: Path, urls: list[str], seed: int, *extra: str) -> dict[str, object]:
    args = ["match", str(game), "--startclock", "3", "--playclock", "1", "--slack", "0.5",
            "--seed", str(seed), "--reasoner", REASONER, *extra]
    for url in urls:
        args += ["--player", url]
    result = ggp(env, *args)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert isinstance(summary, dict)
    return summary


def check_replay(env: dict[str, str], summary: dict[str, object]) -> None:
    result = ggp(env, "replay", str(summary["record"]), "--reasoner", REASONER)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["goals"] == summary["goals"]


@pytest.fixture(scope="module")
def servers() -> Iterator[list[str]]:
    with serve_process("random", 11) as first, serve_process("legal", 12) as second:
        yield [first, second]


def test_blind_tictactoe_between_two_servers(env: dict[str, str], servers: list[str]) -> None:
    summary = host_match(env, RULESHEETS / "blind_tictactoe.kif", servers, 5)
    assert set(summary) == {"goals", "status", "record", "errors"} and summary["status"] == "finished"
    assert summary["errors"] == []
    goals = summary["goals"]
    assert isinstance(goals, dict) and set(goals) == {"white", "black"}  # random has no goal here
    check_replay(env, summary)
    record = read_record(str(summary["record"]))
    assert record.players == {"white": servers[0], "black": servers[1]}
    assert all(not step.substitutions for step in record.steps)
    listed = ggp(env, "matches", "list")
    assert listed.returncode == 0 and listed.stdout.startswith(record.match_id + "\t")
    shown = ggp(env, "matches", "show", record.match_id)
    assert shown.returncode == 0 and json.loads(shown.stdout)["goals"] == goals
    missing = ggp(env, "matches", "show", "nope")
    assert missing.returncode == 1 and "no match 'nope'" in missing.stderr


def test_monty_hall_against_a_server(env: dict[str, str], servers: list[str]) -> None:
    summary = host_match(env, shared_path("corpus", "gdl2", "montyhall.gdl"), servers[1:], 2)
    assert summary["errors"] == []
    check_replay(env, summary)


def test_krieg_tictactoe_between_two_servers(env: dict[str, str], servers: list[str]) -> None:
    summary = host_match(env, shared_path("corpus", "gdl2", "kriegTTT_4x4.gdl"), servers, 3)
    check_replay(env, summary)
    record = read_record(str(summary["record"]))
    assert record.status == "finished" and len(record.steps) >= 3


@pytest.mark.parametrize("protocol", ["auto", "gdl2"])
def test_tictactoe_with_either_message_form(env: dict[str, str], servers: list[str], protocol: str) -> None:
    summary = host_match(env, RULESHEETS / "tictactoe.kif", servers, 1, "--protocol", protocol)
    assert summary["errors"] == []
    check_replay(env, summary)


def test_record_path_and_database_options(env: dict[str, str], tmp_path: Path) -> None:
    record = tmp_path / "out" / "r.json"
    db = tmp_path / "m.db"
    summary = host_match(env, RULESHEETS / "tictactoe.kif", ["random", "legal"], 1,
                         "--record", str(record), "--db", str(db), "--match-id", "m42")
    assert summary["record"] == str(record) and record.exists()
    assert ggp(env, "matches", "list", "--db", str(db)).stdout.startswith("m42\t")
    assert ggp(env, "matches", "list").stdout == ""  # the default database was not used


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "random"], "2 player roles (x o) but 1 players were given"),
        (["--player", "random", "--player", "nobody"], "unknown player 'nobody'"),
        (["--player", "random", "--player", "http://localhost"], "a remote player is http://HOST:PORT"),
        (["--player", "random", "--player", "random", "--playclock", "0"], "clocks must be positive"),
    ],
)
def test_match_usage_errors(env: dict[str, str], args: list[str], message: str) -> None:
    result = ggp(env, "match", str(RULESHEETS / "tictactoe.kif"), *args)
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_match_on_a_missing_file(env: dict[str, str]) -> None:
    result = ggp(env, "match", "no/such/game.kif", "--player", "random")
    assert result.returncode == 1 and "no/such/game.kif:1:1: cannot read file" in result.stderr


def test_replay_of_a_broken_record(env: dict[str, str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    result = ggp(env, "replay", str(bad))
    assert result.returncode == 1 and "not JSON" in result.stderr and "Traceback" not in result.stderr


def test_players_lists_names_first(env: dict[str, str]) -> None:
    result = ggp(env, "players")
    lines = result.stdout.splitlines()
    names = [line.split("\t")[0] for line in lines]
    assert result.returncode == 0 and {"random", "legal"} <= set(names)
    assert all(len(line.split("\t")) == 2 and line.split("\t")[1] for line in lines)


def test_serve_refuses_a_busy_port(env: dict[str, str], servers: list[str]) -> None:
    port = servers[0].rsplit(":", 1)[1]
    result = ggp(env, "serve", "random", "--port", port, timeout=20)
    assert result.returncode == 1 and "cannot listen" in result.stderr


def test_ctrl_c_aborts_the_match(env: dict[str, str], tmp_path: Path) -> None:
    record_path = tmp_path / "aborted.json"
    with FakePlayer(service(), lambda text: "sleep:30" if text.startswith("(play") else None) as fake:
        cmd = [sys.executable, "-m", "ggp", "match", str(RULESHEETS / "tictactoe.kif"), "--player", fake.url,
               "--player", "random", "--playclock", "30", "--startclock", "5", "--seed", "1",
               "--record", str(record_path), "--reasoner", REASONER]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not any(text.startswith("(play") for text in fake.log) and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 130, err
        assert any(isinstance(parse_message(text), Abort) for text in fake.log)
    summary = json.loads(out)
    assert summary["record"] == str(record_path)
    record = read_record(record_path)
    assert record.status == "aborted" and record.goals == {} and "interrupted" in record.errors[0]


def test_watch_prints_each_step_as_it_happens(env: dict[str, str]) -> None:
    result = ggp(env, "match", str(RULESHEETS / "agram.rcy"), "--player", "random", "--player", "legal",
                 "--player", "random", "--player", "legal", "--seed", "3", "--playclock", "1", "--reasoner", REASONER,
                 "--watch", timeout=300)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)  # the default output is unchanged: one JSON line
    record = read_record(str(summary["record"]))
    lines = result.stderr.splitlines()
    assert lines[0] == f"match {record.match_id}: {RULESHEETS / 'agram.rcy'}"
    assert lines[1:5] == ["  player0: random", "  player1: legal", "  player2: random", "  player3: legal"]
    turns = [line for line in lines if line.startswith("turn ")]
    assert len(turns) == len(record.steps) and turns[-1].startswith(f"turn {len(record.steps) - 1} (")
    last = record.steps[-1]
    block = lines[lines.index(turns[-1]) + 1:]
    for role, move in zip(record.roles, last.joint_move):
        assert any(line.split()[:1] == [role] and move.split()[0] in line for line in block)
    # Cards are shown as the game names them, each role's percepts on a line of its own.
    assert any(re.search(r"\(choose \d c\d+\[\w+ (red|black) (hearts|diamonds|spades|clubs)\]\)", line) for line in lines)
    assert any(line.startswith("  player0  sees ") for line in lines)
    assert any(re.search(r"\d\.\d\d s of 1 s", line) for line in lines)  # the clock used
    goals = " ".join(f"{role}={value}" for role, value in record.goals.items())
    assert f"finished after {len(record.steps)} steps" in result.stderr and f"goals {goals}" in result.stderr
