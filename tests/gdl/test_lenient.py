"""Real-world GDL-II leniency: deliberately odd files that the Dresden GameController plays load
here with a located warning for each odd construct, and play (``tests/gdl/odd/``; the same files
are checked against the GameController's own prover in ``tests/interop/test_prover.py``)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from ggp.errors import GGPError
from ggp.gdl.load import load_game, validate_file
from ggp.gdl.terms import Term
from ggp.reasoner import make_machine, oracle
from ggp.reasoner.play import random_playout
from tests.conftest import ggp
from tests.gdl.test_validate import assert_problems, expectations

ODD = Path(__file__).parent / "odd"
ODD_FILES = sorted(ODD.glob("*.kif"))
BAD = Path(__file__).parent / "bad"


def test_odd_files_exist() -> None:
    assert {p.name for p in ODD_FILES} >= {"negative_goals.kif", "stray_true.kif", "bounded_recursion.kif", "messy.kif",
                                          "colliding_goals.kif"}


@pytest.mark.parametrize("path", ODD_FILES, ids=lambda p: p.name)
def test_odd_file_warns_and_plays(path: Path) -> None:
    """Exactly the expected warnings (no error), and seeded random playouts end with goals."""
    expected = expectations(path)
    assert not any(error for _, _, error, _ in expected)
    assert_problems(validate_file(path), expected)
    machine = make_machine(load_game(path), "oracle")
    for seed in range(5):
        playout = random_playout(machine, random.Random(seed), max_steps=100)
        assert playout.finished and set(playout.goals) >= {r for r in machine.roles if str(r) != "random"}


def test_negative_goals_play_under_every_command(env: dict[str, str]) -> None:
    """Goals below 0 are numbers: ggp playout, ggp verify and ggp match play such a game."""
    path = str(ODD / "negative_goals.kif")
    done = ggp(env, "playout", path, "--count", "30", "--seed", "1")
    assert done.returncode == 0, done.stderr
    goals = json.loads(done.stdout)["mean_goals"]
    assert goals["bluffer"] < 0 < goals["caller"] and goals["bluffer"] == -goals["caller"]
    done = ggp(env, "verify", path, "--count", "5")
    assert done.returncode == 0, done.stderr
    assert "warning: goal value -10" in done.stderr
    done = ggp(env, "match", path, "--player", "random", "--player", "legal", "--seed", "3", "--playclock", "1")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["errors"] == [] and set(result["goals"].values()) <= {-20, -10, 10, 20}


def test_unbounded_recursion_stops_with_a_located_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A recursion that builds ever larger terms and never stops: it loads (GDL's restriction is
    a warning), and grounding stops at the budget (a second here) with an error naming the recursion."""
    monkeypatch.setattr(oracle, "STATE_GROUNDING_SECONDS", 1.0)
    description = load_game(BAD / "recursion_builds_terms.kif")
    with pytest.raises(GGPError, match=r"recursion at .*recursion_builds_terms.kif:9:1 builds ever larger terms"):
        make_machine(description, "oracle").initial_state()


@pytest.mark.parametrize("reasoner", ["compiled", "fast", "oracle"])
def test_several_goal_values_the_first_rule_counts(reasoner: str, caplog: pytest.LogCaptureFixture) -> None:
    """When both shoot, each role has the goal values 50, 100 and 0: the first rule's (50)
    counts, as in the GameController, with a warning naming the rule; otherwise one value."""
    machine = make_machine(load_game(ODD / "colliding_goals.kif"), reasoner)
    a, b = machine.roles
    start = machine.initial_state()
    outcomes = {}
    for moves in itertools.product(("shoot", "wait"), repeat=2):
        joint = tuple(Term.parse(m) for m in moves)
        outcomes[moves] = machine.goals(machine.next_state(start, joint))
    assert outcomes == {("shoot", "shoot"): {a: 50, b: 50}, ("shoot", "wait"): {a: 100, b: 0},
                        ("wait", "shoot"): {a: 0, b: 100}, ("wait", "wait"): {a: 50, b: 50}}
    assert any("several goal values [0, 50, 100]" in r.getMessage() and "colliding_goals.kif:15:1" in r.getMessage()
               for r in caplog.records)


def test_several_goal_values_in_native_playouts_read_alike() -> None:
    """The compiled reasoner's playouts in one native call meet ends with several goal values:
    it plays them again one by one with the same draws, and sums what the fast reasoner sums."""
    description = load_game(ODD / "colliding_goals.kif")
    totals = [make_machine(description, kind).playout_totals(make_machine(description, kind).initial_state(),
                                                              random.Random(5), 60, 20)
              for kind in ("compiled", "fast")]
    assert totals[0] == totals[1]
    assert totals[0].goal_counts and all(count == 60 for count in totals[0].goal_counts.values())
