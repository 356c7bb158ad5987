"""Shared helpers for the OpenSpiel bridge tests: skip without OpenSpiel, game figures."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel bridge needs OpenSpiel: pip install 'ggp[spiel]'")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import expected_game_score, exploitability, get_all_states  # noqa: E402

import ggp.spiel  # noqa: E402,F401  (registers the game "ggp")
from ggp.spiel import GGPGame, load  # noqa: E402
from tests.conftest import RULESHEETS  # noqa: E402


@lru_cache(maxsize=4)
def bridged(name: str, **params: Any) -> GGPGame:
    """A rulesheet as a bridged game (once per test session)."""
    return load(RULESHEETS / name, **params)


def tree_figures(game: Any) -> dict[str, Any]:
    """Counts of an OpenSpiel game's whole tree, walked by OpenSpiel: histories by kind,
    information states per player, and the multiset of terminal returns."""
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                           include_chance_states=True)
    kinds: Counter[str] = Counter()
    keys: list[set[str]] = [set() for _ in range(game.num_players())]
    returns: Counter[tuple[float, ...]] = Counter()
    for state in states.values():
        if state.is_terminal():
            kinds["terminal"] += 1
            returns[tuple(state.returns())] += 1
        elif state.is_chance_node():
            kinds["chance"] += 1
        else:
            kinds["decision"] += 1
            keys[state.current_player()].add(state.information_state_string())
    return {"histories": len(states), "kinds": dict(kinds), "information_states": [len(k) for k in keys],
            "returns": dict(returns)}


def uniform_figures(game: Any) -> tuple[list[float], float]:
    """The uniform policy's value for each player and its exploitability."""
    uniform = policy_lib.UniformRandomPolicy(game)
    value = expected_game_score.policy_value(game.new_initial_state(), [uniform] * game.num_players())
    return [float(v) for v in value], float(exploitability.exploitability(game, uniform))
