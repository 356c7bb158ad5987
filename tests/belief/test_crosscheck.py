"""The belief against independent references.

* Exact information sets, kept step by step with the fast reasoner, against brute force (every
  joint move of every step enumerated with the clingo oracle, filtered by the role's moves and
  percepts) and against the answer-set solver enumerating every consistent history of the
  whole match at once (from scratch).
* Particle marginals against the exact ones, where both run.
* The work of an update does not grow with the length of the match.
"""

from __future__ import annotations

import random

import pytest
from _pytest.mark.structures import ParameterSet

from ggp.belief import Belief, BeliefSettings, Observation
from ggp.gdl.rules import RANDOM, GameDescription
from ggp.gdl.terms import Constant
from ggp.reasoner import make_machine
from tests.belief.support import (
    brute_force,
    corpus_game,
    random_history,
    rulesheet,
    solver_information_set,
)
from tests.conftest import SHARED

#: Enough room to keep every state exactly in these tests.
EXACT = BeliefSettings(cap=100_000, max_work=10**7)


def _exact(game: GameDescription, role: Constant, seen: list[Observation]) -> dict[frozenset, float]:  # type: ignore[type-arg]
    belief = Belief(make_machine(game), role, rng=random.Random(0), settings=EXACT)
    for n, observation in enumerate(seen):  # as brute force: the last state may be terminal
        belief.update(observation, True if n < len(seen) - 1 else None)
    info = belief.information_set()
    assert info is not None, "the belief left the exact set"
    return {s.fluents: p for s, p in info.states.items()}


def _check(game: GameDescription, role: Constant, steps: int, seed: int) -> None:
    _, seen = random_history(make_machine(game, "oracle"), role, steps, seed)
    found = _exact(game, role, seen)
    expected, histories = brute_force(make_machine(game, "oracle"), role, seen)
    assert set(found) == set(expected)
    assert found == pytest.approx(expected)
    from_scratch, solved = solver_information_set(game, role, seen)
    assert solved == histories
    assert found == pytest.approx(from_scratch)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_krieg_tictactoe_three_steps(seed: int) -> None:
    _check(corpus_game("kriegTTT_4x4.gdl"), Constant("xplayer"), 3, seed)


@pytest.mark.parametrize("role", ["white", "black"])
def test_blind_tictactoe_four_steps(role: str) -> None:
    _check(rulesheet("blind_tictactoe.kif"), Constant(role), 4, 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("role", ["white", "black"])
def test_blind_tictactoe_whole_matches(role: str, seed: int) -> None:
    _check(rulesheet("blind_tictactoe.kif"), Constant(role), 9, seed)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("role", ["player0", "player1"])
def test_translated_kuhn_poker_whole_matches(role: str, seed: int) -> None:
    """Kuhn poker from RECYCLE: the deal, the bets, the showdown."""
    _check(rulesheet("kuhn.rcy"), Constant(role), 50, seed)


@pytest.mark.parametrize("seed", [2, pytest.param(0, marks=pytest.mark.slow), pytest.param(1, marks=pytest.mark.slow)])
def test_a_short_card_game(seed: int) -> None:
    """rulesheets/card_game.kif, the seed's six-round betting game: hidden deals, bets, reveals."""
    game = rulesheet("card_game.kif")
    role = next(r for r in game.roles if r != RANDOM)
    _check(game, role, 50, seed)


QUICK = ["guessSix", "kriegTTT_4x4", "montyhall", "transit", "unsw_BankerAndThief", "unsw_MontyHall",
         "unsw_numberguessing", "unsw_rockpaperscissors", "unsw_twogenerals"]
SLOW = ["mastermind", "unsw_blackjack", "unsw_minesweeper"]


def _cases(names: list[str], *marks: pytest.MarkDecorator) -> list[ParameterSet]:
    cases: list[ParameterSet] = []
    for name in names:
        path = SHARED / "corpus" / "gdl2" / f"{name}.gdl"
        if not path.exists():
            continue
        roles = [r for r in corpus_game(f"{name}.gdl").roles if r != RANDOM]
        cases += [pytest.param(name, role, id=f"{name}-{role}", marks=marks) for role in roles]
    return cases


@pytest.mark.parametrize("name, role", _cases(QUICK) + _cases(SLOW, pytest.mark.slow))
def test_corpus_games_two_steps(name: str, role: Constant) -> None:
    _check(corpus_game(f"{name}.gdl"), role, 2, seed=1)


@pytest.mark.parametrize("seed", [1, 2])
def test_particle_marginals_agree_with_the_exact_ones(seed: int) -> None:
    """Krieg-TicTacToe after three steps (hundreds of states): 3,000 particles carried from the
    first step give every fluent's probability within 0.04 of the exact one."""
    game = corpus_game("kriegTTT_4x4.gdl")
    x = Constant("xplayer")
    _, seen = random_history(make_machine(game), x, 3, seed)
    exact = _exact(game, x, seen)
    belief = Belief(make_machine(game), x, rng=random.Random(seed),
                    settings=BeliefSettings(particles=3000, cap=0, max_work=0))
    for n, observation in enumerate(seen):
        belief.update(observation, True if n < len(seen) - 1 else None)
    assert not belief.exact and belief.consistent
    estimated = belief.marginals().fluents
    fluents = set().union(*exact)
    for fluent in fluents:
        truth = sum(p for state, p in exact.items() if fluent in state)
        assert abs(estimated.get(fluent, 0.0) - truth) < 0.04, fluent


def test_particle_marginals_of_kuhn_cards() -> None:
    """Kuhn poker: after the deal the opponent's card is one of the two others, equally likely."""
    game = rulesheet("kuhn.rcy")
    role = Constant("player0")
    machine = make_machine(game)
    _, seen = random_history(machine, role, 50, 4)
    exact = Belief(machine, role, rng=random.Random(0), settings=EXACT)
    sampled = Belief(machine, role, rng=random.Random(1), settings=BeliefSettings(particles=2000, cap=0, max_work=0))
    for n, observation in enumerate(seen):
        live = n < len(seen) - 1
        exact.update(observation, live)
        sampled.update(observation, live)
        truth, estimate = exact.marginals().places, sampled.marginals().places
        assert set(estimate) <= set(truth)
        for key, values in truth.items():
            for value, p in values.items():
                assert abs(estimate.get(key, {}).get(value, 0.0) - p) < 0.05, (n, key, value)


def test_update_work_does_not_grow_with_the_match() -> None:
    """Translated Agram, four players, 62 steps: the percept checks an update makes at steps 40
    to 60 are no more than at steps 10 to 30 (counted, not timed), though every card laid
    reveals something the particles guessed."""
    game = rulesheet("agram.rcy")
    role = Constant("player0")
    machine = make_machine(game)
    _, seen = random_history(machine, role, 200, 5)
    belief = Belief(machine, role, rng=random.Random(5), settings=BeliefSettings(particles=16, solver=False))
    checks = [belief.update(observation, n < len(seen) - 1).checks for n, observation in enumerate(seen)]
    assert len(seen) == 62
    early, late = checks[10:31], checks[40:61]
    assert sum(late) <= sum(early), (early, late)
    assert max(checks[10:]) <= 16 * 8
