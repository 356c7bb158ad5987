"""What a session knows about the state: hypotheses carried by the machine, refilled from the
belief, checked against exact information sets and against the rules."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from ggp.belief import Belief
from ggp.gdl.load import load_game
from ggp.gdl.terms import Constant, Term
from ggp.players.deadline import Deadline
from ggp.players.knowledge import Knowledge
from ggp.players.particles import Hypotheses, Hypothesis, extend
from ggp.players.tracker import Observation
from ggp.reasoner import make_machine
from ggp.reasoner.machine import State
from ggp.reasoner.play import random_joint_move
from tests.conftest import RULESHEETS, shared_path
from tests.server.support import REASONER

T = Term.parse


def knowledge(path: Path, role: str, seed: int, use_belief: bool = True) -> Knowledge:
    description = load_game(path)
    machine = make_machine(description, REASONER)
    k = Knowledge(machine, description, Constant(role), random.Random(seed), play_clock=5.0,
                  use_belief=use_belief)
    k.start()
    return k


MONTY_HALL = [
    Observation(T("noop"), frozenset()),
    Observation(T("(choose 1)"), frozenset()),
    Observation(T("noop"), frozenset({T("(opened 3)")})),
]


def test_monty_hall_hypotheses_give_the_chosen_door_one_third() -> None:
    estimates = []
    for seed in range(10):
        k = knowledge(RULESHEETS / "montyhall.kif", "candidate", seed)
        for obs in MONTY_HALL:
            k.observe(obs, Deadline.after(5))
        h = k.hypotheses()
        assert {str(f) for f in k.state.fluents} >= {"(chosen 1)", "(opened 3)"}
        estimates.append(h.expectation(lambda s: float(T("(car 1)") in s.fluents)))
        assert h.expectation(lambda s: float(T("(car 3)") in s.fluents)) == 0
    # 960 draws of a Bernoulli(1/3): standard error 0.015
    assert abs(sum(estimates) / len(estimates) - 1 / 3) < 0.05
    assert k.legal_moves() == (T("stay"), T("switch")) and k.consistent


def _holds(fluent: Term, state: State) -> float:
    return float(fluent in state.fluents)


@pytest.mark.parametrize(
    "path, role, observations",
    [
        # Monty Hall: unweighted, the chosen door would get 1/2
        (RULESHEETS / "montyhall.kif", "candidate", MONTY_HALL),
        # Blind Tic-Tac-Toe, exercise 1a: (mark 2 2) then (mark 1 3), nil then ok: 8 states
        (RULESHEETS / "blind_tictactoe.kif", "white",
         [Observation(T("(mark 2 2)"), frozenset()), Observation(T("(mark 1 3)"), frozenset({T("ok")}))]),
    ],
)
def test_the_machine_filter_alone_estimates_the_posterior(path: Path, role: str,
                                                          observations: list[Observation]) -> None:
    # No belief: only the sequential Monte Carlo step of particles.extend, against the
    # belief's exact information set.
    description = load_game(path)
    belief = Belief(description, Constant(role), [])
    for obs in observations:
        assert obs.move is not None and obs.percepts is not None
        belief.update(obs.move, obs.percepts)
    exact = belief.information_set()
    assert exact is not None and exact.size in (2, 8)
    fluents = sorted({f for s in exact.states for f in s.fluents} - exact.certain(), key=str)
    totals = dict.fromkeys(fluents, 0.0)
    runs = 30
    for seed in range(runs):
        k = knowledge(path, role, seed, use_belief=False)
        for obs in observations:
            k.observe(obs, Deadline.after(5))
        assert k.belief is None and k.consistent
        h = k.hypotheses()
        for f in fluents:
            totals[f] += h.expectation(functools.partial(_holds, f)) / runs
    worst = max(abs(totals[f] - exact.probability(f)) for f in fluents)
    assert worst < 0.05, {str(f): (round(totals[f], 3), round(exact.probability(f), 3)) for f in fluents}


def _random_match(path: Path, role: str, seed: int, steps: int) -> None:
    """Follow one role through a seeded random match; check every hypothesis against the rules."""
    description = load_game(path)
    machine = make_machine(description, REASONER)
    k = knowledge(path, role, seed)
    me = Constant(role)
    index = machine.role_index(me)
    rng = random.Random(seed)
    state = machine.initial_state()
    told: list[tuple[Term, frozenset[Term]]] = []
    while not machine.is_terminal(state) and len(told) < steps:
        joint = random_joint_move(machine, state, rng)
        seen = machine.percepts(state, joint)[me]
        state = machine.next_state(state, joint)
        told.append((joint[index], seen))
        k.observe(Observation(joint[index], seen), Deadline.after(10), live=not machine.is_terminal(state))
        assert k.belief is not None and k.consistent
        for h in k.hypotheses():
            replayed = machine.initial_state()
            assert len(h.history) == len(told)
            for (move, percepts), guessed in zip(told, h.history):
                assert not machine.is_terminal(replayed)
                assert guessed[index] == move and all(m in legal for m, legal in zip(guessed, machine.all_legal_moves(replayed)))
                assert machine.percepts(replayed, guessed)[me] == percepts
                replayed = machine.next_state(replayed, guessed)
            assert replayed.fluents == h.state.fluents
        if not machine.is_terminal(state):
            assert k.legal_moves() == k.belief.legal_everywhere() == machine.legal_moves(state, me)


@pytest.mark.parametrize("seed", range(3))
def test_krieg_hypotheses_are_consistent_histories(seed: int) -> None:
    _random_match(shared_path("corpus", "gdl2", "kriegTTT_4x4.gdl"), "oplayer", seed, 12)


def test_meier_hypotheses_are_consistent_histories() -> None:
    _random_match(shared_path("corpus", "gdl2", "kuleuven_ii_meier.gdl"), "p1", 5, 12)


def test_an_unreported_step_gives_up_the_belief_not_the_hypotheses() -> None:
    k = knowledge(RULESHEETS / "blind_tictactoe.kif", "white", 1)
    k.observe(Observation(T("(mark 2 2)"), frozenset({T("ok")})), Deadline.after(5))
    assert k.belief is not None
    k.observe(Observation(None, None), Deadline.after(5))
    assert k.belief is None and "not reported" in (k.note or "")
    assert not k.consistent  # nothing checks the unreported step any more
    assert all(len(h.history) == 2 and T("(cell 2 2 x)") in h.state.fluents for h in k.hypotheses())
    assert T("(mark 2 2)") not in k.legal_moves() and k.legal_moves()


def test_reports_no_history_explains_fall_back_on_the_tracker() -> None:
    k = knowledge(RULESHEETS / "blind_tictactoe.kif", "white", 0)
    k.observe(Observation(T("(mark 2 2)"), frozenset({Constant("nonsense")})), Deadline.after(5))
    assert k.belief is None and "no history" in (k.note or "")
    assert not k.consistent and k.tracker is not None
    assert T("(tried white 2 2)") in k.state.fluents or T("(cell 2 2 x)") in k.state.fluents
    assert k.legal_moves()


def test_told_joint_moves_give_the_true_state() -> None:
    description = load_game(RULESHEETS / "tictactoe.kif")
    machine = make_machine(description, REASONER)
    k = Knowledge(machine, description, Constant("o"), random.Random(0))
    k.start()
    joint = (T("(mark 2 2)"), Constant("noop"))
    k.observe(Observation(Constant("noop"), None, joint), Deadline.after(5))
    assert k.belief is None and k.fully_observed
    truth = machine.next_state(machine.initial_state(), joint)
    assert k.state.fluents == truth.fluents and len(k.hypotheses().distribution()) == 1
    assert k.legal_moves() == machine.legal_moves(truth, Constant("o"))


def test_extend_weights_by_the_prior_mass_of_explaining_moves() -> None:
    # Monty Hall, the host's step: with the car behind the chosen door the host had two doors
    # to open (mass 1/2 for the one seen), else one (mass 1): the weights are 1/2 and 1.
    description = load_game(RULESHEETS / "montyhall.kif")
    machine = make_machine(description, REASONER)
    state = machine.initial_state()
    population = []
    for car in (1, 2):
        s = machine.next_state(state, (T("noop"), T(f"(hide_car {car})")))
        s = machine.next_state(s, (T("(choose 1)"), T("noop")))
        population.append(Hypothesis(s, 1.0, ()))
    out = extend(machine, population, 0, T("noop"), frozenset({T("(opened 3)")}), True, random.Random(0))
    weights = {next(str(f) for f in h.state.fluents if "car" in str(f)): h.weight for h in out}
    assert weights == {"(car 1)": 0.5, "(car 2)": 1.0}
    h = Hypotheses(out)
    assert h.expectation(lambda s: float(T("(car 1)") in s.fluents)) == pytest.approx(1 / 3)
    assert len(h.resample(30, random.Random(1))) == 30 and h.effective_size() == pytest.approx(1.8)
