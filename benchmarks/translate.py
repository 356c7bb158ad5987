"""Benchmark: the RECYCLE -> GDL-II translator on every corpus game (``../shared/corpus/recycle``).

    python benchmarks/translate.py [PATTERN...] [--written] [--games N] [--seconds S] [--json OUT.json]
    python benchmarks/translate.py --shape [PATTERN...] [--json OUT.json] [--before OLD.json]

For each game: translation time (target under 2 s), GDL rules, ground rules and the time to
build the fast reasoner (grounding included), GDL steps per decision (decisions = player
choices and chance decisions; target at most 2 on average), decisions per game and options per
decision under uniform random play next to the CardStock engine's own figures
(``../shared/reference/cardstock-random-play.json``), and random playouts per second with the
fast reasoner (target at least 100 for Agram with 4 players). ``PATTERN`` keeps the games whose
file name contains it; ``--games`` random games are played for the statistics (default 20, at
most ``--seconds`` per game, default 60), then playouts are timed for 3 s. ``--written`` adds the
games written here for the conformance replays (``tests/conformance/games``).

``--shape`` measures only the output's shape, for every corpus game and every rulesheet
(``rulesheets/*.rcy``): rules, relations, the share of relation names with a number in them, and
translation time; ``--before OLD.json`` (the ``--json`` of an earlier run, e.g. from a worktree
of an older commit) adds the before figures and the ratios.
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


def shape(path: Path) -> dict[str, Any]:
    """Rules, relations, numbered relation names and translation time of one game."""
    from translators.recycle.rulebook.names import is_numbered
    from translators.recycle.translate import translate_file

    start = time.perf_counter()
    translation = translate_file(path)
    seconds = time.perf_counter() - start
    heads = {r.head.name for r in translation.description.rules}
    return {"game": path.stem, "rules": len(translation.description.rules), "relations": len(heads),
            "numbered": sum(1 for h in heads if is_numbered(h)), "seconds": seconds}


def shapes(files: list[Path], before: dict[str, Any]) -> list[dict[str, Any]]:
    """Print and return the shape of every game, next to ``before`` where it has the game."""
    print(f"{'game':28} {'rules':>7} {'(before)':>8} {'rels':>6} {'numbered':>8} {'(before)':>8} {'s':>5}")
    rows = []
    for path in files:
        try:
            row = shape(path)
        except Exception as exc:  # noqa: BLE001 -- report any failure and go on with the next game
            print(f"{path.stem:28} failed: {type(exc).__name__}: {exc}")
            continue
        rows.append(row)
        old = before.get(row["game"], {})
        share = row["numbered"] / max(row["relations"], 1)
        old_share = f"{old['numbered'] / max(old['relations'], 1):8.0%}" if old else f"{'':8}"
        print(f"{row['game']:28} {row['rules']:7d} {old.get('rules', ''):>8} {row['relations']:6d} {share:8.0%} "
              f"{old_share} {row['seconds']:5.2f}", flush=True)
    if rows:
        rules, rels = sum(r["rules"] for r in rows), sum(r["relations"] for r in rows)
        numbered = sum(r["numbered"] for r in rows)
        print(f"{len(rows)} games: {rules} rules, {rels} relations, {numbered / max(rels, 1):.1%} numbered, "
              f"{sum(r['seconds'] for r in rows):.1f} s")
        common = [r for r in rows if r["game"] in before]
        if common:
            old_rules = sum(before[r["game"]]["rules"] for r in common)
            old_rels = sum(before[r["game"]]["relations"] for r in common)
            old_numbered = sum(before[r["game"]]["numbered"] for r in common)
            new_rules = sum(r["rules"] for r in common)
            print(f"the {len(common)} games also measured before: {old_rules} -> {new_rules} rules "
                  f"(x{new_rules / max(old_rules, 1):.2f}), numbered {old_numbered / max(old_rels, 1):.1%} -> "
                  f"{sum(r['numbered'] for r in common) / max(sum(r['relations'] for r in common), 1):.1%}")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="*", metavar="PATTERN")
    parser.add_argument("--games", type=int, default=20, metavar="N")
    parser.add_argument("--seconds", type=float, default=60.0, metavar="S")
    parser.add_argument("--json", metavar="OUT.json")
    parser.add_argument("--shape", action="store_true",
                        help="only rules, relations, numbered names and translation time (rulesheets too)")
    parser.add_argument("--before", metavar="OLD.json", help="with --shape: an earlier --shape --json to compare with")
    parser.add_argument("--written", action="store_true",
                        help="also the games written here to check the translation against the engine "
                             "(tests/conformance/games: Old Maid's and Concentration's hidden choices...)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    files = sorted(CORPUS.glob("*.rcy"))
    if args.written:
        files += sorted((ROOT / "tests" / "conformance" / "games").glob("*.rcy"))
    if args.shape:
        files += sorted((ROOT / "rulesheets").glob("*.rcy"))
    if not files:
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 1
    if args.patterns:
        files = [f for f in files if any(p in f.name for p in args.patterns)]
    if args.shape:
        before: dict[str, Any] = {}
        if args.before:
            old = json.loads(Path(args.before).read_text())
            before = {r["game"]: r for r in old} if isinstance(old, list) else old
        found = shapes(files, before)
        if args.json:
            Path(args.json).write_text(json.dumps(found, indent=1))
        return 0 if found else 1
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
