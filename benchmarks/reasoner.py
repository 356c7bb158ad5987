"""Reasoner speed: playouts per second of every backend side by side, start-up time, the cost
of one role's percepts, and the players' strength per clock.

Run from the project root:

- ``python benchmarks/reasoner.py [--seconds S] [--no-oracle] [GAME ...]``: for each game
  (default: the corpus's tic-tac-toe, connect four and breakthrough, and translated Agram) the
  build (grounding, C compilation) and random playouts per second of the compiled reasoner (a
  batch of playouts per native call, and one ``random_playout`` per call), the fast reasoner and
  the clingo oracle, measured in alternating rounds in one run (the best round of each), with
  the ratios compiled/fast and compiled/Sancho (Sancho's figures on this machine class, from
  ``../shared/notes/design.md``). Targets: >= 1.0 x Sancho on the three GDL games; >= 20 x the
  fast reasoner on Agram.
- ``python benchmarks/reasoner.py --start [--reasoner R] [GAME ...]``: what a player process
  does at START, each in a fresh process: KIF text to a machine that has answered ``percepts``
  once; with an empty disk cache, then with the cache filled by :func:`ggp.reasoner.warm`
  (default games: ``rulesheets/agram.rcy`` and the corpus's tic-tac-toe).
- ``python benchmarks/reasoner.py --percepts [GAME ...]``: microseconds per call of
  ``percepts``, ``role_percepts``, ``next_state`` and ``legal_moves`` (on fresh states) over the
  transitions of seeded random playouts, fast and compiled (default: Agram).
- ``python benchmarks/reasoner.py --strength [--matches N] [--clock S]``: ``ismcts`` on the
  compiled reasoner against ``ismcts`` on the fast reasoner at equal clocks (each player in a
  process of its own, seats alternating), on Krieg-TicTacToe 4x4 and translated Agram.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.errors import GGPError
from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.reasoner import REASONERS
from ggp.reasoner.compiled import CompiledMachine
from ggp.reasoner.fast import FastMachine
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import random_joint_move, random_playout, random_playouts

CORPUS = ROOT.parent / "shared" / "corpus" / "gdl"
DEFAULT_GAMES = [CORPUS / "ggporg_ticTacToe.kif", CORPUS / "ggporg_connectFour.kif", CORPUS / "ggporg_breakthrough.kif",
                 ROOT / "rulesheets" / "agram.rcy"]
START_GAMES = [ROOT / "rulesheets" / "agram.rcy", CORPUS / "ggporg_ticTacToe.kif"]
STRENGTH_GAMES = [ROOT.parent / "shared" / "corpus" / "gdl2" / "kriegTTT_4x4.gdl", ROOT / "rulesheets" / "agram.rcy"]
#: Sancho's random playouts per second on this machine class (../shared/notes/design.md).
SANCHO = {"ggporg_ticTacToe.kif": 142_827, "ggporg_connectFour.kif": 63_676, "ggporg_breakthrough.kif": 15_156}

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
machine = make_machine(description, sys.argv[2])
t3 = time.perf_counter()
state = machine.initial_state()
machine.percepts(state, [machine.legal_moves(state, role)[0] for role in machine.roles])
t4 = time.perf_counter()
print(json.dumps({"import": imported - start, "parse": t1 - t0, "prepare": t2 - t1, "machine": t3 - t2,
                  "percepts": t4 - t3, "total": t4 - t0, "kind": type(machine).__name__}))
"""
_WARM = "import sys\nfrom ggp.gdl.kif import parse_kif\nfrom ggp.gdl.validate import prepare\n" \
        "from ggp.reasoner import warm\nwarm(prepare(parse_kif(open(sys.argv[1]).read()))[0], sys.argv[2])\n"


def playouts_per_second(machine: StateMachine, seconds: float, seed: int = 1, batch: bool = False) -> tuple[float, float]:
    """Playouts per second and mean length over about ``seconds`` of random playouts: one
    ``random_playout`` per call, or with ``batch`` as many per ``random_playouts`` call as take
    about 50 ms."""
    rng = random.Random(seed)
    count = steps = 0
    size = 1
    start = time.perf_counter()
    while True:
        if batch:
            began = time.perf_counter()
            totals = random_playouts(machine, rng, size)
            count += totals.playouts
            steps += totals.steps
            if time.perf_counter() - began < 0.05:
                size *= 2
        else:
            result = random_playout(machine, rng)
            count += 1
            steps += result.length
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed, steps / count


def best_rates(runs: dict[str, Callable[[float], tuple[float, float]]], seconds: float,
               rounds: int = 3) -> dict[str, tuple[float, float]]:
    """Each run measured in ``rounds`` alternating rounds of ``seconds / rounds``; the best round
    of each (other work on the machine slows some rounds down, never speeds one up)."""
    best: dict[str, tuple[float, float]] = {}
    for _ in range(rounds):
        for name, run in runs.items():
            rate, length = run(seconds / rounds)
            if rate > best.get(name, (0.0, 0.0))[0]:
                best[name] = (rate, length)
    return best


