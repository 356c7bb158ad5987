"""RECYCLE, the card-game language of CardStock: parser, typed syntax tree, printer, checks.

    >>> from translators.recycle import parse_recycle, print_recycle
    >>> game = parse_recycle(open("rulesheets/agram.rcy").read(), "agram.rcy")  # doctest: +SKIP
    >>> parse_recycle(print_recycle(game)) == game  # doctest: +SKIP
    True

The tree's classes are in :mod:`translators.recycle.nodes`; ``docs/recycle-parser.md``
describes the grammar coverage, the tree, the error messages and the checks.
"""

from translators.recycle.errors import RecycleSyntaxError
from translators.recycle.parser import parse_fragment, parse_recycle, parse_recycle_file

__all__ = [
    "RecycleSyntaxError", "parse_fragment", "parse_recycle", "parse_recycle_file",
]
