"""Weighted particles against exact information sets: the solver-guided sampler (in every
branch) and the particle filter drawing explanations from the prior give the exact posterior
with their weights, and not without them."""

from __future__ import annotations

import random

import pytest

from ggp.belief import Belief, BeliefSettings, Observation, Particle, Particles, Prior, ProposalSettings, SamplerSettings
from ggp.belief.solver import SolverBackend
from ggp.deadline import Deadline
from ggp.gdl.terms import Constant, Function
from ggp.reasoner import make_machine
from ggp.reasoner.machine import FluentState, State
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


def _x(state: State) -> float:
    return next(float(f.args[0].name) for f in state.fluents if isinstance(f, Function) and f.name == "x")


SETTINGS = {
    "default": SamplerSettings(),
    "estimating": SamplerSettings(enumerate_up_to=0, pinned_up_to=0, patience=2),
    "pinned-first": SamplerSettings(enumerate_up_to=0, pinned_up_to=3, patience=4),
    "always-resampling": SamplerSettings(resample_below=1.01),
    "never-resampling": SamplerSettings(resample_below=0.0),
}
OBSERVER = Constant("observer")
SEEN = [Observation(parse("wait")), Observation(parse("wait"), frozenset({parse("bigger")}))]


def _exact_mean() -> float:
    game = game_text(_two_numbers())
    belief = Belief(make_machine(game), OBSERVER, settings=BeliefSettings(cap=10_000, max_work=10**6))
    for observation in SEEN:
        belief.update(observation, live=False if observation is SEEN[-1] else True)
    exact = belief.information_set()
    assert exact is not None and exact.size == N * (N - 1) // 2
    return sum(p * _x(state) for state, p in exact.states.items())


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_solver_histories_match_the_exact_posterior(name: str) -> None:
    """P(x = k | y > x) is proportional to N - k, so E[x] = (N + 1) / 3; the proposal picks x
    uniformly among the feasible 1..N-1, so the unweighted mean would be N / 2."""
    expected = _exact_mean()
    assert expected == pytest.approx((N + 1) / 3)
    game = game_text(_two_numbers())
    backend = SolverBackend(game, OBSERVER, make_machine(game), Prior(), SETTINGS[name])
    drawn = backend.sample(SEEN, 3000, random.Random(11), Deadline.after(600))
    sample = Particles(drawn)
    assert abs(sample.expectation(_x) - expected) < 0.5  # about 5 standard errors
    assert abs(sum(_x(p.state) for p in sample) / len(sample) - N / 2) < 1.0  # the unweighted mean
    assert all(p.history[0][0] == parse("wait") for p in sample)


def test_particles_drawing_from_the_prior_match_the_exact_posterior() -> None:
    """The same, with the particle filter: y is drawn from the prior until two draws explain
    'bigger' (the weight 1/(N-1) after N draws estimates the explaining mass without bias)."""
    expected = _exact_mean()
    game = game_text(_two_numbers())
    settings = BeliefSettings(particles=3000, cap=0, max_work=0, proposal=ProposalSettings(enumerate_up_to=0))
    belief = Belief(make_machine(game), OBSERVER, rng=random.Random(4), settings=settings)
    belief.update(SEEN[0])
    belief.update(SEEN[1], live=False)
    assert abs(belief.particles().expectation(_x) - expected) < 0.5


def test_solver_backend_on_krieg_tictactoe_agrees_with_the_exact_set() -> None:
    game = corpus_game("kriegTTT_4x4.gdl")
    x = Constant("xplayer")
    _, seen = random_history(make_machine(game, "oracle"), x, 3, seed=2)
    belief = Belief(make_machine(game), x, settings=BeliefSettings(cap=10_000, max_work=10**6))
    for n, observation in enumerate(seen):
        belief.update(observation, True if n < len(seen) - 1 else None)
    exact = belief.information_set()
    assert exact is not None and exact.size > 100
    backend = SolverBackend(game, x, make_machine(game), Prior())
    sample = Particles(backend.sample(seen, 4000, random.Random(7), Deadline.after(600)))
    assert sample.effective_size() > 500
    for fluent in belief.possible() - belief.certain():
        assert abs(sample.probability(fluent) - exact.probability(fluent)) < 0.06, fluent
    again = Particles(SolverBackend(game, x, make_machine(game, "oracle"), Prior()).sample(seen, 4000, random.Random(7),
                                                                                          Deadline.after(600)))
    assert [p.history for p in again] == [p.history for p in sample]  # same draws with another machine


def test_the_solver_keeps_to_its_deadline() -> None:
    """No time at all: nothing grounded, no history; time: the histories asked for; a solver
    call cut off at its deadline gives nothing and leaves the solver usable."""
    game = corpus_game("kriegTTT_4x4.gdl")
    x = Constant("xplayer")
    _, seen = random_history(make_machine(game, "oracle"), x, 3, seed=2)
    backend = SolverBackend(game, x, make_machine(game), Prior())
    assert backend.sample(seen, 50, random.Random(1), Deadline.after(0.0)) == []
    assert backend.horizon == 0 and backend.usable
    assert len(backend.sample(seen, 50, random.Random(1), Deadline.after(60.0))) == 50
    assert backend.usable and backend.horizon == len(seen)
    assert backend.sample(seen, 5000, random.Random(1), Deadline.after(0.01)) == []
    assert backend.usable and len(backend.sample(seen, 5, random.Random(1), Deadline.after(60.0))) == 5


def test_unreported_steps_keep_the_solver_out() -> None:
    game = corpus_game("kriegTTT_4x4.gdl")
    backend = SolverBackend(game, Constant("xplayer"), make_machine(game), Prior())
    assert backend.sample([Observation(None, None)], 5, random.Random(1), Deadline.after(60)) == []
    assert not backend.usable and "not reported" in backend.why_not


def test_particles_queries_and_resampling() -> None:
    a, b = FluentState({parse("(car 1)")}), FluentState({parse("(car 2)")})
    sample = Particles([Particle(a, 1.0), Particle(b, 3.0), Particle(a, 0.0)])
    assert sample.weights == (0.25, 0.75, 0.0)
    assert sample.probability(parse("(car 2)")) == 0.75
    assert sample.distribution() == {a: 0.25, b: 0.75}
    assert sample.effective_size() == pytest.approx(1 / (0.25**2 + 0.75**2))
    drawn = sample.resample(1000, random.Random(1))
    assert len(drawn) == 1000 and drawn.effective_size() == pytest.approx(1000)
    assert sum(p.state == b for p in drawn) == 750  # systematic resampling is exact here
    with pytest.raises(ValueError):
        Particles([Particle(a, 0.0)])
    chained = Particle(a, 1.0).then((parse("noop"),), b).then((parse("wait"),), a, 0.5)
    assert chained.history == ((parse("noop"),), (parse("wait"),)) and chained.weight == 0.5
