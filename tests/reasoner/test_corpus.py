"""The fast reasoner agrees with the clingo oracle on seeded random playouts of every corpus game.

Quick games get the full 200 playouts in the default run; the others get a few playouts there
and the full 200 in a test marked slow (``pytest -m slow``). Two games ground to more than the
fast reasoner's budget; ``make_machine`` falls back to the oracle for them.
"""

from __future__ import annotations

import random

import pytest

from ggp.gdl.load import load_game
from ggp.reasoner import make_machine
from ggp.reasoner.domains import GroundingTooLarge
from ggp.reasoner.fast import FastMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import random_playout
from ggp.reasoner.verify import cross_check
from tests.conftest import shared_path

QUICK = [
    "gdl/ggporg_maze.kif", "gdl/ggporg_nim1.kif", "gdl/ggporg_roshambo2.kif", "gdl/ggporg_ticTacToe.kif",
    "gdl2/guessSix.gdl", "gdl2/kuleuven_ii_meier.gdl", "gdl2/montyhall.gdl",
    "gdl2/unsw_BankerAndThief.gdl", "gdl2/unsw_MontyHall.gdl", "gdl2/unsw_rockpaperscissors.gdl",
]
SLOW = [
    "gdl/breakthrough_7x7.gdl", "gdl/ggporg_biddingTicTacToe.kif", "gdl/ggporg_breakthrough.kif",
    "gdl/ggporg_breakthroughSmall.kif", "gdl/ggporg_chinook.kif", "gdl/ggporg_connectFour.kif",
    "gdl2/blind_breakthrough_5x5.gdl", "gdl2/kriegTTT_4x4.gdl", "gdl2/mastermind.gdl", "gdl2/transit.gdl",
    "gdl2/unsw_minesweeper.gdl", "gdl2/unsw_numberguessing.gdl",
]
# Building these networks (kalaha: 637,000 ground rules) or asking the oracle (BattleshipsFog)
# takes tens of seconds, or their playouts are long (oneCardGame): only the slow run checks them.
SLOWEST = ["gdl/ggporg_kalaha_2009.kif", "gdl2/unsw_BattleshipsFog.gdl", "gdl2/unsw_blackjack.gdl",
           "gdl2/oneCardGame.gdl"]
# Relaxed reachability of these is unbounded or enormous (nested acks; a 90-step counter with
# cubic deal moves): the fast reasoner gives up and the oracle plays them.
TOO_LARGE = ["gdl2/small_dominion.gdl", "gdl2/unsw_twogenerals.gdl"]


def _check(name: str, count: int) -> None:
    description = load_game(shared_path("corpus", *name.split("/")))
    report = cross_check(description, count, seed=11)
    assert report.ok, report.describe()
    assert report.playouts == count


@pytest.mark.parametrize("name", QUICK)
def test_quick_games_200_playouts(name: str) -> None:
    _check(name, 200)


@pytest.mark.parametrize("name", SLOW)
def test_slow_games_a_few_playouts(name: str) -> None:
    _check(name, 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW + SLOWEST)
def test_slow_games_200_playouts(name: str) -> None:
    _check(name, 200)


@pytest.mark.slow
@pytest.mark.parametrize("name", TOO_LARGE)
def test_too_large_games_fall_back_to_the_oracle(name: str) -> None:
    description = load_game(shared_path("corpus", *name.split("/")))
    with pytest.raises(GroundingTooLarge):
        FastMachine(description, max_rules=200_000, max_seconds=10)
    machine = make_machine(description)
    assert isinstance(machine, OracleMachine)
    result = random_playout(machine, random.Random(1), max_steps=40)
    assert result.length > 0
