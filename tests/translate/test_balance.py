"""The bounds a pass puts on a pile (``analysis/balance.py``), against the pile's level counted
step by step."""

from __future__ import annotations

import random

from tests.translate.language import game, playouts
from translators.recycle import parse_recycle
from translators.recycle.analysis.balance import EMPTYING, TAKING, Pass, adding
from translators.recycle.translate import compile_game


def simulate(steps: list[str], level: int) -> tuple[int, int]:
    """The level at the end and the highest level along the way, counted card by card."""
    peak = level
    for step in steps:
        if step == "take":
            level = max(level - 1, 0)
        elif step == "empty":
            level = 0
        else:
            level += int(step)
        peak = max(peak, level)
    return level, peak


def composed(steps: list[str]) -> Pass:
    """The same steps as one :class:`Pass`."""
    total = Pass()
    for step in steps:
        total = total.then(TAKING if step == "take" else EMPTYING if step == "empty" else adding(int(step)))
    return total


def test_a_sequence_of_steps_is_bounded_exactly_by_its_pass() -> None:
    rng = random.Random(7)
    for _ in range(500):
        steps = [rng.choice(["take", "take", "empty", "1", "2"]) for _ in range(rng.randrange(8))]
        bound = composed(steps)
        for start in range(8):
            end, peak = simulate(steps, start)
            assert end == max(start + bound.n, bound.m), (steps, start)
            assert peak == max(start + bound.p, bound.q, start), (steps, start)


def test_either_of_two_paths_bounds_both() -> None:
    rng = random.Random(8)
    for _ in range(300):
        paths = [[rng.choice(["take", "empty", "1", "2"]) for _ in range(rng.randrange(6))] for _ in range(2)]
        bound = composed(paths[0]).either(composed(paths[1]))
        for start in range(8):
            ends, peaks = zip(*(simulate(path, start) for path in paths))
            assert max(ends) == max(start + bound.n, bound.m)
            assert max(peaks) <= max(start + bound.p, bound.q, start)


def test_a_draw_then_a_discard_keeps_the_hand_within_one_card_of_where_it_was() -> None:
    turn = adding(1).then(TAKING)
    assert turn == Pass(0, 0, 1, 0)
    assert (turn.n, max(turn.m, 0) + max(turn.p, 0) + max(turn.q, 0)) == (0, 1)


#: Each turn a card is drawn, a run of the hand may score, and the whole hand is thrown away by
#: an ``all`` over it (a meld game whose discard's ``any`` became ``all``).
THROW_ALL = game("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)"
                 " ((RANK : FOUR) 4) ((RANK : FIVE) 5) ((RANK : SIX) 6)))"
                 " (shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
                 " (stage player (end (== (size (game iloc STOCK)) 0))"
                 " (do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
                 " (choice ((any (runs largest 2 ((current player) iloc HAND) using (game points VALUE)) 'R"
                 " (inc ((current player) sto SCORE) 1)) (turn pass)))"
                 " (choice ((all ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD)))))))",
                 deck="(deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX)) (SUIT (RED, BLACK)))")


def test_a_hand_thrown_away_whole_by_an_all_over_it_stays_small() -> None:
    """An ``all`` moving every card of the hand empties it, as ``repeat all`` does: the hand
    holds three cards at most and its runs need no more slots; before, the hand drawn to in a
    loop was unbounded, its runs got 5 slots and a located warning, and games whose hand held
    more ended ``(failed slots)`` (found by the differential fuzz)."""
    translation = compile_game(parse_recycle(THROW_ALL, "throw.rcy"))
    assert translation.warnings == []
    assert {p.ending for p in playouts(THROW_ALL, games=100, seed=2)} == {"end"}
