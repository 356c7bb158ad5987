"""Values and control: computed repeat counts, point maps, names computed in play, integers,
conditional blocks, the choice limit.

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

import random
from pathlib import Path

from ggp.gdl.validate import validate
from ggp.reasoner import make_machine
from tests.translate.language import (
    DEAL3,
    DRAW,
    HAND,
    SUITS,
    VALUE,
    game,
    playouts,
    scores,
    translation_error,
)
from translators.recycle import parse_recycle
from translators.recycle.playstats import play
from translators.recycle.translate import compile_game


def test_a_repeat_count_is_computed_once_when_the_repeat_starts() -> None:
    # 6 // 2 = 3 cards to the first player: the count does not shrink with the stock it reads
    deal = "(do ((repeat (// (size (game iloc STOCK)) 2) (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))))"
    assert scores(game(f"{deal} {DRAW}", scoring=HAND)) == {(5, 1)}


def test_a_repeat_count_read_from_storage_and_per_player() -> None:
    deal = ("(do ((set (game sto N) 2) (set ((1 player) sto EXTRA) 1)"
            " (all player 'P (repeat (+ (game sto N) ('P sto EXTRA)) (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))")
    # player1 gets 3, player0 2, then the last card goes to player0
    assert scores(game(f"{deal} {DRAW}", scoring=HAND)) == {(3, 3)}


def test_a_repeat_whose_count_is_zero_or_negative_does_nothing() -> None:
    deal = ("(do ((set (game sto N) (- 0 2)) (repeat (game sto N) (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))"
            " (repeat (+ (game sto N) 2) (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))))")
    assert scores(game(f"{deal} {DRAW}", scoring=HAND)) == {(3, 3)}


def test_a_repeat_count_bound_by_let() -> None:
    deal = ("(do ((let (size (game iloc STOCK)) 'N (repeat (- 'N 4) (move (top (game iloc STOCK))"
            " (top ((1 player) iloc HAND)))))))")
    assert scores(game(f"{deal} {DRAW}", scoring=HAND)) == {(2, 4)}


def test_an_option_that_repeats_no_pass_is_not_offered() -> None:
    # the first player holds the six cards, the second none: `(repeat (size HAND) ...)` makes no
    # action for the second, and CardStock offers only the pass (2 options before, one doing
    # nothing); the first plays every card at once or passes
    deal = "(do ((shuffle (game iloc STOCK)) (repeat 6 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))))"
    turn = ("(stage player (end (== (size (game vloc DISCARD)) 6)) (choice ((repeat (size ((current player) iloc HAND))"
            " (move (top ((current player) iloc HAND)) (top (game vloc DISCARD)))) (turn pass))))")
    runs = playouts(game(f"{deal} {turn}", scoring="(scoring max (size (game vloc DISCARD)))"), 6)
    assert all(p.options == [2, 1] * (len(p.options) // 2) + [2] for p in runs), [p.options for p in runs]


def test_a_point_map_read_before_it_is_set_scores_every_card_0() -> None:
    # each turn adds the cards in hand, one point each: the first player's first sum is taken
    # before the map is set (0, not 1): 0 + 2 + 3 against 1 + 2 + 3
    turn = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
            " (do ((inc ((current player) sto SCORE) (sum ((current player) iloc HAND) using (game points VALUE)))"
            " (set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 1) ((RANK : THREE) 1))))))")
    assert scores(game(f"(do ((shuffle (game iloc STOCK)))) {turn}")) == {(5, 6)}
    # and a map that is never set scores 0
    never = "(scoring max (sum ((current player) iloc HAND) using (game points NOTHING)))"
    assert scores(game(f"(do ((shuffle (game iloc STOCK)))) {DRAW}", scoring=never)) == {(0, 0)}


def test_a_player_s_or_team_s_point_map_is_its_own_and_may_be_set_in_play() -> None:
    """Each player or team keeps its own point maps (``PointStorageReference`` on its
    ``pointBins``): set for one player in the setup, for the other in play, with a value the
    award compares with read in play, and 0 for every card while a player's is not set (a
    located refusal before: such maps had to belong to the game). The stock's six cards: the
    first player's map gives 1 a RED and 2 a BLACK (9), the second's, set by the first
    player's one turn, 5 a ONE and 1 a BLACK (13); before that turn it scored 0."""
    setup = ("(do ((set ((0 player) points V) (((SUIT : RED) 1) ((SUIT : BLACK) 2))) (set (game str R) ONE)"
             " (set ((1 player) sto EARLY) (sum (game iloc STOCK) using ((1 player) points V)))))")
    turn = ("(stage player (end (>= (game sto T) 1)) (do ((inc (game sto T) 1)))"
            " (choice ((set ((next player) points V) (((RANK : (game str R)) 5) ((SUIT : BLACK) 1))))))")
    scoring = ("(scoring max (+ (* 100 ((current player) sto EARLY))"
               " (sum (game iloc STOCK) using ((current player) points V))))")
    assert scores(game(f"{setup} {turn}", scoring=scoring)) == {(9, 13)}
    teams = "(create teams (0, 2) (1, 3))"
    setup = "(do ((all team 'T (set ('T points V) (((SUIT : RED) 1)))) (set ((team (1 player)) points V) (((RANK : TWO) 4)))))"
    scoring = "(scoring max (sum (game iloc STOCK) using ((team (current player)) points V)))"
    turn = "(stage player (end (>= (game sto T) 1)) (choice ((inc (game sto T) 1))))"
    assert scores(game(f"{setup} {turn}", players=4, teams=teams, scoring=scoring)) == {(3, 8, 3, 8)}


