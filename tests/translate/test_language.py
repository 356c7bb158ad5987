"""Constructs of the RECYCLE language the corpus games do not use, each in a small game whose
outcome CardStock's semantics fix (``GameIterator.cs``): the translation must play it to that
outcome under random play, whatever the random choices.

Where the real engine is built (``conformance/cardstock/build.sh``, under Mono), every game is
also played by it, and its figures (choices per game, options per decision, shares, mean scores)
must agree with the translation's (``ggp recycle stats --compare``'s test): an independent
check of the expected outcomes written here.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest

from ggp.reasoner import make_machine
from tests.translate.support import undefined_reads
from translators.recycle import parse_recycle
from translators.recycle.engine import (
    EngineMissing,
    engine_figures,
    find_mono,
    find_runner,
)
from translators.recycle.playstats import Playout, play
from translators.recycle.refstats import compare
from translators.recycle.refstats import engine_figures as translation_figures
from translators.recycle.translate import compile_game
from translators.recycle.translation_error import TranslationError

DECK = "(deck (RANK (ONE, TWO, THREE)) (SUIT (RED, BLACK)))"


def game(body: str, players: int = 2, scoring: str = "(scoring max ((current player) sto SCORE))",
         deck: str = DECK, teams: str = "") -> str:
    """A game of ``players`` with the six-card deck in ``(game iloc STOCK)`` and ``body``."""
    return (f"(game (setup (create players {players}) {teams} (create deck (game iloc STOCK) {deck}))\n"
            f" {body}\n {scoring})")


def playouts(text: str, games: int = 6, seed: int = 1, engine_plays: bool = True) -> list[Playout]:
    """Random playouts of the translation of ``text`` (every one must end normally), checked
    against the real engine's play of the same text when it is built (``engine_plays``: the
    engine can play this game; it throws on a few constructs)."""
    game_tree = parse_recycle(text, "language.rcy")
    translation = compile_game(game_tree)
    machine = make_machine(translation.description, "fast")
    rng = random.Random(seed)
    out = [play(machine, translation.description, rng) for _ in range(games)]
    assert all(p.ending == "end" for p in out), [p.ending for p in out]
    if engine_plays and _engine_built():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "language.rcy"
            path.write_text(text, encoding="utf-8")
            engine = engine_figures(path, games=100)
        ours = translation_figures(out, translation.model.players, game_tree.scoring.order)
        per_decision = ("options_per_decision_mean", "decision_share_by_seat")
        differ = [str(a) for a in compare(ours, engine) if not a.agree
                  and not (ours["choices_mean"] == 0 and a.field.startswith(per_decision))]
        assert not differ, "the translation and the CardStock engine differ:\n" + "\n".join(differ)
    return out


def _engine_built() -> bool:
    try:
        find_mono()
        find_runner()
    except EngineMissing:
        return False
    return True


def scores(text: str, games: int = 6, engine_plays: bool = True) -> set[tuple[int, ...]]:
    """The final scores of random playouts, seat by seat."""
    return {tuple(p.scores[f"player{i}"] for i in range(len(p.scores)))
            for p in playouts(text, games, engine_plays=engine_plays)}


DRAW = "(stage player (end (== (size (game iloc STOCK)) 0)) " \
       "(choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
HAND = "(scoring max (size ((current player) iloc HAND)))"


# -- repeat ---------------------------------------------------------------------------------------

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


# -- the order of piles -------------------------------------------------------------------------

def test_a_deck_created_at_the_start_of_play_is_made_with_the_setup_s() -> None:
    """``create deck`` among the first actions of play, before its location is used: the cards
    are made in creation order after the setup's (a refusal before); elsewhere a located error."""
    text = ("(game (setup (create players 2) (create deck (game iloc TRUMPS) (deck (RANK (FOUR)) (SUIT (RED, BLACK)))))\n"
            " (do ((create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)) (SUIT (RED, BLACK))))\n"
            "      (set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)))\n"
            "      (repeat 2 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))\n"
            "      (repeat 2 (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))\n"
            "      (move (top (game iloc TRUMPS)) (top ((1 player) iloc HAND)))))\n"
            " (scoring max (sum ((current player) iloc HAND) using (game points VALUE))))")
    # player0: the two THREEs made last; player1 the two TWOs and a FOUR
    assert scores(text, 3) == {(6, 8)}
    late = text.replace("(do ((create deck (game iloc STOCK)", "(do ((move (top (game iloc TRUMPS)) (top (game iloc STOCK)))"
                        " (create deck (game iloc STOCK)")
    with pytest.raises(TranslationError) as info:
        compile_game(parse_recycle(late, "late.rcy"))
    assert str(info.value).startswith("late.rcy:2:") and "first actions" in str(info.value)


