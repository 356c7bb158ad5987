"""Every player against every other, through ``ggp tournament``; or, with ``--throughput``,
how many matches per minute a tournament plays in one process, in 2 worker processes and on
a local Ray cluster.

    python benchmarks/tournament.py [--clock S] [--matches N] [--players P ...] [--games G ...] [--seed S]
    python benchmarks/tournament.py --throughput [--matches N] [--clock S] [--players P P] [--game FILE]

Throughput: the same tournament (default 40 matches of Blind Tic-Tac-Toe, random against legal,
0.5 s clocks) with ``--workers 1``, ``--workers 2`` and ``--ray auto --workers 2``; for each the
wall time of the whole command, and matches per minute over the matches themselves (from the
first match's start to the last one's end, read from the match database: without the
interpreter's, the workers' and Ray's start-up), with the ratios to one worker. The three runs
must give the same summary (the same seed); Ray is skipped when it is not installed.

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
from datetime import datetime
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


def throughput(game: Path, players: list[str], matches: int, clock: float, seed: int) -> None:
    """Print matches per minute for 1 and 2 workers and Ray local, with ratios (see the doc)."""
    import os
    import tempfile

    sys.path.insert(0, str(ROOT))
    from ggp.manager.store import MatchStore

    try:
        import ray  # noqa: F401
        modes = [["--workers", "1"], ["--workers", "2"], ["--ray", "auto", "--workers", "2"]]
    except ImportError:
        modes = [["--workers", "1"], ["--workers", "2"]]
        print("Ray is not installed (pip install 'ggp[ray]'): its run is skipped")
    print(f"{game.name}: {matches} matches, {' vs '.join(players)}, {clock:g} s clocks, {os.cpu_count()} cores; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    rates: dict[str, float] = {}
    summaries = []
    with tempfile.TemporaryDirectory() as folder:
        for mode in modes:
            db = Path(folder) / f"{'-'.join(mode)}.db"
            command = [sys.executable, "-m", "ggp", "tournament", str(game), "--matches", str(matches),
                       "--playclock", str(clock), "--startclock", "10", "--seed", str(seed), "--db", str(db),
                       "--quiet", *mode]
            for player in players:
                command += ["--player", player]
            began = time.monotonic()
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
            wall = time.monotonic() - began
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
            summary = json.loads(done.stdout)
            summary.pop("tournament")
            summaries.append(summary)
            with MatchStore(db) as store:
                records = [store.get(row.match_id) for row in store.rows()]
            first = min(datetime.fromisoformat(r.started) for r in records)
            last = max(datetime.fromisoformat(r.finished) for r in records)
            span = (last - first).total_seconds()
            name = " ".join(mode)
            rates[name] = len(records) / span * 60
            print(f"  {name:<26} {wall:6.1f} s in all; {span:6.1f} s of matches: {rates[name]:6.1f} matches per minute"
                  f" ({len(records) / wall * 60:5.1f} per minute with start-up)")
    base = rates["--workers 1"]
    for name, rate in rates.items():
        if name != "--workers 1":
            print(f"  ratio {name} / --workers 1: {rate / base:.2f}")
    print(f"  same summary in every run: {all(s == summaries[0] for s in summaries)}")
    print(f"  load average after: {os.getloadavg()[0]:.2f}")


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
    parser.add_argument("--throughput", action="store_true",
                        help="measure matches per minute with 1 and 2 workers and Ray local instead")
    parser.add_argument("--game", type=Path, default=ROOT / "rulesheets" / "blind_tictactoe.kif",
                        help="the game of --throughput (default: Blind Tic-Tac-Toe)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.throughput:
        players = args.players if args.players != parser.get_default("players") else ["random", "legal"]
        throughput(args.game, players, args.matches if args.matches != 10 else 40, args.clock, args.seed)
        return
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
