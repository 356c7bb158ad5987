"""Tournaments at scale: the same records whether matches run in this process, in worker
processes or on Ray; killed and resumed tournaments equal uninterrupted ones; round robins;
ratings checked against OpenSkill applied to the records."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ggp.gdl.load import load_game
from ggp.gdl.terms import Term
from ggp.manager.clocks import Clocks
from ggp.manager.ratings import pooled_goals
from ggp.manager.record import ABORTED, FINISHED, RUNNING, MatchRecord
from ggp.manager.runner import MatchSetupError
from ggp.manager.store import MatchStore, StoreError
from ggp.manager.tournament import (
    TournamentResult,
    default_matches,
    play_tournament,
    records_by_index,
    resume_tournament,
    schedule,
)
from ggp.players.base import Player, TurnView
from tests.conftest import RULESHEETS
from tests.manager.test_process import children, wait_gone
from tests.server.support import REASONER

TICTACTOE = RULESHEETS / "tictactoe.kif"
CLOCKS = Clocks(10, 1, 0.5)


class Steady(Player):
    """The first legal move, after a tenth of a second (so that a tournament takes a while)."""

    name = "steady"

    def play(self, view: TurnView) -> Term:
        time.sleep(0.1)
        return view.legal_moves[0]


def content(record: MatchRecord) -> tuple[Any, ...]:
    """What a match's result is made of (not its id, times or durations)."""
    return (record.status, record.players, record.seed, [s.joint_move for s in record.steps],
            [s.percepts for s in record.steps], record.goals)


def by_index(db: Path, tournament: str) -> dict[int, tuple[Any, ...]]:
    """The played matches of a stored tournament, by number."""
    with MatchStore(db) as store:
        stored = store.tournament_records(tournament)
    return {i: content([r for r in records if r.status == FINISHED][-1]) for i, records in stored.items()
            if any(r.status == FINISHED for r in records)}


def tournament(tmp_path: Path, name: str, **options: Any) -> tuple[TournamentResult, dict[int, tuple[Any, ...]]]:
    db = tmp_path / f"{name}.db"
    result = play_tournament(load_game(RULESHEETS / "blind_tictactoe.kif"), ["random", "legal"], 6, CLOCKS, 8,
                             REASONER, db=db, **options)
    assert result.matches == 6 and not result.errors and not result.interrupted, result.errors
    assert result.tournament_id is not None
    return result, by_index(db, result.tournament_id)


def same_summary(a: TournamentResult, b: TournamentResult) -> None:
    first, second = a.summary(), b.summary()
    assert first.pop("tournament") != second.pop("tournament")
    assert first == second


def test_workers_give_the_same_results_as_one_process(tmp_path: Path) -> None:
    one, records = tournament(tmp_path, "one")
    two, again = tournament(tmp_path, "two", workers=2)
    same_summary(one, two)
    assert records == again and len(records) == 6


