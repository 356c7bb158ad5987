"""The ``players`` subcommand: the registered players, one per line."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    """Add the ``players`` subcommand to ``sub``."""
    p = sub.add_parser(
        "players",
        help="list the registered players",
        description="Print every registered player, one per line: the name (as given to ggp serve "
        "and --player), a tab, and a short description.",
    )
    p.set_defaults(run=run_players)


def run_players(args: argparse.Namespace) -> int:
    """Print the registry."""
    from ggp.players.registry import available_players

    for cls in available_players():
        print(f"{cls.name}\t{cls.summary}")
    return 0