def test_teams_created_during_play_are_a_located_error_not_a_clash_with_the_setup_s() -> None:
    body = f"{DEAL3}\n (do ((create teams (0, 1))))"
    with pytest.raises(TranslationError) as info:
        compile_game(parse_recycle(game(body, teams="(create teams (0) (1))"), "teams.rcy"))
    assert str(info.value).startswith("teams.rcy:3:") and "teams are created in the setup" in str(info.value)


def test_a_pile_dealt_from_before_it_is_shuffled_deals_in_the_order_its_cards_were_made() -> None:
    # the two THREEs made last go to player0; the shuffle after it is laid out card by card
    body = (f"(do ({VALUE} (repeat 2 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))"
            " (shuffle (game iloc STOCK)) (repeat 2 (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))))")
    found = scores(game(body, scoring="(scoring max (sum ((current player) iloc HAND) using (game points VALUE)))"), 30)
    assert {a for a, _ in found} == {6} and {b for _, b in found} == {2, 3, 4}


def test_a_deck_never_shuffled_deals_in_the_order_its_cards_were_made() -> None:
    # the engine's deck is in creation order (the first attribute outermost: ONE RED, ONE BLACK,
    # TWO RED...; Tree.Combinations), its top the card made last: the first player gets THREE
    # BLACK, THREE RED, TWO BLACK, then draws TWO RED and ONE RED; the second draws ONE BLACK
    deal = "(do ((repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))))"
    points = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))))")
    score = "(scoring max (sum ((current player) iloc HAND) using (game points VALUE)))"
    assert scores(game(f"{points} {deal} {DRAW}", scoring=score)) == {(11, 1)}


#: Every card its own power of two (ONE RED 1, ONE BLACK 2, TWO RED 4 ... THREE BLACK 32): a
#: hand's sum names its cards.
POWERS = ("(set (game points VALUE) (((RANK : ONE) (SUIT : RED) 1) ((RANK : ONE) (SUIT : BLACK) 2)"
          " ((RANK : TWO) (SUIT : RED) 4) ((RANK : TWO) (SUIT : BLACK) 8)"
          " ((RANK : THREE) (SUIT : RED) 16) ((RANK : THREE) (SUIT : BLACK) 32)))")
SUMS = "(scoring max (sum ((current player) iloc HAND) using (game points VALUE)))"


def test_a_discard_pile_filled_card_by_card_is_drawn_from_in_order() -> None:
    # five cards put on a discard pile one by one (bottom to top: 3B 3R 2B 2R 1B), then drawn
    # from its top in turn: the first player gets 1B 2B 3B (2 + 8 + 32), the second 2R 3R
    # (4 + 16); then the first draws the stock's last card (1R)
    body = (f"(do ({POWERS} (repeat 5 (move (top (game iloc STOCK)) (top (game vloc DISCARD))))))"
            " (stage player (end (== (size (game vloc DISCARD)) 0))"
            " (choice ((move (top (game vloc DISCARD)) (top ((current player) iloc HAND))))))")
    assert scores(game(f"{body} {DRAW}", scoring=SUMS)) == {(43, 20)}


