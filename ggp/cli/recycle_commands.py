"""Subcommands on RECYCLE card games: ``ggp recycle tree``, ``ggp recycle print`` and
``ggp translate``.

(``ggp validate FILE.rcy`` parses, checks, translates and validates RECYCLE files too; see
:mod:`.gdl_commands`.)
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

    tr = sub.add_parser(
        "translate",
        help="translate a RECYCLE game to GDL-II (KIF)",
        description="Translate a RECYCLE (.rcy) card game to GDL-II rules in KIF, with comments tying "
        "each group of rules to its RECYCLE line. Writes to standard output, or to OUT with -o. "
        "Warnings (FILE:LINE:COL: warning: ...) and a summary (roles, rules, steps) go to standard error. Exit status 0, or 1 with "
        "FILE:LINE:COL: message when the game does not parse, has an error, or uses something the "
        "translator does not support.",
    )
    tr.add_argument("file", metavar="FILE.rcy")
    tr.add_argument("-o", "--output", metavar="OUT.kif", help="write the KIF here instead of standard output")
    tr.set_defaults(run=run_translate)


def run_tree(args: argparse.Namespace) -> int:
    """Print the syntax tree of ``args.file``."""
    from translators.recycle import parse_recycle_file
    from translators.recycle.syntax.outline import outline

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


def run_translate(args: argparse.Namespace) -> int:
    """Translate ``args.file`` to KIF."""
    from ggp.errors import InvalidGameError
    from translators.recycle import check, parse_recycle_file
    from translators.recycle.translate import compile_game

    game = parse_recycle_file(args.file)
    errors = [p for p in check(game) if p.is_error]
    if errors:
        raise InvalidGameError(errors)
    translation = compile_game(game)
    for warning in translation.warnings:
        print(warning, file=sys.stderr)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(translation.kif)
    else:
        sys.stdout.write(translation.kif)
    roles = " ".join(str(r) for r in translation.description.roles)
    print(f"{args.file}: roles {roles}; {len(translation.description.rules)} rules; "
          f"{sum(1 for k in translation.steps.values() if k in ('batch', 'choice'))} step points; "
          f"{translation.seconds:.2f} s", file=sys.stderr)
    return 0
