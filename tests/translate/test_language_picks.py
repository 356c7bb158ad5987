"""Subsets of a pile that can grow past the groups' slots, enumerated by the card sets a filter
can pick (``translators/recycle/analysis/picks.py``): a Scopa-like table.

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

import random
from math import comb

import pytest

from ggp.reasoner import make_machine
from tests.translate.language import capture_options, game, playouts
from translators.recycle import parse_recycle
from translators.recycle.analysis.picks import CHOSEN_LIMIT, PICK_LIMIT
from translators.recycle.playstats import play
from translators.recycle.translate import compile_game

RANKS = ["one", "two", "three", "four"]


def fishing(condition: str, ranks: list[str] = RANKS, must_take: bool = False) -> str:
    """Two players, four suits of ``ranks`` (sixteen cards), each worth its place among them
    from 1: four to the table, hands of two dealt again when empty; a card of the hand takes the
    table cards ``condition`` keeps ('S the set, 'C the card) or is laid on the table, which can
    hold a dozen cards and more; with ``must_take`` laid only when no card of the hand can take."""
    deck = f"(deck (RANK ({', '.join(r.upper() for r in ranks)})) (SUIT (RED, BLACK, GREEN, BLUE)))"
    value = "(set (game points VALUE) (" + " ".join(f"((RANK : {r.upper()}) {i})" for i, r in enumerate(ranks, 1)) + "))"
    lay = "(any ((current player) iloc HAND) 'C (move 'C (top (game vloc TABLE))))"
    if must_take:
        can_take = (f"(any ((current player) iloc HAND) 'C (any (filter (subsets (game vloc TABLE)) 'S {condition}) 'S"
                    " (> (size 'S) 0)))")
        lay = f"((not {can_take}) {lay})"
    deal = (f"(do ({value} (shuffle (game iloc STOCK)) (repeat 4 (move (top (game iloc STOCK)) (top (game vloc TABLE))))))")
    turn = ("(stage player (end (and (== (size (game iloc STOCK)) 0) (all player 'P (== (size ('P iloc HAND)) 0))))"
            " (do ((all player 'Q ((and (== (size ('Q iloc HAND)) 0) (>= (size (game iloc STOCK)) 2))"
            " (repeat 2 (move (top (game iloc STOCK)) (top ('Q iloc HAND))))))))"
            " (choice ((any ((current player) iloc HAND) 'C"
            f" (any (filter (subsets (game vloc TABLE)) 'S {condition}) 'S"
            " (do ((repeat all (move (top 'S) (top ((current player) vloc WON)))) (move 'C (top ((current player) vloc WON)))))))"
            f" {lay})))")
    return game(f"{deal} {turn}", deck=deck, scoring="(scoring max (size ((current player) vloc WON)))")


ADDING_UP = "(== (sum 'S using (game points VALUE)) (score 'C using (game points VALUE)))"


def test_subsets_of_a_growing_table_adding_up_to_a_card_are_the_card_sets_worth_it() -> None:
    """The table can hold all sixteen cards, past the eight slots subsets are made of (before:
    five slots, a warning, and a game where the table held more ended with ``(failed slots)``);
    the filter's sum is bounded by the card's points (at most 4), so the groups are the card
    sets worth 4 or less, each offered while all its cards are on the table. At every decision,
    tables of up to a dozen cards among them, one option per card of the hand and set of table
    cards adding up to it, and one per card laid down; the engine plays the same text alike."""
    text = fishing(ADDING_UP)
    translation = compile_game(parse_recycle(text, "fishing.rcy"))
    assert translation.warnings == []
    seen = capture_options(make_machine(translation.description, "fast"), RANKS, 12, 3)
    assert max(table for _, table in seen) > 5
    assert len({takes for takes, _ in seen}) > 3
    assert playouts(text, 6)


def test_a_filter_bounding_nothing_from_above_keeps_the_slots_and_says_so() -> None:
    """``(>= (size 'S) 5)`` bounds the sets from below only (every set of five or more table
    cards passes: too many to enumerate), so the subsets stay made of slots, with the warning
    naming where; a game whose table outgrows them ends with ``(failed slots)``."""
    text = fishing("(>= (size 'S) 5)")
    translation = compile_game(parse_recycle(text, "fishing.rcy"))
    [warning] = [str(w) for w in translation.warnings]
    assert warning.startswith("fishing.rcy:") and "(failed slots)" in warning
    endings = {play(make_machine(translation.description, "fast"), translation.description, random.Random(seed)).ending
               for seed in range(6)}
    assert "slots" in endings


def test_a_choice_among_more_card_sets_than_options_can_be_made_is_one_option_over_them() -> None:
    """Thirty-two cards worth 1-8 have 1,324 sets worth 8 or less, past :data:`PICK_LIMIT` (an
    option of its own per set: slots, a warning and ``(failed slots)`` before): a choice among
    them is one option over the sets as data. No warning, no ``(failed slots)``, and at every
    decision of random games one legal move per card of the hand and set adding up to it, and
    one per card of the hand, counted with ``itertools``."""
    ranks = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    text = fishing(ADDING_UP, ranks)
    translation = compile_game(parse_recycle(text, "fishing.rcy"))
    assert translation.warnings == []
    assert sum(line.startswith("(<= (legal ?seat") for line in translation.kif.splitlines()) == 2  # not one per set
    assert sum(line.startswith("(set_ids set_") for line in translation.kif.splitlines()) == 1324  # named so
    machine = make_machine(translation.description, "fast")
    seen = capture_options(machine, ranks, 2, 5)
    assert max(takes for takes, _ in seen) > 3
    endings = {play(machine, translation.description, random.Random(seed)).ending for seed in range(2)}
    assert endings == {"end"}, endings


def test_a_condition_over_more_card_sets_than_are_enumerated_is_one_rule_over_them() -> None:
    """The same 1,324 sets read by a condition too: a card is laid only when no card of the hand
    can take (Scopa's rule). The condition's ``any`` over the sets is one rule over their ids
    (enumerated one by one up to :data:`PICK_LIMIT`, slots and a warning past it before); every
    decision counted with ``itertools``: the takes, or the hand when there are none."""
    ranks = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    text = fishing(ADDING_UP, ranks, must_take=True)
    translation = compile_game(parse_recycle(text, "fishing.rcy"))
    assert translation.warnings == []
    assert "slot" not in translation.kif  # before: the condition read the groups of the table's first 5 cards, and said nothing
    seen = capture_options(make_machine(translation.description, "fast"), ranks, 2, 7, must_take=True)
    assert {takes > 0 for takes, _ in seen} == {True, False}


def test_groups_a_condition_reads_past_their_slots_are_a_located_warning_too() -> None:
    """``(>= (size 'S) 5)`` bounds the sets from below only: the subsets keep their slots, for
    the choice and for the condition that lays a card only when none can take, each site with
    its own warning (the condition's was silent before: it reads the table's first five cards'
    groups, and says so)."""
    translation = compile_game(parse_recycle(fishing("(>= (size 'S) 5)", must_take=True), "fishing.rcy"))
    warnings = [str(w) for w in translation.warnings]
    assert len(warnings) == 2 and len(set(w.split(": ")[0] for w in warnings)) == 2, warnings
    assert all(w.startswith("fishing.rcy:") for w in warnings)
    assert sum("(failed slots)" in w for w in warnings) == 2
    assert sum("the scoring reads the groups of their first 5 only" in w for w in warnings) == 1


def test_a_choice_s_legality_reading_groups_past_their_slots_fails_at_the_decision() -> None:
    """A card is laid only when no six cards of the table form a set (the table then holds
    fewer than six); seven are dealt to it, past the five slots its subsets are made of. The
    condition read the groups of the table's first five cards, found no set of six and offered
    the lay options the engine does not (silently); now the game ends with ``(failed slots)`` at
    that decision. Dealt five, no decision reads past the slots until the table holds six."""
    def text(dealt: int) -> str:
        lay = "(any ((current player) iloc HAND) 'C (move 'C (top (game vloc TABLE))))"
        none = "(not (any (filter (subsets (game vloc TABLE)) 'S (>= (size 'S) 6)) 'S (> (size 'S) 0)))"
        value = "(set (game points VALUE) (" + " ".join(f"((RANK : {r.upper()}) {i})" for i, r in enumerate(RANKS, 1)) + "))"
        deal = (f"(do ({value} (shuffle (game iloc STOCK)) (repeat {dealt} (move (top (game iloc STOCK)) (top (game vloc TABLE))))"
                " (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))")
        turn = ("(stage player (end (or (== (size (game vloc TABLE)) 0) (all player 'P (== (size ('P iloc HAND)) 0))))"
                f" (choice (({none} {lay}) ((> (size (game vloc TABLE)) 0)"
                " (move (top (game vloc TABLE)) (top ((current player) vloc WON)))))))")
        deck = f"(deck (RANK ({', '.join(r.upper() for r in RANKS)})) (SUIT (RED, BLACK, GREEN, BLUE)))"
        return game(f"{deal} {turn}", deck=deck, scoring="(scoring max (size ((current player) vloc WON)))")

    for dealt, first_fails in ((7, True), (5, False)):
        translation = compile_game(parse_recycle(text(dealt), "fishing.rcy"))
        assert any("(failed slots)" in str(w) for w in translation.warnings)
        machine = make_machine(translation.description, "fast")
        rng = random.Random(5)
        for _ in range(4):
            out = play(machine, translation.description, rng)
            if first_fails:
                assert (out.ending, out.decisions) == ("slots", 0)
            else:
                assert out.decisions > 0 and out.ending in ("end", "slots")


@pytest.mark.slow
def test_a_forty_card_table_s_4050_sets_are_one_option_over_them() -> None:
    """Forty cards worth 1-10 (a Scopa deck): the 4,050 sets worth 10 or less kept the slots, a
    warning and ``(failed slots)`` before; now one option over them, every decision of a random
    game counted with ``itertools``."""
    ranks = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    text = fishing(ADDING_UP, ranks)
    translation = compile_game(parse_recycle(text, "fishing.rcy"))
    assert translation.warnings == []
    assert translation.kif.count("(setsum_") >= 4050
    seen = capture_options(make_machine(translation.description, "fast"), ranks, 1, 2)
    assert max(takes for takes, _ in seen) > 3


def test_more_card_sets_than_the_limit_keep_the_slots() -> None:
    """``(<= (size 'S) 8)`` bounds the sets from above, but the sixteen cards have 39,202 sets
    of eight or fewer, past :data:`CHOSEN_LIMIT` (a choice among them as data) and
    :data:`PICK_LIMIT`: the slots and their warning stay; ``(<= (size 'S) 2)`` makes 136 sets
    and no warning."""
    assert sum(comb(16, k) for k in range(1, 9)) > CHOSEN_LIMIT > PICK_LIMIT >= sum(comb(16, k) for k in range(1, 3))
    many = compile_game(parse_recycle(fishing("(<= (size 'S) 8)"), "fishing.rcy"))
    assert [w for w in many.warnings if "(failed slots)" in str(w)]
    few = compile_game(parse_recycle(fishing("(<= (size 'S) 2)"), "fishing.rcy"))
    assert few.warnings == []
