"""Games nobody wrote, replayed decision by decision against the real engine: small random games
whose options run actions before a choice's ``any`` (:func:`tests.translate.generated.option_game`)
and games that end stuck in a loop (:func:`~tests.translate.generated.stuck_game`). The seeds below
translate, the engine plays them, and they agree; a generator like the first found a card put back
on top of its own pile linked under itself (``analysis/order.py::returned_piles``), one like the
second the engine's count of nodes (``emit/idle.py``) and its repeats (``ir/repeats.py::built_once``).
Slow; skips without Mono or the built runner.

To look for more: replay ``option_game(seed)`` for other seeds (most make games the engine
throws on, moving cards from empty piles; a few differ only where the replay cannot follow a
card ``random`` draws and the engine never moves).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.test_replay import replay_all, runner
from tests.translate.generated import option_game, stuck_game
from translators.recycle import parse_recycle

__all__ = ["runner"]

#: Seeds of generated games that translate, that the engine plays, and that replay exactly.
AGREEING = [1, 3, 11, 24, 25, 26, 28, 32]
#: Seeds of generated games whose moves and reads of a pile's top are under the condition that
#: the pile holds a card (``option_game(seed, guarded=True)``) that replay exactly: 12 of 40
#: before the preview knew conditional actions and the option was offered beside a guarded
#: action (the others refused or offered nothing), 27 after, 30 once conditions read after the
#: option's earlier actions were read case by case (20: the option was never offered), the
#: replay followed a card moved twice in one option (23), and a card a fork that may be offered
#: over nothing moves stopped standing for a later read of the top (35).
GUARDED = [1, 3, 4, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 30, 32, 33, 34, 35, 36,
           37, 38, 39]
#: A stuck game with a choice before its loop (most of them have one).
STUCK_DEFAULT = 7


@pytest.mark.slow
@pytest.mark.parametrize("seed", AGREEING)
def test_a_generated_game_replays_exactly(runner: Path, tmp_path: Path, seed: int) -> None:
    path = tmp_path / f"options{seed}.rcy"
    path.write_text(option_game(seed), encoding="utf-8")
    results = replay_all(path, games=3, seed=1)
    assert all(r.agrees for r in results), [str(m) for r in results for m in r.mismatches]


@pytest.mark.slow
@pytest.mark.parametrize("seed", GUARDED)
def test_a_generated_game_with_guarded_actions_replays_exactly(runner: Path, tmp_path: Path, seed: int) -> None:
    path = tmp_path / f"guarded{seed}.rcy"
    path.write_text(option_game(seed, guarded=True), encoding="utf-8")
    results = replay_all(path, games=3, seed=1)
    assert all(r.agrees for r in results), [str(m) for r in results for m in r.mismatches]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_a_game_stuck_in_a_loop_ends_where_the_engine_ends_it(runner: Path, tmp_path: Path, seed: int) -> None:
    path = tmp_path / f"stuck{seed}.rcy"
    path.write_text(stuck_game(seed), encoding="utf-8")
    results = replay_all(path, games=1, seed=1)
    assert all(r.agrees for r in results), [str(m) for r in results for m in r.mismatches]


def test_a_game_stuck_in_a_loop_after_its_choices_ends_with_the_engine_s_scores(runner: Path, tmp_path: Path) -> None:
    """One of them in the default run: a player's count is moved on each pass, modulo 5 or 7."""
    path = tmp_path / "stuck.rcy"
    path.write_text(stuck_game(STUCK_DEFAULT), encoding="utf-8")
    results = replay_all(path, games=2, seed=1)
    assert all(r.agrees for r in results), [str(m) for r in results for m in r.mismatches]
    assert all(r.decisions > 0 for r in results)


def test_a_generated_game_is_seeded_and_parses() -> None:
    assert option_game(5) == option_game(5) != option_game(6)
    assert stuck_game(5) == stuck_game(5) != stuck_game(6)
    for seed in range(20):
        parse_recycle(option_game(seed), f"options{seed}.rcy")
        parse_recycle(stuck_game(seed), f"stuck{seed}.rcy")