def playouts_table(games: list[Path], seconds: float, oracle: bool) -> None:
    """Build times and playouts per second of every backend, with ratios."""
    header = (f"{'game':26} {'ground s':>8} {'cc s':>6} {'rules':>7} {'compiled/s':>11} {'per call/s':>11} "
              f"{'fast/s':>9} {'oracle/s':>8} {'c/fast':>7} {'c/Sancho':>8} {'length':>7}")
    print(header)
    print("-" * len(header))
    for path in games:
        description = load_game(path)
        compiled = CompiledMachine(description)
        fast = FastMachine(description)
        runs: dict[str, Callable[[float], tuple[float, float]]] = {
            "batch": lambda s: playouts_per_second(compiled, s, batch=True),
            "single": lambda s: playouts_per_second(compiled, s),
            "fast": lambda s: playouts_per_second(fast, s),
        }
        if oracle:
            slow = OracleMachine(description)
            runs["oracle"] = lambda s: playouts_per_second(slow, s)
        best = best_rates(runs, seconds)
        rate, length = best["batch"]
        sancho = SANCHO.get(path.name)
        oracle_text = f"{best['oracle'][0]:8.2f}" if "oracle" in best else f"{'-':>8}"
        sancho_text = f"{rate / sancho:8.2f}" if sancho else f"{'-':>8}"
        print(f"{path.name:26} {compiled.grounding_seconds:8.3f} {compiled.compile_seconds:6.2f} "
              f"{compiled.ground_rules:7d} {rate:11.0f} {best['single'][0]:11.0f} {best['fast'][0]:9.0f} "
              f"{oracle_text} {rate / best['fast'][0]:7.1f} {sancho_text} {length:7.1f}", flush=True)


def _child(script: str, kif: Path, cache: Path, reasoner: str) -> dict[str, Any]:
    env = {**os.environ, "GGP_CACHE_DIR": str(cache)}
    env.pop("GGP_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", script, str(kif), reasoner], env=env, capture_output=True, text=True,
                          check=True, cwd=ROOT)
    return json.loads(done.stdout) if done.stdout.strip() else {}


def start_table(games: list[Path], reasoner: str, runs: int = 3) -> None:
    """Seconds from KIF text to a machine that has answered percepts, fresh processes."""
    header = (f"{'game':24} {'machine':16} {'cache':6} {'parse':>7} {'prepare':>8} {'machine':>8} {'percepts':>9} "
              f"{'total':>7}")
    print(header)
    print("-" * len(header))
    for path in games:
        with tempfile.TemporaryDirectory() as folder:
            kif, cache = Path(folder) / "game.kif", Path(folder) / "cache"
            kif.write_text(load_game(path).to_kif(), encoding="utf-8")
            cold = [_child(_START, kif, cache / str(n), reasoner) for n in range(runs)]  # each with an empty cache
            _child(_WARM, kif, cache / "warm", reasoner)
            warm = [_child(_START, kif, cache / "warm", reasoner) for _ in range(runs)]
        for label, results in (("empty", cold), ("warm", warm)):
            best = min(results, key=lambda r: r["total"])
            print(f"{path.name:24} {best['kind']:16} {label:6} {best['parse']:7.3f} {best['prepare']:8.3f} "
                  f"{best['machine']:8.3f} {best['percepts']:9.3f} {best['total']:7.3f}")


def percepts_table(games: list[Path], playouts: int = 20) -> None:
    """Microseconds per call over the transitions of seeded random playouts, fast and compiled."""
    print(f"{'game':20} {'machine':16} {'transitions':>11} {'percepts':>9} {'role_percepts':>14} {'next_state':>11} "
          f"{'legal_moves':>12}")
    for path in games:
        description = load_game(path)
        for machine in (FastMachine(description), CompiledMachine(description)):
            pairs = []
            for seed in range(playouts):
                rng, state = random.Random(seed), machine.initial_state()
                while not machine.is_terminal(state):
                    joint = random_joint_move(machine, state, rng)
                    pairs.append((state, joint))
                    state = machine.next_state(state, joint)
            role = next(r for r in machine.roles if str(r) != "random")
            fresh = [machine.state_from_fluents(s.fluents) for s, _ in pairs]  # nothing computed on them yet
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
                figures.append(best * 1e6)
            start = time.perf_counter()
            for state in fresh:
                machine.all_legal_moves(state)
            figures.append((time.perf_counter() - start) / len(fresh) * 1e6)
            print(f"{path.name:20} {type(machine).__name__:16} {len(pairs):11d} {figures[0]:9.1f} {figures[1]:14.1f} "
                  f"{figures[2]:11.1f} {figures[3]:12.1f}", flush=True)


