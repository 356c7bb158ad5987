"""Benchmark: parse the whole RECYCLE corpus (``../shared/corpus/recycle``), per file and total.

    python benchmarks/recycle_parse.py [--repeat N]

Each file is read once, then parsed N times (default 3); the best time of each file counts.
"Parse" is everything :func:`translators.recycle.parse_recycle` does: lexing and LALR parsing,
building the typed tree, and giving variables their kinds. The lexing-and-parsing share is
shown separately, and so is the one-time cost of building the parser (importing the module).
The target is under 3 s for the whole corpus on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "recycle"
TARGET_SECONDS = 3.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="parses per file (best counts)")
    args = parser.parse_args()
    files = sorted(CORPUS.glob("*.rcy"))
    if not files:
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 1
    sys.path.insert(0, str(ROOT))
    start = time.perf_counter()
    from lark.exceptions import UnexpectedInput

    from translators.recycle.syntax.parser import _PARSER, parse_recycle

    build = time.perf_counter() - start
    texts = {path.name: path.read_text(encoding="utf-8-sig") for path in files}
    rows = []
    for name, text in texts.items():
        best = best_lalr = float("inf")
        for _ in range(max(1, args.repeat)):
            t0 = time.perf_counter()
            try:
                _PARSER.parse(text, start="start")
            except UnexpectedInput:  # text after the game: parse_recycle warns about it
                pass
            t1 = time.perf_counter()
            parse_recycle(text, name)
            t2 = time.perf_counter()
            best_lalr, best = min(best_lalr, t1 - t0), min(best, t2 - t1)
        rows.append((name, len(text), best_lalr, best))
    print(f"{'file':34} {'bytes':>7} {'lex+parse ms':>13} {'total ms':>9}")
    for name, size, lalr, total in rows:
        print(f"{name:34} {size:7d} {lalr * 1000:13.1f} {total * 1000:9.1f}")
    total = sum(r[3] for r in rows)
    lalr = sum(r[2] for r in rows)
    size = sum(r[1] for r in rows)
    print(f"{len(rows)} files, {size} bytes: total {total:.3f} s ({size / total / 1000:.0f} kB/s), "
          f"of which lexing and parsing {lalr:.3f} s; building the parser {build:.3f} s")
    print(f"target {TARGET_SECONDS:.1f} s: {total / TARGET_SECONDS:.0%} of it "
          f"({'met' if total < TARGET_SECONDS else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
