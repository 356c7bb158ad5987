"""``ggp belief``: what a role knows after each step, as a table or one JSON object per step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ggp.cli import main
from tests.conftest import RULESHEETS, env, ggp, shared_path  # noqa: F401 - env is a fixture


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["belief", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_monty_hall_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(shared_path("corpus", "gdl2", "montyhall.gdl")), "--role", "candidate",
                           "--seed", "3", "--json", "--samples", "50")
    assert status == 0, err
    steps = [json.loads(line) for line in out.splitlines()]
    assert [s["step"] for s in steps] == [1, 2, 3]
    first, second = steps[0], steps[1]
    for record in steps:
        assert {"step", "update_seconds", "sample_seconds", "states", "certain", "cards"} <= set(record)
        assert record["states_exact"] and record["mode"] == "exact" and record["consistent"]
    assert first["states"] == 3 and sorted(first["cards"].values()) == pytest.approx([1 / 3] * 3, abs=1e-3)
    # the host opened a door: two states left, the other closed door twice as likely
    assert second["states"] == 2 and sorted(second["cards"].values()) == pytest.approx([1 / 3, 2 / 3], abs=1e-3)
    assert "(step 3)" in second["certain"]


def test_agram_cards_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(RULESHEETS / "agram.rcy"), "--role", "player0", "--steps", "14",
                           "--json", "--samples", "100")
    assert status == 0, err
    steps = [json.loads(line) for line in out.splitlines()]
    assert len(steps) == 14
    last = steps[-1]
    assert not last["states_exact"] and last["states"] > 1e6  # six cards of player1 and one of player2 dealt unseen
    own = [f for f in last["certain"] if f.endswith("(loc player0 iloc hand))")]
    assert len(own) == 6  # the role knows its own six cards
    cards = last["cards"]
    assert cards and all(abs(sum(places.values()) - 1) < 1e-3 for places in cards.values())
    owned = {f.split()[1] for f in own}
    assert not owned & set(cards)  # its own cards are not hidden
    assert all(set(places) <= {"(loc game iloc stock)", "(loc player1 iloc hand)", "(loc player2 iloc hand)"}
               for places in cards.values())
    assert max(s["update_seconds"] for s in steps) < 5  # a sanity bound, not a benchmark


def test_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(RULESHEETS / "exploding_bomb.kif"), "--role", "agent", "--seed", "1")
    assert status == 0, err
    assert out.startswith("step 1: played ")
    assert "states: 2   exact" in out and "certain (" in out


@pytest.mark.parametrize("args, message", [
    (["--role", "nobody"], "has no role 'nobody' (its roles: candidate random)"),
    (["--role", "candidate", "--steps", "0"], "--steps must be positive"),
])
def test_bad_arguments_exit_two(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    status, out, err = run(capsys, str(shared_path("corpus", "gdl2", "montyhall.gdl")), *args)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_bad_file_exits_two(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.kif"
    broken.write_text("(role a) (<= (legal a x)")
    status, _, err = run(capsys, str(broken), "--role", "a")
    assert status == 2 and str(broken) in err and len(err.strip().splitlines()) == 1
    status, _, err = run(capsys, str(tmp_path / "absent.kif"), "--role", "a")
    assert status == 2 and "absent.kif" in err


def test_the_console_script(env: dict[str, str]) -> None:  # noqa: F811 - the fixture
    result = ggp(env, "belief", str(RULESHEETS / "montyhall.kif"), "--role", "candidate", "--json")
    assert result.returncode == 0, result.stderr
    last = json.loads(result.stdout.splitlines()[-1])
    assert last["states_exact"] and last["mode"] == "exact" and last["states"] in (1, 2)
