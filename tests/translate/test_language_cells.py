"""Integer cells as the engine keeps them: where the translation keeps none, a cell the game
writes and never reads (``analysis/unread.py``); a cell a ``repeat`` writes.

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

from tests.translate.language import game, playouts, scores
from translators.recycle import parse_recycle
from translators.recycle.translate import compile_game

#: Draw or pass until the stock is empty, counting the turns in a cell nothing reads: with the
#: passes, a game goes on for many more turns than there are cards.
COUNTED = game("(stage player (end (== (size (game iloc STOCK)) 0))"
               " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))) (turn pass)))"
               " (do ((inc (game sto TURNS) 1))))",
               scoring="(scoring max (size ((current player) iloc HAND)))")


def test_a_cell_nothing_reads_has_no_range_to_overflow() -> None:
    """Its range was an estimate (about as many turns as cards and players), and games that
    passed often ended ``(failed overflow)`` where the engine played on (an Eights whose turn
    count was written to another name, found by the differential fuzz); its changes now make
    no rules, and every game ends normally, as the engine's do."""
    kif = compile_game(parse_recycle(COUNTED, "counted.rcy")).kif
    assert not [line for line in kif.splitlines() if line.startswith("(<=") and " turns " in line]
    out = playouts(COUNTED, games=40)
    assert {p.ending for p in out} == {"end"} and max(p.decisions for p in out) > 12


def test_a_repeat_of_a_set_inc_or_dec_writes_once_as_the_engine_builds_every_pass_first() -> None:
    """CardStock builds all of a repeat's actions before it runs one, and an ``inc`` computes
    the value it writes as it is built: ``(repeat 3 (inc X 1))`` writes X + 1 three times (its
    transcript: ``S:p0 SCORE 1`` thrice). Each copy read the one before: 3 (found by the
    differential fuzz of games stuck in a loop). An ``all`` over cards adds once per card (6),
    and a repeat of a ``set`` sets one value (6 + 10); a computed count the same (2 passes of
    ``inc 3``, 6 of ``dec 1``)."""
    me, you = "((0 player) sto SCORE)", "((1 player) sto SCORE)"
    text = game(f"(do ((repeat 3 (inc {me} 1)) (all (game iloc STOCK) 'C (inc {you} 1))))"
                f" (do ((repeat 2 (set {you} (+ {you} 10)))))")
    assert scores(text, games=1) == {(1, 16)}
    text = game(f"(do ((set (game sto N) 2) (repeat (game sto N) (inc {me} 3))"
                f" (repeat (size (game iloc STOCK)) (dec {you} 1))))")
    assert scores(text, games=1) == {(3, -1)}