def test_a_pile_filled_at_both_ends_is_taken_from_both_ends_in_order() -> None:
    # 3B on top, 3R under, 2B on top, 2R under, 1B on top: 2R 3R 3B 2B 1B; then the first player
    # takes the top when the hands are even, the second the bottom: 1B, 2R, 2B, 3R, 3B
    pile, stock = "(game vloc DISCARD)", "(top (game iloc STOCK))"
    even = "(== (size ((0 player) iloc HAND)) (size ((1 player) iloc HAND)))"
    body = (f"(do ({POWERS} (move {stock} (top {pile})) (move {stock} (bottom {pile}))"
            f" (move {stock} (top {pile})) (move {stock} (bottom {pile})) (move {stock} (top {pile}))))"
            f" (stage player (end (== (size {pile}) 0)) (choice ("
            f"({even} (move (top {pile}) (top ((current player) iloc HAND))))"
            f" ((not {even}) (move (bottom {pile}) (top ((current player) iloc HAND)))))))")
    assert scores(game(body, scoring=SUMS)) == {(42, 20)}


#: A Rummy-like game: each turn a player discards a card of their hand or draws the discard
#: pile's top, then draws from the stock; the discard pile gets several cards deep and its top
#: is drawn again and again.
RUMMY = game("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)"
             " ((RANK : FOUR) 4) ((RANK : FIVE) 5) ((RANK : SIX) 6)))"
             " (shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
             " (stage player (end (== (size (game iloc STOCK)) 0))"
             " (choice ((any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc DISCARD)))"
             " (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
             " ((> (size (game vloc DISCARD)) 0) (do ((move (top (game vloc DISCARD)) (top ((current player) iloc HAND)))"
             " (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))))))",
             deck="(deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX)) (SUIT (RED, BLACK)))",
             scoring="(scoring max (sum ((current player) iloc HAND) using (game points VALUE)))")


def test_a_stock_made_again_from_the_discard_pile_deals_in_its_reversed_order() -> None:
    """The discard pile turned over (top card first) onto the empty stock, unshuffled: the stock
    deals the first card discarded first (the links carried over, reversed; was `(failed
    order)` in every game), and a stage that ends when a count reaches 12 runs 12 passes with 8
    cards (was an overflow: passes had been bounded by the cards and players)."""
    deck = "(deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (RED, BLACK)))"
    text = game(f"(do ({VALUE[:-2]} ((RANK : FOUR) 4))) (shuffle (game iloc STOCK))"
                " (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))\n"
                " (stage player (end (>= (game sto ROUNDS) 12))"
                "  (do (((== (size (game iloc STOCK)) 0) (repeat all (move (top (game vloc DISCARD)) (top (game iloc STOCK)))))"
                "       (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"
                "       (inc (game sto ROUNDS) 1)))"
                "  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD)))))))",
                deck=deck, scoring="(scoring max (sum ((current player) iloc HAND) using (game points VALUE)))")
    runs = playouts(text, 30)
    assert {p.decisions for p in runs} == {12}


def test_a_rummy_discard_pile_plays_to_the_end() -> None:
    # (was ``(failed order)`` once the pile held two cards and its top was drawn twice)
    runs = playouts(RUMMY, games=20)
    # eight cards left in the stock, one drawn a turn
    assert {p.decisions for p in runs} == {8}


# -- collections of groups, sizes of any collection ---------------------------------------------

DEAL3 = "(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"


def test_a_choice_among_the_groups_of_a_partition() -> None:
    # one option per suit the player holds; the group chosen is the cards of that suit
    choose = ("(stage player (end (== (size ((current player) iloc HAND)) 0))"
              " (choice ((any (partition SUIT ((current player) iloc HAND)) 'G"
              " (any 'G 'C (move 'C (top ((current player) vloc DONE))))))))")
    runs = playouts(game(f"{DEAL3} {choose}", scoring="(scoring max (size ((current player) vloc DONE)))"), 10)
    # each option moves one card of the suit chosen: 3 cards each, one move per turn
    assert {p.decisions for p in runs} == {5}
    assert {max(p.options) for p in runs} <= {1, 2, 3, 4, 5, 6} and any(2 in p.options for p in runs)
    assert all(o >= 1 for p in runs for o in p.options)


def test_the_size_of_a_partition_counts_its_groups() -> None:
    count = "(do ((all player 'P (set ('P sto SCORE) (size (partition SUIT ('P iloc HAND)))))))"
    # three cards of six, three of each suit: both hands hold both suits, or each one suit
    assert scores(game(f"{DEAL3} {count}"), 40) == {(1, 1), (2, 2)}


