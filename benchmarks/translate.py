"""Benchmark: the RECYCLE -> GDL-II translator on every corpus game (``../shared/corpus/recycle``).

    python benchmarks/translate.py [PATTERN...] [--games N] [--seconds S] [--json OUT.json]

For each game: translation time (target under 2 s), GDL rules, ground rules and the time to
build the fast reasoner (grounding included), GDL steps per decision (decisions = player
choices and chance decisions; target at most 2 on average), decisions per game and options per
decision under uniform random play next to the CardStock engine's own figures
(``../shared/reference/cardstock-random-play.json``), and random playouts per second with the
fast reasoner (target at least 100 for Agram with 4 players). ``PATTERN`` keeps the games whose
file name contains it; ``--games`` random games are played for the statistics (default 20, at
most ``--seconds`` per game, default 60), then playouts are timed for 3 s.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus" / "recycle"
REFERENCE = SHARED / "reference" / "cardstock-random-play.json"


def bench(path: Path, games: int, seconds: float, reference: dict[str, Any]) -> dict[str, Any]:
    """All the figures of one game."""
    from ggp.reasoner import make_machine
    from ggp.reasoner.play import random_playout
    from translators.recycle.playstats import Playout, play, summarize
    from translators.recycle.translate import translate_file

    row: dict[str, Any] = {"game": path.stem}
    start = time.perf_counter()
    translation = translate_file(path)
    row["translate_s"] = time.perf_counter() - start
    row["rules"] = len(translation.description.rules)
    start = time.perf_counter()
    machine = make_machine(translation.description)
    row["build_s"] = time.perf_counter() - start
    row["ground_rules"] = getattr(machine, "ground_rules", None)
    row["grounding_s"] = getattr(machine, "grounding_seconds", None)
    rng = random.Random(1)
    played: list[Playout] = []
    start = time.perf_counter()
    while len(played) < games and time.perf_counter() - start < seconds:
        played.append(play(machine, translation.description, rng))
    ref = reference.get(path.name, {})
    summary = summarize(played, translation.model.players, ref.get("scoring_direction", "max"))
    row.update(steps_per_decision=summary.steps_per_decision, decisions=summary.decisions_mean,
               options=summary.options_mean, played=len(played), endings=summary.endings,
               ref_decisions=ref.get("choices_mean"), ref_decisions_std=ref.get("choices_std"),
               ref_options=ref.get("options_per_decision_mean"),
               win_share=summary.win_share, ref_win_share=ref.get("win_share_tie_split"))
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 3.0:
        random_playout(machine, rng)
        count += 1
    row["playouts_per_s"] = count / (time.perf_counter() - start)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="*", metavar="PATTERN")
    parser.add_argument("--games", type=int, default=20, metavar="N")
    parser.add_argument("--seconds", type=float, default=60.0, metavar="S")
    parser.add_argument("--json", metavar="OUT.json")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    files = sorted(CORPUS.glob("*.rcy"))
    if not files:
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 1
    if args.patterns:
        files = [f for f in files if any(p in f.name for p in args.patterns)]
    reference = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {}
    head = (f"{'game':28} {'tr s':>5} {'rules':>7} {'ground':>8} {'build s':>7} {'st/dec':>6} "
            f"{'dec':>6} {'(ref)':>6} {'opt':>5} {'(ref)':>5} {'play/s':>7}")
    print(head)
    rows = []
    for path in files:
        try:
            row = bench(path, args.games, args.seconds, reference)
        except Exception as exc:  # noqa: BLE001 -- report any failure and go on with the next game
            print(f"{path.stem:28} failed: {type(exc).__name__}: {exc}")
            continue
        rows.append(row)
        print(f"{row['game']:28} {row['translate_s']:5.2f} {row['rules']:7d} {row['ground_rules'] or 0:8d} "
              f"{row['build_s']:7.1f} {row['steps_per_decision']:6.2f} {row['decisions']:6.1f} "
              f"{row['ref_decisions'] or float('nan'):6.1f} {row['options']:5.2f} {row['ref_options'] or float('nan'):5.2f} "
              f"{row['playouts_per_s']:7.1f}", flush=True)
    if rows:
        spd = [r["steps_per_decision"] for r in rows if not math.isnan(r["steps_per_decision"])]
        print(f"{len(rows)} games: translation {sum(r['translate_s'] for r in rows):.1f} s in all, "
              f"slowest {max(r['translate_s'] for r in rows):.2f} s (target < 2 s each); "
              f"steps per decision {sum(spd) / len(spd):.2f} on average (target <= 2), "
              f"max {max(spd):.2f}")
        agram = [r for r in rows if r["game"] == "Agram4"]
        if agram:
            print(f"Agram4: {agram[0]['playouts_per_s']:.0f} random playouts/s (target >= 100)")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
