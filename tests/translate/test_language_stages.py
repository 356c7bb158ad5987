"""Stages as the engine runs them: a game that goes on without a choice ends as CardStock ends it
(``GameIterator.AdvanceToChoice``: "Game stuck in loop" after 200 nodes, scored as a finished
game), so every translation is a finite game.

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

from tests.translate.language import game, playouts
from translators.recycle.emit.idle import STUCK_NODES

#: A card goes to a pile and back, pass after pass: the stock is never empty and no one chooses.
ROUND_AND_ROUND = game("(do ((shuffle (game iloc STOCK))))"
                       " (stage player (end (== (size (game iloc STOCK)) 0))"
                       " (do ((move (top (game iloc STOCK)) (top (game vloc PILE)))"
                       " (move (top (game vloc PILE)) (top (game iloc STOCK))))))")

#: Choices until the stock is empty, then the same endless round with a card of a hand.
CHOICES_THEN_NONE = game("(do ((shuffle (game iloc STOCK))))"
                         " (stage player (end (== (size (game iloc STOCK)) 0))"
                         " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
                         " (stage player (end (== (size (game vloc PILE)) 7))"
                         " (do ((move (top ((current player) iloc HAND)) (top (game vloc PILE)))"
                         " (move (top (game vloc PILE)) (top ((current player) iloc HAND))))))",
                         scoring="(scoring max (size ((current player) iloc HAND)))")


def test_a_game_that_never_chooses_ends_as_the_engine_ends_it() -> None:
    """Its rules ran for ever (a random playout stopped at 20,000 steps, unfinished); now every
    game ends normally, each after the same number of steps, no fewer than the engine's 201
    nodes (a step here runs at least one), and the engine's figures agree (no choice, every game
    completed, a tie)."""
    out = playouts(ROUND_AND_ROUND, games=4)
    assert {p.ending for p in out} == {"end"}
    assert len({p.steps for p in out}) == 1 and out[0].steps >= STUCK_NODES
    assert all(p.decisions == 0 for p in out)


def test_a_game_that_stops_choosing_ends_the_same_number_of_steps_after_its_last_choice() -> None:
    """The count starts again at every choice: the six draws are made, then the endless round
    runs its steps and the game ends, scored by the cards held (three each: a tie)."""
    out = playouts(CHOICES_THEN_NONE, games=4)
    assert {p.ending for p in out} == {"end"}
    assert all(p.decisions == 6 for p in out)
    assert len({p.steps for p in out}) == 1
    assert all(set(p.scores.values()) == {3} for p in out)


def test_a_count_in_an_end_condition_s_and_goes_on_past_its_constant() -> None:
    """``(and (== (size STOCK) 0) (>= TURNS 2))``: reaching 2 does not end the stage while cards
    are left, so the count goes on to 6 here; it was kept within a round past 2, as a count its
    end condition stops, and every game ended ``(failed overflow)`` (found by the differential
    fuzz: a Concentration whose end's ``or`` became ``and``)."""
    text = game("(stage player (end (and (== (size (game iloc STOCK)) 0) (>= (game sto TURNS) 2)))"
                " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
                " (do ((inc (game sto TURNS) 1) (set ((current player) sto SCORE) (game sto TURNS)))))")
    assert {tuple(p.scores.values()) for p in playouts(text, games=4)} == {(5, 6)}


def test_a_stage_ending_on_the_top_card_of_a_shuffled_stock() -> None:
    """The stage ends when the stock's top card is RED: read where ``random`` cannot draw it, it
    was never RED and every game drew all six cards (the engine: none to three draws). The
    pile now keeps its whole order: the game ends before the first RED card is drawn."""
    text = game("(do ((shuffle (game iloc STOCK))))"
                " (stage player (end (or (== (size (game iloc STOCK)) 0) (== (cardatt SUIT (top (game iloc STOCK))) RED)))"
                " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))",
                scoring="(scoring max (size ((current player) iloc HAND)))")
    out = playouts(text, games=12)
    assert {p.decisions for p in out} <= {0, 1, 2, 3} and len({p.decisions for p in out}) > 1