def test_the_size_of_tuples_and_of_subsets_counts_them_as_the_engine_makes_them() -> None:
    # tuples: every 2 of the cards scoring one value (three ONEs make 3 pairs); subsets: 2^3
    deck = "(deck (RANK (ONE, TWO)) (SUIT (RED, BLACK, GREEN)))"
    count = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2)))"
             " (all player 'P (do ((set ('P sto SCORE) (* 10 (size (tuples 2 ('P iloc HAND) using (game points VALUE)))))"
             " ((> (size (tuples 2 ('P iloc HAND) using (game points VALUE))) 1) (inc ('P sto SCORE) 2))"
             " ((== (size (subsets ('P iloc HAND))) 8) (inc ('P sto SCORE) 1))"
             " ((> (size (subsets ('P iloc HAND))) 8) (inc ('P sto SCORE) 4)))))))")
    assert scores(game(f"{DEAL3} {count}", deck=deck), 40) == {(33, 33), (11, 11)}


def test_whether_a_hand_holds_a_run_of_any_size() -> None:
    # a run of three needs a ONE, a TWO and a THREE: then the other hand holds one too
    # (`(size (runs ...))` compared with 0 was a traceback-free refusal of a card collection)
    count = (f"(do ({VALUE} (all player 'P ((> (size (runs largest 3 ('P iloc HAND) using (game points VALUE))) 0)"
             " (set ('P sto SCORE) 1)))))")
    assert scores(game(f"{DEAL3} {count}"), 40) == {(0, 0), (1, 1)}


def test_all_over_tuples_runs_once_for_every_n_cards_of_equal_points() -> None:
    # three ONEs make three pairs (the engine's combinations), two make one
    deck = "(deck (RANK (ONE, TWO)) (SUIT (RED, BLACK, GREEN)))"
    count = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2)))"
             " (all player 'P (all (tuples 2 ('P iloc HAND) using (game points VALUE)) 'T (inc ('P sto SCORE) 1)))))")
    assert scores(game(f"{DEAL3} {count}", deck=deck), 40) == {(3, 3), (1, 1)}


