"""Subcommands about players: ``players`` (list, forget learned data) and ``tournament``."""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import sys
from typing import Any, TextIO

from ggp.cli.match_commands import in_process_option
from ggp.reasoner import REASONERS


def register(sub: Any) -> None:
    """Add the ``players`` and ``tournament`` subcommands to ``sub``."""
    p = sub.add_parser(
        "players",
        help="list the registered players",
        description="Print every registered player, one per line: the name (as given to ggp serve "
        "and --player), a tab, and a short description. With --reset SPEC, forget what that "
        "player learned in earlier matches instead.",
    )
    p.add_argument("--reset", metavar="SPEC", help="delete the saved memory of player SPEC")
    p.set_defaults(run=run_players)

    p = sub.add_parser(
        "tournament",
        help="play many matches with the players rotated over the seats",
        description="Play N matches of FILE (through the same runner as ggp match, each player in "
        "a process of its own, kept from match to match), seating the --player specs rotated by "
        "the match number, and print one JSON object: "
        '{"matches": N, "mean_goals": {SPEC: x, ...}, "ci95": {SPEC: [lo, hi], ...}} '
        "(every goal a spec received, pooled over seats; 95 % confidence interval of the mean).",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--player", action="append", required=True, metavar="SPEC",
                   help="a player per non-random role (registered name or module:Class; repeat)")
    p.add_argument("--matches", type=int, default=10, metavar="N", help="number of matches (default 10)")
    p.add_argument("--playclock", type=float, default=5.0, metavar="P", help="play clock, seconds (default 5)")
    p.add_argument("--startclock", type=float, default=10.0, metavar="S", help="start clock, seconds (default 10)")
    p.add_argument("--slack", type=float, default=1.0, metavar="S",
                   help="allowance added to each clock, seconds (default 1)")
    p.add_argument("--seed", type=int, metavar="S", help="tournament seed (default: drawn and printed on stderr)")
    p.add_argument("--protocol", choices=("auto", "gdl2"), default="auto",
                   help="auto: GDL messages for games without sees; gdl2: GDL-II messages always")
    p.add_argument("--record-dir", metavar="DIR", help="write every match record into DIR")
    p.add_argument("--reasoner", choices=REASONERS, default=None,
                   help="state machine for the rules (default: the project's default reasoner)")
    in_process_option(p)
    p.add_argument("--verbose", "-v", action="store_true", help="print each match's goals to stderr")
    p.set_defaults(run=run_tournament)


def run_players(args: argparse.Namespace) -> int:
    """Print the registry, or forget a player's memory."""
    from ggp.players.memory import forget, memory_path
    from ggp.players.registry import available_players, create_player

    if args.reset:
        player = create_player(args.reset)
        had = forget(player)
        player.reset()
        print(f"{'forgot' if had else 'nothing saved for'} {args.reset} ({memory_path(player)})")
        return 0
    for cls in available_players():
        print(f"{cls.name}\t{cls.summary}")
    return 0


class _ProgressBar:
    """A one-line progress bar on a terminal (nothing elsewhere)."""

    def __init__(self, total: int, stream: TextIO):
        self.total = total
        self.stream = stream
        self.active = stream.isatty()

    def update(self, done: int) -> None:
        if not self.active:
            return
        width = 30
        filled = width * done // self.total
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} matches")
        self.stream.flush()

    def close(self) -> None:
        if self.active:
            self.stream.write("\n")
            self.stream.flush()


def run_tournament(args: argparse.Namespace) -> int:
    """Play the tournament and print its summary."""
    from pathlib import Path

    from ggp.gdl.load import load_game
    from ggp.manager.clocks import Clocks
    from ggp.manager.record import MatchRecord
    from ggp.manager.tournament import play_tournament
    from ggp.players.registry import player_class

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(name)s: %(message)s")
    for spec in args.player:  # an unknown player is an error before any match
        if not spec.startswith(("http://", "https://")):
            player_class(spec)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if args.seed is None:
        print(f"ggp tournament: seed {seed}", file=sys.stderr)
    description = load_game(args.file)
    clocks = Clocks(args.startclock, args.playclock, args.slack)
    record_dir = Path(args.record_dir) if args.record_dir else None
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    bar = _ProgressBar(args.matches, sys.stderr)

    def progress(i: int, record: MatchRecord) -> None:
        bar.update(i + 1)
        if args.verbose:
            goals = " ".join(f"{r}={v}" for r, v in record.goals.items())
            print(f"match {i}: {record.status} {goals}", file=sys.stderr)

    bar.update(0)
    try:
        result = play_tournament(description, args.player, args.matches, clocks, seed, args.reasoner,
                                 args.protocol, record_dir, progress, args.in_process)
    finally:
        bar.close()
    for line in result.errors[:20]:
        print(f"ggp tournament: {line}", file=sys.stderr)
    if len(result.errors) > 20:
        print(f"ggp tournament: ... and {len(result.errors) - 20} more problems", file=sys.stderr)
    print(json.dumps(result.summary()))
    return 130 if result.interrupted else 0
