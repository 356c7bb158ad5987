"""Every player against every other, through ``ggp tournament``.

    python benchmarks/tournament.py [--clock S] [--matches N] [--players P ...] [--games G ...] [--seed S]

For each game (default: Monty Hall, Krieg-TicTacToe 4x4, Meier, Transit) and each ordered pair
of different players (default: random, pimc, ismcts, iimc) it runs ``ggp tournament FILE
--player A --player B --matches N --playclock S --seed S`` (the seats rotate, so each plays
each side N/2 times) and prints a table: the row player's mean goal against the column
player, with the half-width of its 95 % confidence interval. One-player games (Monty Hall)
get one column, the player alone. Each pair is played once; the table shows both players of
a pair from the same tournament.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "gdl2"
GAMES = {
    "montyhall": ROOT / "rulesheets" / "montyhall.kif",
    "krieg": CORPUS / "kriegTTT_4x4.gdl",
    "meier": CORPUS / "kuleuven_ii_meier.gdl",
    "transit": CORPUS / "transit.gdl",
}


def tournament(path: Path, players: list[str], matches: int, clock: float, seed: int) -> dict[str, object]:
    """The summary printed by ``ggp tournament`` (stderr is passed through on failure)."""
    command = [sys.executable, "-m", "ggp", "tournament", str(path), "--matches", str(matches),
               "--playclock", str(clock), "--startclock", "10", "--seed", str(seed)]
    for player in players:
        command += ["--player", player]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    table: dict[str, object] = json.loads(done.stdout)
    return table


def seats(path: Path) -> int:
    """The number of roles other than random (read from the role facts)."""
    from ggp.gdl.load import load_game

    return sum(1 for r in load_game(path).roles if str(r) != "random")


def cell(summary: dict[str, object], spec: str) -> str:
    means = summary["mean_goals"]
    intervals = summary["ci95"]
    assert isinstance(means, dict) and isinstance(intervals, dict)
    if means.get(spec) is None:
        return "-"
    lo, hi = intervals[spec]
    return f"{means[spec]:5.1f} +-{(hi - lo) / 2:4.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clock", type=float, default=0.5, help="play clock in seconds (default 0.5)")
    parser.add_argument("--matches", type=int, default=10, help="matches per pair (default 10)")
    parser.add_argument("--players", nargs="+", default=["random", "pimc", "ismcts", "iimc"])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    for game in args.games:
        path = GAMES[game]
        if not path.exists():
            print(f"{game}: skipped ({path} is absent)\n")
            continue
        began = time.monotonic()
        width = 14
        if seats(path) == 1:
            print(f"{game} ({args.matches} matches, {args.clock:g} s per move): mean goal alone")
            for player in args.players:
                summary = tournament(path, [player], args.matches, args.clock, args.seed)
                print(f"  {player:<8} {cell(summary, player):>{width}}")
        else:
            table: dict[tuple[str, str], str] = {}
            for a, b in itertools.combinations(args.players, 2):
                summary = tournament(path, [a, b], args.matches, args.clock, args.seed)
                table[(a, b)], table[(b, a)] = cell(summary, a), cell(summary, b)
            print(f"{game} ({args.matches} matches per pair, {args.clock:g} s per move): "
                  "row player's mean goal against the column player")
            print("  " + " " * 8 + "".join(f"{p:>{width}}" for p in args.players))
            for a in args.players:
                row = "".join(f"{table.get((a, b), '.'):>{width}}" for b in args.players)
                print(f"  {a:<8}{row}")
        print(f"  [{time.monotonic() - began:.0f} s]\n", flush=True)


if __name__ == "__main__":
    main()