def test_forget_drops_the_copy_read_from_any_end_or_place_of_a_memory_location() -> None:
    # each card remembered as it is dealt; the first copy forgotten, then player0's second and
    # player1's last
    one = ("(all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))"
           " (all player 'P (remember (top ('P iloc HAND)) (top ('P mem SEEN))))")
    deal = f"(do ((shuffle (game iloc STOCK)) {one} {one} {one}))"
    body = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))"
            " (all player 'P (forget (bottom ('P mem SEEN))))"
            " (forget (1 ((0 player) mem SEEN)))"
            " (forget (top ((1 player) mem SEEN)))"
            " (all player 'P (set ('P sto SCORE) (+ (* 10 (size ('P mem SEEN))) (sum ('P mem SEEN) using (game points VALUE)))))))")
    outcomes = scores(game(f"{deal} {body}"), 60)
    assert {a // 10 for a, _ in outcomes} == {b // 10 for _, b in outcomes} == {1}


def test_forget_of_a_card_variable_is_a_located_error_as_the_engine_cannot_play_it() -> None:
    body = ("(do ((all player 'P (all ('P iloc HAND) 'C (remember 'C (top ('P mem SEEN)))))\n"
            " (all player 'P (all ('P mem SEEN) 'C (forget 'C)))))")
    with pytest.raises(TranslationError) as info:
        compile_game(parse_recycle(game(f"{DEAL3} {body}"), "forget.rcy"))
    assert str(info.value).startswith("forget.rcy:3:") and "(forget (top LOC))" in str(info.value)


def test_cards_remembered_together_take_consecutive_places() -> None:
    # three copies at once (in card order here), the top one forgotten: two copies stay
    body = ("(do ((all player 'P (all ('P iloc HAND) 'C (remember 'C (top ('P mem SEEN)))))"
            " (all player 'P (forget (top ('P mem SEEN))))"
            " (all player 'P (set ('P sto SCORE) (size ('P mem SEEN))))))")
    assert scores(game(f"{DEAL3} {body}"), 10) == {(2, 2)}


def test_conditions_over_the_groups_of_a_partition() -> None:
    # a suit held twice or more (any), every suit held at most twice (all), how many suits twice
    count = ("(do ((all player 'P (do ("
             "((any (partition SUIT ('P iloc HAND)) 'G (>= (size 'G) 2)) (inc ('P sto SCORE) 100))"
             "((all (partition SUIT ('P iloc HAND)) 'G (<= (size 'G) 2)) (inc ('P sto SCORE) 10))"
             "(inc ('P sto SCORE) (size (filter (partition SUIT ('P iloc HAND)) 'G (== (size 'G) 2)))))))))")
    # three cards, three of each suit in six: a 2-1 split (100 + 10 + 1) or one suit (100)
    assert scores(game(f"{DEAL3} {count}"), 40) == {(111, 111), (100, 100)}


def test_a_wide_team_cell_increased_for_every_team_at_once() -> None:
    """A team cell held as digits (one branch adds 900000), increased for each team by an
    `all team`: the per-team adders merged into one over `(team ?t)` read the `team` facts,
    which had been pruned as unread (every team kept 0)."""
    body = ("(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 1 (move (top (game iloc STOCK)) (top ('P hloc HAND)))))"
            " (all team 'T ((== (size (game iloc STOCK)) 0) (inc ('T sto POINTS) 900000)))"
            " (all team 'T (inc ('T sto POINTS) (size (game iloc STOCK))))))")
    text = game(body, players=4, teams="(create teams (0, 2) (1, 3))",
                scoring="(scoring max ((team (current player)) sto POINTS))")
    assert scores(text, 3) == {(2, 2, 2, 2)}
    assert undefined_reads(compile_game(parse_recycle(text, "teams.rcy")).description) == []


def test_a_choice_among_teams() -> None:
    teams = "(create teams (0, 2) (1, 3))"
    body = ("(do ((shuffle (game iloc STOCK)))) (stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((any team 'T (do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"
            " (inc ('T sto TAKEN) 1)))))))")
    # (a team owns storage, not locations: the engine throws on ('T iloc PILE))
    runs = playouts(game(body, players=4, teams=teams, scoring="(scoring max 0)"))
    assert {o for p in runs for o in p.options} == {2} and {p.decisions for p in runs} == {6}


def test_the_size_of_collections_of_names_players_and_ranges() -> None:
    count = ("(do ((set (game sto N) 2)"
             " (all player 'P (set ('P sto SCORE) (+ (size (filter (ONE, TWO, THREE) 'K (!= TWO 'K)))"
             " (+ (size (other player)) (size (filter (range 1 .. 5) 'I (> 'I (game sto N))))))))))")
    assert scores(game(count)) == {(6, 6)}


# -- where a moved card goes ----------------------------------------------------------------------

def test_cards_put_under_the_bottom_of_a_pile_and_taken_from_it() -> None:
    # the deck bottom to top: 1R 1B 2R 2B 3R 3B. Two cards from the top go under the bottom
    # (3R 3B 1R 1B 2R 2B), the first player gets the top (2B), the second three (2R 1B 1R), the
    # first the bottom card (3R), then draws the last (3B)
    body = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))"
            " (repeat 2 (move (top (game iloc STOCK)) (bottom (game iloc STOCK))))"
            " (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))"
            " (repeat 3 (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))"
            " (move (bottom (game iloc STOCK)) (top ((0 player) iloc HAND)))))")
    score = "(scoring max (sum ((current player) iloc HAND) using (game points VALUE)))"
    assert scores(game(f"{body} {DRAW}", scoring=score)) == {(8, 4)}


def test_a_card_put_at_a_numbered_place_of_a_pile_whose_order_is_not_read() -> None:
    body = "(do ((shuffle (game iloc STOCK)) (move (top (game iloc STOCK)) (0 ((0 player) iloc HAND)))))"
    assert scores(game(f"{body} {DRAW}", scoring=HAND)) == {(4, 2)}


# -- point maps -----------------------------------------------------------------------------------

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


# -- names computed in play -------------------------------------------------------------------------

