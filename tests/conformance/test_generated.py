"""Games nobody wrote: small random games whose options run actions before a choice's ``any``
(:func:`tests.translate.generated.option_game`), replayed decision by decision against the real
engine. The seeds below translate, the engine plays them, and they agree; a generator like it found a
card put back on top of its own pile linked under itself (``analysis/order.py::returned_piles``).
Slow; skips without Mono or the built runner.

To look for more: replay ``option_game(seed)`` for other seeds (most make games the engine
throws on, moving cards from empty piles; a few differ only where the replay cannot follow a
card ``random`` draws and the engine never moves).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.test_replay import replay_all, runner
from tests.translate.generated import option_game
from translators.recycle import parse_recycle

__all__ = ["runner"]

#: Seeds of generated games that translate, that the engine plays, and that replay exactly.
AGREEING = [1, 3, 11, 24, 25, 26, 28, 32]


@pytest.mark.slow
@pytest.mark.parametrize("seed", AGREEING)
def test_a_generated_game_replays_exactly(runner: Path, tmp_path: Path, seed: int) -> None:
    path = tmp_path / f"options{seed}.rcy"
    path.write_text(option_game(seed), encoding="utf-8")
    results = replay_all(path, games=3, seed=1)
    assert all(r.agrees for r in results), [str(m) for r in results for m in r.mismatches]


def test_a_generated_game_is_seeded_and_parses() -> None:
    assert option_game(5) == option_game(5) != option_game(6)
    for seed in range(20):
        parse_recycle(option_game(seed), f"options{seed}.rcy")