def test_award_points_computed_in_play_are_read_when_the_map_is_set() -> None:
    """An award's points may be any integer, evaluated when the ``set`` runs (the engine's
    ``PointAction`` reads them then) and after the actions before it (a located refusal
    before). Unshuffled, the first player draws the BLACKs at turns 1, 3, 5 (10 x the turn:
    90), the second the REDs at 2, 4, 6 (12); each player's own map, set at its last turn,
    gives its cards one more than its hand holds or the hand's size: 3 x 4 and 3 x 3."""
    turn = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
            " (do ((inc (game sto T) 1)"
            " (set (game points V) (((SUIT : RED) (game sto T)) ((SUIT : BLACK) (* 10 (game sto T)))))"
            " (set ((current player) points MINE) (((SUIT : RED) (size ((current player) iloc HAND)))"
            " ((SUIT : BLACK) (+ (size ((current player) iloc HAND)) 1))))"
            " (inc ((current player) sto SCORE) (score (top ((current player) iloc HAND)) using (game points V))))))")
    scoring = "(scoring max (+ ((current player) sto SCORE) (sum ((current player) iloc HAND) using ((current player) points MINE))))"
    assert scores(game(turn, scoring=scoring)) == {(90 + 12, 12 + 9)}


def test_award_points_that_read_their_own_map_or_grow_without_bound_are_located_errors() -> None:
    own = ("(do ((set (game points V) (((SUIT : RED) 1)))"
           " (set (game points V) (((SUIT : RED) (score (top (game iloc STOCK)) using (game points V)))))))")
    message = translation_error(game(f"{own} {DRAW}"), "own.rcy")
    assert message.startswith("own.rcy:2:") and "the same point map" in message, message
    growing = ("(stage player (end (>= (game sto T) 8)) (do ((inc (game sto T) 1)"
               " (set (game points V) (((SUIT : RED) (+ ((current player) sto SCORE) 1))))))"
               " (choice ((inc ((current player) sto SCORE) (score (top (game iloc STOCK)) using (game points V))))))")
    message = translation_error(game(growing), "growing.rcy")
    assert message.startswith("growing.rcy:") and "award points can take" in message, message


def test_a_cell_halved_by_its_own_value_keeps_its_range() -> None:
    """``(dec X (// X 2))`` leaves X between 0 and what it held: the integer analysis follows a
    write that reads only its own cell value by value (read as two independent intervals,
    ``x - x // 2`` went below 0 and from there grew round after round, past 10^12: a located
    error before). Unshuffled, each player draws a THREE, a TWO and a ONE: 30 -> 15, 35 -> 18,
    28 -> 14."""
    turn = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
            f" (do ({VALUE} (inc ((current player) sto SCORE) (* 10 (score (top ((current player) iloc HAND)) using (game points VALUE))))"
            " (dec ((current player) sto SCORE) (// ((current player) sto SCORE) 2)))))")
    assert scores(game(turn)) == {(14, 14)}


def test_a_sum_of_weighted_counts_adds_the_values_they_take() -> None:
    """``(+ (* 1000 A) (* 1000 B))`` with counts of at most 6: each operand takes 7 values but
    spans 0 to 6,000, and adding the intervals needed a table of 36 million rows (a located
    error); the table of the values themselves has 49 (``analysis/valuesets.py``)."""
    scoring = ("(scoring max (+ (* 1000 (size ((current player) iloc HAND)))"
               " (* 1000 (size (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) RED))))))")
    # unshuffled, the first player draws the BLACKs, the second the REDs
    assert scores(game(DRAW, scoring=scoring)) == {(3000, 6000)}


def test_a_storage_name_computed_from_a_card() -> None:
    # the deck is not shuffled: the first player draws the three BLACKs, the second the REDs
    turn = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
            " (do ((inc ((current player) sto (cardatt SUIT (top ((current player) iloc HAND)))) 1))))")
    assert scores(game(turn, scoring=SUITS)) == {(3, 30)}


