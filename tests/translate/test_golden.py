"""Golden tests, one per construct: a small RECYCLE game in, the rules it must give out.

Each test names the rules its construct is translated to, as they read in the KIF text (the
whole output of these games is short: ``ggp translate`` prints it). A rule listed must be in the
translation exactly; the games also play (every rule is exercised by the random playouts of
``test_corpus.py`` on the corpus games that use the construct).
"""

from __future__ import annotations

import random

import pytest

from ggp.reasoner import make_machine
from ggp.reasoner.play import random_playout
from translators.recycle import parse_recycle
from translators.recycle.rulebook.names import is_numbered
from translators.recycle.translate import compile_game
from translators.recycle.translation import Translation


def translated(text: str) -> Translation:
    return compile_game(parse_recycle(text, "golden.rcy"))


def rules(text: str) -> set[str]:
    """The rules of a translation, one string each (comments dropped)."""
    return {line for line in translated(text).kif.splitlines() if line.startswith("(")}


def game(body: str, deck: str = "(deck (RANK (JACK, QUEEN, KING)))", players: int = 2,
         scoring: str = "(scoring max ((current player) sto SCORE))") -> str:
    return (f"(game (setup (create players {players}) (create deck (game iloc STOCK) {deck}))\n"
            f" {body}\n {scoring})")


#: A scoring that reads the cell POT (a cell no rule reads makes no rules: ``analysis/unread.py``).
POT = "(scoring max (game sto POT))"


def assert_has(text: str, *expected: str) -> None:
    got = rules(text)
    missing = [rule for rule in expected if rule not in got]
    assert not missing, "missing:\n" + "\n".join(missing) + "\n\ngot:\n" + "\n".join(sorted(got))


def test_cards_are_named_from_their_attributes() -> None:
    deal = "(do ((shuffle (game iloc STOCK)) (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))))"
    assert_has(game(deal), "(init (at jack (loc game iloc stock)))", "(init (at king (loc game iloc stock)))")
    # two attributes tell the cards apart: rank and suit (the colour is implied by the suit)
    deck = "(deck (RANK (ACE, TWO)) (COLOR (RED (SUIT (HEARTS, DIAMONDS))) (BLACK (SUIT (CLUBS)))))"
    assert_has(game(deal, deck=deck),
               "(init (at ace_hearts (loc game iloc stock)))", "(init (at two_clubs (loc game iloc stock)))")


def test_dealing_from_a_shuffled_pile_is_random_drawing() -> None:
    text = game("(do ((shuffle (game iloc STOCK)) (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))))")
    assert_has(text,
               "(<= (topcard ?l ?c) (true (ontop ?l ?c)))",
               "(<= (topcard ?l ?c) (heaptop ?l) (does random (draw ?c)))",
               "(<= (move 0 ?c1 (loc game iloc stock) (loc player0 iloc hand)) (true (pc b1_2)) "
               "(topcard (loc game iloc stock) ?c1) (true (at ?c1 (loc game iloc stock))))",
               "(<= (next (at ?c ?t)) (move ?i ?c ?f ?t))",
               # the frame per kind of step (rulebook/frame.py): the deal's step asks about the deal only
               "(<= frame_stock_step (true (pc b1_2)))",
               "(<= (frame_stock_moving ?m1) frame_stock_step (topcard (loc game iloc stock) ?m1) "
               "(true (at ?m1 (loc game iloc stock))))",
               "(<= (moving ?c) frame_stock_step (frame_stock_moving ?c))",
               "(<= (next (at ?c ?l)) (true (at ?c ?l)) (not (moving ?c)))")


def test_a_card_moved_out_of_sight_is_seen_as_hidden() -> None:
    text = game("(do ((shuffle (game iloc STOCK)) (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))))")
    assert_has(text,
               "(canview player0 (loc player0 iloc hand))",
               "(<= (sees ?r (moved ?i ?f ?t ?c)) (player ?r) (move ?i ?c ?f ?t) (canview ?r ?t))",
               # the card, which the percept does not name, projected out (rulebook/project.py)
               "(<= (sees_proj 1 ?x0 ?x1 ?x2) (move ?x0 ?x3 ?x1 ?x2))",
               "(<= (sees ?r (moved ?i ?f ?t hidden)) (player ?r) (sees_proj 1 ?i ?f ?t) (not (canview ?r ?f)) "
               "(not (canview ?r ?t)))")


