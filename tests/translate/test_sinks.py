"""A count raised as cards go where they never leave is bounded by the cards
(``analysis/sinks.py``): Go Fish's books."""

from __future__ import annotations

from tests.translate.language import playouts
from translators.recycle import parse_recycle
from translators.recycle.translate import analysed

#: Draw a card or throw one away; every turn each rank the hand holds all four of is laid down as
#: a book, a point each. 16 cards: at most 4 books in a game, whatever the turns.
BOOKS = """\
(game
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (RED, BLACK, GREEN, BLUE)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player
  (end (or (== (size (game iloc STOCK)) 0) (>= (game sto TURNS) 40)))
  (do ((inc (game sto TURNS) 1)))
  (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
           (any ((current player) iloc HAND) 'C (move 'C (bottom (game iloc STOCK))))
           STEAL))
  (do ((let (partition RANK ((current player) iloc HAND)) 'GROUPS
        (all 'GROUPS 'G ((== (size 'G) 4)
                         (do ((inc ((current player) sto SCORE) 1)
                              (repeat all (move (top 'G) (top ((current player) vloc BOOKS))))))))))))
 (scoring max ((current player) sto SCORE)))
"""


def _score_range(text: str) -> tuple[int, int]:
    comp, _ = analysed(parse_recycle(text, "books.rcy"))
    return comp.ranges.cell("player", "SCORE")


def test_a_score_raised_per_book_laid_is_bounded_by_the_books() -> None:
    """The four copies of the book check (one per rank) share one budget: 16 cards, 4 a book
    (the loop bounds alone allowed 0..164); the figures agree with the engine's."""
    text = BOOKS.replace("STEAL", "")
    assert _score_range(text) == (0, 4)
    out = playouts(text, games=12)
    assert all(0 <= score <= 4 for p in out for score in p.scores.values())


def test_books_that_can_be_taken_back_are_not_a_sink() -> None:
    """A book's cards may be taken back to the hand: laying it down again raises the score
    again, and the loop bounds stay."""
    steal = "(any ((current player) vloc BOOKS) 'C (move 'C (top ((current player) iloc HAND))))"
    assert _score_range(BOOKS.replace("STEAL", steal))[1] > 4


def test_a_book_check_that_does_not_say_how_many_cards_move_is_not_bounded() -> None:
    """Without the condition on the group's size (a book of any size), no card need move."""
    text = BOOKS.replace("STEAL", "").replace("((== (size 'G) 4)", "((== (game sto TURNS) 4)")
    assert _score_range(text)[1] > 4


def test_a_book_laid_by_an_all_over_its_cards_counts_alike() -> None:
    """``(all 'G 'X (move 'X (top BOOKS)))`` moves every card of the group as ``repeat all``
    does: the same budget, and the engine's figures."""
    text = BOOKS.replace("STEAL", "").replace("(repeat all (move (top 'G) (top ((current player) vloc BOOKS))))",
                                              "(all 'G 'X (move 'X (top ((current player) vloc BOOKS))))")
    assert _score_range(text) == (0, 4)
    playouts(text, games=8)
