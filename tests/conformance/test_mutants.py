"""Games nobody wrote: semantic mutants of the games written here (``tests/conformance/games/``),
each a valid game of its own (a word swapped for another of its group, a NAME for another, an
integer moved: :func:`tests.translate.fuzz.semantic_mutant`), replayed decision by decision
against the real engine. The mutants below all agree; mutants like them found nine faults of the
translator (docs/translation.md names them). Slow; skips without Mono or the built runner.

To look for more: replay ``semantic_mutant(text, seed)`` for other seeds and read each
difference (several are the documented differences from the engine, or games the engine throws
on).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.test_replay import replay_all, runner
from tests.translate.fuzz import semantic_mutant

__all__ = ["runner"]

GAMES = Path(__file__).parent / "games"

#: (game, seed) of mutants that translate and replay exactly (three engine games each).
AGREEING = [
    ("eights3", 1), ("eights3", 3), ("eights3", 4), ("eights3", 5), ("memory2", 2), ("memory2", 5),
    ("teams4", 0), ("teams4", 1), ("teams4", 2), ("teams4", 4), ("poker3", 0), ("poker3", 1),
    ("poker3", 3), ("poker3", 5), ("scopa2", 1), ("scopa2", 2), ("scopa2", 4), ("bet3", 3),
    ("bet3", 4), ("reverse3", 1), ("reverse3", 2), ("reverse3", 3), ("reverse3", 5),
]


@pytest.mark.slow
@pytest.mark.parametrize("game, seed", AGREEING, ids=[f"{g}-{s}" for g, s in AGREEING])
def test_a_mutant_replays_exactly(runner: Path, tmp_path: Path, game: str, seed: int) -> None:
    mutant, edit = semantic_mutant((GAMES / f"{game}.rcy").read_text(encoding="utf-8"), seed)
    path = tmp_path / f"{game}.rcy"
    path.write_text(mutant, encoding="utf-8")
    results = replay_all(path, games=3, seed=1)
    assert all(r.agrees for r in results), (edit, [str(m) for r in results for m in r.mismatches])


def test_a_semantic_mutant_is_seeded_and_one_edit() -> None:
    text = (GAMES / "reverse3.rcy").read_text(encoding="utf-8")
    assert semantic_mutant(text, 7) == semantic_mutant(text, 7)
    edits = {semantic_mutant(text, seed)[1] for seed in range(20)}
    assert len(edits) > 10 and all(" -> " in edit for edit in edits)