def test_an_increment_reads_the_successor_table_within_the_cells_range() -> None:
    text = game("(do ((inc (game sto POT) 1)))", scoring=POT)
    assert_has(text,
               "(<= (stoset game pot ?n2) (at_step b1_1) (true (sto game pot ?n1)) (plus ?n1 1 ?n2) (pot_range ?n2))",
               "(<= (increase_pot_ok ?x) (plus ?x 1 ?z) (pot_range ?z))",
               "(pot_range 0)",
               "(<= (pot_range ?y) (succ ?x ?y) (pot_range ?x) (distinct ?x 1))",
               "(<= (plus ?x 0 ?x) (number ?x))",
               "(<= (plus ?x ?y ?z) (addend ?y) (succ ?w ?y) (plus ?x ?w ?v) (succ ?v ?z))",
               "(succ 0 1)")


def test_several_changes_of_a_cell_in_one_step_chain_one_after_the_other() -> None:
    assert_has(game("(do ((inc (game sto POT) 1) (inc (game sto POT) 2)))", scoring=POT),
               "(<= (adds_pot_delta 1 game 1) (at_step b1_1))",
               "(<= (adds_pot_delta 2 game 2) (at_step b1_1))",
               "(<= (adds_pot_sum 0 ?o ?s1) (adds_pot_touched ?o) (true (sto ?o pot ?s1)))",
               "(<= (adds_pot_sum 2 ?o ?s2) (adds_pot_sum 1 ?o ?s1) (adds_pot_delta 2 ?o ?d) (plus ?s1 ?d ?s2) "
               "(pot_range ?s2))",
               "(<= (stoset ?o pot ?s1) (adds_pot_sum 2 ?o ?s1))")


def test_options_are_named_after_the_words_they_set() -> None:
    body = ("(stage player (end (== (game str LAST) STOP))"
            " (choice (((== (game str LAST) GO) (set (game str LAST) STOP))"
            "          ((!= (game str LAST) STOP) (set (game str LAST) GO)))))")
    got = rules(game(body))
    assert "(<= (legal ?seat_s1 stop) (at_step k1) (rseat_last ?seat_s1) (true (str game last go)))" in got
    assert any(r.startswith("(<= (legal ?seat_s1 go)") for r in got)
    assert not any("choose" in r for r in got)


def test_a_card_option_is_play_card() -> None:
    body = ("(do ((repeat 2 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))))"
            " (stage player (end (== (size ((0 player) iloc HAND)) 0))"
            "  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc TABLE)))))))")
    got = rules(game(body))
    assert any(r.startswith("(<= (legal ?seat_s1 (play ?c") for r in got), sorted(got)


def test_max_with_ties_broken_by_random() -> None:
    body = ("(do ((set (game points VALUE) (((RANK : KING) 3) ((RANK : QUEEN) 2) ((RANK : JACK) 1)))"
            " (move (top (game iloc STOCK)) (top (game vloc TABLE)))"
            " (move (max (game vloc TABLE) using (game points VALUE)) (top (game vloc WON)))))")
    got = rules(game(body))
    assert "(points_value jack 1)" in got and "(points_value king 3)" in got
    # the members' scores compared through a table of the scores VALUE gives, not a ladder
    assert [r for r in got if r.startswith("(<= (max_table_reach")] == [
        "(<= (max_table_reach ?n3) (true (at ?c2 (loc game vloc table))) (points_value ?c2 ?n3))"], sorted(got)
    assert "(max_table_above 1 3)" in got and "(max_table_above 3 1)" not in got, sorted(got)
    assert not any(r.startswith("(<= (max_table_reach") and "(succ " in r for r in got), sorted(got)
    assert any(r.startswith("(<= max_table_tie ") for r in got)


def test_an_award_missed_on_a_literal_pair_ignores_its_computed_pair() -> None:
    # The two of hearts misses ((RANK : ACE) (SUIT : TRUMP)) on its rank, whatever TRUMP holds: its
    # points must not depend on TRUMP (they once required TRUMP != HEARTS: no points at all then).
    body = ("(do ((set (game str TRUMP) HEARTS)"
            " (set (game points P) (((RANK : ACE) (SUIT : (game str TRUMP)) 5) ((RANK : TWO) 2)))"
            " (move (top (game iloc STOCK)) (top (game vloc TABLE)))"
            " (move (max (game vloc TABLE) using (game points P)) (top (game vloc WON)))))")
    deck = "(deck (RANK (ACE, TWO)) (COLOR (RED (SUIT (HEARTS, DIAMONDS))) (BLACK (SUIT (CLUBS)))))"
    assert_has(game(body, deck=deck),
               "(<= (points_p two_hearts 2) (true (pmap game p (site2 ?d0))))",
               "(<= (points_p ace_hearts 5) (true (pmap game p (site2 hearts))))",
               "(<= (points_p ace_hearts 0) (true (pmap game p (site2 ?d0))) (distinct ?d0 hearts))")


