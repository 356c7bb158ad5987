"""``ggp tournament``: output format, seat rotation, pooling, confidence intervals, errors, the
progress bar."""

from __future__ import annotations

import io
import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from ggp.cli import main
from ggp.cli.progress import Progress
from ggp.manager.record import read_record
from ggp.manager.tournament import mean_ci95, seating, t975
from tests.conftest import RULESHEETS
from tests.players.support import CAP, COUNTED


@pytest.fixture(autouse=True)
def _own_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tournaments' matches go to a database of the test's own."""
    monkeypatch.setenv("GGP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("GGP_MATCH_DB", raising=False)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    status = main(["tournament", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else {}), err


def test_output_format_and_seat_rotation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "records"
    status, summary, _ = _run(capsys, str(RULESHEETS / "exploding_bomb_tell.kif"), "--player", "random",
                              "--player", "legal", "--matches", "4", "--playclock", "0.2", "--seed", "5",
                              "--record-dir", str(records))
    assert status == 0
    assert list(summary) == ["tournament", "matches", "not_played", "mean_goals", "ci95", "rating"]
    assert summary["matches"] == 4 and summary["not_played"] == 0
    read = [read_record(p) for p in sorted(records.glob("*.json"))]
    assert len(read) == 4
    seats = sorted((r.seed, r.players["agent"], r.players["opponent"]) for r in read)
    assert sorted(p[1] for p in seats) == ["legal", "legal", "random", "random"]  # two matches each way
    goals: dict[str, list[float]] = {"random": [], "legal": []}
    for r in read:
        for role, spec in r.players.items():
            goals[spec].append(r.goals[role])
    means = summary["mean_goals"]
    intervals = summary["ci95"]
    assert isinstance(means, dict) and isinstance(intervals, dict)
    for spec, values in goals.items():
        mean, lo, hi = mean_ci95(values)
        assert means[spec] == pytest.approx(mean, abs=1e-3)
        assert intervals[spec] == pytest.approx([max(0, lo), min(100, hi)], abs=1e-3)


def test_a_spec_given_twice_is_pooled_and_a_seed_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(RULESHEETS / "blind_tictactoe.kif"), "--player", "random", "--player", "random",
            "--matches", "3", "--playclock", "0.2", "--seed", "11"]
    _, first, _ = _run(capsys, *args)
    _, again, _ = _run(capsys, *args)
    assert first.pop("tournament") != again.pop("tournament")
    assert first == again
    assert list(first["mean_goals"]) == ["random"]
    mean = first["mean_goals"]["random"]
    assert 0 <= mean <= 100


def test_module_class_specs_play_and_intervals_stay_within_the_goals(capsys: pytest.CaptureFixture[str]) -> None:
    # A player class from a module (here the tests' counted pimc), as a person's own player
    # would be given; pimc always switches, so its goals are 0 or 100 and the interval of 6
    # matches is wide: it is clipped to the goals' range.
    spec = COUNTED["pimc"]
    status, summary, err = _run(capsys, str(RULESHEETS / "montyhall.kif"), "--player", spec,
                                "--matches", "6", "--playclock", str(CAP), "--seed", "3")
    assert status == 0, err
    assert summary["matches"] == 6 and list(summary["mean_goals"]) == [spec]
    lo, hi = summary["ci95"][spec]
    assert 0 <= lo <= summary["mean_goals"][spec] <= hi <= 100
    # The id first (to resume it), then no progress bar: standard error is not a terminal.
    tid = summary["tournament"]
    assert err == f"ggp tournament: {tid} (if it stops: ggp tournament --resume {tid})\n"


def test_seating_rotates_and_intervals_follow_student() -> None:
    assert seating(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert seating(["a", "b", "c"], 1) == ["b", "c", "a"]
    assert seating(["a", "b"], 3) == ["b", "a"]
    values = [0.0, 100.0, 100.0, 50.0, 100.0]
    mean, lo, hi = mean_ci95(values)
    half = 2.776 * statistics.stdev(values) / 5 ** 0.5
    assert mean == 70 and lo == pytest.approx(70 - half) and hi == pytest.approx(70 + half)
    assert mean_ci95([42.0]) == (42.0, 42.0, 42.0)
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert 1.98 < t975(120) < 1.981 and 2.02 < t975(40) < 2.022  # tables: 1.980, 2.021


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "random"], "2 player roles (agent opponent) but 1 players were given"),
        (["--player", "nobody", "--player", "random"], "unknown player 'nobody'"),
        (["--player", "random", "--player", "random", "--matches", "0"], "must be positive"),
    ],
)
def test_bad_input_is_one_line_and_status_1(args: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    status, summary, err = _run(capsys, str(RULESHEETS / "exploding_bomb_tell.kif"), *args, "--seed", "1")
    assert status == 1 and not summary
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_progress_bar_is_drawn_only_on_a_terminal_and_not_when_quiet() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown, hidden, quiet = Terminal(), io.StringIO(), Terminal()
    for stream, silent in ((shown, False), (hidden, False), (quiet, True)):
        with Progress(4, "matches", stream=stream, quiet=silent, delay=0) as bar:
            for _ in range(4):
                bar.update()
    assert hidden.getvalue() == "" and quiet.getvalue() == ""
    final = shown.getvalue().split("\r")[-1]
    assert "4/4" in final and "100%" in final and "matches/s" in final  # done, rate
    assert "0/4" in shown.getvalue() and "<" in final  # the time left (ETA) is shown


def test_matches_whose_player_never_starts_are_not_played(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"  # nobody listens there
    status, summary, err = _run(capsys, str(RULESHEETS / "exploding_bomb_tell.kif"), "--player", url,
                                "--player", "random", "--matches", "2", "--startclock", "0.5", "--slack", "0",
                                "--seed", "1")
    assert status == 0, err
    assert summary["matches"] == 0 and summary["not_played"] == 2
    assert summary["mean_goals"] == {url: None, "random": None}
    assert "not played" in err and "refused" in err and "Traceback" not in err


def test_one_url_for_two_roles_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, str(RULESHEETS / "exploding_bomb_tell.kif"), "--player", "http://127.0.0.1:9",
                          "--player", "http://localhost:9", "--seed", "1")
    assert status == 1 and "is given for two roles" in err and len(err.strip().splitlines()) == 1
