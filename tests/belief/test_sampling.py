"""The guided sampler against exact information sets: its weighted estimates agree, in every
branch of the sampler, and the same particles without their weights do not."""

from __future__ import annotations

import random

import pytest

from ggp.belief import Belief, Observation, Particle, SamplerSettings, WeightedSample
from ggp.gdl.terms import Constant, Function
from ggp.reasoner import make_machine
from ggp.reasoner.machine import FluentState
from tests.belief.support import corpus_game, game_text, parse, random_history

N = 40


def _two_numbers() -> str:
    """random picks x, then y, from 1..N; the observer sees only that y > x."""
    numbers = " ".join(f"(number {i})" for i in range(1, N + 1))
    less = " ".join(f"(less {i} {j})" for i in range(1, N + 1) for j in range(i + 1, N + 1))
    return f"""
    (role observer) (role random) {numbers} {less}
    (init (phase 1))
    (<= (legal observer wait) (not (true (phase 3))))
    (<= (legal random (pick ?n)) (number ?n) (not (true (phase 3))))
    (<= (next (x ?n)) (does random (pick ?n)) (true (phase 1)))
    (<= (next (x ?n)) (true (x ?n)))
    (<= (next (y ?n)) (does random (pick ?n)) (true (phase 2)))
    (<= (next (phase 2)) (true (phase 1)))
    (<= (next (phase 3)) (true (phase 2)))
    (<= (sees observer bigger) (true (phase 2)) (does random (pick ?n)) (true (x ?m)) (less ?m ?n))
    (<= terminal (true (phase 3)))
    (goal observer 0)
    """


def _x(state: FluentState) -> float:
    return next(float(f.args[0].name) for f in state.fluents if isinstance(f, Function) and f.name == "x")


SETTINGS = {
    "default": SamplerSettings(),
    "estimating": SamplerSettings(enumerate_up_to=0, pinned_up_to=0, patience=2),
    "pinned-first": SamplerSettings(enumerate_up_to=0, pinned_up_to=3, patience=4),
    "always-resampling": SamplerSettings(resample_below=1.01),
    "never-resampling": SamplerSettings(resample_below=0.0),
}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_weighted_estimates_match_the_exact_posterior(name: str) -> None:
    """P(x = k | y > x) is proportional to N - k, so E[x] = (N + 1) / 3; the proposal picks x
    uniformly among the feasible 1..N-1, so the unweighted mean would be N / 2."""
    seen = [Observation(parse("wait")), Observation(parse("wait"), frozenset({parse("bigger")}))]
    belief = Belief(game_text(_two_numbers()), Constant("observer"), seen, cap=1000, settings=SETTINGS[name])
    exact = belief.information_set()
    assert exact is not None and len(exact.histories) == N * (N - 1) // 2
    expected = sum(p * _x(state) for state, p in exact.states.items())
    assert expected == pytest.approx((N + 1) / 3)
    sample = belief.sample(3000, random.Random(11), method="guided")
    assert abs(sample.expectation(_x) - expected) < 0.5  # about 5 standard errors
    low = sum(p for state, p in exact.states.items() if _x(state) <= 5)
    assert abs(sum(p.weight for p in sample if _x(p.state) <= 5) - low) < 0.03
    assert abs(sum(_x(p.state) for p in sample) / len(sample) - N / 2) < 1.0  # the unweighted mean


def test_guided_sampler_on_krieg_tictactoe_agrees_with_enumeration() -> None:
    game = corpus_game("kriegTTT_4x4.gdl")
    x = Constant("xplayer")
    _, seen = random_history(make_machine(game, "oracle"), x, 3, seed=2)
    belief = Belief(game, x, seen, cap=10_000)
    exact = belief.information_set()
    assert exact is not None and exact.size > 100
    sample = belief.sample(4000, random.Random(7), method="guided")
    assert sample.effective_size() > 500
    for fluent in belief.possible() - belief.certain():
        assert abs(sample.probability(fluent) - exact.probability(fluent)) < 0.06, fluent
    with_machine = Belief(game, x, seen, machine=make_machine(game, "oracle"))
    again = with_machine.sample(4000, random.Random(7), method="guided")
    assert [p.history for p in again] == [p.history for p in sample]  # same draws, states replayed


def test_a_budget_resamples_down_to_fewer_particles() -> None:
    game = corpus_game("kriegTTT_4x4.gdl")
    x = Constant("xplayer")
    _, seen = random_history(make_machine(game, "oracle"), x, 3, seed=2)
    belief = Belief(game, x, seen)
    assert len(belief.sample(50, random.Random(1), method="guided", budget=0.0)) == 1
    assert len(belief.sample(50, random.Random(1), method="guided", budget=60.0)) == 50


def test_weighted_sample_queries_and_resampling() -> None:
    a, b = FluentState({parse("(car 1)")}), FluentState({parse("(car 2)")})
    sample = WeightedSample([Particle(a, 1.0, ()), Particle(b, 3.0, ()), Particle(a, 0.0, ())])
    assert sample.weights == (0.25, 0.75, 0.0)
    assert sample.probability(parse("(car 2)")) == 0.75
    assert sample.distribution() == {a: 0.25, b: 0.75}
    assert sample.effective_size() == pytest.approx(1 / (0.25**2 + 0.75**2))
    drawn = sample.resample(1000, random.Random(1))
    assert len(drawn) == 1000 and drawn.effective_size() == pytest.approx(1000)
    assert sum(p.state == b for p in drawn) == 750  # systematic resampling is exact here
    with pytest.raises(ValueError):
        WeightedSample([Particle(a, 0.0, ())])