def test_a_location_name_computed_from_the_card_it_receives() -> None:
    # the name reads the top of the stock, which the move takes: it is the moved card's suit
    turn = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) vloc (cardatt SUIT (top (game iloc STOCK)))))))))")
    piles = "(scoring max (+ (* 10 (size ((current player) vloc BLACK))) (size ((current player) vloc RED))))"
    assert scores(game(turn, scoring=piles)) == {(30, 3)}


def test_a_card_moved_from_a_location_named_in_play() -> None:
    # a move's source named by a string cell (a RecursionError before: rewrites skipped a move's
    # `source`, taking it for a game's file name); two cards dealt to LEFT, one played from it
    body = ("(do ((set (game str FROM) LEFT)"
            " (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc LEFT)))))"
            " (all player 'P (move (top ('P iloc (game str FROM))) (top ('P vloc DONE))))))")
    sizes = "(scoring max (+ (* 10 (size ((current player) vloc DONE))) (size ((current player) iloc LEFT))))"
    assert scores(game(f"{body} {DRAW}", scoring=sizes)) == {(11, 11)}


def test_the_scoring_reads_the_top_card_of_a_location_named_in_play() -> None:
    # each card played onto the pile a string cell names; the score: the points of its top card
    body = (f"(do ({VALUE} (set (game str BEST) RIGHT) {DEAL3[5:-2]}))\n"
            " (stage player (end (== (size ((current player) iloc HAND)) 0))"
            " (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc (game str BEST))))))))")
    scoring = "(scoring max (score (top ((current player) vloc (game str BEST))) using (game points VALUE)))"
    found = scores(game(body, scoring=scoring), 30)
    assert {a for a, _ in found} == {b for _, b in found} == {1, 2, 3}


def test_names_from_a_string_cell_and_from_card_variables() -> None:
    body = ("(do ((shuffle (game iloc STOCK)) (set (game str PILE) LEFT)"
            " (repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))"
            " (all ((0 player) iloc HAND) 'C (move 'C (top ((0 player) vloc (cardatt RANK 'C)))))"
            " (move (top (game iloc STOCK)) (top ((1 player) iloc (game str PILE))))))")
    sizes = ("(scoring max (+ (size ((current player) iloc LEFT)) (+ (size ((current player) vloc ONE))"
             " (+ (size ((current player) vloc TWO)) (size ((current player) vloc THREE))))))")
    # (the engine throws moving cards out of the hand its `all` goes through: not compared)
    assert scores(game(f"{body} {DRAW}", scoring=sizes), engine_plays=False) == {(3, 1)}
    # the same names for storage, which the engine plays
    counts = body.replace("(move 'C (top ((0 player) vloc (cardatt RANK 'C))))", "(inc ((0 player) sto (cardatt RANK 'C)) 1)")
    stored = ("(scoring max (+ (size ((current player) iloc LEFT)) (+ ((current player) sto ONE)"
              " (+ ((current player) sto TWO) ((current player) sto THREE)))))")
    assert scores(game(f"{counts} {DRAW}", scoring=stored)) == {(3, 1)}


def test_a_numbered_location_is_a_location_named_by_its_number() -> None:
    body = "(do ((shuffle (game iloc STOCK)) (move (top (game iloc STOCK)) (top ((0 player) iloc 3)))))"
    # (the engine throws a NullReferenceException on numbered locations: not compared with it)
    assert scores(game(f"{body} {DRAW}", scoring="(scoring max (size ((current player) iloc 3)))"),
                  engine_plays=False) == {(1, 0)}
    # a computed number is refused, located (it reached the string code: "a string is expected")
    computed = body.replace("((0 player) iloc 3)", "((0 player) iloc (+ 1 2))")
    error = translation_error(game(f"{computed} {DRAW}"), "numbered.rcy")
    assert error.startswith("numbered.rcy:2:") and "named by a computed number" in error


def test_powers_triangular_and_fibonacci_numbers_and_random_integers() -> None:
    body = ("(do ((set ((0 player) sto SCORE) (+ (^ 2 3) (+ (tri 3) (fib 5))))"
            " (set ((1 player) sto SCORE) (random 1 .. 3))))")
    got = scores(game(body), 20)
    assert {a for a, _ in got} == {19} and {b for _, b in got} == {1, 2, 3}


def test_a_random_number_in_the_condition_of_an_action() -> None:
    """``((== (random 1 .. 3) 2) ACTION)``: ``random`` draws in the step the condition is read,
    once for the actions it guards (a located error before: "`random` can only be used in an
    action"); four draws a game, each action's count is 0 to 4, and the two seats' counts are the
    same draws. Against the engine's figures."""
    body = ("(stage player (end (>= (game sto TURNS) 4))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
            " (do ((inc (game sto TURNS) 1)"
            " ((== (random 1 .. 3) 2) (do ((inc ((0 player) sto SCORE) 1) (inc ((1 player) sto SCORE) 1)))))))")
    got = scores(game(body), 40)
    assert {a for a, b in got} <= {0, 1, 2, 3, 4} and all(a == b for a, b in got) and len(got) >= 3