def test_ray_gives_the_same_results_as_one_process(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the optional extra ggp[ray] is not installed")
    one, records = tournament(tmp_path, "one")
    on_ray, again = tournament(tmp_path, "ray", ray="auto", workers=2)
    same_summary(one, on_ray)
    assert records == again


@pytest.fixture(scope="module")
def round_robin(tmp_path_factory: pytest.TempPathFactory) -> TournamentResult:
    """Three players on a two-seat game: one round of six matches."""
    specs = ["random", "legal", f"{__name__}:Steady"]
    return play_tournament(load_game(TICTACTOE), specs, 6, Clocks(10, 0.5, 0.5), 5, REASONER,
                           db=tmp_path_factory.mktemp("robin") / "m.db")


def test_round_robin_over_more_players_than_seats(round_robin: TournamentResult) -> None:
    assert schedule(2, 2) == [(0, 1), (1, 0)]
    assert schedule(3, 2) == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    assert len(schedule(4, 3)) == 12 and all(len(set(s)) == 3 for s in schedule(4, 3))
    assert default_matches(2, 2) == 10 and default_matches(3, 2) == 12 and default_matches(4, 3) == 12
    with pytest.raises(MatchSetupError, match="2 player roles"):
        play_tournament(load_game(TICTACTOE), ["random"], 2, CLOCKS, 1, REASONER, store=False)
    specs = round_robin.specs
    assert round_robin.matches == 6
    seatings = sorted((r.players["x"], r.players["o"]) for r in round_robin.records.values())
    assert seatings == sorted((a, b) for a in specs for b in specs if a != b)  # each pair, each side
    assert sorted(len(v) for v in round_robin.goals.values()) == [4, 4, 4]


def test_ratings_are_openskill_over_the_matches_in_order(round_robin: TournamentResult) -> None:
    openskill = pytest.importorskip("openskill.models", reason="the optional extra ggp[ratings] is not installed")
    model = openskill.PlackettLuce()
    ratings = {spec: model.rating() for spec in round_robin.specs}
    for i in sorted(round_robin.records):
        record = round_robin.records[i]
        (a, ga), (b, gb) = ((record.players[role], record.goals[role]) for role in ("x", "o"))
        [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], scores=[ga, gb])
    summary = round_robin.summary()["rating"]
    for spec, rating in ratings.items():
        assert summary[spec]["mu"] == pytest.approx(rating.mu, abs=1e-3)
        assert summary[spec]["sigma"] == pytest.approx(rating.sigma, abs=1e-3)
        assert summary[spec]["ordinal"] == pytest.approx(rating.mu - 3 * rating.sigma, abs=1e-3)
    assert pooled_goals({"x": "a", "o": "a"}, {"x": 100, "o": 0}) == {"a": 50.0}
    alone = play_tournament(load_game(TICTACTOE), ["random", "random"], 2, CLOCKS, 5, REASONER, store=False)
    assert alone.summary()["rating"] == {"random": None}  # self-play rates nobody


