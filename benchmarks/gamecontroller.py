"""What the Dresden GameController's Java prover pays per step of a game, and where.

    python benchmarks/gamecontroller.py [--games kuhn agram euchre santase montyhall krieg ...]
                                        [--files NAME=FILE.kif ...] [--playouts 5] [--seed 1]
                                        [--profile GAME ...] [--top 15]

Runs interop's ProverTrace (seeded random playouts with the GameController's own prover, the one
UWA's HyperPlay and the managers' local players reason with) on each game: translated rulesheets
(``kuhn``, ``agram``, ``euchre``, ``santase``) and hand-written GDL-II games of the corpus
(``montyhall``, ``krieg``, ``transit``, ``blackjack``...). Prints per game the milliseconds per
step of each kind of query (the legal moves of every role, the next state, every role's
percepts, terminal, and the goals, asked at the end of each playout: a playout's cost spread
over its steps), their sum, and the ratio to Krieg-TicTacToe 4x4's. With ``--profile`` it
also prints, for those games, the relations the prover spends its time on (own time, subgoals
excluded, and calls per step). ``--files`` adds other KIF files (say, another translator's
output). Builds the systems first when needed (interop/build.sh).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.peers.build import find_peers  # noqa: E402
from ggp.peers.prover import parse_trace  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "gdl2"
TRANSLATED = ("kuhn", "agram", "euchre", "santase")
CORPUS_GAMES = {"montyhall": "montyhall.gdl", "krieg": "kriegTTT_4x4.gdl", "transit": "transit.gdl",
                "blackjack": "unsw_blackjack.gdl", "battleships": "unsw_BattleshipsFog.gdl",
                "meier": "kuleuven_ii_meier.gdl"}
KINDS = ("legal", "next", "sees", "terminal", "goals")


def game_file(name: str, folder: Path) -> Path:
    """The KIF file of a game: a corpus file, or a rulesheet translated by ``ggp translate``."""
    if name in CORPUS_GAMES:
        return CORPUS / CORPUS_GAMES[name]
    out = folder / f"{name}.kif"
    subprocess.run([sys.executable, "-m", "ggp", "translate", str(ROOT / "rulesheets" / f"{name}.rcy"), "-o", str(out)],
                   check=True, capture_output=True, cwd=ROOT)
    return out


def run(command: list[str], path: Path, playouts: int, seed: int, profile: bool) -> tuple[int, dict[str, float], list[dict[str, object]]]:
    """Steps played, milliseconds by kind of query, and the profile (when asked)."""
    argv = [*command, str(path), "--playouts", str(playouts), "--seed", str(seed), "--max-steps", "500"]
    done = subprocess.run(argv + (["--profile"] if profile else []), capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    trace = parse_trace(lines)
    transitions = sum(1 for s in trace.steps if s.joint is not None)
    last = json.loads(lines[-1])
    return transitions, trace.milliseconds, list(last.get("profile", []))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=[*TRANSLATED, "montyhall", "krieg", "transit", "blackjack"],
                        choices=[*TRANSLATED, *CORPUS_GAMES])
    parser.add_argument("--files", nargs="*", default=[], metavar="NAME=FILE", help="more games, as KIF files")
    parser.add_argument("--playouts", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", nargs="*", default=[], metavar="GAME", help="games to profile by relation")
    parser.add_argument("--top", type=int, default=15, help="relations shown per profiled game (default 15)")
    args = parser.parse_args()
    command = find_peers(build_if_needed=True).prover_trace_command()
    rows = {}
    began = time.monotonic()
    print(f"{'game':<10} {'steps':>6} " + " ".join(f"{k + ' ms':>11}" for k in KINDS) + f" {'ms/step':>8} {'x krieg':>8}")
    with tempfile.TemporaryDirectory(prefix="ggp-gc-bench-") as tmp:
        games = [(name, game_file(name, Path(tmp))) for name in args.games]
        games += [(item.partition("=")[0], Path(item.partition("=")[2])) for item in args.files]
        for name, path in games:
            steps, ms, profile = run(command, path, args.playouts, args.seed, name in args.profile)
            per = {k: ms.get(k, 0.0) / max(steps, 1) for k in KINDS}
            rows[name] = (steps, per, sum(per.values()), profile)
        base = rows.get("krieg", (0, {}, 0.0, []))[2]
        for name, (steps, per, total, _) in rows.items():
            ratio = f"{total / base:8.1f}" if base else f"{'-':>8}"
            print(f"{name:<10} {steps:>6} " + " ".join(f"{per[k]:>11.2f}" for k in KINDS) + f" {total:>8.2f} {ratio}")
        for name, (steps, _, _, profile) in rows.items():
            if not profile:
                continue
            print(f"\n{name}: where the prover's time goes (own time per step, subgoals excluded)")
            for entry in profile[: args.top]:
                own = float(str(entry["ms"])) / max(steps, 1)
                calls = float(str(entry["calls"])) / max(steps, 1)
                print(f"  {own:8.3f} ms {calls:9.1f} calls  {entry['relation']}")
    print(f"[{time.monotonic() - began:.0f} s; {args.playouts} playouts per game, seed {args.seed}; the prover's "
          "time includes its warm-up (JIT) on the first playouts]")


if __name__ == "__main__":
    main()
