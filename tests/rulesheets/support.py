"""Shared helpers for the rulesheet tests: loading rulesheets and the reasoners to run them on."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import pytest

from ggp.gdl.load import read_game_file
from ggp.gdl.rules import GameDescription
from ggp.reasoner import make_machine
from ggp.reasoner.machine import StateMachine
from tests.conftest import RULESHEETS

#: True once the fast reasoner (``ggp/reasoner/fast.py``) exists.
HAS_FAST = importlib.util.find_spec("ggp.reasoner.fast") is not None

#: Parameters for tests that run on every available reasoner.
REASONER_PARAMS = [
    pytest.param("oracle", id="oracle"),
    pytest.param(
        "fast", id="fast", marks=pytest.mark.skipif(not HAS_FAST, reason="ggp/reasoner/fast.py not written yet")
    ),
]


def load(path: str | Path) -> GameDescription:
    """Read a rulesheet (a name under ``rulesheets/`` or a path), failing on any problem."""
    path = Path(path)
    if not path.is_absolute() and not path.exists():
        path = RULESHEETS / path
    description, problems = read_game_file(path)
    assert not problems, "\n".join(str(p) for p in problems)
    return description


@functools.cache
def machine(path: str, reasoner: str) -> StateMachine:
    """One shared state machine per rulesheet and reasoner (their caches warm up across tests)."""
    return make_machine(load(path), reasoner)