def command(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    env = dict(env, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.Popen([sys.executable, "-m", "ggp", "tournament", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def tournament_args(db: Path) -> list[str]:
    return [str(TICTACTOE), "--player", f"{__name__}:Steady", "--player", "legal", "--matches", "8",
            "--seed", "6", "--playclock", "2", "--reasoner", REASONER, "--db", str(db)]


def wait_for_finished(db: Path, count: int, proc: subprocess.Popen[str]) -> str:
    """Wait until ``count`` matches have finished in ``db``; the tournament's id."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            with MatchStore(db) as store:
                rows = store.rows()
            if sum(r.status == FINISHED for r in rows) >= count:
                assert rows[0].tournament is not None
                return rows[0].tournament
        time.sleep(0.1)
    raise AssertionError(proc.communicate(timeout=10))


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Any, ...]]:
    db = tmp_path_factory.mktemp("whole") / "whole.db"
    proc = command(dict(os.environ), *tournament_args(db), "--workers", "2")
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    summary = json.loads(out)
    assert summary["matches"] == 8
    return by_index(db, summary["tournament"])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("signum", "mode"), [
    (signal.SIGKILL, ["--workers", "1"]),
    (signal.SIGTERM, ["--workers", "2"]),
    pytest.param(signal.SIGTERM, ["--ray", "auto", "--workers", "2"], marks=pytest.mark.slow, id="ray"),
])
def test_a_stopped_tournament_resumes_to_the_same_records(tmp_path: Path, env: dict[str, str], signum: int,
                                                          mode: list[str],
                                                          uninterrupted: dict[int, tuple[Any, ...]]) -> None:
    if "--ray" in mode:
        pytest.importorskip("ray", reason="the optional extra ggp[ray] is not installed")
    db = tmp_path / "stopped.db"
    proc = command(env, *tournament_args(db), *mode)
    tid = wait_for_finished(db, 3, proc)
    below = children(proc.pid)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    if signum == signal.SIGTERM:
        assert proc.returncode == 143 and "Traceback" not in err
        assert f"--resume {tid}" in err
        assert json.loads(out)["tournament"] == tid
    if "--ray" not in mode:  # Ray's own processes leave on Ray's schedule
        assert wait_gone(below, 20) == []  # workers and players leave too
    with MatchStore(db) as store:
        stored = store.tournament_records(tid)
    done = {i for i, records in stored.items() if any(r.status == FINISHED for r in records)}
    assert 3 <= len(done) < 8
    if signum == signal.SIGTERM:  # the matches in progress were stopped and recorded
        assert any(r.status == ABORTED for records in stored.values() for r in records)
    resumed = command(env, "--resume", tid, "--db", str(db), *mode)
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    summary = json.loads(out)
    assert summary["tournament"] == tid and summary["matches"] == 8
    assert by_index(db, tid) == uninterrupted
    with MatchStore(db) as store:
        again = store.tournament_records(tid)
    for i in done:  # a finished match was neither replayed nor lost
        assert [r.match_id for r in again[i]] == [r.match_id for r in stored[i]]


def test_resume_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no tournament 'nope'"):
        resume_tournament("nope", tmp_path / "m.db")
    assert records_by_index([]) == {}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_worker_that_dies_costs_no_match(tmp_path: Path, env: dict[str, str],
                                           uninterrupted: dict[int, tuple[Any, ...]]) -> None:
    db = tmp_path / "m.db"
    proc = command(env, *tournament_args(db), "--workers", "2")
    tid = wait_for_finished(db, 1, proc)
    workers = children(proc.pid)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)  # its match in progress stays as far as it got
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    summary = json.loads(out)
    assert summary["matches"] == 8 and summary["not_played"] == 0
    assert by_index(db, tid) == uninterrupted  # the match was played again, to the same result
    with MatchStore(db) as store:
        stored = store.tournament_records(tid)
    lost = [(i, r) for i, records in stored.items() for r in records if r.status == RUNNING]
    assert len(lost) <= 1  # none when the worker was between two matches
    for i, record in lost:  # kept as far as it got, and played again under a new id
        assert [r.match_id for r in stored[i]] == [record.match_id, record.match_id + ".r1"]


def test_without_the_optional_extras(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ggp.manager.ray_hosting import RayUnavailable

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    with pytest.raises(RayUnavailable, match=r"--ray needs Ray: pip install 'ggp\[ray\]'"):
        play_tournament(load_game(TICTACTOE), ["random", "legal"], 2, CLOCKS, 1, REASONER, ray="auto", store=False)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    result = play_tournament(load_game(TICTACTOE), ["random", "legal"], 2, CLOCKS, 1, REASONER, store=False)
    assert result.matches == 2 and "rating" not in result.summary()


def test_usage_errors_and_listing_a_tournament(env: dict[str, str], tmp_path: Path) -> None:
    from tests.conftest import ggp

    for args, message in ((["--resume", "x", str(TICTACTOE)], "give neither FILE nor --player"),
                          ([str(TICTACTOE)], "give FILE and --player"),
                          ([str(TICTACTOE), "--player", "random", "--player", "random", "--workers", "0"],
                           "--workers must be 1 or more")):
        result = ggp(env, "tournament", *args)
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    db = tmp_path / "m.db"
    done = ggp(env, "tournament", str(TICTACTOE), "--player", "random", "--player", "legal", "--matches", "2",
               "--seed", "1", "--db", str(db), "--reasoner", REASONER)
    tid = json.loads(done.stdout)["tournament"]
    listed = ggp(env, "matches", "list", "--db", str(db), "--tournament", tid).stdout.splitlines()
    assert [line.split("\t")[0] for line in listed] == [f"{tid}.m0", f"{tid}.m1"]
    assert ggp(env, "matches", "list", "--db", str(db), "--tournament", "other").stdout == ""
    unknown = ggp(env, "tournament", "--resume", "nope", "--db", str(db))
    assert unknown.returncode == 1 and f"no tournament 'nope' in {db} (latest: {tid})" in unknown.stderr


def test_a_console_player_cannot_play_in_workers_and_a_finished_tournament_resumes_to_itself(tmp_path: Path) -> None:
    with pytest.raises(MatchSetupError, match="player human plays in the manager's process"):
        play_tournament(load_game(TICTACTOE), ["human", "random"], 2, CLOCKS, 1, REASONER, workers=2, store=False)
    db = tmp_path / "m.db"
    first = play_tournament(load_game(TICTACTOE), ["random", "legal"], 2, CLOCKS, 1, REASONER, db=db)
    assert first.tournament_id is not None
    again = resume_tournament(first.tournament_id, db, workers=2)  # nothing left to play: no worker starts
    assert again.summary() == first.summary()
