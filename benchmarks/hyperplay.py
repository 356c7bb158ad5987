"""HyperPlay (UWA's agent, served by interop's AgentServer) against the project's player.

    python benchmarks/hyperplay.py [--games montyhall bomb kuhn krieg] [--matches 100]
                                   [--player ismcts] [--agent hyper] [--clock GAME=S ...]
                                   [--seed 1] [--record-dir DIR]
    python benchmarks/hyperplay.py --pool DIR [DIR ...]

Builds the third-party systems when needed (interop/build.sh, needs Java and ../shared), serves
the UWA agent on a free port, and for each game runs ``ggp tournament`` (each match a fresh
match for both; the seats rotate, so in a two-player game each plays each seat in half of the
matches). One-player games (Monty Hall, Exploding Bomb) are played by each alone, ``--matches``
times. Prints, per game, each side's mean goal with the half-width of its 95 % interval (Student's
t) and the moves the manager had to substitute for each (a time-out, no move, an illegal move),
then the load average of the machine before and after. ``--pool`` prints the same table from the
records of several runs kept with ``--record-dir`` (say, more matches added with another seed). Both sides get the same play clock
(``--clock``; defaults below); the project's player searches until a little before it, HyperPlay
decides in its own time, which can be longer (its moves are then substituted and counted).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.manager.tournament import mean_ci95  # noqa: E402
from ggp.peers.agent import AgentProcess  # noqa: E402
from ggp.peers.build import find_peers  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "gdl2"
GAMES = {
    "montyhall": ROOT / "rulesheets" / "montyhall.kif",
    "bomb": ROOT / "rulesheets" / "exploding_bomb.kif",
    "kuhn": ROOT / "rulesheets" / "kuhn.rcy",
    "krieg": CORPUS / "kriegTTT_4x4.gdl",
}
#: Seconds per move by default: what HyperPlay needs for most of its moves on the 2-core machine
#: (its first moves in Krieg-TicTacToe take 8 to 18 s there).
CLOCKS = {"montyhall": 2.0, "bomb": 2.0, "kuhn": 5.0, "krieg": 20.0}


def seats(path: Path) -> int:
    """The number of roles other than random."""
    from ggp.gdl.load import load_game

    return sum(1 for r in load_game(path).roles if str(r) != "random")


def tournament(path: Path, specs: list[str], matches: int, clock: float, seed: int, records: Path) -> list[dict[str, object]]:
    """Run ``ggp tournament`` and return its match records."""
    records.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "ggp", "tournament", str(path), "--matches", str(matches),
               "--playclock", str(clock), "--startclock", "30", "--seed", str(seed), "--record-dir", str(records)]
    for spec in specs:
        command += ["--player", spec]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return [json.loads(p.read_text()) for p in sorted(records.glob("*.json"))]


def tally(records: list[dict[str, object]], spec: str) -> tuple[list[float], dict[str, int]]:
    """The goals ``spec`` received and its substituted moves by reason."""
    goals: list[float] = []
    faults: dict[str, int] = {}
    for record in records:
        players = record["players"]
        assert isinstance(players, dict)
        for role, who in players.items():
            if who == spec and record["goals"] and role in record["goals"]:  # type: ignore[operator]
                goals.append(float(record["goals"][role]))  # type: ignore[index]
        for line in record["errors"]:  # type: ignore[attr-defined]
            if f"({spec})" in line:
                reason = line.split(f"({spec}): ", 1)[1].split(":", 1)[0]
                faults[reason] = faults.get(reason, 0) + 1
    return goals, faults


def by_seat(records: list[dict[str, object]], spec: str) -> dict[str, list[float]]:
    """The goals ``spec`` received, by the role it played."""
    seated: dict[str, list[float]] = {}
    for record in records:
        players, goals = record["players"], record["goals"]
        assert isinstance(players, dict)
        for role, who in players.items():
            if who == spec and isinstance(goals, dict) and role in goals:
                seated.setdefault(role, []).append(float(goals[role]))
    return seated


def show(name: str, goals: list[float], faults: dict[str, int]) -> str:
    """One line: ``name``'s mean goal, the half-width of its 95 % interval, its substituted moves."""
    mean, lo, hi = mean_ci95(goals) if goals else (float("nan"),) * 3
    subs = ", ".join(f"{n} {reason}" for reason, n in sorted(faults.items())) or "none"
    return f"  {name:<10} {mean:6.1f} +-{(hi - lo) / 2:5.1f}  ({len(goals)} goals; substituted: {subs})"


