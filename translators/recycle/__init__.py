"""RECYCLE, the card-game language of CardStock: parser, typed syntax tree, printer, checks.

    >>> from translators.recycle import parse_recycle, print_recycle
    >>> game = parse_recycle("(game (setup (create players 2) (create deck (game iloc STOCK) "
    ...                      "(deck (RANK (A, K))))) (do ((shuffle (game iloc STOCK)))) "
    ...                      "(scoring max ((current player) sto SCORE)))")
    >>> len(game.setup.decks[0].deck.cards())
    2
    >>> parse_recycle(print_recycle(game)) == game
    True

The tree's classes are in :mod:`translators.recycle.syntax.nodes`; ``docs/recycle-parser.md``
describes the grammar coverage, the tree, the error messages and the checks.
"""

from translators.recycle.symbols.check import check, check_file
from translators.recycle.syntax.errors import RecycleSyntaxError
from translators.recycle.syntax.outline import outline
from translators.recycle.syntax.parser import (
    parse_fragment,
    parse_recycle,
    parse_recycle_file,
)
from translators.recycle.syntax.printer import print_recycle

__all__ = [
    "RecycleSyntaxError", "check", "check_file", "outline", "parse_fragment", "parse_recycle",
    "parse_recycle_file", "print_recycle",
]
