"""The ``ggp`` command line: one subcommand module per area, each with ``register``.

Errors of the project (:class:`~ggp.errors.GGPError`) end the command with a one-line message
and exit status 1, never a traceback; usage errors exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import threading
from collections.abc import Sequence

from ggp.errors import GGPError, InvalidGameError

#: Modules under :mod:`ggp.cli` that add subcommands, in the order ``--help`` lists them.
COMMAND_MODULES = ("gdl_commands", "recycle_commands", "match_commands", "player_commands", "belief_commands",
                   "view_commands", "spiel_commands", "analyze_commands")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="ggp",
        description="A GDL-II general game player and game host: validate and reason about game "
        "rules, translate RECYCLE card games, host matches and serve players over the GGP protocol.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"ggp.cli.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.run(args)
    except InvalidGameError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except GGPError as exc:
        print(f"ggp {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"ggp {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return int(status or 0)


def run() -> None:
    """The ``ggp`` console script: :func:`main`, then exit.

    In-process players whose matches ended may still be reasoning in daemon threads (a
    clingo call cannot be cut short); the interpreter's normal shutdown would tear those
    threads down inside native code and abort. Everything is written and flushed by then, so
    such a process leaves at once.
    """
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    if any(t.is_alive() for t in threading.enumerate() if t is not threading.main_thread()):
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
