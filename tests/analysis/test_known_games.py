"""The metrics on games written for the tests, whose answers are known: a game whose first seat
always wins (the worst fairness), a coin flip (the best fairness, no order, choices that never
matter) and a game where skill always wins (the most order). The matches are played through the
tournament machinery (players in processes of their own, stored in a match database), the
strong player with a fixed number of rounds per move, every seed fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp.analysis.compute import all_metrics
from ggp.analysis.metric import Dataset, Metric
from tests.analysis.support import MAIN_GAMES, ORDER_GAMES, analysed, metric


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("known")


def measured(name: str, folder: Path) -> tuple[Dataset, list[Metric]]:
    data = analysed(name, folder / name)
    return data, all_metrics(data)


def test_every_match_is_played_and_traced(folder: Path) -> None:
    for name in ("first_wins", "coin_flip", "skill"):
        data, _ = measured(name, folder)
        assert len(data.finished) == MAIN_GAMES
        assert len([t for t in data.order if t.finished]) == ORDER_GAMES
        # the strong player sat in each seat as often (rotated by the tournament machinery)
        seats = [t.players.index(data.strong or "") for t in data.order]
        assert seats == [0, 1] * (ORDER_GAMES // 2)


def test_a_game_the_first_seat_always_wins_is_as_unfair_as_can_be(folder: Path) -> None:
    data, metrics = measured("first_wins", folder)
    fairness = metric(metrics, "fairness").estimate
    assert fairness.value == 0.0 and fairness.low == 0.0
    assert fairness.high is not None and fairness.high < 0.2  # 40 of 40 won by the first seat: Wilson's bound
    seats = metric(metrics, "win_rate_by_seat")
    assert [e.value for e in seats.by_seat] == [1.0, 0.0]
    assert seats.estimate.value == 1.0
    # the strong player wins exactly when it sits first: no order
    assert metric(metrics, "order").estimate.value == 0.0
    # the picks change nothing, and the winner is certain from the start
    assert metric(metrics, "meaningful_moves").estimate.value == 0.0
    assert metric(metrics, "drama").estimate.value == 0.0
    assert metric(metrics, "decisiveness").estimate.value == 0.0
    assert metric(metrics, "score_convergence").estimate.value == 0.0
    assert metric(metrics, "lead_security").estimate.value == 1.0


def test_a_coin_flip_is_fair_and_has_no_order(folder: Path) -> None:
    data, metrics = measured("coin_flip", folder)
    assert metric(metrics, "fairness").estimate.contains(1.0)
    assert metric(metrics, "order").estimate.contains(0.0)
    for seat in metric(metrics, "win_rate_by_seat").by_seat:
        assert seat.contains(0.5)
    # options compared on the same coins: equal values, so choices never matter
    for name in ("meaningful_moves", "variance", "clarity"):
        assert metric(metrics, name).estimate.value == 0.0, name


def test_a_game_of_skill_has_the_most_order(folder: Path) -> None:
    orders = {name: metric(measured(name, folder)[1], "order").estimate for name in ("first_wins", "coin_flip", "skill")}
    skill = orders["skill"]
    assert skill.value is not None and skill.value > 0.9
    assert skill.low is not None and skill.low > max(e.high or 0 for n, e in orders.items() if n != "skill")
    _, metrics = measured("skill", folder)
    # the good number is worth a point: choices matter, and the best one stands out
    assert (metric(metrics, "meaningful_moves").estimate.value or 0) > 0.2
    assert (metric(metrics, "clarity").estimate.value or 0) > 0.2


def test_tag_metrics_of_the_known_games(folder: Path) -> None:
    data, metrics = measured("skill", folder)
    assert metric(metrics, "game_length").estimate.value == 6.0
    assert [e.value for e in metric(metrics, "decisions_per_player").by_seat] == [3.0, 3.0]
    assert metric(metrics, "action_space").estimate.value == 4.0
    assert metric(metrics, "branching_factor").estimate.value == 2.0  # the good number, or one of three alike
    assert metric(metrics, "state_size").estimate.value == 3.0
    assert metric(metrics, "state_size_growth").estimate.value == 0.0
    diversity = metric(metrics, "action_diversity").estimate.value
    assert diversity is not None and diversity > 0.95  # random players pick the four numbers alike
    sparsity = metric(metrics, "reward_sparsity")
    assert dict(sparsity.parts)["lowest goal"].value == 0 and dict(sparsity.parts)["highest goal"].value == 100
    _, flips = measured("coin_flip", folder)
    assert metric(flips, "game_length").estimate.value == 7.0  # the coin is a step of its own
    assert metric(flips, "state_size_growth").estimate.value == pytest.approx(1 / 7)  # the winner's fluent
    assert not data.has_cards and not any(m.family == "cards" for m in metrics)


def test_a_game_with_one_seat_measures_order_against_random_alone(folder: Path) -> None:
    from tests.analysis.support import plan_for
    from ggp.analysis.run import run_analysis
    from tests.conftest import RULESHEETS

    out = folder / "montyhall"
    plan = plan_for(RULESHEETS / "montyhall.kif", games=20, order_games=20, rollouts=4, db=out / "m.sqlite3")
    outcome = run_analysis(plan, out)
    assert outcome.dataset is not None and outcome.problems == []
    metrics = all_metrics(outcome.dataset)
    fairness = metric(metrics, "fairness")
    assert fairness.estimate.value is None and "one seat" in fairness.note
    order = metric(metrics, "order")
    strong, base = (dict(order.parts)[k] for k in ("tests.analysis.support:QuickPimc's win rate", "random's win rate"))
    assert strong.n == base.n == 10  # the strong player and random alone, alternately
    # the counted pimc always switches doors: it wins 2/3 of the time, random 1/2
    assert strong.contains(2 / 3) and base.contains(1 / 2)
    assert order.estimate.value is not None and order.estimate.contains((2 / 3 - 1 / 2) / (1 - 1 / 2))
