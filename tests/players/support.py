"""Helpers for the player tests: seeded in-process matches through the manager's runner."""

from __future__ import annotations

import random
from pathlib import Path

from ggp.gdl.load import load_game
from ggp.manager.client import make_client
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.runner import MatchSettings, run_match
from tests.server.support import REASONER


def play_match(path: Path, specs: list[str], seed: int, clock: float = 0.05) -> MatchRecord:
    """One match of ``path`` between in-process ``specs`` (seat order) with a ``clock`` s play clock."""
    clients = [make_client(spec, random.Random(f"{seed}/{i}"), REASONER) for i, spec in enumerate(specs)]
    settings = MatchSettings(Clocks(5.0, clock, 0.5), seed, "auto", REASONER)
    return run_match(load_game(path), clients, settings)


def moves_of(record: MatchRecord, role: str) -> list[str]:
    """The moves ``role`` made in ``record``, in order."""
    index = record.roles.index(role)
    return [step.joint_move[index] for step in record.steps]
