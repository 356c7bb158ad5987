"""The OpenSpiel bridge: its cost, and how far the players are from an equilibrium (issue 21).

    python benchmarks/spiel.py [--only bridge kuhn leduc] [--startclock S] [--playclock S]
                               [--samples K] [--players P ...] [--leduc-players P ...] [--seed S]

``bridge``
    Loading translated Kuhn and Leduc as OpenSpiel games (translation, fast reasoner, the walk
    that makes every node), and CFR+ iterations per second on the bridged games against
    OpenSpiel's native ``kuhn_poker`` and ``leduc_poker`` (Python and C++ CFR+), with ratios.
``kuhn``
    ``ggp exploitability`` of ``cfr`` with a 60 s start clock (target <= 0.01) and of the
    project's ``pimc``, ``ismcts``, ``iimc`` (and OpenSpiel's ``spiel_ismcts``) as they are: a
    1 s play clock at each information state, each player asked ``--samples`` times; in chips
    (the score) and in goal values (what the project's players maximise; ``cfr`` then trained
    on goals too).
``leduc``
    ``cfr`` on translated Leduc with a 60 s start clock (target <= 0.1), and the ``--leduc-players``.

Needs OpenSpiel (``pip install 'ggp[spiel]'``). Times are wall-clock seconds on this machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr  # noqa: E402

from ggp.spiel import GGPGame, load  # noqa: E402
from ggp.spiel.exploitability import player_exploitability  # noqa: E402
from ggp.spiel.players import CfrPlayer  # noqa: E402

RULESHEETS = ROOT / "rulesheets"
GAMES = {"kuhn": ("kuhn.rcy", "kuhn_poker"), "leduc": ("leduc.rcy", "leduc_poker")}
TARGETS = {"kuhn": 0.01, "leduc": 0.1}


def loaded(name: str) -> tuple[GGPGame, float]:
    """The bridged rulesheet and the seconds it took to load (translation, machine, walk)."""
    start = time.perf_counter()
    game = load(RULESHEETS / GAMES[name][0])
    return game, time.perf_counter() - start


def iterations_per_second(game: object, solver_kind: str, seconds: float) -> float:
    """CFR+ iterations per second on ``game`` (Python or C++ solver) over about ``seconds``."""
    solver = cfr.CFRPlusSolver(game) if solver_kind == "python" else pyspiel.CFRPlusSolver(game)
    start, done = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        solver.evaluate_and_update_policy()
        done += 1
    return done / (time.perf_counter() - start)


def bridge(args: argparse.Namespace) -> None:
    print("== the bridge: loading, and CFR+ iterations per second against OpenSpiel's own games")
    for name in ("kuhn", "leduc"):
        game, seconds = loaded(name)
        summary = game.summary
        print(f"{name}: loaded in {seconds:.1f} s ({summary.nodes} nodes, {sum(summary.information_states)} "
              f"information states, {summary.max_gdl_steps} GDL steps at most)")
        native = pyspiel.load_game(GAMES[name][1])
        budget = 5.0 if name == "kuhn" else 20.0
        for kind in ("python", "c++"):
            ours = iterations_per_second(game, kind, budget)
            theirs = iterations_per_second(native, kind, budget)
            print(f"  {kind:6} CFR+: bridged {ours:9.1f} it/s, native {theirs:9.1f} it/s, ratio {theirs / ours:6.1f}")


class GoalsCfr(CfrPlayer):
    """``cfr`` trained on the goal values instead of the score."""

    game_parameters = {**CfrPlayer.game_parameters, "returns": "goals"}


def exploitabilities(name: str, players: list[str], args: argparse.Namespace) -> None:
    """Each player's exploitability in the score (chips) and, for Kuhn, in goal values."""
    units = ["score", "goals"] if name == "kuhn" else ["score"]
    games = {unit: load(RULESHEETS / GAMES[name][0], returns=unit) for unit in units}
    print(f"== {name}: exploitability in {' and in '.join(units)}")
    for spec in players:
        cells = []
        for unit in units:
            player = "__main__:GoalsCfr" if spec == "cfr" and unit == "goals" else spec
            start_clock = args.startclock if spec == "cfr" else 10.0
            result = player_exploitability(games[unit], player, seed=args.seed, start_clock=start_clock,
                                           play_clock=args.playclock, samples=1 if spec == "cfr" else args.samples)
            target = f" (target <= {TARGETS[name]})" if spec == "cfr" and unit == "score" else ""
            cells.append(f"{unit} {result.exploitability:9.4g}{target} values "
                         f"{', '.join(f'{v:+.3f}' for v in result.values)} [{result.seconds:.0f} s]")
        print(f"  {spec:13} " + "   ".join(cells), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", choices=("bridge", "kuhn", "leduc"), default=["bridge", "kuhn", "leduc"])
    parser.add_argument("--startclock", type=float, default=60.0, help="cfr's start clock, seconds (default 60)")
    parser.add_argument("--playclock", type=float, default=1.0, help="play clock per information state (default 1)")
    parser.add_argument("--samples", type=int, default=1, help="answers per information state (default 1)")
    parser.add_argument("--players", nargs="+", default=["cfr", "random", "pimc", "ismcts", "iimc", "spiel_ismcts"])
    parser.add_argument("--leduc-players", nargs="+", default=["cfr", "random"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if "bridge" in args.only:
        bridge(args)
    if "kuhn" in args.only:
        exploitabilities("kuhn", args.players, args)
    if "leduc" in args.only:
        exploitabilities("leduc", args.leduc_players, args)


if __name__ == "__main__":
    main()