def test_goals_rank_the_players_with_four_generic_rules() -> None:
    got = rules(game("(do ((inc ((0 player) sto SCORE) 1)))"))
    assert "(<= (rank ?p 0 0 0) (seat ?p))" in got
    assert "(<= (goal ?p ?g) normal_end (rank ?p 2 ?b ?t) (goalvalue ?b ?t ?g))" in got
    # the score one less than ?w, projected out (rulebook/project.py)
    assert "(<= (beats ?p ?q) (beats_proj 1 ?q ?w) (atleast ?p ?w))" in got
    assert "(<= (beats_proj 1 ?x0 ?x1) (score ?x0 ?x2) (succ ?x2 ?x1))" in got
    assert "(goalvalue 1 0 100)" in got and "(goalvalue 0 1 50)" in got


def test_the_choice_counter_is_three_digits() -> None:
    # it stops at 500; the engine makes one choice more (the one that passes the limit)
    body = "(stage player (end (== (game str DONE) YES)) (choice ((set (game str DONE) YES))))"
    assert_has(game(body),
               "(init (choices 0 0 0))",
               "(<= (next (choices ?a ?b ?c2)) (at_step k1) (true (choices ?a ?b ?c)) (succ ?c ?c2) (distinct ?c 9) "
               "(distinct ?a 5))",
               "(<= (next (choices ?a ?b2 0)) (at_step k1) (true (choices ?a ?b 9)) (succ ?b ?b2) (distinct ?b 9) "
               "(distinct ?a 5))",
               "(<= (next (choices 5 0 1)) (at_step k1) (true (choices 5 0 0)))",
               "(<= limit (at_step k1) (true (choices 5 0 1)))", "(<= terminal limit)")


def test_sums_compared_with_a_bound_are_capped_whatever_the_card_values() -> None:
    # two point maps whose sums over the same hand start from different values: the capped
    # addition they share must not keep the bounds of the first one it was made for
    deck = "(deck (RANK (A, TWO)))"
    body = ("(do ((move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))"
            " (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))"
            " (set (game points HIGH) (((RANK : A) 11) ((RANK : TWO) 2)))"
            " (set (game points LOW) (((RANK : A) 1) ((RANK : TWO) 2)))"
            " ((< (sum ((0 player) iloc HAND) using (game points HIGH)) 22) (inc ((0 player) sto SCORE) 1))"
            " ((< (sum ((0 player) iloc HAND) using (game points LOW)) 22) (inc ((0 player) sto SCORE) 2))))")
    assert_has(game(body, deck=deck), "(<= (plus_upto 23 ?x ?y ?z) (plus ?x ?y ?z) (not (above 23 ?z)))")
    machine = make_machine(translated(game(body, deck=deck)).description)
    state = machine.initial_state()
    while not machine.is_terminal(state):
        state = machine.next_state(state, [machine.legal_moves(state, r)[0] for r in machine.roles])
    assert "(sto player0 score 3)" in {str(fluent) for fluent in state.fluents}


#: A stage of three steps, the last two under guards: the second runs when ROUND is 1, the
#: third when the current player's SCORE is above 0.
GUARDED = ("(stage player (end (== (game sto ROUND) 2))"
           " (do ((inc (game sto ROUND) 1)))"
           " (do (((== (game sto ROUND) 1) (inc ((current player) sto SCORE) 1))))"
           " (do (((> ((current player) sto SCORE) 0) (inc (game sto ROUND) 1)))))")


def test_guarded_steps_are_resolved_by_relations_with_the_step_as_argument() -> None:
    # from resume point b1_2 (after step b1_1): b1_2 runs if ROUND is 1; else control goes on
    # at step b1_3 (join b1_2 step_b1_3 1), as it does from resume point b1_3: b1_3 runs if its
    # guard holds (runs b1_3 1); else the pass ends, as it does from resume point s1i1 (join
    # s1i1 item_s1_1 1): the stage's end is tested there once for both, and control leaves the
    # stage (to the end of the game) or starts the next pass with the next seat
    assert_has(game(GUARDED),
               "(<= (runs b1_3 1) (true (seat s1 ?p13)) (true (sto ?p13 score ?n14)) (gt 0 0 201 ?n14))",
               "(<= (at_step b1_2) (true (pc b1_2)) (true (sto game round 1)))",
               "(<= (join b1_2 step_b1_3 1) (true (pc b1_2)) (not (true (sto game round 1))))",
               "(<= (join b1_2 step_b1_3 1) (true (pc b1_3)))",
               "(<= (at_step b1_3) (join b1_2 step_b1_3 1) (runs b1_3 1))",
               "(<= (join s1i1 item_s1_1 1) (join b1_2 step_b1_3 1) (not (runs b1_3 1)))",
               "(<= (join s1i1 item_s1_1 1) (true (pc s1i1)))",
               "(<= (join s0i1 item_s0_1 1) (join s1i1 item_s1_1 1) (true (sto game round 2)))",
               "(<= (at_step end) (join s0i1 item_s0_1 1))",
               "(<= (at_step b1_1) (join s1i1 item_s1_1 1) (not (true (sto game round 2))))",
               "(<= (rseat_round ?p3) (join s1i1 item_s1_1 1) (not (true (sto game round 2))) "
               "(next_seat round 1 ?p3))",
               "(<= (next_seat round 1 ?v) (true (queue s1 ?v)))",
               "(<= (next_seat round 1 ?v) (true (seat s1 ?p4)) (not (hasqueue s1)) (nextseat ?p4 ?v))",
               # a game without a choice runs at most 201 of the engine's nodes: no cell grows past
               "(gt 0 0 201 1)", "(gt 0 0 201 3)")


