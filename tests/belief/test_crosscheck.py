"""Exact information sets from the temporal encoding against brute force: every joint move of
every step enumerated with the clingo oracle, filtered by the role's moves and percepts."""

from __future__ import annotations

import pytest
from _pytest.mark.structures import ParameterSet

from ggp.belief import Belief
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant
from ggp.reasoner import make_machine
from tests.belief.support import brute_force, corpus_game, random_history
from tests.conftest import SHARED


def _check(game_file: str, role: Constant, steps: int, seed: int) -> None:
    game = corpus_game(game_file)
    machine = make_machine(game, "oracle")
    _, seen = random_history(machine, role, steps, seed)
    expected, histories = brute_force(machine, role, seen)
    exact = Belief(game, role, seen, cap=100_000).information_set()
    assert exact is not None
    assert {s.fluents for s in exact.states} == set(expected)
    assert len(exact.histories) == histories
    for state, p in exact.states.items():
        assert p == pytest.approx(expected[state.fluents])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_krieg_tictactoe_three_steps(seed: int) -> None:
    _check("kriegTTT_4x4.gdl", Constant("xplayer"), 3, seed)


QUICK = ["guessSix", "kriegTTT_4x4", "montyhall", "transit", "unsw_BankerAndThief", "unsw_MontyHall",
         "unsw_numberguessing", "unsw_rockpaperscissors", "unsw_twogenerals"]
SLOW = ["mastermind", "small_dominion", "unsw_blackjack", "unsw_minesweeper"]


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
    _check(f"{name}.gdl", role, 2, seed=1)
