"""Each metric on traces built by hand, whose values are worked out in the comments; the
intervals, outcomes and the traces file."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from ggp.analysis import cardstock, tag
from ggp.analysis.metric import Dataset
from ggp.analysis.outcome import standings, win_shares, winners
from ggp.analysis.plan import PlanError, TraceWriter, read_traces
from ggp.analysis.stats import bootstrap_estimate, mean_estimate, proportion_estimate, ratio, ratio_estimate
from ggp.analysis.trace import MatchTrace, Turn


def turn(step: int, seat: int, values: tuple[float, ...] = (), standing: tuple[float, ...] = (), *, options: int = 2,
         chosen: int = 0, played: str = "a", branching: int = 2) -> Turn:
    return Turn(step, seat, options, chosen, played, branching, values, standing)


def match(turns: list[Turn], goals: tuple[float, ...] | None, steps: int = 6, sizes: tuple[int, ...] = (),
          players: tuple[str, str] = ("random", "random"), match_id: str = "m") -> MatchTrace:
    return MatchTrace(match_id, "main", ("a", "b"), players, "finished" if goals else "aborted", goals, steps,
                      sizes or tuple([3] * (steps + 1)), tuple(turns), None, 4)


def data(*traces: MatchTrace, order: tuple[MatchTrace, ...] = ()) -> Dataset:
    return Dataset("game", ("a", "b"), traces, order, "pimc" if order else None)


def test_standings_share_the_ranks_of_ties() -> None:
    assert standings([100, 0]) == [1.0, 0.0]
    assert standings([50, 50]) == [0.5, 0.5]
    assert standings([100, 50, 50, 0]) == [1.0, 0.5, 0.5, 0.0]
    assert standings([70]) == [0.7]
    assert win_shares([100, 100, 0]) == [0.5, 0.5, 0.0]
    assert winners([50, 50]) == [] and winners([0, 100]) == [1] and winners([100]) == [0] and winners([40]) == []


def test_wilson_interval_is_not_empty_at_the_extremes() -> None:
    e = proportion_estimate(40, 40)
    assert e.value == 1.0 and e.high == 1.0
    assert e.low is not None and 0.9 < e.low < 0.92  # 1 / (1 + z^2 / n) = 0.9124
    assert proportion_estimate(0, 40).high == pytest.approx(1 - 0.91237, abs=1e-4)


def test_mean_ratio_and_bootstrap_intervals() -> None:
    e = mean_estimate([1.0, 2.0, 3.0])
    assert e.value == 2.0 and e.low == pytest.approx(2 - 4.303 / math.sqrt(3))
    assert ratio([(1, 2), (3, 2)]) == 1.0
    flat = ratio_estimate([(2, 2), (4, 4)])  # every match's ratio is 1: no spread
    assert (flat.value, flat.low, flat.high, flat.n) == (1.0, 1.0, 1.0, 2)
    spread = ratio_estimate([(1, 2), (3, 2), (2, 2)])  # 6 / 6; residuals -1, 1, 0
    assert spread.value == 1.0 and spread.high == pytest.approx(1 + 1.959964 * math.sqrt(2 / 2 / 3) / 2)
    a = bootstrap_estimate([1.0, 2.0, 3.0, 4.0], lambda s: sum(s) / len(s), random.Random(1))
    b = bootstrap_estimate([1.0, 2.0, 3.0, 4.0], lambda s: sum(s) / len(s), random.Random(1))
    assert a == b and a.value == 2.5 and a.low is not None and a.high is not None and 1 <= a.low < 2.5 < a.high <= 4


def test_fairness_follows_cardstock() -> None:
    assert cardstock.fairness_of(0.5, 2) == 1.0
    assert cardstock.fairness_of(1.0, 2) == 0.0
    assert cardstock.fairness_of(0.0, 4) == 0.0
    assert cardstock.fairness_of(0.25, 4) == 1.0
    assert cardstock.fairness_of(0.625, 4) == pytest.approx(0.5)  # (1 - 0.625) / (1 - 0.25)
    # three of four matches won by the first seat: 0.75, fairness 0.5
    four = [match([], (100, 0)), match([], (100, 0)), match([], (100, 0)), match([], (0, 100))]
    f = cardstock.fairness(data(*four)).estimate
    assert f.value == 0.5 and f.high == 1.0  # Wilson's interval of 3/4 holds 1/2


def test_lead_heuristics_on_one_match() -> None:
    # seat 0 wins; its standings after its decisions: 0.3, 0.6, 0.9; seat 1's: 0.7, 0.4, 0.1
    turns = [turn(0, 0, (0.3, 0.1), (0.3, 0.7)), turn(1, 1, (0.7, 0.6), (0.4, 0.7)),
             turn(2, 0, (0.6, 0.6), (0.6, 0.4)), turn(3, 1, (0.4, 0.2), (0.6, 0.4)),
             turn(4, 0, (0.9, 0.2), (0.9, 0.1)), turn(5, 1, (0.1, 0.1), (0.9, 0.1))]
    d = data(match(turns, (100, 0)))
    # drama: one winner decision below 0.5 (0.3): sqrt(0.2)
    assert cardstock.drama(d).estimate.value == pytest.approx(math.sqrt(0.2))
    # decisiveness: first above 0.8 at its third decision (index 2): 1 - (3 - 2) / 3
    assert cardstock.decisiveness(d).estimate.value == pytest.approx(2 / 3)
    # coolness: seat 0 rises twice; seat 1's 0.7, 0.4, 0.1 falls twice: 2 of 4
    assert cardstock.coolness(d).estimate.value == pytest.approx(0.5)
    # meaningful moves: spreads 0.2, 0.1, 0, 0.2, 0.7, 0: mean 1.2 / 6; variance: the largest, 0.7
    assert cardstock.meaningful_moves(d).estimate.value == pytest.approx(0.2)
    assert cardstock.variance(d).estimate.value == pytest.approx(0.7)
    # clarity: best minus mean >= 0.3 only at step 4 (0.9 against 0.55): 1 of 6
    assert cardstock.clarity(d).estimate.value == pytest.approx(1 / 6)
    # ranking by standing: b a, b a, a b, a b, a b, a b: one of 5 pairs changes both its positions
    assert cardstock.stability(d).estimate.value == pytest.approx(8 / 10)
    # the leader keeps the lead in 4 of 5 pairs; the winner leads from the third point on
    assert tag.lead_security(d).estimate.value == pytest.approx(4 / 5)
    assert tag.score_convergence(d).estimate.value == pytest.approx(2 / 6)


def test_metrics_without_rollouts_say_why() -> None:
    trace = MatchTrace("m", "main", ("a", "b"), ("random", "random"), "finished", (100.0, 0.0), 2, (1, 1, 1),
                       (turn(0, 0), turn(1, 1)), None, 0)
    d = Dataset("game", ("a", "b"), (trace,))
    for m in (cardstock.drama(d), cardstock.meaningful_moves(d), tag.lead_security(d)):
        assert m.estimate.value is None and "--rollouts 0" in m.note
    assert tag.game_length(d).estimate.value == 2.0


def test_order_scales_the_strong_players_win_rate() -> None:
    # pimc wins 3 of 4 two-seat matches (in either seat): w = 0.75, order (0.75 - 0.5) / 0.5
    order = [match([], (100, 0), players=("pimc", "random")), match([], (0, 100), players=("random", "pimc")),
             match([], (100, 0), players=("pimc", "random")), match([], (100, 0), players=("random", "pimc"))]
    m = cardstock.order(data(match([], (100, 0)), order=tuple(order)))
    assert m.estimate.value == pytest.approx(0.5)
    assert dict(m.parts)["pimc's win rate"].value == 0.75


def test_win_rate_by_seat_and_diversity() -> None:
    d = data(match([turn(0, 0, played="x"), turn(1, 1, played="y")], (100, 0)),
             match([turn(0, 0, played="x"), turn(1, 1, played="x")], (50, 50)))
    m = tag.win_rate_by_seat(d)
    assert [e.value for e in m.by_seat] == [0.75, 0.25] and m.estimate.value == 0.5
    # moves x, y, x, x: entropy of (3/4, 1/4) over log 2
    expected = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25)) / math.log(2)
    assert tag.action_diversity(d).estimate.value == pytest.approx(expected)


def test_traces_round_trip_and_a_line_cut_short_is_ignored(tmp_path: Path) -> None:
    t = match([turn(0, 0, (0.25, 0.5), (0.25, 0.75))], (100, 0), match_id="m1")
    writer = TraceWriter(tmp_path)
    writer.write(t)
    writer.close()
    assert read_traces(tmp_path) == {("main", "m1"): t}
    with (tmp_path / "traces.jsonl").open("a") as f:
        f.write('{"match_id": "m2", "exp')  # killed while writing
    assert read_traces(tmp_path) == {("main", "m1"): t}
    writer = TraceWriter(tmp_path)  # goes on after the cut line
    writer.write(match([], (0, 100), match_id="m3"))
    writer.close()
    lines = (tmp_path / "traces.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["match_id"] == "m3"
    with pytest.raises(PlanError, match=r"traces.jsonl:2: "):
        read_traces(tmp_path)  # now the bad line is in the middle: an error naming it
