"""Each pass on small inputs: what the analyses find, and the clean-up passes over rules, rules
in and rules out."""

from __future__ import annotations

from ggp.gdl.kif import read_kif
from ggp.gdl.rules import Rule
from tests.conftest import RULESHEETS
from translators.recycle import (
    parse_fragment,
    parse_recycle,
    parse_recycle_file,
    print_recycle,
)
from translators.recycle.analysis.loops import stage_passes
from translators.recycle.analysis.moves import move_names
from translators.recycle.ir.forks import lift_groups
from translators.recycle.ir.rebuilt import moves_built_once
from translators.recycle.rulebook.frame import frame_by_step
from translators.recycle.rulebook.guards import pc_guards
from translators.recycle.rulebook.inline import inline
from translators.recycle.rulebook.merge import merge
from translators.recycle.rulebook.names import (
    node_words,
    rename,
    stage_words,
    word_names,
)
from translators.recycle.rulebook.order import binders_first, no_left_recursion
from translators.recycle.rulebook.owners import fold_by_owner
from translators.recycle.rulebook.steps import fold_steps
from translators.recycle.symbols.vocabulary import card_constant
from translators.recycle.syntax.nodes import Do
from translators.recycle.translate import analysed, compile_game


def kif_rules(text: str) -> list[Rule]:
    description, problems = read_kif(text)
    assert not problems
    return list(description.rules)


def out(groups: list[tuple[str, list[Rule]]]) -> list[str]:
    return [str(r) for _, rs in groups for r in rs]