def report(records: list[dict[str, object]], sides: list[tuple[str, str]]) -> None:
    """Print each side's line (``(name, spec)``), its goals by seat, and the steps per match."""
    for name, spec in sides:
        goals, faults = tally(records, spec)
        print(show(name, goals, faults))
        seated = by_seat(records, spec)
        if len(seated) > 1:
            print("    " + "; ".join(f"as {role} {statistics.fmean(g):.1f} ({len(g)})"
                                     for role, g in sorted(seated.items())))
    lengths = [len(r["steps"]) for r in records]  # type: ignore[arg-type]
    print(f"  steps per match {statistics.fmean(lengths):.1f}", flush=True)


def pool(folders: list[Path], agent: str) -> None:
    """Print the table from the match records under ``folders`` (runs kept with ``--record-dir``,
    pooled): a player served over HTTP (its URL changes from run to run) is counted as ``agent``."""
    by_game: dict[str, list[dict[str, object]]] = {}
    files = {path.name: game for game, path in GAMES.items()}
    for folder in folders:
        for file in sorted(folder.rglob("*.json")):
            record = json.loads(file.read_text())
            players = record["players"]
            for role, who in list(players.items()):
                if "://" in who:
                    record["errors"] = [line.replace(f"({who})", f"({agent})") for line in record["errors"]]
                    players[role] = agent
            game = files.get(Path(record["game_source"]).name, Path(record["game_source"]).stem)
            by_game.setdefault(game, []).append(record)
    if not by_game:
        raise SystemExit(f"no match records (*.json) under {', '.join(map(str, folders))}")
    for game, records in sorted(by_game.items()):
        clocks = sorted({float(r["play_clock"]) for r in records})  # type: ignore[arg-type]
        print(f"{game} ({len(records)} matches, {'/'.join(f'{c:g}' for c in clocks)} s per move):")
        specs = sorted({who for r in records for who in r["players"].values()})  # type: ignore[attr-defined]
        report(records, [(spec, spec) for spec in specs if spec != agent] + [(agent, agent)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--matches", type=int, default=100, help="matches per game (default 100)")
    parser.add_argument("--player", default="ismcts", help="the project's player (default ismcts)")
    parser.add_argument("--agent", default="hyper", help="the UWA agent (default hyper: HyperPlay)")
    parser.add_argument("--clock", nargs="*", default=[], metavar="GAME=S",
                        help="play clock of a game in seconds (defaults: " +
                        ", ".join(f"{g}={c:g}" for g, c in CLOCKS.items()) + ")")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record-dir", type=Path, help="keep the match records here (default: a temporary folder)")
    parser.add_argument("--pool", type=Path, nargs="+", metavar="DIR",
                        help="play nothing: print the table from the records of earlier runs kept in these folders")
    args = parser.parse_args()
    if args.pool:
        missing = [str(f) for f in args.pool if not f.is_dir()]
        if missing:
            parser.error(f"--pool: no such folder: {', '.join(missing)}")
        pool(args.pool, args.agent)
        return
    clocks = dict(CLOCKS)
    for item in args.clock:
        game, _, value = item.partition("=")
        clocks[game] = float(value)
    load_before = os.getloadavg()
    peers = find_peers(build_if_needed=True)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ggp-hyperplay-") as tmp, AgentProcess(peers, args.agent) as agent:
        folder = args.record_dir or Path(tmp)
        print(f"{args.player} against UWA's {args.agent} ({agent.url}), {args.matches} matches per game, seed {args.seed}")
        for game in args.games:
            path = GAMES[game]
            if not path.exists():
                print(f"{game}: skipped ({path} is absent)")
                continue
            started = time.monotonic()
            clock = clocks[game]
            if seats(path) == 1:
                mine = tournament(path, [args.player], args.matches, clock, args.seed, folder / game / "project")
                theirs = tournament(path, [agent.url], args.matches, clock, args.seed, folder / game / "uwa")
                records = mine + theirs
            else:
                records = tournament(path, [args.player, agent.url], args.matches, clock, args.seed, folder / game)
            print(f"{game} ({len(records)} matches, {clock:g} s per move, {time.monotonic() - started:.0f} s):")
            report(records, [(args.player, args.player), (args.agent, agent.url)])
    load_after = os.getloadavg()
    print(f"[{time.monotonic() - began:.0f} s; load average before {load_before[0]:.1f} "
          f"(15 min {load_before[2]:.1f}), after {load_after[0]:.1f} (15 min {load_after[2]:.1f}), {os.cpu_count()} cores]")


if __name__ == "__main__":
    main()
