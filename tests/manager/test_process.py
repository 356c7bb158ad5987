"""Players in processes of their own: the same matches as in-process, faults contained, no
process left behind."""

from __future__ import annotations

import ctypes
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from ggp.deadline import Deadline
from ggp.errors import UnknownPlayerError
from ggp.gdl.load import load_game
from ggp.gdl.terms import Term
from ggp.manager.client import CLOSED, TIMEOUT, LocalPlayer, PlayerClient
from ggp.manager.clocks import Clocks
from ggp.manager.process import PlayerProcessError, ProcessPlayer
from ggp.manager.record import MatchRecord, read_record
from ggp.manager.runner import MatchSettings, run_match
from ggp.manager.seating import ClientPool, make_client, open_clients
from ggp.manager.tournament import play_tournament
from ggp.players.base import Player, TurnView
from ggp.protocol.messages import Info
from tests.conftest import RULESHEETS, shared_path
from tests.server.support import REASONER

CLOCKS = Clocks(start=10.0, play=1.0, slack=0.5)
#: Seconds the stubborn player holds the interpreter lock: past its turn's deadline
#: (clock plus slack), not far into the next turn.
HOLD = 1.7


class Stubborn(Player):
    """Plays its first legal move, but at turn 2 holds its process's interpreter lock for
    :data:`HOLD` seconds first (as a search stuck in native code does)."""

    name = "stubborn"

    def play(self, view: TurnView) -> Term:
        if view.turn == 2:
            ctypes.PyDLL(None).usleep(int(HOLD * 1_000_000))  # the lock is held throughout
        return view.legal_moves[0]


class Sleeper(Player):
    """Touches the file ``$GGP_TEST_MARK``, then sleeps through every turn."""

    name = "sleeper"

    def play(self, view: TurnView) -> Term:
        Path(os.environ["GGP_TEST_MARK"]).touch()
        time.sleep(600)
        return view.legal_moves[0]


def tictactoe() -> Path:
    return shared_path("corpus", "gdl", "ggporg_ticTacToe.kif")


