"""How many cards each pile can hold at once (``analysis/capacity.py``): sure bounds only."""

from __future__ import annotations

from translators.recycle import parse_recycle
from translators.recycle.translate import analysed

DECK = "(deck (RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K)) (SUIT (HEARTS, SPADES, CLUBS, DIAMONDS)))"


def capacities(flow: str) -> dict[str, int]:
    """The capacity of every pile of a two-player game with a 52-card stock and ``flow``."""
    text = f"(game (setup (create players 2) (create deck (game iloc STOCK) {DECK})) {flow} (scoring max 0))"
    comp, _ = analysed(parse_recycle(text, "capacity.rcy"))
    return {str(place): n for place, n in comp.ranges.capacity.items()}


def test_a_dealt_hand_holds_what_was_dealt_and_gives_no_more_than_it_received() -> None:
    deal = "(do ((all player 'P (repeat 5 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
    play = ("(stage player (end (== (size ((current player) iloc HAND)) 0))"
            " (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED)))))))")
    got = capacities(f"{deal} {play}")
    assert got["(player0 iloc HAND)"] == 5 and got["(game iloc STOCK)"] == 52
    # either hand may play onto either pile as far as the analysis can tell: 5 + 5
    assert got["(player0 vloc PLAYED)"] == 10


def test_a_pile_drawn_to_in_a_loop_from_the_whole_deck_is_bounded_by_its_cards_only() -> None:
    draw = ("(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))")
    got = capacities(draw)
    assert got["(player0 iloc HAND)"] == 52
    # a pile moved whole, once, onto another: the other holds what the first can
    turned = ("(do ((repeat 3 (move (top (game iloc STOCK)) (top (game vloc DISCARD))))"
              " (repeat all (move (top (game vloc DISCARD)) (top (game vloc PILE))))))")
    got = capacities(turned)
    assert got["(game vloc DISCARD)"] == 3 and got["(game vloc PILE)"] == 3


DEAL5 = "(do ((all player 'P (repeat 5 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"


def turn(*items: str) -> str:
    """A player stage that plays ``items`` each pass until the stock is empty."""
    return f"(stage player (end (== (size (game iloc STOCK)) 0)) {' '.join(items)})"


DRAW = "(do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))"
DISCARD = "(choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD))))))"


def test_a_hand_that_throws_away_a_card_for_every_card_drawn_holds_one_more_than_dealt() -> None:
    # a rummy turn: draw, then throw one away (52 before: drawn to in a loop, taken as unbounded)
    got = capacities(f"{DEAL5} {turn(DRAW, DISCARD)}")
    assert got["(player0 iloc HAND)"] == 6 and got["(player1 iloc HAND)"] == 6
    # the cards thrown away go round: the discard pile is bounded by the cards only
    assert got["(game vloc DISCARD)"] == 52
    # taking the top card is as sure as a card the player picks; taking every card, surer
    top = "(do ((move (top ((current player) iloc HAND)) (top (game vloc DISCARD)))))"
    assert capacities(f"{DEAL5} {turn(DRAW, DRAW, top, top)}")["(player0 iloc HAND)"] == 7
    every = "(do ((repeat all (move (top ((current player) iloc HAND)) (top (game vloc DISCARD))))))"
    assert capacities(f"{DEAL5} {turn(DRAW, DRAW, DRAW, every)}")["(player0 iloc HAND)"] == 8


def test_a_hand_is_unbounded_when_some_pass_may_keep_a_card_it_drew() -> None:
    # each is a way a pass can end with one card more: an option that throws nothing away, a
    # throw guarded by a condition, a card thrown by its index (the second card: not there when
    # the hand holds one), a card the option picked but that an earlier move may have taken, and
    # the next player's hand drawn to (whose own pass is not this one)
    passing = "(choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD)))) (turn pass)))"
    guarded = ("(do (((> (size (game vloc DISCARD)) 3) (move (top ((current player) iloc HAND))"
               " (top (game vloc DISCARD))))))")
    second = "(do ((move (1 ((current player) iloc HAND)) (top (game vloc DISCARD)))))"
    taken = ("(choice ((any ((current player) iloc HAND) 'C (do ((move (top ((current player) iloc HAND))"
             " (top (game vloc DISCARD))) (move 'C (top (game vloc DISCARD))))))))")
    next_hand = "(do ((move (top (game iloc STOCK)) (top ((next player) iloc HAND)))))"
    for items in ((DRAW, passing), (DRAW, guarded), (DRAW, second), (DRAW, DRAW, taken), (next_hand, DISCARD)):
        assert capacities(f"{DEAL5} {turn(*items)}")["(player0 iloc HAND)"] == 52, items