SUITS = ("(scoring max (+ (* 10 ((current player) sto RED)) ((current player) sto BLACK)))")


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


# -- integers and collections ---------------------------------------------------------------------

def test_powers_triangular_and_fibonacci_numbers_and_random_integers() -> None:
    body = ("(do ((set ((0 player) sto SCORE) (+ (^ 2 3) (+ (tri 3) (fib 5))))"
            " (set ((1 player) sto SCORE) (random 1 .. 3))))")
    got = scores(game(body), 20)
    assert {a for a, _ in got} == {19} and {b for _, b in got} == {1, 2, 3}


def test_a_disjunction_holds_the_cards_in_exactly_one_part() -> None:
    # the hand minus its RED cards: the BLACK ones (the first player draws the three BLACKs)
    black = ("(scoring max (size (disjunction ((current player) iloc HAND)"
             " (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) RED)))))")
    assert scores(game(DRAW, scoring=black)) == {(3, 0)}


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


def test_the_top_of_a_pile_after_its_top_card_was_taken_is_the_card_under_it() -> None:
    """Three cards put on a pile, then its top taken twice in one block: two cards, one in each
    hand (the second move took the card the first had moved again, leaving a hand empty)."""
    body = ("(do ((shuffle (game iloc STOCK))\n"
            "     (repeat 3 (move (top (game iloc STOCK)) (top (game vloc DISCARD))))\n"
            "     (move (top (game vloc DISCARD)) (top ((0 player) iloc HAND)))\n"
            "     (set ((0 player) sto SCORE) 1)\n"
            "     (move (top (game vloc DISCARD)) (top ((1 player) iloc HAND)))))")
    assert scores(game(body, scoring=HAND), games=4) == {(1, 1)}


def test_a_change_for_every_card_of_a_collection_counts_every_card() -> None:
    # the engine adds once per card; a parallel effect over the cards would add once in all
    deal = "(do ((shuffle (game iloc STOCK)) (repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))"
    every = f"{deal} (all ((0 player) iloc HAND) 'C (inc ((0 player) sto SCORE) 1)))) {DRAW}"
    assert scores(game(every)) == {(3, 0)}
    reds = f"{deal} (all ((0 player) iloc HAND) 'C ((== (cardatt SUIT 'C) RED) (dec ((1 player) sto SCORE) 2))))) {DRAW}"
    assert {b for _, b in scores(game(reds), 30)} == {0, -2, -4, -6}


def test_forget_drops_the_copy_remembered_last() -> None:
    # copies of THREE BLACK then THREE RED are remembered; forgetting the top one leaves BLACK
    body = ("(do ((set (game points COLOUR) (((SUIT : BLACK) 1) ((SUIT : RED) 2)))"
            " (remember (top (game iloc STOCK)) (top (game mem SEEN)))"
            " (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))"
            " (remember (top (game iloc STOCK)) (top (game mem SEEN)))"
            " (move (top (game iloc STOCK)) (top ((1 player) iloc HAND)))"
            " %s))")
    seen = "(scoring max (score (top (game mem SEEN)) using (game points COLOUR)))"
    assert scores(game(f"{body % '(forget (top (game mem SEEN)))'} {DRAW}", scoring=seen)) == {(1, 1)}
    assert scores(game(f"{body % '(turn pass)'} {DRAW}", scoring=seen)) == {(2, 2)}


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


VALUE = "(set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))"


def test_a_pile_of_one_card_moved_whole_leaves_that_card_on_top() -> None:
    """``repeat all`` moving the top of a one-card pile onto a pile with a known top: the moved
    card is the new top (GolfSix4 turns its one face-down card per column up this way, then
    compares the columns' tops; the order was taken for lost and the comparison for false)."""
    body = (f"(do ({VALUE} (shuffle (game iloc STOCK))\n"
            "     (move (top (game iloc STOCK)) (top (game vloc PILE)))\n"
            "     (move (top (game iloc STOCK)) (top (game vloc SPOT)))\n"
            "     (set ((0 player) sto SCORE) (score (top (game vloc SPOT)) using (game points VALUE)))\n"
            "     (repeat all (move (top (game vloc SPOT)) (top (game vloc PILE))))\n"
            "     (set ((1 player) sto SCORE) (score (top (game vloc PILE)) using (game points VALUE)))))")
    found = scores(game(body), games=30)
    assert found == {(1, 1), (2, 2), (3, 3)}