def test_a_bet_offered_only_when_the_player_can_pay_it() -> None:
    """``(any (range 1 .. 3) 'B ((>= CHIPS 'B) ...))`` with chips wide-ranging (pots won): the
    comparison of two wide values (a chain "at least v") lost the fork's ``'B`` and held for
    every bet once one was affordable; a player with 2 chips was offered a bet of 3. Now after
    betting 3 of its 5 chips, the first player is offered 1, 2 and folding (as the engine:
    ``tests/conformance/games/affordable3.rcy`` replays its games decision by decision)."""
    text = (Path(__file__).parents[1] / "conformance" / "games" / "affordable3.rcy").read_text()
    machine = make_machine(compile_game(parse_recycle(text, "affordable3.rcy")).description, "fast")
    rng = random.Random(1)
    state, bets = machine.initial_state(), 0
    while bets < 4:
        legal = [list(machine.legal_moves(state, role)) for role in machine.roles]
        deciding = [i for i, moves in enumerate(legal[:-1]) if str(moves[0]) != "noop"]
        if deciding and bets == 3:
            break
        joint = [next((m for m in moves if str(m) == "(choose 0 3)"), None) or rng.choice(moves) for moves in legal]
        bets += bool(deciding)
        state = machine.next_state(state, tuple(joint))
    assert deciding == [0] and sorted(str(m) for m in legal[0]) == ["(choose 0 1)", "(choose 0 2)", "(choose 1 nil)"]


def test_an_option_whose_actions_are_all_conditional_over_two_steps_needs_one_that_holds() -> None:
    """An option whose every action is conditional is offered only when one condition holds in
    the decision's state (the engine reads them all as it builds the option, ``RecurseDo``, and
    drops an option with no action), also when its actions take two steps (``dec`` then ``inc``
    of the same cell): before, only options whose actions all fit the first step were checked,
    and this one was offered with nothing to do. The first decision, with X and Y at 0, has the
    one other option; against the engine's figures."""
    body = ("(stage player (end (>= (game sto TURNS) 4))"
            " (choice ((do (((>= ((current player) sto X) 1) (do ((dec ((current player) sto X) 1)"
            " (inc ((current player) sto X) 2))))"
            " ((>= ((current player) sto Y) 1) (inc ((current player) sto Y) 1))))"
            " (inc ((current player) sto X) 1)))"
            " (do ((inc (game sto TURNS) 1))))")
    runs = playouts(game(body, scoring="(scoring max ((current player) sto X))"), 12)
    assert {p.options[0] for p in runs} == {1} and {p.options[2] for p in runs} == {2}


