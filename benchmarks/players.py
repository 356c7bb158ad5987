"""The players against the seed's and the reference figures.

    python benchmarks/players.py [--only NAME ...] [--scale X] [--krieg-clock S] [--krieg-players P ...]

Prints, with fixed seeds: the Monty Hall win rate of ``pimc`` (2,000 matches), the Exploding
Bomb averages of ``iimc``, ``ismcts`` and ``pimc`` (500 matches each, with how often each asked),
how often ``iimc`` withholds in the telling variant against ``pimc`` (500 matches), and the
Krieg-TicTacToe 4x4 results of ``pimc`` and ``ismcts`` against ``random`` at 1 s per move (200
matches each, half in each colour). ``--scale`` multiplies the numbers of matches (e.g. 0.1
for a quick look); ``--only`` picks experiments: montyhall, bomb, tell, krieg. With ``--counted``
the players of the first three search a fixed number of iterations per turn under a 2 s cap
(the tests' players, ``tests/players/support.py``: the figures of the slow tests, the same on
any machine) instead of using a 0.1 s clock.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.gdl.load import load_game
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.runner import MatchSettings, run_match
from ggp.manager.seating import ClientPool

RULESHEETS = ROOT / "rulesheets"
KRIEG = ROOT.parent / "shared" / "corpus" / "gdl2" / "kriegTTT_4x4.gdl"


#: The players' processes, kept from match to match (each match gets fresh, seeded players).
POOL = ClientPool()


def match(path: Path, specs: list[str], seed: int, clock: float) -> MatchRecord:
    """One seeded match, each player in a process of its own."""
    clients = POOL.take(specs, [random.Random(f"{seed}/{i}") for i in range(len(specs))])
    try:
        return run_match(load_game(path), clients, MatchSettings(Clocks(10.0, clock, 0.5), seed),
                         close_clients=False)
    finally:
        POOL.give_back(clients)


def moves(record: MatchRecord, role: str) -> list[str]:
    """The moves ``role`` made."""
    i = record.roles.index(role)
    return [s.joint_move[i] for s in record.steps]


def rate(k: int, n: int) -> str:
    """``k/n`` as a percentage with its standard error."""
    p = k / n
    return f"{100 * p:5.1f} % +- {100 * math.sqrt(p * (1 - p) / n):.1f} ({k}/{n})"


def mean(values: list[float]) -> str:
    """The mean with its standard error."""
    m = sum(values) / len(values)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / max(1, len(values) - 1))
    return f"{m:6.2f} +- {sd / math.sqrt(len(values)):.2f} (n={len(values)})"


#: Player name -> the spec played (``--counted`` replaces it with a fixed-iteration player).
SPECS: dict[str, str] = {}
#: The play clock of the first three experiments (``--counted``: the tests' cap).
CLOCK = [0.1]


def spec(name: str) -> str:
    """The spec to play for player ``name``."""
    return SPECS.get(name, name)


def label() -> str:
    """How the players of the first three experiments are budgeted."""
    return "fixed iterations" if SPECS else f"{CLOCK[0]:g} s"


def monty_hall(n: int) -> None:
    began = time.monotonic()
    records = [match(RULESHEETS / "montyhall.kif", [spec("pimc")], seed, CLOCK[0]) for seed in range(n)]
    wins = sum(r.goals["candidate"] == 100 for r in records)
    switches = sum(moves(r, "candidate")[3] == "switch" for r in records)
    print(f"Monty Hall, pimc, {label()}: wins {rate(wins, n)}; switched {switches}/{n} "
          f"[{time.monotonic() - began:.0f} s]", flush=True)


def bomb(n: int) -> None:
    for player in ("iimc", "ismcts", "pimc"):
        began = time.monotonic()
        records = [match(RULESHEETS / "exploding_bomb.kif", [spec(player)], seed, CLOCK[0]) for seed in range(n)]
        asks = sum("ask" in moves(r, "agent") for r in records)
        print(f"Exploding Bomb, {player:6}, {label()}: mean goal {mean([r.goals['agent'] for r in records])}; "
              f"asked {asks}/{n} [{time.monotonic() - began:.0f} s]", flush=True)


def tell(n: int) -> None:
    for agent in ("iimc", "ismcts", "pimc"):
        began = time.monotonic()
        records = [match(RULESHEETS / "exploding_bomb_tell.kif", [spec(agent), spec("pimc")], seed, CLOCK[0])
                   for seed in range(n)]
        withheld = sum("tell" not in moves(r, "agent") for r in records)
        print(f"Exploding Bomb with telling, agent {agent:6} vs pimc, {label()}: withheld {rate(withheld, n)}; "
              f"agent's mean goal {mean([r.goals['agent'] for r in records])} [{time.monotonic() - began:.0f} s]",
              flush=True)


def krieg(n: int, clock: float, players: list[str]) -> None:
    """Each player against random, alternating colours; a match whose rules failed (the corpus
    game gives several goal values in some final states) counts as not won."""
    for player in players:
        began = time.monotonic()
        wins = {"xplayer": 0, "oplayer": 0}
        played = {"xplayer": 0, "oplayer": 0}
        draws = errors = substituted = 0
        for seed in range(n):
            seats = [player, "random"] if seed % 2 == 0 else ["random", player]
            record = match(KRIEG, seats, seed, clock)
            mine, theirs = ("xplayer", "oplayer") if seed % 2 == 0 else ("oplayer", "xplayer")
            played[mine] += 1
            substituted += sum(1 for step in record.steps for sub in step.substitutions if sub.role == mine)
            if record.status != "finished":
                errors += 1
            else:
                wins[mine] += record.goals[mine] > record.goals[theirs]
                draws += record.goals[mine] == record.goals[theirs]
            if (seed + 1) % 10 == 0:  # partial figures, for long runs
                print(f"  {player}: {seed + 1} matches: {sum(wins.values())} won, {draws} drawn, "
                      f"{errors} failed [{time.monotonic() - began:.0f} s]", flush=True)
        total = sum(wins.values())
        print(f"Krieg-TicTacToe 4x4, {player} vs random, {clock:g} s: wins {rate(total, n)} "
              f"(as x {wins['xplayer']}/{played['xplayer']}, as o {wins['oplayer']}/{played['oplayer']}), "
              f"draws {draws}, rules failed {errors}, {player}'s moves substituted {substituted} "
              f"[{time.monotonic() - began:.0f} s]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=["montyhall", "bomb", "tell", "krieg"])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the numbers of matches")
    parser.add_argument("--krieg-clock", type=float, default=1.0, help="seconds per move in Krieg-TicTacToe")
    parser.add_argument("--krieg-players", nargs="*", default=["pimc", "ismcts"],
                        help="the players matched against random in Krieg-TicTacToe")
    parser.add_argument("--counted", action="store_true",
                        help="Monty Hall and the bomb games with the tests' fixed-iteration players")
    args = parser.parse_args()
    if args.counted:
        from tests.players.support import CAP, COUNTED

        SPECS.update(COUNTED)
        CLOCK[0] = CAP

    def n(base: int) -> int:
        return max(2, int(base * args.scale))

    if "montyhall" in args.only:
        monty_hall(n(2000))
    if "bomb" in args.only:
        bomb(n(500))
    if "tell" in args.only:
        tell(n(500))
    if "krieg" in args.only:
        if not KRIEG.exists():
            print(f"skipped Krieg-TicTacToe: {KRIEG} is absent")
        else:
            krieg(n(200), args.krieg_clock, args.krieg_players)


if __name__ == "__main__":
    with POOL:
        main()
