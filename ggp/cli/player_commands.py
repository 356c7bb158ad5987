"""Subcommands about players: ``players`` (list, forget learned data) and ``tournament``."""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import sys
from typing import Any

from ggp.cli.match_commands import in_process_option
from ggp.cli.progress import quiet_option
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
        "the match number; with more players than seats, a round robin: every group of players in "
        "each rotation. Matches run in this process, in --workers processes, or on a Ray cluster "
        "(--ray); each is stored in the match database as it is played, so --resume ID finishes a "
        "stopped or killed tournament. Prints one JSON object: "
        '{"tournament": ID, "matches": N, "not_played": K, "mean_goals": {SPEC: x, ...}, '
        '"ci95": {SPEC: [lo, hi], ...}, "rating": {SPEC: {"mu", "sigma", "ordinal"}, ...}} '
        "(every goal a spec received, pooled over seats; 95 % confidence interval of the mean; "
        "an OpenSkill rating, with ggp[ratings] installed).",
    )
    p.add_argument("file", metavar="FILE", nargs="?", help="the game (not with --resume)")
    p.add_argument("--player", action="append", metavar="SPEC",
                   help="a player (registered name, module:Class or http://HOST:PORT; repeat: at least one per "
                   "non-random role, more for a round robin)")
    p.add_argument("--matches", type=int, metavar="N",
                   help="number of matches (default: the fewest whole rounds with at least 10 matches)")
    p.add_argument("--playclock", type=float, default=5.0, metavar="P", help="play clock, seconds (default 5)")
    p.add_argument("--startclock", type=float, default=10.0, metavar="S", help="start clock, seconds (default 10)")
    p.add_argument("--slack", type=float, default=1.0, metavar="S",
                   help="allowance added to each clock, seconds (default 1)")
    p.add_argument("--seed", type=int, metavar="S", help="tournament seed (default: drawn and printed on stderr)")
    p.add_argument("--protocol", choices=("auto", "gdl2"), default="auto",
                   help="auto: GDL messages for games without sees; gdl2: GDL-II messages always")
    p.add_argument("--record-dir", metavar="DIR", help="also write every match record into DIR")
    p.add_argument("--db", metavar="PATH", help="match database (default: $GGP_MATCH_DB or the data directory)")
    p.add_argument("--workers", type=int, metavar="W",
                   help="matches at once, each in a worker process of this machine (default 1); with --ray, "
                   "at most W matches at once on the cluster (default: its CPUs)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run the matches on a Ray cluster at ADDRESS, or 'auto' to start a local one "
                   "(needs ggp[ray]); the same results as without, for the same seed")
    p.add_argument("--resume", metavar="ID",
                   help="finish the stored tournament ID (its settings come from the database; ended matches "
                   "are kept, the others played)")
    p.add_argument("--reasoner", choices=REASONERS, default=None,
                   help="state machine for the rules (default: the project's default reasoner)")
    in_process_option(p)
    quiet_option(p)
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


def run_tournament(args: argparse.Namespace) -> int:
    """Play (or resume) the tournament and print its summary."""
    from pathlib import Path

    from ggp.cli.progress import Progress
    from ggp.gdl.load import load_game
    from ggp.manager.clocks import Clocks
    from ggp.manager.record import MatchRecord
    from ggp.manager.stopping import exit_status, stop_on_signals
    from ggp.manager.tournament import check_tournament, new_tournament_id, play_tournament, resume_tournament
    from ggp.players.registry import player_class

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(name)s: %(message)s")
    problem = None
    if args.resume is None and (args.file is None or not args.player):
        problem = "give FILE and --player SPEC (one per role at least), or --resume ID"
    elif args.resume is not None and (args.file is not None or args.player):
        problem = "--resume ID takes the game and the players from the database: give neither FILE nor --player"
    elif args.workers is not None and args.workers < 1:
        problem = f"--workers must be 1 or more, not {args.workers}"
    if problem is not None:
        print(f"ggp tournament: {problem}", file=sys.stderr)
        return 2
    bar: Progress | None = None

    def progress(done: int, record: MatchRecord) -> None:
        if bar is not None:
            bar.update(1)
            if args.verbose:
                goals = " ".join(f"{r}={v}" for r, v in record.goals.items())
                bar.write(f"match {record.match_id}: {record.status} {goals}")

    with stop_on_signals():
        try:
            if args.resume is not None:
                bar = Progress(None, "matches", quiet=args.quiet, description=args.resume)
                result = resume_tournament(args.resume, args.db, progress, workers=args.workers, ray=args.ray)
            else:
                for spec in args.player:  # an unknown player is an error before any match
                    if not spec.startswith(("http://", "https://")):
                        player_class(spec)
                seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
                if args.seed is None:
                    print(f"ggp tournament: seed {seed}", file=sys.stderr)
                description = load_game(args.file)
                total = check_tournament(description, args.player, args.matches)
                clocks = Clocks(args.startclock, args.playclock, args.slack)
                tournament_id = new_tournament_id(description)
                print(f"ggp tournament: {tournament_id} (if it stops: ggp tournament --resume {tournament_id}"
                      + (f" --db {args.db}" if args.db else "") + ")", file=sys.stderr)
                bar = Progress(total, "matches", quiet=args.quiet)
                result = play_tournament(description, args.player, args.matches, clocks, seed, args.reasoner,
                                         args.protocol, Path(args.record_dir) if args.record_dir else None,
                                         progress, args.in_process, db=args.db, workers=args.workers, ray=args.ray,
                                         tournament_id=tournament_id)
        except KeyboardInterrupt as exc:
            print("ggp tournament: interrupted before the first match", file=sys.stderr)
            return exit_status(exc)
        finally:
            if bar is not None:
                bar.close()
    for line in result.errors[:20]:
        print(f"ggp tournament: {line}", file=sys.stderr)
    if len(result.errors) > 20:
        print(f"ggp tournament: ... and {len(result.errors) - 20} more problems", file=sys.stderr)
    summary = result.summary()
    if "rating" not in summary:
        print("ggp tournament: no ratings: install ggp[ratings] (OpenSkill) for them", file=sys.stderr)
    if result.interrupted:
        print(f"ggp tournament: stopped; finish it with: ggp tournament --resume {result.tournament_id}"
              + (f" --db {args.db}" if args.db else ""), file=sys.stderr)
    print(json.dumps(summary))
    if result.interrupted:
        return 128 + (result.signal or 2)
    return 0

