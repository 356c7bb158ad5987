"""Reasoner speed: random playouts per second, fast reasoner against the clingo oracle.

Run: ``python benchmarks/reasoner.py [--seconds S] [GAME ...]`` from the project root (games
default to the corpus's tic-tac-toe, connect four and breakthrough). For each game it prints the
fast reasoner's build time (grounding, network, code), its playouts per second, the oracle's,
and the ratio, all measured in the same run. Targets on a 2-core machine, pure Python: 15,000
(tic-tac-toe), 2,500 (connect four), 120 (breakthrough) playouts/s; build under 2 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.gdl.load import load_game
from ggp.reasoner.fast import FastMachine
from ggp.reasoner.machine import StateMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import random_playout

CORPUS = ROOT.parent / "shared" / "corpus" / "gdl"
DEFAULT_GAMES = ["ggporg_ticTacToe.kif", "ggporg_connectFour.kif", "ggporg_breakthrough.kif"]


def playouts_per_second(machine: StateMachine, seconds: float, seed: int = 1) -> tuple[float, float]:
    """Playouts per second and mean length over about ``seconds`` of random playouts."""
    rng = random.Random(seed)
    count = steps = 0
    start = time.perf_counter()
    while True:
        result = random_playout(machine, rng)
        count += 1
        steps += result.length
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed, steps / count


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game files (default: three corpus games)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement (default 5)")
    args = parser.parse_args()
    games = [Path(g) for g in args.games] or [CORPUS / g for g in DEFAULT_GAMES]
    header = (f"{'game':28} {'ground s':>9} {'build s':>8} {'rules':>8} {'fast/s':>10} "
              f"{'oracle/s':>9} {'ratio':>7} {'length':>7}")
    print(header)
    print("-" * len(header))
    for path in games:
        description = load_game(path)
        start = time.perf_counter()
        fast = FastMachine(description)
        build = time.perf_counter() - start
        fast_rate, length = playouts_per_second(fast, args.seconds)
        oracle_rate, _ = playouts_per_second(OracleMachine(description), args.seconds)
        print(f"{path.name:28} {fast.grounding_seconds:9.3f} {build:8.3f} {fast.ground_rules:8d} "
              f"{fast_rate:10.1f} {oracle_rate:9.2f} {fast_rate / oracle_rate:7.0f} {length:7.1f}")


if __name__ == "__main__":
    main()