BETTING = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (JACK, KING)))))
 (stage player
  (end (or (== (game str LAST) FOLD) (== (game str LAST) CALL)
           (all player 'P (== ('P str ACTION) CHECK))))
  (choice (((!= (game str LAST) BET) (do ((set (game str LAST) CHECK) (set ((current player) str ACTION) CHECK))))
           ((!= (game str LAST) BET) (do ((set (game str LAST) BET) (inc (game sto POT) 1))))
           ((== (game str LAST) BET) (set (game str LAST) FOLD))
           ((== (game str LAST) BET) (do ((set (game str LAST) CALL) (inc (game sto POT) 1)))))))
 (scoring max (game sto POT)))"""

ENDLESS = """(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (JACK, KING)))))
 (stage player (end (== (game str LAST) STOP))
  (choice ((set (game str LAST) GO) (set (game str LAST) AGAIN))))
 (scoring max (game sto POT)))"""


# -- analysis ------------------------------------------------------------------------------------

def test_a_betting_round_is_bounded_by_exploring_its_words() -> None:
    comp, _ = analysed(parse_recycle(BETTING))
    (stage,) = comp.program.stages.values()
    assert stage_passes(comp.model, comp.program, stage) == 3  # check, bet, call
    # the pot: at most one of the options that raise it per pass, three passes
    assert comp.ranges.cell("game", "POT") == (0, 3)


def test_a_round_that_can_go_on_for_ever_has_no_bound() -> None:
    comp, _ = analysed(parse_recycle(ENDLESS))
    (stage,) = comp.program.stages.values()
    assert stage_passes(comp.model, comp.program, stage) is None


def test_kuhns_betting_round() -> None:
    comp, _ = analysed(parse_recycle_file(RULESHEETS / "kuhn.rcy"))
    assert [stage_passes(comp.model, comp.program, s) for s in comp.program.stages.values()] == [3]


def test_moves_are_named_after_what_their_options_do() -> None:
    comp, _ = analysed(parse_recycle(BETTING))
    assert sorted(str(n) for n in move_names(comp.program).values()) == ["bet", "call", "check", "fold"]
    comp, _ = analysed(parse_recycle(ENDLESS))
    assert list(move_names(comp.program).values()) == ["go", "again"]


def test_cards_are_named_by_the_fewest_attributes_that_tell_them_apart() -> None:
    comp, _ = analysed(parse_recycle_file(RULESHEETS / "kuhn.rcy"))
    assert [card_constant(comp.model, c.id).name for c in comp.model.cards] == ["jack", "queen", "king"]
    comp, _ = analysed(parse_recycle_file(RULESHEETS / "agram.rcy"))
    names = [card_constant(comp.model, c.id).name for c in comp.model.cards]
    assert len(set(names)) == len(names) == 35 and names[0] == "three_hearts"


def test_stage_words_come_from_the_end_conditions() -> None:
    comp, _ = analysed(parse_recycle_file(RULESHEETS / "agram.rcy"))
    words = stage_words({sid: node_words(stage.end) for sid, stage in comp.program.stages.items()})
    assert words == {"s0": "game", "s1": "hand", "s2": "trick"}


# -- clean-up passes over the rules ----------------------------------------------------------------

def test_inline_a_relation_used_once() -> None:
    rules = kif_rules("(<= p (true (a ?x)) (q ?x)) (<= (q ?y) (true (b ?y)) (true (c ?y)))")
    assert out(inline([("", rules)])) == ["(<= p (true (a ?x)) (true (b ?x)) (true (c ?x)))"]


def test_inline_keeps_relations_read_under_not_or_with_a_hidden_variable() -> None:
    rules = kif_rules("(<= p (not q)) (<= q (true (a ?x)) (true (b ?x)))"
                      " (<= r (s ?x)) (<= (s ?x) (true (c ?x ?y)))")
    assert out(inline([("", rules)])) == [str(r) for r in rules]


def test_merge_relations_equal_but_for_their_names() -> None:
    rules = kif_rules("(<= a (true (x ?v))) (<= b (true (x ?w))) (<= terminal a b)")
    assert out(merge([("", rules)], {})) == ["(<= a (true (x ?v)))", "(<= terminal a a)"]


def test_merge_relations_equal_up_to_a_seat() -> None:
    rules = kif_rules("(<= h0 (true (at ?c (loc player0 hand)))) (<= h1 (true (at ?c (loc player1 hand))))"
                      " (<= terminal h0 (not h1))")
    assert out(merge([("", rules)], {"seat": ["player0", "player1"]})) == [
        "(<= (h0 ?d) (true (at ?c (loc ?d hand))))", "(<= terminal (h0 player0) (not (h0 player1)))"]


def test_numbered_relations_take_the_games_words() -> None:
    rules = kif_rules("(<= not_3 (not (true (str player0 action check)))) (<= terminal not_3)"
                      " (<= (max_1_reach ?v) (true (pts ?v))) (<= (max_1_value ?v) (max_1_reach ?v))"
                      " (<= (goal player0 100) (max_1_value 3))")
    names = word_names([("", rules)], hints={"max_1": ["trick", "strength"]})
    assert names == {"not_3": "not_action_check", "max_1_reach": "max_trick_reach", "max_1_value": "max_trick_value"}
    assert out(rename([("", rules)], names))[1] == "(<= terminal not_action_check)"


def test_left_recursion_gets_its_binding_literals_first() -> None:
    rules = kif_rules("(succ 0 1) (succ 1 2) (r 0) (<= (r ?y) (r ?x) (succ ?x ?y) (distinct ?x 1))")
    assert out(no_left_recursion([("", rules)]))[-1] == "(<= (r ?y) (succ ?x ?y) (r ?x) (distinct ?x 1))"
    # a rule whose first call is of another relation, and a chain over constant positions, stay
    kept = "(<= (s 2 ?n) (s 1 ?n) (t ?n))"
    rules = kif_rules("(t 1) (s 0 1) (<= (s 1 ?n) (s 0 ?n)) " + kept + " (<= (r ?y) (succ ?x ?y) (r ?x))")
    assert kept in out(no_left_recursion([("", rules)]))
    assert "(<= (r ?y) (succ ?x ?y) (r ?x))" in out(no_left_recursion([("", rules)]))
    # a rule that only calls itself says nothing, and a top-down prover would never leave it
    rules = kif_rules("(succ 0 1) (<= (r ?y) (succ ?x ?y)) (<= (r ?y) (r ?y))")
    assert out(no_left_recursion([("", rules)])) == ["(succ 0 1)", "(<= (r ?y) (succ ?x ?y))"]


def test_a_negation_comes_after_the_literals_that_bind_its_variables() -> None:
    # Santase's non-trump marriage: read left to right with ?s unbound, the negation asks for no
    # trump at all (the GameController's prover added no points where clingo added 20)
    rules = kif_rules("(<= part_trump (not (true (str game trump ?s))) (true (bound s2 ?s)))"
                      " (<= (r ?c) (distinct ?c a) (not (p ?c)) (card ?c) (q ?c ?d) (not (p ?d)))")
    assert out(binders_first([("", rules)])) == [
        "(<= part_trump (true (bound s2 ?s)) (not (true (str game trump ?s))))",
        "(<= (r ?c) (card ?c) (distinct ?c a) (not (p ?c)) (q ?c ?d) (not (p ?d)))"]


FRAME = """(<= (at_step b1) (true (pc b1))) (<= (at_step b2) (true (pc b2)))
 (<= (at_step k1) (true (pc s1)) (not over)) (<= (at_step k1) (true (pc s2)))
 (<= (move 0 ?c (loc stock) (loc hand)) (at_step b1) (topcard ?c))
 (<= (move 0 ?c (loc stock) (loc pile)) (at_step b2) (topcard ?c))
 (<= (move 1 ?c (loc hand) (loc trick)) (at_step k1) (does p (play ?c)))
 (<= (moving ?c) (move ?i ?c ?f ?t))
 (<= (next (at ?c ?t)) (move ?i ?c ?f ?t))
 (<= (next (at ?c ?l)) (true (at ?c ?l)) (not (moving ?c)))"""


def test_the_card_frame_is_written_per_kind_of_step() -> None:
    got = out(frame_by_step([("", kif_rules(FRAME))]))
    # the two deal steps move cards alike: one guard, one mover without the step, one frame rule
    assert "(<= frame_1_step (at_step b1))" in got and "(<= frame_1_step (at_step b2))" in got
    assert "(<= (frame_1_moving ?m1) frame_1_step (topcard ?m1))" in got
    assert "(<= (frame_2_moving ?m1) frame_2_step (does p (play ?m1)))" in got
    # moving: one short rule per kind of step, no longer read off every move rule
    assert [r for r in got if r.startswith("(<= (moving")] == [
        "(<= (moving ?c) frame_1_step (frame_1_moving ?c))", "(<= (moving ?c) frame_2_step (frame_2_moving ?c))"]
    assert "(<= (next (at ?c ?l)) (true (at ?c ?l)) (not (moving ?c)))" in got
    # a move outside any step point, or moving read elsewhere: left as it is
    free = FRAME + " (<= (move 2 ?c (loc hand) (loc pile)) (does p (drop ?c)))"
    assert out(frame_by_step([("", kif_rules(free))])) == out([("", kif_rules(free))])
    read = FRAME + " (<= busy (moving ?c))"
    assert out(frame_by_step([("", kif_rules(read))])) == out([("", kif_rules(read))])


def test_a_step_reached_only_from_its_own_resume_point_is_guarded_by_pc() -> None:
    got = out(pc_guards([("", kif_rules(FRAME))]))
    assert "(<= (move 0 ?c (loc stock) (loc hand)) (true (pc b1)) (topcard ?c))" in got
    assert "(<= (move 1 ?c (loc hand) (loc trick)) (at_step k1) (does p (play ?c)))" in got  # two rules: kept
    assert "(<= (at_step b1) (true (pc b1)))" in got  # the step itself stays readable
    # a rule for every step point: (at_step b1) has two rules then
    anywhere = kif_rules(FRAME + " (<= (at_step ?k) (true (pc ?k)) (true (halt)))")
    assert "(<= (move 0 ?c (loc stock) (loc hand)) (at_step b1) (topcard ?c))" in out(pc_guards([("", anywhere)]))
    # the step guard goes first in every body
    late = kif_rules("(<= (at_step k1) (true (pc s1))) (<= (at_step k1) (true (pc s2))) (<= part (true (x)))"
                     " (<= (npc s2) part (at_step k1) (rseat ?p))")
    assert out(pc_guards([("", late)]))[-1] == "(<= (npc s2) (at_step k1) part (rseat ?p))"


def test_control_nodes_fold_into_relations_keyed_by_where_they_are() -> None:
    rules = kif_rules("(<= runs_1 (true (flag g1))) (<= run_1 (true (pc s1i1)) runs_1)"
                      " (<= skip_1 (true (pc s1i1)) (not runs_1)) (<= (at_step b1_1) run_1) (<= (at_step end) skip_1)"
                      " (<= (next_seat_1 ?v) (true (seat s1 ?p)) (nextseat ?p ?v)) (<= (rseat_s1 ?p) run_1 (next_seat_1 ?p))"
                      " (<= (run_2 ?d) (true (pc ?d)))")
    keys = {"runs_1": ("runs", ("b1_1", "1")), "run_1": ("run", ("s1i1", "b1_1", "1")),
            "skip_1": ("skip", ("s1i1", "b1_1", "1")), "next_seat_1": ("next_seat", ("round", "1")),
            "run_2": ("run", ("s2i1", "b2_1", "1"))}
    assert out(fold_steps([("", rules)], keys)) == [
        "(<= (runs b1_1 1) (true (flag g1)))",
        "(<= (run s1i1 b1_1 1) (true (pc s1i1)) (runs b1_1 1))",
        "(<= (skip s1i1 b1_1 1) (true (pc s1i1)) (not (runs b1_1 1)))",
        "(<= (at_step b1_1) (run s1i1 b1_1 1))",
        "(<= (at_step end) (skip s1i1 b1_1 1))",
        "(<= (next_seat round 1 ?v) (true (seat s1 ?p)) (nextseat ?p ?v))",
        "(<= (rseat_s1 ?p) (run s1i1 b1_1 1) (next_seat round 1 ?p))",
        # a node an earlier pass gave an argument (merged over seats) keeps its name
        "(<= (run_2 ?d) (true (pc ?d)))"]


def test_what_no_word_names_folds_by_the_relation_reading_it() -> None:
    rules = kif_rules("(<= (stoset a) part_3 (true x)) (<= (stoset b) part_5 (true y))"
                      " (<= part_3 (true (p ?c)) (true (q ?c))) (<= part_5 (true (r ?c)) (true (s ?c)))"
                      " (<= (next (z ?c)) (true (z ?c)) (not (not_2 ?c))) (<= (not_2 ?c) (true (w ?c)))")
    assert out(fold_by_owner([("", rules)])) == [
        "(<= (stoset a) (stoset_part 1) (true x))", "(<= (stoset b) (stoset_part 2) (true y))",
        "(<= (stoset_part 1) (true (p ?c)) (true (q ?c)))", "(<= (stoset_part 2) (true (r ?c)) (true (s ?c)))",
        "(<= (next (z ?c)) (true (z ?c)) (not (next_not 1 ?c)))", "(<= (next_not 1 ?c) (true (w ?c)))"]


def test_a_fold_that_would_recurse_through_not_keeps_its_numbers() -> None:
    # part_1 and part_2 are both read first by x; folded, x_part would read foo, which reads it
    rules = kif_rules("(<= x part_1 part_2) (<= part_1 (true (a))) (<= part_2 (not foo)) (<= foo part_1)"
                      " (<= terminal x)")
    assert out(fold_by_owner([("", rules)])) == [str(r) for r in rules]


def test_groups_chosen_within_a_card_are_lifted_out_of_its_any() -> None:
    item = ("(any (game iloc HAND) 'C ((> (size 'C) 0) (any (filter (subsets (game vloc TABLE)) 'S (== (size 'S) 1)) 'S"
            " (move 'C (top (game vloc WON))))))")
    lifted = lift_groups(parse_fragment(item, "item"))
    assert lifted is not None
    fork, chosen = lifted
    assert print_recycle(fork) == "(any (game iloc HAND) 'C ((> (size 'C) 0) (move 'C (top (game vloc WON)))))"
    assert print_recycle(chosen.collection) == "(filter (subsets (game vloc TABLE)) 'S (== (size 'S) 1))"
    assert lift_groups(parse_fragment("(any (game iloc HAND) 'C (move 'C (top (game vloc WON))))", "item")) is None


def test_a_repeat_all_out_of_a_collection_built_in_the_move_is_one_move() -> None:
    def rewritten(item: str, declare: str = "") -> str:
        text = f"(game {declare} (setup (create players 2) (create deck (game iloc HAND) (deck (RANK (ONE))))) (do ({item})) (scoring max 0))"
        block = moves_built_once(parse_recycle(text, "t.rcy")).flow[0]
        assert isinstance(block, Do)
        return " ".join(print_recycle(block.items[0]).split())

    built = "(repeat all (move (top (filter (game iloc HAND) 'C (== (cardatt RANK 'C) ONE))) (top (game vloc WON))))"
    assert rewritten(built) == "(move (top (filter (game iloc HAND) 'C (== (cardatt RANK 'C) ONE))) (top (game vloc WON)))"
    let = "(let (filter (game iloc HAND) 'C (== (cardatt RANK 'C) ONE)) 'F (repeat all (move (top 'F) (top (game vloc WON)))))"
    assert rewritten(let) == "(let (filter (game iloc HAND) 'C (== (cardatt RANK 'C) ONE)) 'F (move (top 'F) (top (game vloc WON))))"
    declared = "(declare (filter (game iloc HAND) 'C (== (cardatt RANK 'C) ONE)) 'F)"
    assert rewritten("(repeat all (move (top 'F) (top (game vloc WON))))", declared) == "(move (top 'F) (top (game vloc WON)))"
    for kept in ("(repeat all (move (top (game iloc HAND)) (top (game vloc WON))))",
                 "(let (game iloc HAND) 'F (repeat all (move (top 'F) (top (game vloc WON)))))",
                 "(all (partition RANK (game iloc HAND)) 'F (repeat all (move (top 'F) (top (game vloc WON)))))"):
        assert rewritten(kept) == kept


def test_the_top_of_a_filter_of_an_unordered_pile_is_a_chain_linear_in_its_cards() -> None:
    """The top card of a filter of a hand too large to keep in order is the passing card with
    the highest id, written as a chain from each card to the next (``(vabove ... C)``): two
    rules a card. Negating every later card for each was quadratic (a 676-card mutant of Go
    Fish translated in 60 s)."""
    def rules(ranks: int) -> list[Rule]:
        names = ", ".join(f"R{chr(65 + i)}" for i in range(ranks))
        text = ("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (" + names + "))"
                " (SUIT (RED, BLACK, GREEN, BLUE)))))"
                " (do ((all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
                " (stage player (end (== (size (game iloc STOCK)) 0))"
                " (choice (((> (size (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) RED))) 0)"
                " (move (top (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) RED))) (top (game vloc WON))))"
                " (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
                " (scoring max (size ((current player) iloc HAND))))")
        return kif_rules(compile_game(parse_recycle(text, "top.rcy")).kif)

    for ranks in (13, 26):
        chain = [r for r in rules(ranks) if r.head.name.startswith("vabove")]
        assert 0 < len(chain) <= 2 * 4 * ranks  # two rules a card of the deck at most
