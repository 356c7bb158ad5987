"""Helpers for the player tests: seeded matches through the manager's runner.

Each player runs in a process of its own, as ``ggp match`` seats it; the processes are kept in
one pool for the whole test session and get a fresh, seeded player for every match, so the
hundreds of matches do not start a process each.

The strength tests play the searching players with a fixed number of iterations per turn
(:data:`COUNTED`, loaded by ``module:Class`` spec) and a generous clock that is only a cap, so
their results do not depend on the machine's speed or load: with fixed seeds every match is
the same on any machine on which the cap is not reached.
"""

from __future__ import annotations

import atexit
import random
from functools import lru_cache
from pathlib import Path

from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.runner import MatchSettings, run_match
from ggp.manager.seating import ClientPool
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
#: The players' processes, kept from match to match (closed when the tests end).
POOL = ClientPool(REASONER)
atexit.register(POOL.close)


@lru_cache(maxsize=16)
def game(path: Path) -> GameDescription:
    """The rules in ``path``, read once per test session."""
    return load_game(path)


def play_match(path: Path, specs: list[str], seed: int, clock: float = 0.05) -> MatchRecord:
    """One match of ``path`` between ``specs`` (seat order) with a ``clock`` s play clock; the
    player in seat ``i`` is seeded with ``random.Random(f"{seed}/{i}")``.

    The start clock, 30 s, is a cap: building the state machine of a translated game takes a
    few seconds on a slow or loaded machine (players answer ``ready`` as soon as they are).
    """
    clients = POOL.take(specs, [random.Random(f"{seed}/{i}") for i in range(len(specs))])
    try:
        settings = MatchSettings(Clocks(START_CLOCK, clock, 0.5), seed, "auto", REASONER)
        return run_match(game(path), clients, settings, close_clients=False)
    finally:
        POOL.give_back(clients)


def play_counted(path: Path, players: list[str], seed: int) -> MatchRecord:
    """One match between the counted versions of ``players`` (names; others as they are)."""
    return play_match(path, [COUNTED.get(p, p) for p in players], seed, CAP)


def moves_of(record: MatchRecord, role: str) -> list[str]:
    """The moves ``role`` made in ``record``, in order."""
    index = record.roles.index(role)
    return [step.joint_move[index] for step in record.steps]
