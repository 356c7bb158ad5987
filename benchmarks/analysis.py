"""Benchmark: what ``ggp analyze`` spends its time on.

    python benchmarks/analysis.py [--game FILE] [--games N] [--rollouts K] [--seed S]

Runs an analysis of random players (no order matches) in a temporary folder and times its
phases: the matches (through the tournament machinery, one worker), tracing them with
``--rollouts`` rollouts per option in one process, tracing them again in two worker processes
(the tournament is resumed: no match is played twice), and the metrics, plots and report.
Prints matches and traces per minute, the ratio of the two tracings, and the load average
before and after (the machine may be shared: compare ratios taken in one run).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.analysis.compute import all_metrics
from ggp.analysis.plan import TRACES, AnalysisPlan
from ggp.analysis.plots import all_plots
from ggp.analysis.report import Report, write
from ggp.analysis.run import Silent, run_analysis
from ggp.gdl.load import load_game


class Timer(Silent):
    """Hooks that note when each stage ends."""

    def __init__(self) -> None:
        self.marks: list[tuple[str, float]] = []

    def begin(self, what: str, total: int, done: int) -> None:
        """Note the stage's start."""
        self.marks.append((what, time.monotonic()))


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=str(ROOT / "rulesheets" / "kuhn.rcy"), help="the game (default: Kuhn poker)")
    parser.add_argument("--games", type=int, default=40, help="matches (default 40)")
    parser.add_argument("--rollouts", type=int, default=10, help="rollouts per option (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    description = load_game(args.game)
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        plan = AnalysisPlan(args.game, description.to_kif(), description.source, description.digest(), args.seed,
                            args.games, ["random"], None, 0, args.rollouts, [30.0, 5.0, 1.0],
                            db=str(folder / "matches.sqlite3"))
        timer = Timer()
        start = time.monotonic()
        run_analysis(plan, folder, timer)
        end = time.monotonic()
        traced_at = dict(timer.marks)["traced"]
        matches, tracing = traced_at - start, end - traced_at
        (folder / TRACES).unlink()
        again = time.monotonic()
        outcome = run_analysis(plan, folder, Silent(), workers=2)
        parallel = time.monotonic() - again
        assert outcome.dataset is not None
        report_start = time.monotonic()
        metrics = all_metrics(outcome.dataset)
        plots = all_plots(outcome.dataset, metrics, [])
        write(Report(outcome.dataset, metrics, plan.settings_json(), plots), folder)
        reporting = time.monotonic() - report_start
    n = args.games
    print(f"game: {args.game}, {n} matches of random players, {args.rollouts} rollouts per option")
    print(f"matches (1 worker):       {matches:7.1f} s  {60 * n / matches:7.1f} per minute")
    print(f"tracing (1 process):      {tracing:7.1f} s  {60 * n / tracing:7.1f} per minute")
    print(f"tracing (2 workers):      {parallel:7.1f} s  {60 * n / parallel:7.1f} per minute  "
          f"(x {tracing / parallel:.2f}; includes resuming the stored tournament)")
    print(f"metrics, plots, report:   {reporting:7.1f} s ({len(metrics)} metrics, {len(plots)} plots)")
    print(f"load average: {load:.2f} before, {os.getloadavg()[0]:.2f} after, on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
