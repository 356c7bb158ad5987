"""Integer cells as the engine keeps them, where the translation keeps none: a cell the game
writes and never reads (``analysis/unread.py``).

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

from tests.translate.language import game, playouts
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