def alive(pid: int) -> bool:
    """True while ``pid`` is a running (not reaped, not zombie) process."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    """The pids still alive after at most ``seconds``."""
    end = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def moves(record: MatchRecord) -> list[list[str]]:
    return [step.joint_move for step in record.steps]


def play(path: Path, clients: Sequence[PlayerClient], seed: int, close: bool = True) -> MatchRecord:
    return run_match(load_game(path), clients, MatchSettings(CLOCKS, seed, "auto", REASONER), close_clients=close)


def in_process(path: Path, specs: list[str], seed: int) -> MatchRecord:
    clients = [make_client(s, random.Random(f"{seed}/{i}"), REASONER, in_process=True) for i, s in enumerate(specs)]
    assert all(isinstance(c, LocalPlayer) for c in clients)
    return play(path, clients, seed)


@pytest.fixture(scope="module")
def pool() -> Iterator[ClientPool]:
    with ClientPool(REASONER) as kept:
        yield kept


@pytest.mark.parametrize(("game", "specs"), [
    ("ttt", ["random", "random"]), ("ttt", ["legal", "random"]),
    ("montyhall", ["random"]), ("montyhall", ["legal"]),
])
def test_the_same_moves_as_in_process(pool: ClientPool, game: str, specs: list[str]) -> None:
    path = tictactoe() if game == "ttt" else RULESHEETS / "montyhall.kif"
    for seed in range(3):  # the pool reuses each process, with a fresh player per match
        clients = pool.take(specs, [random.Random(f"{seed}/{i}") for i in range(len(specs))])
        assert all(isinstance(c, ProcessPlayer) for c in clients)
        try:
            record = play(path, clients, seed, close=False)
        finally:
            pool.give_back(clients)
        assert record.status == "finished" and not record.errors, record.errors
        assert all(not step.substitutions for step in record.steps)
        assert moves(record) == moves(in_process(path, specs, seed))


def test_a_reseeded_client_plays_as_a_fresh_one() -> None:
    path = tictactoe()
    with ProcessPlayer("random", random.Random(1), REASONER) as reused, \
            ProcessPlayer("random", random.Random(2), REASONER) as other:
        first = play(path, [reused, other], 5, close=False)
        reused.new_match(random.Random(3))
        other.new_match(random.Random(4))
        again = play(path, [reused, other], 6, close=False)
    fresh = [ProcessPlayer("random", random.Random(3), REASONER), ProcessPlayer("random", random.Random(4), REASONER)]
    assert moves(again) == moves(play(path, fresh, 6))
    assert moves(again) != moves(first)


def test_a_tournament_plays_as_in_process(tmp_path: Path) -> None:
    description = load_game(RULESHEETS / "blind_tictactoe.kif")
    runs = {}
    for mode in (False, True):
        folder = tmp_path / str(mode)
        folder.mkdir()
        result = play_tournament(description, ["random", "legal"], 4, CLOCKS, 7, REASONER,
                                 record_dir=folder, in_process=mode, db=tmp_path / "matches.db")
        records = sorted((read_record(p) for p in folder.iterdir()), key=lambda r: r.started or "")
        assert result.matches == 4 and not result.errors, result.errors
        summary = result.summary()
        summary.pop("tournament")
        runs[mode] = (summary, [(r.players, moves(r)) for r in records])
    assert runs[False] == runs[True]


def test_the_command_seats_players_in_processes_unless_asked(env: dict[str, str], tmp_path: Path) -> None:
    outputs = []
    for extra in ([], ["--in-process"]):
        result = subprocess.run(
            [sys.executable, "-m", "ggp", "match", str(tictactoe()), "--player", "random", "--player", "legal",
             "--seed", "4", "--playclock", "1", "--startclock", "10", "--reasoner", REASONER, *extra],
            env=env, capture_output=True, text=True, timeout=120, check=False)
        assert result.returncode == 0, result.stderr
        summary = json.loads(result.stdout)
        assert summary["errors"] == []
        outputs.append((summary["goals"], moves(read_record(summary["record"]))))
    assert outputs[0] == outputs[1]


def test_a_killed_player_is_substituted_and_restarted() -> None:
    path = tictactoe()
    victim = ProcessPlayer("random", random.Random(1), REASONER)
    pid = victim.pid

    def kill_after_turn_one(line: str) -> None:
        if line.startswith("turn 1:"):
            os.kill(pid, signal.SIGKILL)

    began = time.monotonic()
    opponent = ProcessPlayer("random", random.Random(2), REASONER)
    record = run_match(load_game(path), [victim, opponent], MatchSettings(CLOCKS, 3, "auto", REASONER),
                       kill_after_turn_one, close_clients=False)
    assert record.status == "finished" and record.goals
    assert time.monotonic() - began < 30
    reasons = {(step.turn, s.role, s.reason, s.detail) for step in record.steps for s in step.substitutions}
    assert reasons and all(turn >= 2 and role == "xplayer" and reason == CLOSED for turn, role, reason, _ in reasons)
    assert all(detail == "the player's process was killed by SIGKILL" for *_, detail in reasons)
    assert len(reasons) == len(record.steps) - 2  # every turn after the kill
    assert [(e.phase, e.role, e.reason) for e in record.events] == [("stop", "xplayer", CLOSED)]
    assert "killed by SIGKILL" in record.errors[0]
    assert not alive(pid)
    victim.new_match(random.Random(1))  # a new process for the next match
    assert victim.pid != pid
    opponent.new_match(random.Random(2))
    record = play(path, [victim, opponent], 3)
    assert record.status == "finished" and not record.errors, record.errors


def test_a_player_holding_its_interpreter_times_out_alone() -> None:
    path = tictactoe()
    clients = open_clients([f"{__name__}:Stubborn", "random"], [random.Random(1), random.Random(2)], REASONER)
    record = play(path, clients, 4)
    assert record.status == "finished"
    x = [(step.turn, s.reason) for step in record.steps for s in step.substitutions if s.role == "xplayer"]
    assert x == [(2, TIMEOUT)]
    assert not any(s.role == "oplayer" for step in record.steps for s in step.substitutions)
    assert record.steps[2].answers["oplayer"].seconds < CLOCKS.play + CLOCKS.slack
    assert record.steps[4].answers["xplayer"].failure is None  # its next real turn


def test_no_process_outlives_close_or_the_match() -> None:
    client = ProcessPlayer("legal", random.Random(1), REASONER)
    pid = client.pid
    assert alive(pid) and client.startup_seconds is not None
    info = client.send(Info(), Deadline.after(5))
    assert info.text is not None and "legal" in info.text
    client.close()
    client.close()  # harmless
    assert not alive(pid)
    assert client.send(Info(), Deadline.after(5)).failure == CLOSED
    with ProcessPlayer("random", random.Random(1), REASONER) as scoped:
        pid = scoped.pid
    assert not alive(pid)
    clients = open_clients(["random", "random"], [random.Random(1), random.Random(2)], REASONER)
    pids = [c.pid for c in clients if isinstance(c, ProcessPlayer)]
    assert len(pids) == 2 and all(alive(p) for p in pids)
    play(tictactoe(), clients, 1)
    assert not any(alive(p) for p in pids)


def test_players_that_cannot_start() -> None:
    with pytest.raises(UnknownPlayerError, match="unknown player 'nobody'"):
        make_client("nobody", random.Random(1), REASONER)
    with pytest.raises(PlayerProcessError, match="player nosuch.module:X: UnknownPlayerError: cannot import"):
        ProcessPlayer("nosuch.module:X", random.Random(1), REASONER)
    assert isinstance(make_client("human", random.Random(1), REASONER), LocalPlayer)  # it reads the console


def _match_process(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], list[int]]:
    """A ``ggp match`` whose first player sleeps through its turn; returns once it is sleeping."""
    mark = tmp_path / "sleeping"
    env = dict(env, GGP_TEST_MARK=str(mark), PYTHONPATH=os.pathsep.join(sys.path))
    cmd = [sys.executable, "-m", "ggp", "match", str(tictactoe()), "--player", f"{__name__}:Sleeper",
           "--player", "random", "--playclock", "60", "--startclock", "10", "--seed", "1",
           "--record", str(tmp_path / "record.json"), "--reasoner", REASONER]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not mark.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert mark.exists(), proc.communicate(timeout=10)
    players = children(proc.pid)
    assert len(players) == 2
    return proc, players


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_aborts_and_leaves_no_process(tmp_path: Path, env: dict[str, str]) -> None:
    proc, players = _match_process(tmp_path, env)
    began = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert time.monotonic() - began < 10
    assert wait_gone(players) == []
    record = read_record(json.loads(out)["record"])
    assert record.status == "aborted" and "interrupted" in record.errors[0]
    assert "Traceback" not in err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_killing_the_manager_leaves_no_process(tmp_path: Path, env: dict[str, str]) -> None:
    proc, players = _match_process(tmp_path, env)
    proc.kill()
    proc.communicate(timeout=30)
    assert wait_gone(players) == []
