"""Memory locations: copies remembered and forgotten, in the order remembered, counted and
read through filters.

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

import pytest

from tests.translate.language import (
    DEAL3,
    POWERS,
    game,
    scores,
    translation_error,
)


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


def test_a_copy_remembered_at_a_numbered_place_moves_the_copies_from_there_a_place_up() -> None:
    """``(remember CARD (N MEM))``, a literal or computed N (the engine's ``Insert(N, ...)``; a
    located refusal before): four cards drawn in order (worth 32, 16, 8, 4) are remembered on
    top, at 0, at 1 and at 3, the count: 16, 8, 32, 4, against the engine's scores."""
    hand, seen = "((0 player) iloc HAND)", "((0 player) mem SEEN)"
    draw = f"(move (top (game iloc STOCK)) (top {hand}))"
    body = (f"(do ({POWERS} (set (game sto K) 1) {draw} (remember (top {hand}) (top {seen}))"
            f" {draw} (remember (top {hand}) (0 {seen})) {draw} (remember (top {hand}) ((game sto K) {seen}))"
            f" {draw} (remember (top {hand}) (3 {seen}))"
            f" (set ((0 player) sto SCORE) (score (0 {seen}) using (game points VALUE)))"
            f" (set ((1 player) sto SCORE) (score (1 {seen}) using (game points VALUE)))"
            f" (set ((2 player) sto SCORE) (score (top {seen}) using (game points VALUE)))))")
    assert scores(game(body, players=3), 3) == {(16, 8, 4)}


def test_forget_of_a_card_variable_is_a_located_error_as_the_engine_cannot_play_it() -> None:
    body = ("(do ((all player 'P (all ('P iloc HAND) 'C (remember 'C (top ('P mem SEEN)))))\n"
            " (all player 'P (all ('P mem SEEN) 'C (forget 'C)))))")
    error = translation_error(game(f"{DEAL3} {body}"), "forget.rcy")
    assert error.startswith("forget.rcy:3:") and "(forget (top LOC))" in error


def test_a_copy_remembered_under_the_bottom_of_a_memory_comes_first() -> None:
    """``remember`` onto ``(bottom MEM)``: the copy is the first, every other one a place up
    (the engine's ``cardList.Insert(0, ...)``; a located refusal before). The unshuffled stock
    deals each player a THREE, a TWO and a ONE, each remembered under the bottom: the top
    copy is the THREE, the bottom the ONE; the bottom forgotten, the TWO is: 2 copies, 3 on
    top, 2 at the bottom. Remembered on top, the order is the other way round."""
    def played(end: str) -> set[tuple[int, ...]]:
        one = ("(all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))"
               f" (all player 'P (remember (top ('P iloc HAND)) ({end} ('P mem SEEN))))")
        body = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))"
                " (all player 'P (forget (bottom ('P mem SEEN))))"
                " (all player 'P (set ('P sto SCORE) (+ (* 100 (size ('P mem SEEN)))"
                " (+ (* 10 (score (top ('P mem SEEN)) using (game points VALUE)))"
                " (score (bottom ('P mem SEEN)) using (game points VALUE))))))))")
        return scores(game(f"(do ({one} {one} {one})) {body}"), 4)
    assert played("bottom") == {(232, 232)}
    assert played("top") == {(212, 212)}


def test_cards_remembered_under_the_bottom_by_an_all_are_a_located_error() -> None:
    """Several copies under the bottom in one step would need their order among themselves,
    which the rules do not keep: refused where the ``remember`` is."""
    body = "(do ((all player 'P (all ('P iloc HAND) 'C (remember 'C (bottom ('P mem SEEN)))))))"
    error = translation_error(game(f"{DEAL3} {body}"), "remember.rcy")
    assert error.startswith("remember.rcy:2:") and "remembered under a memory location's bottom by an `all`" in error


def test_cards_remembered_together_take_consecutive_places() -> None:
    # three copies at once (in card order here), the top one forgotten: two copies stay
    body = ("(do ((all player 'P (all ('P iloc HAND) 'C (remember 'C (top ('P mem SEEN)))))"
            " (all player 'P (forget (top ('P mem SEEN))))"
            " (all player 'P (set ('P sto SCORE) (size ('P mem SEEN))))))")
    assert scores(game(f"{DEAL3} {body}"), 10) == {(2, 2)}


def test_a_filter_of_a_memory_counts_every_copy_it_keeps() -> None:
    """The engine's filter walks a memory's copies, so a card remembered twice passes twice:
    THREE BLACK (the unshuffled stock's top) remembered twice, then THREE RED once, gives two
    BLACK copies and one RED, counted as a value and in a comparison (the distinct cards were
    counted before: 1 and 1)."""
    black = "(size (filter ((0 player) mem SEEN) 'C (== (cardatt SUIT 'C) BLACK)))"
    red = "(size (filter ((0 player) mem SEEN) 'C (== (cardatt SUIT 'C) RED)))"
    body = ("(do ((remember (top (game iloc STOCK)) (top ((0 player) mem SEEN)))"
            " (remember (top (game iloc STOCK)) (top ((0 player) mem SEEN)))"
            " (move (top (game iloc STOCK)) (top (game vloc DISCARD)))"
            " (remember (top (game iloc STOCK)) (top ((0 player) mem SEEN)))"
            f" (set ((0 player) sto SCORE) (+ (* 10 {black}) {red}))"
            f" ((> {black} 1) (inc ((0 player) sto SCORE) 100))))")
    turn = "(stage player (end (>= (game sto T) 1)) (choice ((inc (game sto T) 1))))"
    assert scores(game(f"{body} {turn}")) == {(121, 0)}


