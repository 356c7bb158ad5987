"""Stops lose nothing: SIGINT, SIGTERM and SIGKILL sent to a real ``ggp match`` process in the
middle of a match, then the match database and the record file checked; no player process is
left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ggp.gdl.terms import Term
from ggp.manager.record import ABORTED, RUNNING, read_record
from ggp.manager.replay import replay
from ggp.manager.store import MatchStore
from ggp.players.base import Player, TurnView
from tests.conftest import RULESHEETS
from tests.manager.test_process import alive, children, wait_gone
from tests.server.support import REASONER

#: Steps played before the slow player stops answering.
QUICK_TURNS = 3


class SlowAfterThree(Player):
    """Plays its first legal move at once for its first turns, then touches ``$GGP_TEST_MARK``
    and thinks for ten minutes."""

    name = "slowafterthree"

    def play(self, view: TurnView) -> Term:
        if view.turn >= QUICK_TURNS:
            Path(os.environ["GGP_TEST_MARK"]).touch()
            time.sleep(600)
        return view.legal_moves[0]


def start_match(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], list[int], Path, Path]:
    """A ``ggp match`` of Blind Tic-Tac-Toe whose first player stalls at turn 3; returns once it
    stalls, with the players' pids, the record path and the database path."""
    mark, record, db = tmp_path / "stalled", tmp_path / "record.json", tmp_path / "matches.db"
    env = dict(env, GGP_TEST_MARK=str(mark), PYTHONPATH=os.pathsep.join(sys.path))
    cmd = [sys.executable, "-m", "ggp", "match", str(RULESHEETS / "blind_tictactoe.kif"),
           "--player", f"{__name__}:SlowAfterThree", "--player", "legal", "--playclock", "60",
           "--startclock", "10", "--seed", "4", "--record", str(record), "--db", str(db), "--reasoner", REASONER,
           "--match-id", "stopped"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not mark.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert mark.exists(), proc.communicate(timeout=10)
    players = children(proc.pid)
    assert len(players) == 2
    return proc, players, record, db


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_match_quietly_and_keeps_the_steps(tmp_path: Path, env: dict[str, str],
                                                             signum: int, status: int) -> None:
    proc, players, record_path, db = start_match(tmp_path, env)
    began = time.monotonic()
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    stopped = time.monotonic() - began
    assert proc.returncode == status, err
    assert stopped < 5  # about a second; generous for a loaded machine
    assert err == ""  # quietly: no traceback, no player's complaint
    assert wait_gone(players) == []
    summary = json.loads(out)
    assert summary["status"] == ABORTED and summary["record"] == str(record_path)
    name = signal.Signals(signum).name
    record = read_record(record_path)
    assert record.status == ABORTED and record.goals == {}
    assert record.errors == [f"interrupted ({name}): sent abort to every player"]
    assert [step.turn for step in record.steps] == list(range(QUICK_TURNS))
    with MatchStore(db) as store:
        stored = store.get("stopped")
        assert stored == record
        assert [(row.status, row.steps) for row in store.rows()] == [(ABORTED, QUICK_TURNS)]
    replay(record, REASONER)  # the steps so far are the game's


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_sigkill_loses_at_most_the_step_in_flight(tmp_path: Path, env: dict[str, str]) -> None:
    proc, players, record_path, db = start_match(tmp_path, env)
    proc.kill()
    proc.communicate(timeout=30)
    assert wait_gone(players) == []  # they leave when the manager's pipe closes
    with MatchStore(db) as store:
        stored = store.get("stopped")
        assert [(row.status, row.steps) for row in store.rows()] == [(RUNNING, QUICK_TURNS)]
    assert stored.status == RUNNING and [s.turn for s in stored.steps] == list(range(QUICK_TURNS))
    on_disk = read_record(record_path)  # rewritten after every step
    assert on_disk == stored
    replay(stored, REASONER)
    assert not any(alive(p) for p in players)
