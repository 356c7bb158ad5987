"""The analysis's figures against the CardStock engine's own (``../shared/reference/
cardstock-random-play.json``: 500 games of random players per corpus game) and against figures
worked out by hand from the rules.

Kuhn poker (``KuhnPoker2.rcy``), by hand: the first player checks or bets (1/2 each); after a
check the second checks (showdown) or bets, and the first then folds or calls; after a bet the
second folds or calls. So a game has 3 turns with probability 1/4: 2.25 turns per game, the
first player's share of them 1.25 / 2.25, and the first player wins 1/2 (1/2 + 1/4) + 1/2 (1/4
+ 1/8) = 9/16 of the games. The engine reports 2.50 turns per game, 60 % of them the first
player's, and 38.6 % wins for it, which the rules as written do not give (a difference of the
engine's, kept in view here and in docs/analysis.md); the options per turn (2) agree.

The slow test compares more games at 200 matches each (``pytest -m slow tests/analysis``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp.analysis.plan import AnalysisPlan
from ggp.analysis.reference import Comparison, compare, load_reference
from ggp.analysis.run import run_analysis
from ggp.gdl.load import load_game
from tests.conftest import shared_path


def comparisons(game: str, folder: Path, games: int, seed: int = 5) -> dict[str, Comparison]:
    """Our figures for ``game`` (random players, no rollouts) beside the engine's, by name."""
    path = shared_path("corpus", "recycle", game)
    reference = shared_path("reference", "cardstock-random-play.json")
    description = load_game(path)
    plan = AnalysisPlan(str(path), description.to_kif(), description.source, description.digest(), seed, games,
                        ["random"], None, 0, 0, [30.0, 5.0, 1.0], db=str(folder / "matches.sqlite3"))
    outcome = run_analysis(plan, folder, workers=2)
    assert outcome.dataset is not None and outcome.problems == []
    entry = load_reference(reference, str(path))
    assert entry is not None
    return {c.figure: c for c in compare(outcome.dataset, entry)}


def within(c: Comparison, exact: float, errors: float = 3.0) -> bool:
    """Whether our figure is within ``errors`` of its standard errors of ``exact``."""
    assert c.ours.value is not None and c.ours.low is not None and c.ours.high is not None
    se = (c.ours.high - c.ours.low) / (2 * 1.959964)
    return abs(c.ours.value - exact) <= errors * se + 1e-9


def test_kuhn_poker_by_hand_and_against_the_engine(tmp_path: Path) -> None:
    found = comparisons("KuhnPoker2.rcy", tmp_path, 100)
    turns, share = found["turns per game"], found["win share of player0"]
    # ours agree with the figures worked out by hand
    assert within(turns, 2.25) and within(share, 9 / 16)
    assert within(found["share of the turns of player0"], 1.25 / 2.25)
    # the engine's are many of its own standard errors away from them
    assert turns.engine_se is not None and abs(turns.engine - 2.25) / turns.engine_se > 8
    assert share.engine_se is not None and abs(share.engine - 9 / 16) / share.engine_se > 6
    options = found["options per turn"]
    assert options.agrees and options.ours.value == 2.0


#: Corpus games whose figures differ from the engine's, and why (see the module doc).
KNOWN = {
    "KuhnPoker2.rcy": "the engine's turns and wins are not what the rules give (worked out by hand above)",
}
SLOW = ["Agram4.rcy", "Agram2.rcy", "KuhnPoker2.rcy", "NinetyEight2.rcy", "Pairs2.rcy", "LAMA2.rcy",
        "Blackjack2.rcy", "Polignac4.rcy"]


@pytest.mark.slow
@pytest.mark.parametrize("game", SLOW)
def test_random_play_against_the_engine(game: str, tmp_path: Path) -> None:
    found = comparisons(game, tmp_path, 200)
    differ = [f"{c.figure}: {c.ours.value:.3f} {c.ours.low:.3f}..{c.ours.high:.3f}, engine {c.engine}"
              for c in found.values() if not c.agrees]
    if game in KNOWN:
        assert differ, f"{game} now agrees with the engine: take it out of KNOWN"
        pytest.xfail(KNOWN[game])
    assert differ == []