def test_a_guard_that_reads_a_lost_order_fails_the_game_visibly() -> None:
    """Two cards moved whole onto a pile whose top is known: its order is not tracked, so a
    conditional block reading its top ends the game with ``(failed order)``. The block's guard is
    read while control resolves the step before it; the failure was written for the guarded step
    itself, which a false guard skips, and the game went on as if the guard were false."""
    body = (f"(do ({VALUE} (shuffle (game iloc STOCK))\n"
            "     (move (top (game iloc STOCK)) (top (game vloc PILE)))\n"
            "     (repeat 2 (move (top (game iloc STOCK)) (top (game vloc SPOT))))\n"
            "     (repeat all (move (top (game vloc SPOT)) (top (game vloc PILE))))\n"
            "     ((> (score (top (game vloc PILE)) using (game points VALUE)) 0)\n"
            "      (do ((set ((0 player) sto SCORE) 1) (set ((1 player) sto SCORE) 1))))))")
    translation = compile_game(parse_recycle(game(body), "lost.rcy"))
    machine = make_machine(translation.description, "fast")
    rng = random.Random(3)
    assert {play(machine, translation.description, rng).ending for _ in range(4)} == {"order"}


def test_the_bottom_and_top_cards_of_a_shuffled_pile() -> None:
    """The shuffle of a pile whose bottom card or sequences are read is laid out card by card:
    the bottom and top cards differ, and the bottom after the first is taken is another card."""
    body = (f"(do ({VALUE} (shuffle (game iloc STOCK))\n"
            "     (move (bottom (game iloc STOCK)) (top ((0 player) iloc HAND)))\n"
            "     (move (top (game iloc STOCK)) (top ((1 player) iloc HAND)))\n"
            "     ((== (cardatt RANK (bottom (game iloc STOCK))) (cardatt RANK (top ((0 player) iloc HAND))))"
            " (inc ((0 player) sto SCORE) 10))\n"
            "     (move (bottom (game iloc STOCK)) (top ((0 player) iloc HAND)))\n"
            "     (set ((2 player) sto SCORE) (sum (top 2 (game iloc STOCK)) using (game points VALUE)))\n"
            "     (all player 'P (inc ('P sto SCORE) (sum ('P iloc HAND) using (game points VALUE))))))")
    found = scores(game(body, players=3), games=60)
    # the same rank twice at the bottom in one game out of five
    assert {first >= 10 for first, _, _ in found} == {True, False}
    assert all(2 <= first % 10 <= 6 and 1 <= second <= 3 and 2 <= third <= 6 for first, second, third in found), found


def test_the_top_and_bottom_cards_of_a_pile_as_sequences() -> None:
    """``(top 2 PILE)`` and ``(bottom 2 PILE)`` of a pile of four cards: the two last put and the
    two first, which together are the whole pile (its order is then kept whole)."""
    body = (f"(do ({VALUE} (shuffle (game iloc STOCK))\n"
            "     (repeat 4 (move (top (game iloc STOCK)) (top (game vloc PILE))))\n"
            "     (set ((0 player) sto SCORE) (sum (top 2 (game vloc PILE)) using (game points VALUE)))\n"
            "     (set ((1 player) sto SCORE) (sum (bottom 2 (game vloc PILE)) using (game points VALUE)))\n"
            "     (set ((2 player) sto SCORE) (sum (game vloc PILE) using (game points VALUE)))))")
    found = scores(game(body, players=3), games=30)
    assert all(top + bottom == whole for top, bottom, whole in found), found
    assert len({top for top, _, _ in found}) > 1 and len({bottom for _, bottom, _ in found}) > 1
    # N computed: the same
    computed = body.replace("(do (", "(do ((set (game sto N) 2) ").replace("(top 2 ", "(top (game sto N) ")
    assert "(top (game sto N) " in computed
    found = scores(game(computed, players=3), games=30)
    assert all(top + bottom == whole for top, bottom, whole in found), found