def test_the_actions_of_an_option_read_what_the_ones_before_them_did() -> None:
    """The engine builds an option's actions one after the other, running each as it is built
    (``RecurseDo`` calls ``TempExecute``, undone once the option is built): an ``inc`` reads the
    cell the ``inc`` before it wrote, and a condition after a move sees the stock the move left,
    as in the translation's steps. Three turns each take the top card of the unshuffled stock
    and add 1 twice; the last one empties the stock and adds 10 (2 a turn and 10 for the last
    mover; 1 a turn, or no 10, if the engine read the decision's state)."""
    body = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((do ((inc ((current player) sto SCORE) 1) (inc ((current player) sto SCORE) 1)"
            " (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"
            " ((== (size (game iloc STOCK)) 0) (inc ((current player) sto SCORE) 10)))))))")
    assert scores(game(body)) == {(6, 16)}


def test_a_size_in_arithmetic_ranges_over_what_the_pile_can_hold() -> None:
    # two cards dealt each of 52: at most four reach PLAYED (what passed through the hands), so
    # 3^(size PLAYED) is a table of 3^4, not 3^52 (a translation too large before); the stage
    # ends once the first player's hand is empty: it played two cards, the second one
    deck = ("(deck (RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K))"
            " (SUIT (HEARTS, SPADES, CLUBS, DIAMONDS)))")
    body = ("(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
            " (stage player (end (== (size ((current player) iloc HAND)) 0))"
            " (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED)))))))")
    assert scores(game(body, deck=deck, scoring="(scoring max (^ 3 (size ((current player) vloc PLAYED))))"), 4) == {(9, 3)}


def test_an_attribute_of_the_card_a_choice_just_played_is_that_card_s() -> None:
    # the suit of the card just played, read in the step of the move (the pile's top is the
    # move's own card): it named every suit of the hand once (a string cell with two values;
    # found by a partners trick game whose led suit was both suits)
    body = (f"{DEAL3} (stage player (end (== (game sto ROUND) 2))"
            " (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED))))))"
            " (do ((set ((current player) str COLOR) (cardatt SUIT (top ((current player) vloc PLAYED))))"
            " ((== ((current player) str COLOR) RED) (inc ((current player) sto SCORE) 10))"
            " (inc (game sto ROUND) 1))))")
    scoring = ("(scoring max (+ ((current player) sto SCORE)"
               " (size (filter ((current player) vloc PLAYED) 'C (== (cardatt SUIT 'C) RED)))))")
    found = scores(game(body, scoring=scoring), 30)
    assert {a for a, _ in found} == {0, 11} and {b for _, b in found} == {0, 11}


def test_integers_in_the_millions_are_kept_in_digits_and_compared_on_them() -> None:
    # 3,000,000 a turn; past 5,000,000 one more; at 9,000,001 or more a bonus: no table of the
    # ten million values a cell can hold is made
    turn = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
            " (do ((inc ((current player) sto S) 3000000)"
            " ((> ((current player) sto S) 5000000) (inc ((current player) sto S) 1))"
            " ((>= ((current player) sto S) 9000001) (inc ((current player) sto BONUS) 1)))))")
    text = game(turn, scoring="(scoring max ((current player) sto S))")
    assert "wval" not in compile_game(parse_recycle(text, "language.rcy")).kif
    assert scores(text, 3) == {(9000002, 9000002)}
    bonus = game(turn, scoring="(scoring max ((current player) sto BONUS))")
    assert scores(bonus, 3) == {(1, 1)}


def test_a_conditional_block_whose_first_action_is_skipped_still_runs_the_rest() -> None:
    """The block's condition holds; its first action's own condition does not: the later
    actions still run (Pitch4's failed bid of 5: the translation lost the -5, the condition
    being kept for the later steps only by the step that was skipped)."""
    body = ("(stage player (end (== (game sto T) 1))\n"
            "  (choice ((do ((set (game sto ON) 1) (set (game sto T) 1)))\n"
            "           (do ((set (game sto ON) 2) (set (game sto T) 1))))))\n"
            "(do (((> (game sto ON) 0)\n"
            "      (do (((== (game sto ON) 2) (move (top (game iloc STOCK)) (top (game vloc PILE))))\n"
            "           (set ((0 player) sto SCORE) (+ 3 (size (game vloc PILE))))\n"
            "           (move (top (game iloc STOCK)) (top (game vloc PILE)))\n"
            "           (set ((1 player) sto SCORE) (size (game vloc PILE))))))))")
    assert scores(game(body), games=12) == {(3, 1), (4, 2)}


def test_an_integer_cell_read_by_a_computed_name_in_a_condition_and_the_scoring() -> None:
    # each draw counts the drawn card's suit; the stage ends when the current player holds two of
    # the suit of their last card; the score is that count
    turn = ("(stage player (end (or (== (size (game iloc STOCK)) 0)"
            " (>= ((current player) sto (cardatt SUIT (top ((current player) iloc HAND)))) 2)))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
            " (do ((inc ((current player) sto (cardatt SUIT (top ((current player) iloc HAND)))) 1))))")
    last = "(scoring max ((current player) sto (cardatt SUIT (top ((current player) iloc HAND)))))"
    # unshuffled: the first player draws BLACKs, the second REDs; the first player's second
    # BLACK (the third draw) ends the stage
    runs = playouts(game(turn, scoring=last), 3)
    assert {p.decisions for p in runs} == {3}
    assert {(p.scores["player0"], p.scores["player1"]) for p in runs} == {(2, 1)}


def test_the_cards_of_a_location_named_in_play_outside_an_action() -> None:
    # piles by suit; the score counts the pile of the suit of the player's last card
    turn = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) vloc (cardatt SUIT (top (game iloc STOCK)))))))))")
    pile = ("(scoring max (size ((current player) vloc (cardatt SUIT (top ((current player) iloc HAND))))))")
    deal = "(do ((move (bottom (game iloc STOCK)) (top ((0 player) iloc HAND))) (move (top (game iloc STOCK)) (top ((1 player) iloc HAND)))))"
    # unshuffled: player0 holds ONE RED (the bottom card), player1 THREE BLACK (the top); the
    # stock is then 1B 2R 2B 3R (bottom to top): player0 piles 3R and 2R, player1 2B and 1B
    assert scores(game(f"{deal} {turn}", scoring=pile)) == {(2, 2)}


def test_a_game_that_never_ends_stops_after_the_engines_501st_choice() -> None:
    """CardStock stops a game once it has made more than 500 choices (``ParseEngine.cs``:
    ``totalChoices > CHOICELIMIT`` after each choice): the 501st is made, the game then ends by
    the limit, which random playouts report as such (``limit`` was inlined away and the ending
    read as unknown)."""
    body = "(stage player (end (== (game sto T) 1)) (choice ((set (game sto T) 0) (set (game sto T) 2))))"
    translation = compile_game(parse_recycle(game(body), "endless.rcy"))
    machine = make_machine(translation.description, "fast")
    playout = play(machine, translation.description, random.Random(1))
    assert (playout.ending, playout.decisions) == ("limit", 501)


