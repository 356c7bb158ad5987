"""The plug-in player API: the documented example, hooks, persistence, the console player."""

from __future__ import annotations

import importlib
import io
import json
import os
import random
import re
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

import pytest

from ggp.belief import Observation
from ggp.cli import main
from ggp.deadline import Deadline
from ggp.gdl.load import load_game
from ggp.gdl.terms import Constant, Term
from ggp.manager.client import LocalPlayer
from ggp.manager.clocks import Clocks
from ggp.manager.runner import MatchSettings, run_match
from ggp.players import memory
from ggp.players.base import MatchInfo, Player, TurnView
from ggp.players.human import HumanPlayer
from ggp.players.session import PlayerSession
from tests.conftest import ROOT, RULESHEETS
from tests.server.support import REASONER

T = Term.parse


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test saves players' memory under its own temporary data directory."""
    monkeypatch.setenv("GGP_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _local_match(path: Path, players: list[Player], seed: int, clock: float = 0.1) -> dict[str, int]:
    clients = [LocalPlayer(type(p).name or "x", p, REASONER) for p in players]
    record = run_match(load_game(path), clients, MatchSettings(Clocks(5.0, clock, 0.5), seed, "auto", REASONER))
    assert record.status == "finished", record.errors
    return record.goals


# --- the example player of docs/players.md ---------------------------------------------------


def _example_source() -> str:
    text = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- example-player: begin -->\n```python\n(.*?)```\n<!-- example-player: end -->", text, re.DOTALL)
    assert block is not None, "docs/players.md has no marked example player"
    return block.group(1)


def test_the_documented_example_player_plays_and_remembers(tmp_path: Path, data_dir: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    source = _example_source()
    assert len(source.strip().splitlines()) < 50
    (tmp_path / "example_doc_player.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("example_doc_player")
        spec = "example_doc_player:ExamplePlayer"
        for seed in range(2):  # a fresh player object each match: memory goes through the disk
            goals = _local_match(RULESHEETS / "montyhall.kif", [module.ExamplePlayer(random.Random(seed))], seed)
            assert goals["candidate"] in (0, 100)
        saved = json.loads((data_dir / "players" / "example.json").read_text())
        # the candidate never sees the car: its goals are expectations over the final states
        assert saved["matches"] == 2 and 0 <= saved["goals"] <= 200 and saved["certain"] > 0
        assert main(["players", "--reset", spec]) == 0
        assert "forgot example_doc_player:ExamplePlayer" in capsys.readouterr().out
        assert not (data_dir / "players" / "example.json").exists()
        assert main(["players", "--reset", spec]) == 0
        assert "nothing saved" in capsys.readouterr().out
    finally:
        sys.path.remove(str(tmp_path))


# --- hooks --------------------------------------------------------------------------------


class Hooked(Player):
    """Answers an illegal move on its first turn; records every hook call."""

    name = ""

    def __init__(self) -> None:
        super().__init__(random.Random(0))
        self.calls: list[tuple[object, ...]] = []
        self.done = threading.Event()

    def play(self, view: TurnView) -> Term:
        if view.turn == 0:
            return T("(mark 9 9)")
        return view.legal_moves[0]

    def on_percepts(self, view: TurnView, percepts: frozenset[Term]) -> None:
        self.calls.append(("percepts", view.turn, percepts))

    def on_substitution(self, view: TurnView, answered: Term, played: Term) -> None:
        self.calls.append(("substitution", view.turn, answered, played))

    def on_match_end(self, view: TurnView, goals: dict[Constant, float]) -> None:
        self.calls.append(("end", dict(goals)))
        self.done.set()


def test_hooks_tell_of_percepts_substitutions_and_the_end() -> None:
    player = Hooked()
    description = load_game(RULESHEETS / "blind_tictactoe.kif")
    info = MatchInfo("m", Constant("white"), description, 5.0, 1.0)
    session = PlayerSession(player, info, REASONER, random.Random(1))
    session.start(Deadline.after(5))
    assert session.play([], Deadline.after(1), 0) != T("(mark 9 9)")  # the session's fallback
    # The manager played (mark 1 1) for white; white's percept says it succeeded.
    session.play([Observation(T("(mark 1 1)"), frozenset({Constant("ok")}))], Deadline.after(1), 1)
    assert ("substitution", 1, T("(mark 9 9)"), T("(mark 1 1)")) in player.calls
    assert ("percepts", 1, frozenset({Constant("ok")})) in player.calls
    answered = session.answers[1]
    session.stop([Observation(answered, frozenset())], Deadline.after(1))
    assert player.done.wait(5)
    assert not any(c[0] == "substitution" and c[1] == 2 for c in player.calls)  # it played its answer
    end = player.calls[-1]
    assert end[0] == "end" and isinstance(end[1], dict) and set(end[1]) <= {Constant("white"), Constant("black")}


def test_match_end_goals_are_exact_when_the_state_is_known() -> None:
    player = Hooked()
    player.play = lambda view: view.legal_moves[0]  # type: ignore[method-assign]
    goals = _local_match(RULESHEETS / "tictactoe.kif", [player, Hooked()], 1)
    assert player.done.wait(5)
    end = player.calls[-1]
    assert end[0] == "end" and end[1] == {Constant(r): float(v) for r, v in goals.items()}


# --- persistence ---------------------------------------------------------------------------


class Learner(Player):
    """Counts its matches in its memory."""

    name = "learner_for_tests"

    def persist(self) -> bool:
        return True

    def play(self, view: TurnView) -> Term:
        return view.legal_moves[0]

    def on_match_end(self, view: TurnView, goals: dict[Constant, float]) -> None:
        self.memory["matches"] = self.memory.get("matches", 0) + 1


def test_memory_round_trips_and_resets(data_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = data_dir / "players" / "learner_for_tests.json"
    learner = Learner()
    for seed in range(2):
        _local_match(RULESHEETS / "tictactoe.kif", [learner, Learner()], seed)
    # two learners wrote the same file; the last one saved after its second match
    assert json.loads(path.read_text())["matches"] == 2
    fresh = Learner()
    memory.load(fresh)
    assert fresh.memory == {"matches": 2}
    fresh.reset()
    assert fresh.memory == {} and not path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[1, 2")
    broken = Learner()
    memory.load(broken)
    assert broken.memory == {} and "cannot read the memory" in caplog.text
    broken.memory["bad"] = object()
    memory.save(broken)
    assert "not JSON" in caplog.text and path.read_text() == "[1, 2"


def test_players_that_do_not_persist_save_nothing(data_dir: Path) -> None:
    player = Hooked()
    player.play = lambda view: view.legal_moves[0]  # type: ignore[method-assign]
    player.memory["x"] = 1
    _local_match(RULESHEETS / "tictactoe.kif", [player, Hooked()], 2)
    assert not (data_dir / "players").exists()


# --- the console player ------------------------------------------------------------------


def _human_session(lines: TextIO | None, output: io.StringIO) -> tuple[HumanPlayer, PlayerSession]:
    player = HumanPlayer(random.Random(0), input=lines, output=output)
    description = load_game(RULESHEETS / "montyhall.kif")
    info = MatchInfo("m", Constant("candidate"), description, 5.0, 3.0)
    session = PlayerSession(player, info, REASONER, random.Random(1))
    session.start(Deadline.after(5))
    return player, session


def test_the_human_player_reads_numbers_and_moves_and_asks_again() -> None:
    out = io.StringIO()
    lines = io.StringIO("\n7\n(mark 9 9)\n)(\n(CHOOSE 3)\nswitch\n")
    _, session = _human_session(lines, out)
    assert session.play([], Deadline.after(3), 0) == T("noop")  # the only legal move: not asked
    choice = session.play([Observation(T("noop"), frozenset())], Deadline.after(3), 1)
    text = out.getvalue()
    assert "you play candidate" in text and "3 s per move" in text
    assert "7 is not a move number: choose from 1 to 3" in text
    assert "(mark 9 9) is not a legal move now" in text and "cannot read ')('" in text
    assert "    1  choose 1" in text and "time left:" in text
    assert choice == T("(choose 3)")
    session.play([Observation(T("(choose 3)"), frozenset())], Deadline.after(3), 2)
    move = session.play([Observation(T("noop"), frozenset({T("(opened 1)")}))], Deadline.after(3), 3)
    assert "you saw: opened 1" in out.getvalue()
    assert move == T("switch")  # typed ahead, kept for the next question
    session.close()


def test_the_human_player_who_types_nothing_gets_a_legal_move_in_time() -> None:
    read, write = os.pipe()
    out = io.StringIO()
    with os.fdopen(read, "r") as silent, os.fdopen(write, "w"):
        _, session = _human_session(silent, out)
        session.play([], Deadline.after(1), 0)
        began = time.monotonic()
        move = session.play([Observation(T("noop"), frozenset())], Deadline.after(0.5), 1)
        assert time.monotonic() - began < 0.9
        assert move in (T("(choose 1)"), T("(choose 2)"), T("(choose 3)"))
        assert "no answer in time" in out.getvalue()
        session.close()
