"""The searching players against the seed's and the reference figures (fixed seeds).

The players search a fixed number of iterations per turn (see :mod:`tests.players.support`),
so the results are the same on a slow or loaded machine. Thresholds are set for each sample
size: a player at the expected rate passes with high probability, and one at the rate the
test must rule out fails with high probability.
"""

from __future__ import annotations

import pytest

from tests.conftest import RULESHEETS, shared_path
from tests.players.support import moves_of, play_counted


def _monty_hall_wins(matches: int) -> float:
    wins = 0
    for seed in range(matches):
        record = play_counted(RULESHEETS / "montyhall.kif", ["pimc"], seed)
        assert record.status == "finished" and not record.errors, record.errors
        assert moves_of(record, "candidate")[3] == "switch", seed
        wins += record.goals["candidate"] == 100
    return wins / matches


def test_pimc_wins_monty_hall_two_thirds_of_the_time() -> None:
    # 200 matches: the standard error is 0.033 at 2/3 and 0.035 at 1/2; 0.58 is 2.6 below
    # the first and 2.3 above the second. pimc must also switch every time: on 200 rounds
    # of sampled states switching wins about 133 and staying about 67.
    assert _monty_hall_wins(200) >= 0.58


@pytest.mark.slow
def test_pimc_wins_monty_hall_at_least_64_percent_of_2000() -> None:
    assert _monty_hall_wins(2000) >= 0.64  # 2/3 - 0.64 is 2.5 standard errors (0.0105)


def _bomb(player: str, matches: int) -> tuple[float, int]:
    total, asks = 0, 0
    for seed in range(matches):
        record = play_counted(RULESHEETS / "exploding_bomb.kif", [player], seed)
        assert record.status == "finished" and not record.errors, record.errors
        total += record.goals["agent"]
        asks += "ask" in moves_of(record, "agent")
    return total / matches, asks


def test_the_information_valuing_player_asks_and_pimc_does_not() -> None:
    # iimc asks, then knows the wire: 90 every time. pimc never asks (the colour is known in
    # every sampled state, asking only costs) and then guesses: 50 on average; over 40
    # matches the standard error is 7.9, so 50 +- 20 holds with probability 0.99.
    mean, asks = _bomb("iimc", 40)
    assert mean >= 85 and asks >= 38
    mean, asks = _bomb("pimc", 40)
    assert asks == 0 and 30 <= mean <= 70


@pytest.mark.slow
def test_exploding_bomb_over_500_matches() -> None:
    mean, _ = _bomb("iimc", 500)
    assert mean >= 85
    mean, asks = _bomb("pimc", 500)
    assert asks == 0 and 43 <= mean <= 57  # standard error 2.2


def _withholding(matches: int) -> float:
    withheld = 0
    for seed in range(matches):
        record = play_counted(RULESHEETS / "exploding_bomb_tell.kif", ["iimc", "pimc"], seed)
        assert record.status == "finished" and not record.errors, record.errors
        withheld += "tell" not in moves_of(record, "agent")
    return withheld / matches


def test_the_information_valuing_agent_withholds() -> None:
    # Against pimc, which cuts the other wire when told and guesses otherwise.
    assert _withholding(40) >= 0.9


@pytest.mark.slow
def test_the_information_valuing_agent_withholds_in_500_matches() -> None:
    assert _withholding(500) >= 0.9


@pytest.mark.slow
@pytest.mark.parametrize("player", ["pimc", "ismcts"])
def test_krieg_tictactoe_against_random(player: str) -> None:
    # 200 matches at 1 s per move (the players as they are: time-budgeted), 100 in each
    # colour; a win is a higher goal than random's. benchmarks/players.py reports the figures.
    from tests.players.support import play_match

    path = shared_path("corpus", "gdl2", "kriegTTT_4x4.gdl")
    wins = 0
    for seed in range(200):
        seats = [player, "random"] if seed % 2 == 0 else ["random", player]
        record = play_match(path, seats, seed, 1.0)
        mine, theirs = ("xplayer", "oplayer") if seed % 2 == 0 else ("oplayer", "xplayer")
        wins += record.goals.get(mine, 0) > record.goals.get(theirs, 0)
    assert wins >= 170