def test_conditions_read_a_string_cell_and_a_top_card_named_in_play() -> None:
    """A condition reading ``(game str (game str WHICH))`` or the top card of ``(game vloc (game
    str PILE))``: one alternative per possible name (was a located error outside actions)."""
    body = ("(do ((set (game str WHICH) RED) (set (game str RED) YES) (set (game str BLACK) NO)\n"
            "     (set (game str PILE) LEFT)\n"
            "     (move (top (game iloc STOCK)) (top (game vloc LEFT)))\n"
            "     ((== (game str (game str WHICH)) YES) (set ((0 player) sto SCORE) 1))\n"
            "     ((== (cardatt RANK (top (game vloc (game str PILE)))) THREE) (set ((1 player) sto SCORE) 1))\n"
            "     ((== (game str (game str PILE)) YES) (set ((1 player) sto SCORE) 5))))")
    # the stock's top card, made last, is a THREE
    assert scores(game(body)) == {(1, 1)}


def test_sums_compared_with_one_constant_add_each_their_own_points() -> None:
    # both sums saturate just above 2 through one table, which was made for the first card's
    # points and then served every other card for those only: a hand with a TWO summed to nothing
    ones = "(set (game points ONES) (((RANK : ONE) 1) ((RANK : TWO) 1) ((RANK : THREE) 1)))"
    body = (f"(do ({ones} {VALUE})) {DEAL3} "
            "(do ((all player 'P (do (((> (sum ('P iloc HAND) using (game points ONES)) 2) (inc ('P sto SCORE) 1))"
            " ((> (sum ('P iloc HAND) using (game points VALUE)) 2) (inc ('P sto SCORE) 1)))))))")
    assert scores(game(body), 4) == {(2, 2)}


def test_an_option_that_would_do_nothing_is_not_offered() -> None:
    # CardStock drops an option that makes no action (GameIterator.BuildOptions): here one whose
    # effects are all conditional and none holds (it was offered as a move that did nothing)
    turn = ("(stage player (end (== (game sto ROUNDS) 4))"
            " (choice ((do ((all player 'P ((== (size ('P iloc HAND)) 3) (inc ('P sto SCORE) 1)))))"
            " (do (((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
            " (do (((== (size ((current player) iloc HAND)) 2) (inc ((current player) sto SCORE) 5))))"
            " (turn pass)))"
            " (do ((inc (game sto ROUNDS) 1))))")
    deal = "(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
    runs = playouts(game(f"{deal} {turn}"), 12)
    assert min(o for p in runs for o in p.options) < 4 and max(o for p in runs for o in p.options) >= 3


def test_a_bet_up_to_the_chips_a_player_holds() -> None:
    """``(any (range 1 .. ((current player) sto CHIPS)) 'B ...)``: the range's bounds read in
    play (a located refusal before, a traceback before that). Each decision offers one bet per
    chip the player holds then (and a pass): the second player's chips are 5 and what the first
    one's bet gave, read off the first player's score (the bet, 0 for a pass)."""
    turn = ("(stage player (end (== (game sto N) 2)) (choice ((any (range 1 .. ((current player) sto CHIPS)) 'B"
            " (do ((dec ((current player) sto CHIPS) 'B) (inc ((next player) sto CHIPS) 'B)"
            " (set ((current player) sto LAST) 'B)))) (turn pass))) (do ((inc (game sto N) 1))))")
    chips = "(do ((set ((0 player) sto CHIPS) 3) (set ((1 player) sto CHIPS) 5)))"
    runs = playouts(game(f"{chips} {turn}", scoring="(scoring max ((current player) sto LAST))"), 12)
    for p in runs:
        assert p.options == [3 + 1, 5 + p.scores["player0"] + 1], (p.options, p.scores)
    assert {p.scores["player0"] for p in runs} == {0, 1, 2, 3}


def test_a_range_computed_in_play_counted_looped_over_and_tested() -> None:
    """``all`` (an action), ``size`` and ``any`` (a condition) over ranges whose high bound is a
    cell: 1 + 2 + 3, two integers from 2 to 3, and 3 among them; the ``all`` reads its range once,
    when it starts, as the engine does, though its body raises the bound to 9: three passes."""
    body = ("(do ((set (game sto N) 3) (all (range 1 .. (game sto N)) 'I (inc ((0 player) sto S) 'I))"
            " (inc ((0 player) sto S) (* 10 (size (range 2 .. (game sto N)))))"
            " ((any (range 1 .. (game sto N)) 'I (== 'I 3)) (inc ((0 player) sto S) 100))"
            " (all (range 1 .. (game sto N)) 'I (do ((set (game sto N) 9) (inc (game sto K) 1))))"
            " (set ((1 player) sto S) (game sto K))))")
    assert scores(game(f"{body} {DRAW}", scoring="(scoring max ((current player) sto S))"), 2) == {(126, 3)}