def test_the_top_cards_of_a_pile_whose_first_card_moves_away() -> None:
    """The first card put on a pile is taken from its bottom, then one more put on its top:
    ``(top 1 PILE)`` is the last card put, ``(bottom 1 PILE)`` the second card put."""
    body = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))\n"
            "     (repeat 3 (move (top (game iloc STOCK)) (top (game vloc PILE))))\n"
            "     (move (bottom (game vloc PILE)) (top ((0 player) iloc HAND)))\n"
            "     (move (top (game iloc STOCK)) (top (game vloc PILE)))\n"
            "     (set ((0 player) sto SCORE) (sum (top 1 (game vloc PILE)) using (game points VALUE)))\n"
            "     (set ((1 player) sto SCORE) (sum (bottom 1 (game vloc PILE)) using (game points VALUE)))))")
    # the deck deals from its top, the last card made first: THREE BLACK, THREE RED, TWO BLACK
    # onto the pile; THREE BLACK leaves from its bottom; TWO RED goes on its top
    assert scores(game(body)) == {(2, 3)}


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


def test_a_card_read_and_taken_at_a_numbered_place_of_a_pile() -> None:
    """``(N PILE)`` counts from the bottom card (0), as CardStock's ``cardList.Get(N)``: the card
    read at place 1 is the card then taken from there, and the places close up under it."""
    def body(shuffle: str) -> str:
        return (f"(do ({VALUE} {shuffle}\n"
                "     (repeat 3 (move (top (game iloc STOCK)) (top (game vloc PILE))))\n"
                "     (set ((0 player) sto SCORE) (score (1 (game vloc PILE)) using (game points VALUE)))\n"
                "     (move (1 (game vloc PILE)) (top ((1 player) iloc HAND)))\n"
                "     (set ((1 player) sto SCORE) (sum ((1 player) iloc HAND) using (game points VALUE)))\n"
                "     (set ((2 player) sto SCORE) (+ (score (0 (game vloc PILE)) using (game points VALUE))\n"
                "                                    (* 10 (score (1 (game vloc PILE)) using (game points VALUE)))))))")
    # in the order the deck was made: THREE BLACK, THREE RED, TWO BLACK put on the pile
    assert scores(game(body(""), players=3)) == {(3, 3, 23)}
    found = scores(game(body("(shuffle (game iloc STOCK))"), players=3), games=30)
    assert all(read == taken for read, taken, _ in found) and len(found) > 2, found


def test_cards_put_at_numbered_places_of_a_pile_whose_order_is_read() -> None:
    """``(move CARD (N PILE))`` inserts at place N counted from the bottom card (CardStock's
    ``cards.Insert(N, card)``): between two cards, under the bottom one (0), on the top (N the
    pile's size)."""
    value = "(game points VALUE)"
    body = (f"(do ({VALUE}\n"
            "     (repeat 3 (move (top (game iloc STOCK)) (top (game vloc PILE))))\n"
            "     (move (top (game iloc STOCK)) (1 (game vloc PILE)))\n"
            f"     (set ((0 player) sto SCORE) (+ (score (1 (game vloc PILE)) using {value})\n"
            f"                                    (* 10 (score (2 (game vloc PILE)) using {value}))))\n"
            "     (move (top (game iloc STOCK)) (0 (game vloc PILE)))\n"
            f"     (set ((1 player) sto SCORE) (+ (score (bottom (game vloc PILE)) using {value})\n"
            f"                                    (* 10 (score (1 (game vloc PILE)) using {value}))))\n"
            "     (move (top (game iloc STOCK)) (5 (game vloc PILE)))\n"
            f"     (set ((2 player) sto SCORE) (+ (sum (top 2 (game vloc PILE)) using {value})\n"
            f"                                    (* 10 (score (top (game vloc PILE)) using {value}))))))")
    # the stock deals THREE BLACK, THREE RED, TWO BLACK onto the pile; TWO RED goes to place 1
    # (over THREE BLACK), ONE BLACK under them all, ONE RED on the top of the six
    assert scores(game(body, players=3)) == {(32, 31, 13)}


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
