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