def test_a_range_of_more_integers_than_offered_keeps_its_cell_within_them() -> None:
    """Chips that can reach 260 (60, and 40 more at each of at most 5 turns): past ``SPAN_LIMIT``
    (200) integers, the range's cell is kept within what its owners are given in all (2 x 60),
    with a located warning, and a game that goes past ends visibly, ``(failed overflow)``,
    instead of offering too few bets."""
    turn = ("(stage player (end (== (game sto N) 4)) (choice ((any (range 1 .. ((current player) sto CHIPS)) 'B"
            " (set ((current player) sto LAST) 'B)))) (do ((inc ((current player) sto CHIPS) 40) (inc (game sto N) 1))))")
    text = game(f"(do ((all player 'P (set ('P sto CHIPS) 60)))) {turn}", scoring="(scoring max ((current player) sto LAST))")
    translation = compile_game(parse_recycle(text, "chips.rcy"))
    [warning] = [w for w in translation.warnings if "kept at 120 or less" in w.message]
    at = (2, text.splitlines()[1].index("(range") + 1)
    assert (warning.location.line, warning.location.column) == at and "(player sto CHIPS)" in warning.message
    machine = make_machine(translation.description, "fast")
    runs = [play(machine, translation.description, random.Random(seed)) for seed in range(2)]
    # 60 bets each, then 100 for the first player, whose chips then pass 120
    assert all(p.ending == "overflow" and p.options == [60, 60, 100] for p in runs), [(p.ending, p.options) for p in runs]


def test_a_growing_range_whose_bound_is_not_one_cell_is_a_located_error() -> None:
    # each bet adds to the chips the next bet may reach, one more than them: the span grows with
    # every analysis round, and there is no one cell to keep within it
    turn = ("(stage player (end (== (game sto N) 4)) (choice ((any (range 1 .. (+ ((current player) sto CHIPS) 1)) 'B"
            " (inc ((current player) sto CHIPS) 'B)))) (do ((inc (game sto N) 1))))")
    error = translation_error(game(f"(do ((all player 'P (set ('P sto CHIPS) 6)))) {turn}"), "grow.rcy")
    assert error.startswith("grow.rcy:2:") and "unless the high bound is a cell of its own" in error


def test_a_division_by_zero_plays_on_where_the_engine_would_throw() -> None:
    # `(// 5 0)` has no value: the rule writing it had an unsafe head variable beside
    # `(distinct a a)` and clingo refused the whole game; rules that can never fire are dropped,
    # and the cells keep their values (7 and 9) where `(// 9 3)` writes 3
    divide = ("(do ((set (game sto X) 7) (set (game sto Y) 9) (set (game sto Z) (// 9 (size ((0 player) iloc HAND))))"
              " (set (game sto X) (// 5 (size (game vloc NONE)))) (set (game sto Y) (% 5 (size (game vloc NONE))))))")
    scoring = "(scoring max (+ (* 100 (game sto X)) (+ (* 10 (game sto Y)) (game sto Z))))"
    # the engine throws DivideByZeroException: not compared
    assert scores(game(f"{DEAL3} {divide} {DRAW}", scoring=scoring), 2, engine_plays=False) == {(793, 793)}


def test_a_choice_among_the_integers_of_a_range_then_a_count_of_turns() -> None:
    """``(any (range 1 .. 4) 'I ...)``, and ``(filter (range 1 .. 4) 'I (> 'I (game sto N)))``
    (a located refusal before): options per decision against the engine's. The number chosen
    and the count of turns read after it had the same GDL variable (``?n1``: the lowering's
    and the rules' fresh variables were numbered alike), so the count took the number's value
    and overflowed."""
    for numbers, options in (("(range 1 .. 4)", [4, 4, 4]), ("(filter (range 1 .. 4) 'I (> 'I (game sto N)))", [4, 3, 2])):
        turn = (f"(stage player (end (== (game sto N) 3)) (choice ((any {numbers} 'I"
                " (inc ((current player) sto S) 'I)))) (do ((inc (game sto N) 1))))")
        runs = playouts(game(turn, scoring="(scoring max ((current player) sto S))"), 4)
        assert all(p.options == options for p in runs)


#: Pig: roll a die and add it to the turn's total, keeping the turn (``cycle next current``), or
#: bank the total once it is above 0; the first to bank 20 wins.
PIG = ("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A)) (SUIT (RED)))))"
       " (stage player (end (any player 'P (>= ('P sto BANK) 20)))"
       " (choice ((do ((set (game sto ROLL) (random 1 .. 6))"
       " ((== (game sto ROLL) 1) (set ((current player) sto TURN) 0))"
       " ((!= (game sto ROLL) 1) (do ((inc ((current player) sto TURN) (game sto ROLL)) (cycle next current))))))"
       " ((> ((current player) sto TURN) 0) (do ((inc ((current player) sto BANK) ((current player) sto TURN))"
       " (set ((current player) sto TURN) 0)))))))"
       " (scoring max ((current player) sto BANK)))")


