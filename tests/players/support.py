"""Helpers for the player tests: seeded in-process matches through the manager's runner.

The strength tests play the searching players with a fixed number of iterations per turn
(:data:`COUNTED`, loaded by ``module:Class`` spec) and a generous clock that is only a cap, so
their results do not depend on the machine's speed or load: with fixed seeds every match is
the same on any machine on which the cap is not reached.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.manager.client import make_client
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.runner import MatchSettings, run_match
from ggp.players.iimc import IimcPlayer
from ggp.players.ismcts import IsmctsPlayer
from ggp.players.pimc import PimcPlayer
from tests.server.support import REASONER


class CountedPimc(PimcPlayer):
    """``pimc`` with 200 rounds per turn."""

    iterations = 200


class CountedIsmcts(IsmctsPlayer):
    """``ismcts`` with 400 iterations per turn."""

    iterations = 400


class CountedIimc(IimcPlayer):
    """``iimc`` with 16 rounds per turn."""

    iterations = 16


#: Player name -> spec of its counterpart with a fixed number of iterations per turn.
COUNTED = {cls.name: f"{__name__}:{cls.__name__}" for cls in (CountedPimc, CountedIsmcts, CountedIimc)}
#: The start clock (s) of every test match.
START_CLOCK = 30.0
#: The play clock (s) of the counted players: a cap that a normal machine is far from reaching.
CAP = 2.0


@lru_cache(maxsize=16)
def game(path: Path) -> GameDescription:
    """The rules in ``path``, read once per test session."""
    return load_game(path)


def play_match(path: Path, specs: list[str], seed: int, clock: float = 0.05) -> MatchRecord:
    """One match of ``path`` between in-process ``specs`` (seat order) with a ``clock`` s play clock.

    The start clock, 30 s, is a cap: building the state machine of a translated game takes a
    few seconds on a slow or loaded machine (players answer ``ready`` as soon as they are).
    """
    clients = [make_client(spec, random.Random(f"{seed}/{i}"), REASONER) for i, spec in enumerate(specs)]
    settings = MatchSettings(Clocks(START_CLOCK, clock, 0.5), seed, "auto", REASONER)
    return run_match(game(path), clients, settings)


def play_counted(path: Path, players: list[str], seed: int) -> MatchRecord:
    """One match between the counted versions of ``players`` (names; others as they are)."""
    return play_match(path, [COUNTED.get(p, p) for p in players], seed, CAP)


def moves_of(record: MatchRecord, role: str) -> list[str]:
    """The moves ``role`` made in ``record``, in order."""
    index = record.roles.index(role)
    return [step.joint_move[index] for step in record.steps]
