"""Helpers for the analysis tests: the games written for them, players with a fixed amount of
work (so results do not depend on the machine's speed or load), and analyses run once."""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path

from ggp.analysis.metric import Dataset, Metric
from ggp.analysis.plan import AnalysisPlan
from ggp.analysis.run import run_analysis
from ggp.gdl.load import load_game
from ggp.gdl.terms import Term
from ggp.players.base import TurnView
from ggp.players.pimc import PimcPlayer
from ggp.players.simple import RandomPlayer

GAMES = Path(__file__).resolve().parent / "games"
#: Every test analysis: this many matches of random players, and this many of QuickPimc against them.
MAIN_GAMES, ORDER_GAMES, ROLLOUTS = 40, 16, 6


class QuickPimc(PimcPlayer):
    """``pimc`` with 48 rounds per turn: in the test games it finds the good move every time."""

    iterations = 48


class SlowRandom(RandomPlayer):
    """``random`` that takes a twentieth of a second per move (so an analysis lasts a while)."""

    def play(self, view: TurnView) -> Term:
        time.sleep(0.05)
        return super().play(view)


QUICK_PIMC = f"{__name__}:QuickPimc"
SLOW_RANDOM = f"{__name__}:SlowRandom"


def plan_for(game: Path, seed: int = 7, *, games: int = MAIN_GAMES, order_games: int = ORDER_GAMES,
             rollouts: int = ROLLOUTS, players: tuple[str, ...] = ("random",), db: Path | None = None) -> AnalysisPlan:
    """An analysis plan of ``game`` (a generous play clock: only a cap for the counted players)."""
    description = load_game(game)
    return AnalysisPlan(str(game), description.to_kif(), description.source, description.digest(), seed, games,
                        list(players), QUICK_PIMC if order_games else None, order_games, rollouts, [30.0, 5.0, 1.0],
                        db=str(db) if db else None)


@lru_cache(maxsize=8)
def analysed(name: str, folder: Path) -> Dataset:
    """The dataset of the test game ``name`` analysed into ``folder`` (once per session)."""
    outcome = run_analysis(plan_for(GAMES / f"{name}.kif", db=folder / "matches.sqlite3"), folder)
    assert outcome.dataset is not None, outcome.problems
    assert outcome.problems == []
    return outcome.dataset


def metric(metrics: list[Metric], name: str) -> Metric:
    """The metric called ``name``."""
    return next(m for m in metrics if m.name == name)


__all__ = ["GAMES", "QUICK_PIMC", "SLOW_RANDOM", "QuickPimc", "SlowRandom", "analysed", "metric", "plan_for"]
