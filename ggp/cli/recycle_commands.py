"""Subcommands on RECYCLE card games: ``ggp recycle tree`` and ``ggp recycle print``.

(``ggp validate FILE.rcy`` parses and checks RECYCLE files too; see :mod:`.gdl_commands`.)
"""

from __future__ import annotations

import argparse
import pprint
import sys
from typing import Any


def register(sub: Any) -> None:
    """Add the ``recycle`` subcommands to ``sub``."""
    p = sub.add_parser(
        "recycle",
        help="read RECYCLE card games (CardStock)",
        description="Read RECYCLE (.rcy) card games. A file that does not parse is reported as "
        "FILE:LINE:COL: message, with exit status 1.",
    )
    actions = p.add_subparsers(dest="recycle_command", metavar="ACTION")
    actions.required = True

    tree = actions.add_parser(
        "tree",
        help="print the syntax tree of a game",
        description="Print the typed syntax tree of a RECYCLE game: an indented outline, one node "
        "per line with its line and column (default), or the tree's Python repr (--format repr).",
    )
    tree.add_argument("file", metavar="FILE.rcy")
    tree.add_argument("--format", choices=("outline", "repr"), default="outline",
                      help="outline (default) or repr")
    tree.set_defaults(run=run_tree)

    show = actions.add_parser(
        "print",
        help="print a game back as RECYCLE text",
        description="Parse a RECYCLE game and print it back, laid out the same way every time "
        "(0.5 forms are written in their v0.5.10 spelling).",
    )
    show.add_argument("file", metavar="FILE.rcy")
    show.set_defaults(run=run_print)


def run_tree(args: argparse.Namespace) -> int:
    """Print the syntax tree of ``args.file``."""
    from translators.recycle import parse_recycle_file
    from translators.recycle.outline import outline

    game = parse_recycle_file(args.file)
    for warning in game.warnings:
        print(warning, file=sys.stderr)
    print(outline(game) if args.format == "outline" else pprint.pformat(game, width=100))
    return 0


def run_print(args: argparse.Namespace) -> int:
    """Print ``args.file`` back as RECYCLE text."""
    from translators.recycle import parse_recycle_file, print_recycle

    print(print_recycle(parse_recycle_file(args.file)), end="")
    return 0