def search_rates(description: GameDescription, seconds: float = 6.0) -> dict[str, float]:
    """ISMCTS iterations per second with each ground reasoner, one tree per state of seeded
    random playouts (as if the state were known), measured in alternating rounds."""
    from ggp.players.ismcts import IsmctsPlayer, _Node

    result: dict[str, float] = {}
    machines = {"compiled": CompiledMachine(description), "fast": FastMachine(description)}
    for _ in range(3):
        for kind, machine in machines.items():
            player, rng = IsmctsPlayer(rng=random.Random(1)), random.Random(2)
            states = []
            for _ in range(3):
                state = machine.initial_state()
                while not machine.is_terminal(state):
                    states.append(state)
                    state = machine.next_state(state, random_joint_move(machine, state, rng))
            iterations = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / 3:
                state = states[iterations % len(states)]
                roles = [i for i, r in enumerate(machine.roles) if str(r) != "random"]
                me = roles[iterations % len(roles)]
                root = _Node(len(machine.roles))
                for _ in range(20):
                    player._iterate(machine, root, state, me, machine.legal_moves(state, machine.roles[me]), False)
                iterations += 20
            result[kind] = max(result.get(kind, 0.0), iterations / (time.perf_counter() - start))
    return result


def strength_table(games: list[Path], matches: int, clock: float) -> None:
    """``ismcts`` on the compiled reasoner against ``ismcts`` on the fast one, at equal clocks."""
    from ggp.manager.clocks import Clocks
    from ggp.manager.process import ProcessPlayer
    from ggp.manager.runner import MatchSettings, run_match
    from ggp.reasoner import warm

    print(f"ismcts (compiled) against ismcts (fast), {clock:g} s per move, seats alternating:")
    for path in games:
        description = load_game(path)
        print(f"  {path.name:24} ismcts iterations per second (tree and playout, in-process, from the states of "
              f"seeded playouts): " + ", ".join(f"{kind} {rate:.0f}" for kind, rate in search_rates(description).items()))
        warm(description, "compiled")  # built once, before the clocks run: the players load it
        warm(description, "fast")
        totals: dict[str, list[float]] = {"compiled": [], "fast": []}
        failed: list[str] = []
        began = time.perf_counter()
        roles = [r for r in description.roles if str(r) != "random"]
        for i in range(matches):
            kinds = ["compiled" if (i + k) % 2 == 0 else "fast" for k in range(len(roles))]
            clients = [ProcessPlayer("ismcts", random.Random(f"{i}/{k}"), kind) for k, kind in enumerate(kinds)]
            try:
                record = run_match(description, list(clients), MatchSettings(Clocks(30.0, clock, 1.0), seed=i))
            finally:
                for client in clients:
                    client.close()
            if record.status != "finished":
                failed.append(record.errors[0] if record.errors else record.status)
                continue
            for role, kind in zip(roles, kinds):
                totals[kind].append(float(record.goals.get(str(role), 0)))
        mean = {k: statistics.fmean(v) if v else 0.0 for k, v in totals.items()}
        error = {k: statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else 0.0 for k, v in totals.items()}
        print(f"  {path.name:24} {matches - len(failed)} finished matches ({time.perf_counter() - began:.0f} s): "
              f"compiled {mean['compiled']:.1f} +- {error['compiled']:.1f}, fast {mean['fast']:.1f} +- "
              f"{error['fast']:.1f} (mean goal per seat)", flush=True)
        for reason in sorted(set(failed)):
            print(f"    {failed.count(reason)} without goals: {reason}")


def main() -> None:
    """Print the table asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game files (defaults: see above)")
    parser.add_argument("--seconds", type=float, default=6.0, help="time per backend and game (default 6, in 3 rounds)")
    parser.add_argument("--no-oracle", action="store_true", help="leave the clingo oracle out of the playouts table")
    parser.add_argument("--reasoner", choices=REASONERS, default="auto", help="the machine of --start (default auto)")
    parser.add_argument("--matches", type=int, default=20, help="matches per game of --strength (default 20)")
    parser.add_argument("--clock", type=float, default=1.0, help="play clock of --strength in seconds (default 1)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--start", action="store_true", help="start-up time in fresh processes, cache empty and warm")
    what.add_argument("--percepts", action="store_true", help="cost per call of percepts and role_percepts")
    what.add_argument("--strength", action="store_true", help="ismcts compiled against ismcts fast at equal clocks")
    args = parser.parse_args()
    games = [Path(g) for g in args.games]
    try:
        if args.start:
            start_table(games or START_GAMES, args.reasoner)
        elif args.percepts:
            percepts_table(games or START_GAMES[:1])
        elif args.strength:
            strength_table(games or STRENGTH_GAMES, args.matches, args.clock)
        else:
            playouts_table(games or DEFAULT_GAMES, args.seconds, not args.no_oracle)
    except GGPError as error:  # a game file missing or ill-formed: its location, not a traceback
        sys.exit(f"benchmarks/reasoner.py: {error}")


if __name__ == "__main__":
    main()