def test_a_total_compared_with_0_elsewhere_grows_while_the_player_rolls_again() -> None:
    """The turn's total is compared with 0 only where banking it is offered, which stops
    nothing: its range is what the rolls can add up to, not 0 plus a round of rolls (18 before:
    19 of 100 random games ended with ``(failed overflow)`` where the engine plays on). Every
    one of 40 seeded games ends normally, and the figures agree with the engine's."""
    played = playouts(PIG, games=40)
    assert all(max(p.scores.values()) >= 20 for p in played)


def test_a_range_with_computed_bounds_in_the_scoring_is_read_for_each_player() -> None:
    """``(range 1 .. CELL)`` in the scoring, its bound a cell of the player scored: the integers
    up to it, counted in the final state (a located refusal before: "a range needs literal
    bounds"); and a range computed in the first actions, summed by an ``all``."""
    body = ("(do ((set ((0 player) sto GOT) 3) (set ((1 player) sto GOT) 5) (set (game sto N) 4)"
            " (all (range 1 .. (game sto N)) 'I (inc (game sto TOTAL) 'I))))")
    scoring = ("(scoring max (+ (* 100 (game sto TOTAL))"
               " (size (filter (range 1 .. ((current player) sto GOT)) 'J (> 'J 1)))))")
    assert scores(game(f"{body} {DRAW}", scoring=scoring), games=2) == {(1002, 1004)}


def test_the_score_of_the_actual_best_card_when_two_tie() -> None:
    """``(score (actual (max HAND using P)) using P)`` in the scoring: two cards tie for the best
    (3R and 3B dealt to the first player), and either scores 3; it had no value before (a tie
    gives no card where ``random`` cannot break it), so the scoring read 0."""
    deal = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))"
            " (repeat 2 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))"
            " (repeat 2 (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))))")
    best = ("(scoring max (score (actual (max ((current player) iloc HAND) using (game points VALUE)))"
            " using (game points VALUE)))")
    assert scores(game(f"{deal} {DRAW}", scoring=best), games=2) == {(3, 2)}


def test_an_option_whose_all_has_no_card_to_act_on_is_not_offered() -> None:
    """An ``all`` over an empty collection makes no action, and CardStock drops an option that
    makes none: taking the next player's THREEs is offered only when it holds one (it was
    offered always). The first player is dealt the top three cards, the THREEs among them (the
    deck is not shuffled; its top is the card created last), so the first decision has the one
    option and the second two; against the engine's figures."""
    deal = ("(do ((repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))"
            " (repeat 3 (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))))")
    turn = ("(stage player (end (>= (game sto TURNS) 4))"
            " (choice ((all (filter ((next player) iloc HAND) 'C (== (cardatt RANK 'C) THREE)) 'C"
            " (move 'C (top ((current player) iloc HAND))))"
            " (inc ((current player) sto SCORE) 1)))"
            " (do ((inc (game sto TURNS) 1))))")
    runs = playouts(game(f"{deal} {turn}"), 12)
    assert {p.options[0] for p in runs} == {1} and {p.options[1] for p in runs} == {2}


def test_a_condition_on_the_choice_s_fork_in_a_later_step_of_the_option_is_a_safe_rule() -> None:
    """Ask the other player for a rank: draw if it holds none, then take what it holds. The
    draw's condition reads the player and the rank chosen, in the option's second step; control
    read it, deciding whether to skip that step, without them bound (an unsafe rule, which
    clingo refused). The translation validates, and plays like the engine."""
    deal = ("(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK))"
            " (top ('P iloc HAND)))))))")
    turn = ("(stage player (end (>= (game sto TURNS) 4))"
            " (choice ((any (other player) 'P (any (ONE, TWO, THREE) 'R"
            " ((any ((current player) iloc HAND) 'C (== (cardatt RANK 'C) 'R))"
            " (do (((and (== (size (filter ('P iloc HAND) 'X (== (cardatt RANK 'X) 'R))) 0) (> (size (game iloc STOCK)) 0))"
            " (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))"
            " (all (filter ('P iloc HAND) 'X (== (cardatt RANK 'X) 'R)) 'X"
            " (move 'X (top ((current player) iloc HAND))))))))) (inc ((current player) sto SCORE) 1)))"
            " (do ((inc (game sto TURNS) 1))))")
    text = game(f"{deal} {turn}", scoring=HAND)
    errors = [p for p in validate(compile_game(parse_recycle(text, "ask.rcy")).description) if p.is_error]
    assert not errors, errors[:3]
    playouts(text, 12)
