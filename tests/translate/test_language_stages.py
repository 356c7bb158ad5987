"""Stages as the engine runs them: a game that goes on without a choice ends as CardStock ends it
(``GameIterator.AdvanceToChoice``: "Game stuck in loop" after 200 nodes, scored as a finished
game), so every translation is a finite game.

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

from tests.translate.language import DRAW, HAND, game, playouts, scores

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
    game ends normally, each after the same number of steps, and the engine's figures agree (no
    choice, every game completed, a tie)."""
    out = playouts(ROUND_AND_ROUND, games=4)
    assert {p.ending for p in out} == {"end"}
    assert len({p.steps for p in out}) == 1
    assert all(p.decisions == 0 for p in out)


#: Each pass of a stage that never ends raises the current player's count: two of the engine's
#: nodes a pass (the end check and the ``do``), so the 201st is the end check of the 101st pass.
COUNTING = ("(stage player (end (== (size (game iloc STOCK)) 0)) (do ((inc ((current player) sto SCORE) 1))))")


def test_the_game_ends_at_the_engine_s_201st_node_without_a_choice() -> None:
    """100 passes among three players: 34, 33 and 33 (the engine's scores). Each step was
    counted as one node: 201 passes, 67 each, and the count had a range of 0..4 (a stage without
    a choice was assumed to go round once): every game ended ``(failed overflow)``."""
    assert scores(game(COUNTING, players=3), games=2) == {(34, 33, 33)}


def test_the_declarations_are_nodes_the_engine_counts_before_the_first_choice() -> None:
    """The engine's queue holds the declarations but the first and the setup: with two, the
    count starts at 2 and 99 passes run, 33 each."""
    text = game(COUNTING, players=3).replace("(game ", "(game (declare 1 'ONE) (declare 2 'TWO) ", 1)
    assert scores(text, games=2) == {(33, 33, 33)}


def test_items_skipped_and_items_run_together_are_counted_one_by_one() -> None:
    """After the first choice, a stage that never ends: a guarded item that never runs, then
    two ``do``s (four of the engine's nodes a pass: the end check, the guarded item, the two
    ``do``s; the game ends at the 51st end check). Each pass sets the player's count to one
    more, modulo 7: 25 passes each, 4. The two ``do``s run in one step where a choice may come
    between passes; here each is a step, and the guarded item, skipped, is counted. Counted a
    step a pass, 201 passes ran (3 and 2)."""
    bump = "(set ((current player) sto SCORE) (% (+ ((current player) sto SCORE) 1) 7))"
    text = game("(do ((shuffle (game iloc STOCK))))"
                " (stage player (end (== (size (game iloc STOCK)) 4))"
                " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
                " (stage player (end (== (game sto NEVER) 1))"
                " (do (((== (game sto NEVER) 1) (set (game sto NEVER) 0))))"
                f" (do ((inc (game sto PASSES) 1))) (do ({bump}))))")
    assert scores(text, games=2) == {(4, 4)}


def test_a_stage_going_round_without_running_anything_ends_as_a_finished_game() -> None:
    """Every item's guard fails: control goes round and round within a step. That ended the
    game as a failure (``(at_step loop)``: a draw, every player 50); the engine ends it stuck in
    a loop, scored: 0 and 2."""
    text = game("(do ((set ((1 player) sto SCORE) 2)))"
                " (stage player (end (== (game sto NEVER) 1))"
                " (do (((== (game sto NEVER) 1) (inc ((current player) sto SCORE) 1)))))")
    out = playouts(text, games=2)
    assert {tuple(p.scores.values()) for p in out} == {(0, 2)}


def test_a_stage_without_a_choice_runs_until_its_count_reaches_the_constant_it_ends_on() -> None:
    """Cards dealt one a pass until a count reaches 8: its range was one round of the cycle
    (3), and every game ended ``(failed overflow)``."""
    text = game("(do ((shuffle (game iloc STOCK))))"
                " (stage player (end (== (game sto DEALT) 8))"
                " (do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))) (inc (game sto DEALT) 1))))"
                f" {DRAW}", deck="(deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX)) (SUIT (RED, BLACK)))",
                scoring=HAND)
    assert scores(text, games=2) == {(6, 6)}


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


def test_a_count_lowered_away_from_the_constant_its_stage_ends_on_keeps_its_bound() -> None:
    """``(> (game sto POINTS) 5)`` ends the stage, and every turn lowers the count by 2: the end
    stops the count going up only, so going down it keeps the bound of how often it is lowered
    (six draws: -12). It was kept within a round past 0 (-6) as if the end stopped it both ways,
    and every game ended ``(failed overflow)`` (found by the differential fuzz: a NinetyEight
    lowering its count for every card but a TEN)."""
    text = game("(stage player (end (or (== (size (game iloc STOCK)) 0) (> (game sto POINTS) 5)))"
                " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
                " (do ((dec (game sto POINTS) 2) (set ((current player) sto SCORE) (game sto POINTS)))))")
    assert {tuple(p.scores.values()) for p in playouts(text, games=4)} == {(-10, -12)}


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


def test_the_block_drawing_a_top_card_before_a_choice_is_not_one_of_the_engine_s_nodes() -> None:
    """A declaration, a shuffle, 98 passes of a count (197 nodes), the second stage's end check:
    the engine reaches the choice at its 200th node and plays on, six draws. The translation's
    block before the choice that draws the stock's top (its legality reads it: ``ir/peeks.py``)
    was counted too, the 201st: every game ended there. One more pass, and both end there."""
    choice = ("(choice (((== (cardatt SUIT (top (game iloc STOCK))) RED)"
              " (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))"
              " ((!= (cardatt SUIT (top (game iloc STOCK))) RED)"
              " (move (top (game iloc STOCK)) (top ((current player) vloc WON))))))")
    for passes, draws in ((98, 6), (99, 0)):
        text = game("(do ((shuffle (game iloc STOCK))))"
                    f" (stage player (end (>= (game sto K) {passes})) (do ((inc (game sto K) 1))))"
                    f" (stage player (end (== (size (game iloc STOCK)) 0)) {choice})", scoring=HAND)
        text = text.replace("(game ", "(game (declare 1 'ONE) ", 1)
        assert {p.decisions for p in playouts(text, games=2)} == {draws}