def test_the_top_and_bottom_card_of_a_filter_of_a_memory_follow_the_order_remembered() -> None:
    """The engine's filter lists a memory's copies in the order they were remembered, its top
    the last: remembered from the unshuffled stock, 3B 3R 2B 2R, the top RED copy is 2R (4
    points) and the bottom BLACK one 3B (32). Before: the top was the RED card with the highest
    id (3R) and the bottom a located error."""
    seen = "((0 player) mem SEEN)"
    red = f"(filter {seen} 'C (== (cardatt SUIT 'C) RED))"
    black = f"(filter {seen} 'C (== (cardatt SUIT 'C) BLACK))"
    remember = (f"(remember (top (game iloc STOCK)) (top {seen}))"
                " (move (top (game iloc STOCK)) (top (game vloc DISCARD)))")
    body = (f"(do ({POWERS} {remember} {remember} {remember} {remember}"
            f" (set ((0 player) sto SCORE) (+ (* 100 (score (top {red}) using (game points VALUE)))"
            f" (score (bottom {black}) using (game points VALUE))))))")
    turn = "(stage player (end (>= (game sto T) 1)) (choice ((inc (game sto T) 1))))"
    assert scores(game(f"{body} {turn}")) == {(432, 0)}


def test_a_card_remembered_twice_is_two_copies() -> None:
    """A memory location holds copies, as the engine's (``CardCopyAction`` adds one each time):
    the top of the stock remembered twice by the first player is two copies, counted by
    ``size`` as a value and in a comparison, and forgetting the top one leaves one. (The size
    counted the cards that had a copy: 1; and the two copies were made in one step, on one place.)"""
    body = ("(do ((remember (top (game iloc STOCK)) (top ((0 player) mem SEEN)))"
            " (remember (top (game iloc STOCK)) (top ((0 player) mem SEEN)))"
            " (set ((0 player) sto SCORE) (* 10 (size ((0 player) mem SEEN))))"
            " ((> (size ((0 player) mem SEEN)) 1) (inc ((0 player) sto SCORE) 5))"
            " (forget (top ((0 player) mem SEEN)))"
            " (inc ((0 player) sto SCORE) (size ((0 player) mem SEEN)))))")
    turn = "(stage player (end (>= (game sto T) 1)) (choice ((inc (game sto T) 1))))"
    assert scores(game(f"{body} {turn}")) == {(26, 0)}


def test_a_sum_over_a_memory_adds_every_copy() -> None:
    """The engine's sum walks a memory's copies, so a card remembered twice adds its points
    twice: THREE BLACK (32) remembered twice and THREE RED (16) once sum to 80, their BLACK
    copies to 64, as a value and in a comparison (the distinct cards were summed before: 48
    and 32)."""
    seen = "((0 player) mem SEEN)"
    black = f"(sum (filter {seen} 'C (== (cardatt SUIT 'C) BLACK)) using (game points VALUE))"
    body = (f"(do ({POWERS} (remember (top (game iloc STOCK)) (top {seen}))"
            f" (remember (top (game iloc STOCK)) (top {seen}))"
            " (move (top (game iloc STOCK)) (top (game vloc DISCARD)))"
            f" (remember (top (game iloc STOCK)) (top {seen}))"
            f" (set ((0 player) sto SCORE) (sum {seen} using (game points VALUE)))"
            f" ((> {black} 40) (inc ((0 player) sto SCORE) 1000))))")
    turn = "(stage player (end (>= (game sto T) 1)) (choice ((inc (game sto T) 1))))"
    assert scores(game(f"{body} {turn}")) == {(1080, 0)}


@pytest.mark.parametrize("end", ["top", "bottom"])
def test_every_copy_forgotten_from_either_end(end: str) -> None:
    """``(repeat all (forget (top|bottom MEM)))`` empties the memory (from the bottom a located
    refusal before); three copies remembered, all forgotten, one more remembered. The forget
    and the remember before it were one step, and the copy remembered there outlived the
    forget (both found by the differential fuzz)."""
    one = ("(all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))"
           " (all player 'P (remember (top ('P iloc HAND)) (top ('P mem SEEN))))")
    body = (f"(do ((shuffle (game iloc STOCK)) {one} {one} (all player 'P (repeat all (forget ({end} ('P mem SEEN)))))"
            f" {one} (all player 'P (set ('P sto SCORE) (size ('P mem SEEN))))))")
    assert scores(game(body)) == {(1, 1)}