def test_a_guarded_step_runs_or_is_skipped_on_the_way() -> None:
    # two guarded steps in a row: resolving from the stage's start (resume point s1i1), the
    # walk runs b1_1 if ROUND is 1 (run s1i1 b1_1 1), else skips it (skip s1i1 b1_1 1) and
    # goes on to b1_2
    body = ("(stage player (end (== (game sto ROUND) 3))"
            " (do (((== (game sto ROUND) 1) (inc (game sto ROUND) 1))))"
            " (do (((== (game sto ROUND) 2) (inc (game sto ROUND) 1))))"
            " (do ((inc (game sto ROUND) 1))))")
    assert_has(game(body),
               "(<= (run s1i1 b1_1 1) (true (pc s1i1)) (not (true (sto game round 3))) (true (sto game round 1)))",
               "(<= (skip s1i1 b1_1 1) (true (pc s1i1)) (not (true (sto game round 3))) "
               "(not (true (sto game round 1))))",
               "(<= (at_step b1_1) (run s1i1 b1_1 1))",
               "(<= (rseat_round ?p3) (run s1i1 b1_1 1) (next_seat round 1 ?p3))",
               "(<= (at_step b1_2) (skip s1i1 b1_1 1) (true (sto game round 2)))",
               "(<= (next_seat round 1 ?v) (true (queue s1 ?v)))",
               "(<= (next_seat round 1 ?v) (true (seat s1 ?p4)) (not (hasqueue s1)) (nextseat ?p4 ?v))")
    names = {r.head.name for r in translated(game(body)).description.rules}
    assert not [n for n in names if is_numbered(n)]


def _guarded_chain(n: int) -> str:
    """A stage of ``n`` steps, each run only when ROUND has its own value (a step each: each
    reads the pile the one before it draws from)."""
    steps = " ".join(f"(do (((== (game sto ROUND) {k}) (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
                     for k in range(n))
    return f"(stage player (end (== (game sto ROUND) {n})) {steps} (do ((inc (game sto ROUND) 1))))"


def test_walks_that_meet_share_the_rest_of_the_chain() -> None:
    # control can resume after any of the n guarded steps; from there it goes down the rest of
    # the chain, which every such walk shares: the control rules grow with n, not with n * n
    # (the engine's node count, ``(idle_w ...)``, is kept within as many rules: ``emit/idle.py``)
    sizes = [sum(1 for line in translated(game(_guarded_chain(n))).kif.splitlines()
                 if line.startswith("(<= (") and not line.startswith("(<= (idle_")
                 and ("(join " in line or "(at_step " in line)) for n in (10, 20, 40)]
    assert sizes[2] - sizes[1] <= 2.2 * (sizes[1] - sizes[0]), sizes


@pytest.mark.parametrize("body", [
    "(do ((shuffle (game iloc STOCK)) (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))))",
    "(stage player (end (== (game str LAST) STOP)) (choice (((== (game str LAST) GO) (set (game str LAST) STOP))"
    " ((!= (game str LAST) STOP) (set (game str LAST) GO)))))",
    GUARDED,
])
def test_small_games_name_no_relation_by_number(body: str) -> None:
    description = translated(game(body)).description
    names = {r.head.name for r in description.rules}
    assert [n for n in names if is_numbered(n)] == []


@pytest.mark.parametrize("body", [
    "(do ((shuffle (game iloc STOCK)) (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))))",
    "(stage player (end (== (game str LAST) STOP)) (choice (((== (game str LAST) GO) (set (game str LAST) STOP))"
    " ((!= (game str LAST) STOP) (set (game str LAST) GO)))))",
])
def test_golden_games_play_to_the_end(body: str) -> None:
    machine = make_machine(translated(game(body)).description)
    for seed in range(5):
        assert random_playout(machine, random.Random(seed)).finished
