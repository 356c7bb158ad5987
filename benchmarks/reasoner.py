"""Reasoner speed: playouts per second, start-up time, and the cost of one role's percepts.

Run from the project root:

- ``python benchmarks/reasoner.py [--seconds S] [GAME ...]``: for each game (default: the
  corpus's tic-tac-toe, connect four and breakthrough) the fast reasoner's build time
  (grounding, network, code), its playouts per second, the oracle's, and the ratio. Targets on
  a 2-core machine, pure Python: 15,000 (tic-tac-toe), 2,500 (connect four), 120
  (breakthrough) playouts/s; build under 2 s.
- ``python benchmarks/reasoner.py --start [GAME ...]``: what a player process does at START,
  each in a fresh process: KIF text to a fast machine that has answered ``percepts`` once;
  with an empty disk cache, then with the cache filled by :func:`ggp.reasoner.warm` (default
  games: ``rulesheets/agram.rcy`` and the corpus's tic-tac-toe).
- ``python benchmarks/reasoner.py --percepts [GAME ...]``: milliseconds per call of
  ``percepts``, ``role_percepts`` and ``next_state`` over the transitions of seeded random
  playouts (default: Agram).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.gdl.load import load_game
from ggp.reasoner.fast import FastMachine
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import random_joint_move, random_playout

CORPUS = ROOT.parent / "shared" / "corpus" / "gdl"
DEFAULT_GAMES = ["ggporg_ticTacToe.kif", "ggporg_connectFour.kif", "ggporg_breakthrough.kif"]
START_GAMES = [ROOT / "rulesheets" / "agram.rcy", CORPUS / "ggporg_ticTacToe.kif"]

# Run in a fresh process: KIF text (argv[1]) to a machine that has answered percepts once.
_START = """
import json, sys, time
start = time.perf_counter()
from ggp.gdl.kif import parse_kif
from ggp.gdl.validate import prepare
from ggp.reasoner import make_machine
imported = time.perf_counter()
text = open(sys.argv[1], encoding="utf-8").read()
t0 = time.perf_counter()
description = parse_kif(text, "game.kif")
t1 = time.perf_counter()
description, _ = prepare(description)
t2 = time.perf_counter()
machine = make_machine(description)
t3 = time.perf_counter()
state = machine.initial_state()
machine.percepts(state, [machine.legal_moves(state, role)[0] for role in machine.roles])
t4 = time.perf_counter()
print(json.dumps({"import": imported - start, "parse": t1 - t0, "prepare": t2 - t1, "machine": t3 - t2,
                  "percepts": t4 - t3, "total": t4 - t0}))
"""
_WARM = "import sys\nfrom ggp.gdl.kif import parse_kif\nfrom ggp.gdl.validate import prepare\n" \
        "from ggp.reasoner import warm\nwarm(prepare(parse_kif(open(sys.argv[1]).read()))[0])\n"


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


def playouts_table(games: list[Path], seconds: float) -> None:
    """Build times and playouts per second, fast against oracle."""
    header = (f"{'game':28} {'ground s':>9} {'build s':>8} {'rules':>8} {'fast/s':>10} "
              f"{'oracle/s':>9} {'ratio':>7} {'length':>7}")
    print(header)
    print("-" * len(header))
    for path in games:
        description = load_game(path)
        start = time.perf_counter()
        fast = FastMachine(description)
        build = time.perf_counter() - start
        fast_rate, length = playouts_per_second(fast, seconds)
        oracle_rate, _ = playouts_per_second(OracleMachine(description), seconds)
        print(f"{path.name:28} {fast.grounding_seconds:9.3f} {build:8.3f} {fast.ground_rules:8d} "
              f"{fast_rate:10.1f} {oracle_rate:9.2f} {fast_rate / oracle_rate:7.0f} {length:7.1f}")


def _child(script: str, kif: Path, cache: Path) -> dict[str, float]:
    env = {**os.environ, "GGP_CACHE_DIR": str(cache)}
    env.pop("GGP_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", script, str(kif)], env=env, capture_output=True, text=True,
                          check=True, cwd=ROOT)
    return json.loads(done.stdout) if done.stdout.strip() else {}


def start_table(games: list[Path], runs: int = 3) -> None:
    """Seconds from KIF text to a machine that has answered percepts, fresh processes."""
    header = f"{'game':24} {'cache':6} {'parse':>7} {'prepare':>8} {'machine':>8} {'percepts':>9} {'total':>7}"
    print(header)
    print("-" * len(header))
    for path in games:
        with tempfile.TemporaryDirectory() as folder:
            kif, cache = Path(folder) / "game.kif", Path(folder) / "cache"
            kif.write_text(load_game(path).to_kif(), encoding="utf-8")
            cold = [_child(_START, kif, cache / str(n)) for n in range(runs)]  # each with an empty cache
            _child(_WARM, kif, cache / "warm")
            warm = [_child(_START, kif, cache / "warm") for _ in range(runs)]
        for label, results in (("empty", cold), ("warm", warm)):
            best = min(results, key=lambda r: r["total"])
            print(f"{path.name:24} {label:6} {best['parse']:7.3f} {best['prepare']:8.3f} {best['machine']:8.3f} "
                  f"{best['percepts']:9.3f} {best['total']:7.3f}")


def percepts_table(games: list[Path], playouts: int = 20) -> None:
    """Milliseconds per call over the transitions of seeded random playouts."""
    print(f"{'game':24} {'transitions':>11} {'percepts':>9} {'role_percepts':>14} {'next_state':>11}")
    for path in games:
        machine = FastMachine(load_game(path))
        pairs = []
        for seed in range(playouts):
            rng, state = random.Random(seed), machine.initial_state()
            while not machine.is_terminal(state):
                joint = random_joint_move(machine, state, rng)
                pairs.append((state, joint))
                state = machine.next_state(state, joint)
        role = next(r for r in machine.roles if str(r) != "random")
        calls: list[Callable[[State, JointMove], object]] = [
            machine.percepts, lambda s, j: machine.role_percepts(s, j, role), machine.next_state,
        ]
        for call in calls:
            call(*pairs[0])  # compiled before timing
        figures = []
        for call in calls:
            best = float("inf")
            for _ in range(5):
                start = time.perf_counter()
                for state, joint in pairs:
                    call(state, joint)
                best = min(best, (time.perf_counter() - start) / len(pairs))
            figures.append(best * 1000)
        print(f"{path.name:24} {len(pairs):11d} {figures[0]:9.4f} {figures[1]:14.4f} {figures[2]:11.4f}")


def main() -> None:
    """Print the table asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game files (defaults: see above)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per playout measurement (default 5)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--start", action="store_true", help="start-up time in fresh processes, cache empty and warm")
    what.add_argument("--percepts", action="store_true", help="cost per call of percepts and role_percepts")
    args = parser.parse_args()
    games = [Path(g) for g in args.games]
    if args.start:
        start_table(games or START_GAMES)
    elif args.percepts:
        percepts_table(games or START_GAMES[:1])
    else:
        playouts_table(games or [CORPUS / g for g in DEFAULT_GAMES], args.seconds)


if __name__ == "__main__":
    main()
