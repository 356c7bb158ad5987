"""``rulesheets/leduc.rcy`` (Leduc hold'em written in RECYCLE for this project) through the bridge
against OpenSpiel's own ``leduc_poker``: the same tree, information states, returns in chips,
value and exploitability of the uniform policy, and CFR+ curves."""

from __future__ import annotations

from typing import Any

import pytest

from tests.spiel.support import bridged, pyspiel, tree_figures, uniform_figures

from ggp.reasoner.verify import cross_check  # noqa: E402



@pytest.fixture(scope="module")
def games() -> tuple[Any, Any]:
    return bridged("leduc.rcy"), pyspiel.load_game("leduc_poker")


def test_same_tree(games: tuple[Any, Any]) -> None:
    ours, native = games
    mine, theirs = tree_figures(ours), tree_figures(native)
    assert mine == theirs
    assert mine["histories"] == 9457 and mine["information_states"] == [468, 468]
    assert ours.summary.complete and ours.summary.nodes == 9457
    assert ours.max_game_length() == native.max_game_length() == 8
    assert (ours.min_utility(), ours.max_utility()) == (-13, 13)
    assert ours.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and ours.units == "score"


def test_uniform_policy(games: tuple[Any, Any]) -> None:
    (ours, ours_expl), (native, native_expl) = (uniform_figures(game) for game in games)
    assert ours == pytest.approx(native, abs=1e-12)
    assert ours_expl == pytest.approx(native_expl, abs=1e-12)
    assert ours_expl == pytest.approx(2.3736, abs=0.001)


@pytest.mark.slow
def test_cfr_plus_curves_agree(games: tuple[Any, Any]) -> None:
    curves = []
    for game in games:
        solver = pyspiel.CFRPlusSolver(game)
        curve = []
        for i in range(1, 51):
            solver.evaluate_and_update_policy()
            if i in (1, 5, 20, 50):
                curve.append(pyspiel.exploitability(game, solver.average_policy()))
        curves.append(curve)
    ours, native = curves
    assert ours == pytest.approx(native, rel=1e-6, abs=1e-9)
    assert ours[-1] < 0.1


def test_the_reasoner_it_runs_on_agrees_with_the_oracle(games: tuple[Any, Any]) -> None:
    """The score-returning rules the bridge runs, fast reasoner against clingo oracle."""
    report = cross_check(games[0].rules, 3, seed=1)
    assert report.ok, report.disagreement
    assert report.playouts == 3
