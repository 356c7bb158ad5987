"""Semantics against the CardStock engine: random play of the translated games compared with the
engine's own random-play statistics (``../shared/reference/cardstock-random-play.json``).

Decisions per game must be within a few standard errors of the engine's mean, options per
decision within 10 %; the games listed in ``KNOWN`` differ for the reasons given there (the
engine's own failures or quirks, checked where possible with an independent implementation of
the rules). The default run checks a few quick games; ``-m slow`` all of them.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from tests.translate.support import REFERENCE, corpus, machine, translation
from translators.recycle.playstats import play, summarize

ALL = corpus()

#: Games whose figures differ from the engine's, and why.
KNOWN = {
    "ContinuousPairs4": "the engine throws NotImplementedException in 353 of 500 games ((top 'PAIRS) on a tuples "
                        "result), so its figures describe the 147 games without a pair",
    "CrazyEights4": "the engine passes the choice limit in 123 of 500 games; its mean is over the others only",
}


def reference() -> dict[str, Any]:
    """The engine's random-play statistics, by file name."""
    if not REFERENCE.exists():
        pytest.skip(f"needs {REFERENCE}")
    data: dict[str, Any] = json.loads(REFERENCE.read_text())
    return data


def compare(path: Path, games: int) -> list[str]:
    """The mismatches of a game's random play with the engine's figures."""
    ref = reference()[path.name]
    t = translation(str(path))
    m = machine(str(path))
    rng = random.Random(3)
    played = [play(m, t.description, rng) for _ in range(games)]
    s = summarize(played, t.model.players, ref["scoring_direction"])
    problems = []
    assert s.completed >= games * 0.9 or path.stem == "CrazyEights4", s.endings
    se = ref["choices_std"] / math.sqrt(max(s.completed, 1))
    tolerance = 4 * se + 0.05 * ref["choices_mean"] + 0.5
    if abs(s.decisions_mean - ref["choices_mean"]) > tolerance:
        problems.append(f"decisions {s.decisions_mean:.1f}, engine {ref['choices_mean']:.1f} (+-{tolerance:.1f})")
    if abs(s.options_mean - ref["options_per_decision_mean"]) > 0.1 * ref["options_per_decision_mean"]:
        problems.append(f"options {s.options_mean:.2f}, engine {ref['options_per_decision_mean']:.2f}")
    return problems


#: Agram, a trick-taking game, is compared with the engine in the default run by
#: tests/translate/test_stats.py; every game is, with 40 games each, by ``-m slow``.
QUICK = [p for p in ALL if p.stem in ("KuhnPoker2",)]


@pytest.mark.parametrize("path", QUICK, ids=[p.stem for p in QUICK])
def test_quick_games_play_like_the_engine(path: Path) -> None:
    assert compare(path, 30) == []


@pytest.mark.slow
@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_random_play_like_the_engine(path: Path) -> None:
    problems = compare(path, 40)
    if path.stem in KNOWN:
        pytest.xfail(KNOWN[path.stem]) if problems else None
        return
    assert problems == []
