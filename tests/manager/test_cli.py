"""The commands end to end: ``ggp serve`` processes, ``ggp match``, ``matches``, ``replay``, ``players``."""

from __future__ import annotations

import io
import json
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
    game = RULESHEETS / "blind_tictactoe.kif"
    result = ggp(env, "match", str(game), "--player", "random", "--player", "legal", "--seed", "3",
                 "--playclock", "1", "--reasoner", REASONER, "--watch")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)  # the default output is unchanged: one JSON line
    record = read_record(str(summary["record"]))
    lines = result.stderr.splitlines()
    assert lines[0] == f"match {record.match_id}: {game}"
    assert lines[1:4] == ["  white: random", "  black: legal", "  random: played by the manager"]
    turns = [i for i, line in enumerate(lines) if line.startswith("turn ")]
    assert len(turns) == len(record.steps)
    for step, at in zip(record.steps, turns):
        block = lines[at + 1:at + 6]
        assert block[:3] == [f"  white   {step.joint_move[0]}   {step.answers['white'].seconds:.2f} s of 1 s",
                             f"  black   {step.joint_move[1]}   {step.answers['black'].seconds:.2f} s of 1 s",
                             f"  random  {step.joint_move[2]}"]
        for role, line in zip(("white", "black"), block[3:]):
            assert line == f"  {role:<6}  sees {' '.join(step.percepts[role]) or 'nothing'}"
    goals = " ".join(f"{role}={value}" for role, value in record.goals.items())
    assert lines[-1] == f"finished after {len(record.steps)} steps ({record.seconds:.1f} s); goals {goals}"


def test_watch_names_the_cards_of_a_card_game() -> None:
    from ggp.cli.watch import Watcher, card_names
    from ggp.gdl.kif import parse_kif
    from ggp.gdl.load import load_game
    from ggp.manager.clocks import Clocks
    from ggp.manager.record import Answer, MatchRecord, Step, Substitution

    # the translator names cards by their values: nothing to add
    assert card_names(load_game(RULESHEETS / "agram.rcy")) == {}
    description = parse_kif("(role player0) (role random) (card c1) (attr c1 rank three) (attr c1 color red)"
                            " (attr c1 suit hearts) (card c10) (attr c10 rank ten) (card three_hearts)"
                            " (attr three_hearts rank three) (attr three_hearts suit hearts) (<= (sees player0 x) (true y))")
    names = card_names(description)
    assert names == {"c1": "c1[three red hearts]", "c10": "c10[ten]"}
    record = MatchRecord("m", "cards.kif", "", "", ["player0", "random"], {"player0": "random"}, 10, 1, 1, 1, "auto")
    step = Step(4, ["(choose 0 c1)", "noop"],
                {"player0": ["(moved 0 (loc player0 iloc hand) (loc player0 vloc trick) c1)"], "random": []},
                {"player0": Answer("(choose 0 c10)", 0.25)}, [Substitution("player0", "(choose 0 c1)", "illegal",
                                                                          "not legal", "(choose 0 c10)")], 1.5)
    out = io.StringIO()
    watcher = Watcher(description, Clocks(10, 1, 1), out)
    watcher.step(record, step)
    text = out.getvalue()
    assert "  player0  (choose 0 c1[three red hearts])   [played for it: illegal (answered (choose 0 c10[ten])): " \
           "not legal]   0.25 s of 1 s" in text
    assert "  player0  sees (moved 0 (loc player0 iloc hand) (loc player0 vloc trick) c1[three red hearts])" in text
    assert "random   sees" not in text and "three_hearts[" not in text


def test_a_record_file_that_cannot_be_written(env: dict[str, str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = ggp(env, "match", str(RULESHEETS / "tictactoe.kif"), "--player", "random", "--player", "random",
                 "--record", str(blocker / "r.json"), "--reasoner", REASONER)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"ggp match: cannot write the record file {blocker / 'r.json'}: ")
