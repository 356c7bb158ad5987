"""Benchmark: reading KIF, on the GDL corpus and on large files given as arguments.

    python benchmarks/kif_read.py [FILE.kif ...] [--repeat N] [--json OUT.json] [--before OLD.json]
                                  [--corpus DIR]

For the KIF files of ``../shared/corpus/gdl`` and ``gdl2`` (together; ``--corpus`` names another
folder holding ``gdl`` and ``gdl2``) and for each ``FILE``
(e.g. a translated RECYCLE game: ``translate_file('../shared/corpus/recycle/Pitch4.rcy').kif``
written to a file), the best of N runs (default 3) of:

- ``parse_sexprs``: the S-expressions (the fast path; the Lark parse when it gives up),
- ``lark``: the same by the Lark parse alone (what every text took before the fast path; absent
  when measuring code without one),
- ``read_kif``: the S-expressions read as rules, with the reading warnings,
- ``load_game``: the file read, validated and repaired (``validate.prepare``).

Printed: seconds per step, the ratio of the Lark parse to the fast one, and with ``--before``
(the ``--json`` of a run on older code, e.g. from a worktree of an earlier commit) the ratios
of the old times to the new.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
STEPS = ("parse_sexprs", "lark", "read_kif", "load_game")


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The least wall time of ``repeat`` runs, each from a collected heap."""
    best = float("inf")
    for _ in range(max(1, repeat)):
        gc.collect()
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def measure(name: str, paths: list[Path], repeat: int) -> dict[str, Any]:
    """Every step's seconds, summed over ``paths``, with their bytes and rules."""
    from ggp.gdl import kif
    from ggp.gdl.load import load_game

    lark = getattr(kif, "_read_lark", None)  # the Lark parse alone, in code with a fast path
    row: dict[str, Any] = {"name": name, "files": len(paths), "bytes": 0, "rules": 0}
    row.update({step: 0.0 for step in STEPS})
    if lark is None:
        row["lark"] = None
    for path in paths:
        text = path.read_text(encoding="utf-8-sig")
        row["bytes"] += len(text.encode("utf-8"))
        row["rules"] += len(kif.read_kif(text, str(path))[0].rules)
        row["parse_sexprs"] += best_of(repeat, lambda: kif.parse_sexprs(text, str(path)))
        if lark is not None:
            row["lark"] += best_of(repeat, lambda: lark(text, str(path), True))
        row["read_kif"] += best_of(repeat, lambda: kif.read_kif(text, str(path)))
        row["load_game"] += best_of(repeat, lambda: load_game(path))
    return row


def corpus_kif(corpus: Path) -> list[Path]:
    """The corpus's files written in KIF (not infix)."""
    files = sorted(corpus.glob("gdl/*")) + sorted(corpus.glob("gdl2/*"))
    return [p for p in files if p.read_text(encoding="utf-8-sig").lstrip().startswith((";", "("))]


def ratio(old: float | None, new: float | None) -> str:
    """``old / new`` as ``3.1x``, or ``-`` when either is missing."""
    return f"{old / new:.1f}x" if old and new else "-"


def report(rows: list[dict[str, Any]], before: dict[str, dict[str, Any]]) -> None:
    """One line of figures per row, then one of ratios to the earlier run where it has the row."""
    print(f"{'input':24} {'files':>5} {'bytes':>9} {'rules':>6} "
          + " ".join(f"{step + ' s':>14}" for step in STEPS) + f" {'lark/fast':>9}")
    for row in rows:
        times = " ".join(f"{row[step]:14.3f}" if row[step] is not None else f"{'-':>14}" for step in STEPS)
        print(f"{row['name'][:24]:24} {row['files']:5d} {row['bytes']:9d} {row['rules']:6d} {times} "
              f"{ratio(row['lark'], row['parse_sexprs']):>9}")
        old = before.get(row["name"])
        if old is not None:
            print(f"{'  before/now':24} {'':5} {'':9} {'':6} "
                  + " ".join(f"{ratio(old.get(step), row[step]):>14}" for step in STEPS))
    kbs = sum(r["bytes"] for r in rows) / max(sum(r["read_kif"] for r in rows), 1e-9) / 1000
    print(f"read_kif: {kbs:.0f} kB/s over everything measured")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE.kif", help="more KIF files, each measured apart")
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="runs per step (best counts)")
    parser.add_argument("--json", metavar="OUT.json", help="write the figures here")
    parser.add_argument("--before", metavar="OLD.json", help="an earlier run's --json to compare with")
    parser.add_argument("--corpus", type=Path, default=CORPUS, metavar="DIR", help=f"default {CORPUS}")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    inputs = [("corpus gdl+gdl2", corpus_kif(args.corpus))] if args.corpus.exists() else []
    if not inputs:
        print(f"no corpus at {args.corpus}: measuring the files given only", file=sys.stderr)
    inputs += [(path.name, [path]) for path in args.files]
    if not inputs:
        print("nothing to measure", file=sys.stderr)
        return 1
    from ggp.gdl import kif

    print(f"code: {Path(kif.__file__).resolve().parents[2]}")
    rows = [measure(name, paths, args.repeat) for name, paths in inputs]
    before = {r["name"]: r for r in json.loads(Path(args.before).read_text())} if args.before else {}
    report(rows, before)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
