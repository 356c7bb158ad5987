"""Subcommands on the OpenSpiel bridge: ``exploitability``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ggp.errors import GGPError

#: The bridge's default (``ggp.spiel.summary.DEFAULT_EXPAND``), repeated so that ``--help`` works
#: without OpenSpiel installed.
DEFAULT_EXPAND = 500_000


def register(sub: Any) -> None:
    """Add the ``exploitability`` subcommand to ``sub``."""
    p = sub.add_parser(
        "exploitability",
        help="measure how far a player's policy is from an equilibrium (needs the [spiel] extra)",
        description="Ask the player SPEC for its choice at every information state of every seat of "
        "FILE (one player object per seat, started once with the start clock, then shown each "
        "information state as in a match: its belief from its own moves and percepts, the legal moves "
        "and the play clock), and compute with OpenSpiel, over the whole game tree, the NashConv of "
        "that policy (the sum of what each player gains by a best response) and its exploitability "
        "(NashConv / number of players). Returns are in the game's own units: a translated card "
        "game's score (chips), else goal values. A player that knows its mixed strategy (cfr) gives "
        "it; any other is asked --samples times, its rng seeded from --seed and the information "
        "state. Prints the figures, or one JSON object with --json. Needs OpenSpiel: "
        "pip install 'ggp[spiel]'.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--player", required=True, metavar="SPEC", help="registered player name or module:Class")
    p.add_argument("--iterations", type=int, metavar="N",
                   help="set the player's iterations (pimc, iimc: rounds per turn; ismcts, spiel_ismcts: "
                   "iterations per turn; cfr: CFR iterations at the start); default: as the clocks allow")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the players' rngs (default 0)")
    p.add_argument("--startclock", type=float, default=10.0, metavar="S",
                   help="start clock each seat's player gets once, seconds (default 10)")
    p.add_argument("--playclock", type=float, default=1.0, metavar="S",
                   help="play clock at each information state, seconds (default 1; the answer is taken even "
                   "when late)")
    p.add_argument("--samples", type=int, default=1, metavar="K",
                   help="answers asked per information state of a player that cannot give its probabilities "
                   "(default 1: the player's choice with its seed)")
    p.add_argument("--returns", choices=("auto", "score", "goals"), default="auto",
                   help="units of the returns: auto (default: the score where the rules define one), score, goals")
    p.add_argument("--expand", type=int, default=DEFAULT_EXPAND, metavar="N",
                   help=f"walk the game whole when it is estimated to have at most N nodes (default {DEFAULT_EXPAND})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_exploitability)


def run_exploitability(args: argparse.Namespace) -> int:
    """Measure and print the player's exploitability."""
    if args.samples < 1:
        raise GGPError("--samples must be at least 1")
    if args.iterations is not None and args.iterations < 1:
        raise GGPError("--iterations must be at least 1")
    from ggp.spiel import load
    from ggp.spiel.exploitability import player_exploitability

    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            print(f"\r{done}/{total} information states", end="" if done < total else "\n",
                  file=sys.stderr, flush=True)

    if tty:
        print(f"loading {args.file} (a game small enough is walked whole)...", file=sys.stderr, flush=True)
    game = load(args.file, returns=args.returns, expand=args.expand)
    result = player_exploitability(game, args.player, seed=args.seed, start_clock=args.startclock,
                                   play_clock=args.playclock, samples=args.samples, iterations=args.iterations,
                                   progress=progress)
    roles = [str(game.tree.roles[r]) for r in game.tree.players]
    out: dict[str, Any] = {
        "game": args.file, "player": args.player, "units": game.units, "seed": args.seed,
        "iterations": args.iterations, "samples": args.samples, "start_clock": args.startclock,
        "play_clock": args.playclock, "roles": roles, **result.as_dict(), "tree": game.summary.as_dict(),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"game: {args.file} (returns: {game.units})")
    print(f"player: {args.player} (seed {args.seed}"
          + (f", iterations {args.iterations}" if args.iterations is not None else "") + ")")
    print(f"information states: {result.information_states}")
    print(f"exploitability: {result.exploitability:.6g}")
    print(f"nash_conv: {result.nash_conv:.6g}")
    print("best-response gains: " + ", ".join(f"{r} {v:.6g}" for r, v in zip(roles, result.improvements)))
    print("values: " + ", ".join(f"{r} {v:.6g}" for r, v in zip(roles, result.values)))
    print(f"seconds: {result.seconds:.1f}")
    return 0
