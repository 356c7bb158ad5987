"""Cross-check the fast reasoner against the clingo oracle on the RECYCLE corpus, game by game.

    python benchmarks/cross_check.py [PATTERN...] [--playouts N] [--seed S] [--jobs J] [--done LOG]

The check of ``tests/translate/test_corpus.py::test_cross_check_20`` (``cross_check`` with
``N`` playouts from seed ``S``; Cribbage2 gets 600 s to ground), run in ``J`` processes, one
line per game as it finishes: ``GAME ok STATES SECONDS``, or ``GAME FAIL ...`` with the first
disagreement or the error met. The whole corpus takes hours (the oracle grounds the game once per state), so
``--done LOG`` skips the games a previous run's output already lists as ``ok``: a run can be
stopped and resumed. ``PATTERN`` keeps the games whose file name contains it. Games start
smallest first (by the size of their RECYCLE file). Exits 1 when a game disagrees.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus" / "recycle"
#: Games that need more grounding time than the fast reasoner's default budget.
GROUNDING_SECONDS = {"Cribbage2": 600.0}


def check(path: Path, playouts: int, seed: int) -> str:
    """One game's result line."""
    from ggp.errors import GGPError
    from ggp.reasoner.domains import DEFAULT_MAX_SECONDS
    from ggp.reasoner.verify import cross_check
    from translators.recycle.translate import translate_file

    start = time.perf_counter()
    try:
        description = translate_file(path).description
        report = cross_check(description, playouts, seed,
                             max_seconds=GROUNDING_SECONDS.get(path.stem, DEFAULT_MAX_SECONDS))
    except GGPError as exc:  # a translation error, a game too large to ground...
        return f"{path.stem} FAIL {type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - start
    if report.ok:
        return f"{path.stem} ok {report.states} {seconds:.0f}"
    return f"{path.stem} FAIL " + report.describe().replace("\n", " | ")


def done_games(log: Path) -> set[str]:
    """The games a previous run's output lists as ``ok``."""
    return {line.split()[0] for line in log.read_text().splitlines() if line.split()[1:2] == ["ok"]}


def main(argv: list[str] | None = None) -> int:
    """Run the cross-check; print one line per game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("patterns", nargs="*", metavar="PATTERN", help="keep games whose file name contains one")
    parser.add_argument("--playouts", type=int, default=20, metavar="N", help="playouts per game (default 20)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0, as the test)")
    parser.add_argument("--jobs", type=int, default=2, metavar="J", help="processes (default 2)")
    parser.add_argument("--done", type=Path, metavar="LOG", help="skip the games this earlier output lists as ok")
    args = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"cross_check: {CORPUS} is absent (the project's ../shared material)", file=sys.stderr)
        return 2
    games = [p for p in sorted(CORPUS.glob("*.rcy")) if not args.patterns or any(s in p.name for s in args.patterns)]
    if args.done is not None:
        if not args.done.is_file():
            print(f"cross_check: --done {args.done}: no such file", file=sys.stderr)
            return 2
        skip = done_games(args.done)
        games = [p for p in games if p.stem not in skip]
    games.sort(key=lambda p: p.stat().st_size)
    failed = False
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(check, path, args.playouts, args.seed) for path in games]
        for future in as_completed(futures):
            line = future.result()
            failed = failed or " FAIL " in line
            print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
