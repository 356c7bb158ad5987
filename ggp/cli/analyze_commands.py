"""The ``ggp analyze`` subcommand: play seeded matches of a game and measure CardStock's
heuristics and TAG's game metrics, with a report of plots (docs/analysis.md)."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from ggp.cli.progress import Progress, quiet_option
from ggp.reasoner import REASONERS

#: Defaults of the command line.
GAMES, ORDER_GAMES, ROLLOUTS, ORDER_PLAYER = 100, 40, 10, "pimc"


def register(sub: Any) -> None:
    """Add the ``analyze`` subcommand to ``sub``."""
    p = sub.add_parser(
        "analyze",
        help="measure a game: fairness, drama, order, branching factor, length... with plots",
        description="Play N seeded matches of FILE (any GDL or GDL-II game, or a RECYCLE card game) between "
        "--players (random players by default; the specs rotated over the seats), and --order-games matches of "
        "--order-player against random players, all through the tournament machinery (--workers, --ray, stored "
        "in the match database, resumable). Every decision of the matches is then valued by --rollouts random "
        "playouts per option. Measures CardStock's heuristics (fairness, order, drama, decisiveness, meaningful "
        "moves, variance, clarity, coolness, stability) and TAG's game metrics (game length, decisions per player, "
        "action space, branching factor, state size and its growth, win rate by seat, score convergence, security "
        "of the lead, action diversity, reward sparsity; hidden information and hand size in card games), each "
        "with its 95 %% confidence interval and sample size. Writes DIR/analysis.json and DIR/report.html (one "
        "self-contained page with plots; needs matplotlib: pip install 'ggp[analysis]') and prints a JSON "
        "summary. Ctrl-C stops it; --resume DIR finishes it.",
    )
    p.add_argument("file", metavar="FILE", nargs="?", help="the game (not with --resume)")
    p.add_argument("--games", type=int, default=GAMES, metavar="N",
                   help=f"matches between --players (default {GAMES})")
    p.add_argument("--players", nargs="+", metavar="SPEC",
                   help="the players under study: one spec for every seat, or one per seat (rotated over the seats "
                   "from match to match; more than the seats: a round robin); registered names, module:Class or "
                   "http://HOST:PORT (default: random)")
    p.add_argument("--seed", type=int, metavar="S", help="seed of everything (default: drawn and printed)")
    p.add_argument("--out", metavar="DIR", help="output folder (default: analysis-GAME in the current directory)")
    p.add_argument("--order-player", default=ORDER_PLAYER, metavar="SPEC",
                   help=f"the stronger player whose advantage 'order' measures (default {ORDER_PLAYER})")
    p.add_argument("--order-games", type=int, default=ORDER_GAMES, metavar="N",
                   help=f"matches of --order-player against random players, its seat rotated (default {ORDER_GAMES}; "
                   "0: no order)")
    p.add_argument("--rollouts", type=int, default=ROLLOUTS, metavar="K",
                   help=f"random playouts valuing each option of a decision (default {ROLLOUTS}, as CardStock's PIPMC; "
                   "0: no lead or choice metrics, much faster)")
    p.add_argument("--playclock", type=float, default=1.0, metavar="S", help="play clock, seconds (default 1)")
    p.add_argument("--startclock", type=float, default=10.0, metavar="S", help="start clock, seconds (default 10)")
    p.add_argument("--reference", metavar="FILE",
                   help="CardStock's random-play figures (e.g. ../shared/reference/cardstock-random-play.json): "
                   "compare with the entry named like FILE")
    p.add_argument("--workers", type=int, metavar="W",
                   help="matches (and traces) at once, in worker processes of this machine (default 1)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="play the matches on a Ray cluster at ADDRESS, or 'auto' for a local one (needs ggp[ray])")
    p.add_argument("--db", metavar="PATH", help="match database (default: $GGP_MATCH_DB or the data directory)")
    p.add_argument("--reasoner", choices=REASONERS, default=None, help="state machine (default: auto)")
    p.add_argument("--resume", metavar="DIR", help="finish the analysis whose output folder is DIR")
    quiet_option(p)
    p.set_defaults(run=run_analyze)


class BarHooks:
    """Progress bars on standard error (see :class:`ggp.analysis.run.Hooks`)."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.bar: Progress | None = None

    def begin(self, what: str, total: int, done: int) -> None:
        """A new bar."""
        self.end()
        self.bar = Progress(total, what.split()[0], quiet=self.quiet, initial=done, description=what)

    def step(self) -> None:
        """One more."""
        if self.bar is not None:
            self.bar.update(1)

    def end(self) -> None:
        """Close the bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def say(self, line: str) -> None:
        """A line on standard error."""
        print(f"ggp analyze: {line}", file=sys.stderr, flush=True)


def _problem(args: argparse.Namespace) -> str | None:
    if args.resume is None and args.file is None:
        return "give FILE, or --resume DIR"
    if args.resume is not None and (args.file is not None or args.players):
        return "--resume DIR takes the game and the players from DIR/plan.json: give neither FILE nor --players"
    for option in ("games", "order_games", "rollouts"):
        if getattr(args, option) < 0:
            return f"--{option.replace('_', '-')} must be 0 or more, not {getattr(args, option)}"
    if args.games < 1:
        return f"--games must be 1 or more, not {args.games}"
    if args.workers is not None and args.workers < 1:
        return f"--workers must be 1 or more, not {args.workers}"
    return None


def run_analyze(args: argparse.Namespace) -> int:
    """Plan (or load) the analysis, run it, write the report, print the summary."""
    from ggp.analysis.plan import AnalysisPlan
    from ggp.analysis.plots import require_matplotlib
    from ggp.manager.stopping import exit_status, stop_on_signals

    problem = _problem(args)
    if problem is not None:
        print(f"ggp analyze: {problem}", file=sys.stderr)
        return 2
    require_matplotlib()
    hooks = BarHooks(args.quiet)
    folder: Path | None = None
    with stop_on_signals():
        try:
            if args.resume is not None:
                folder = Path(args.resume)
                plan = AnalysisPlan.load(folder)
            else:
                plan, folder = _new_plan(args, hooks)
            return _run(plan, folder, args, hooks)
        except KeyboardInterrupt as exc:
            hooks.end()
            if folder is not None and (folder / "plan.json").exists():
                print(f"ggp analyze: stopped; finish it with: ggp analyze --resume {folder}", file=sys.stderr)
            else:
                print("ggp analyze: interrupted", file=sys.stderr)
            return exit_status(exc)


def _new_plan(args: argparse.Namespace, hooks: BarHooks) -> tuple[Any, Path]:
    from ggp.analysis.plan import AnalysisPlan
    from ggp.analysis.reference import load_reference
    from ggp.analysis.run import seat_count
    from ggp.gdl.load import load_game
    from ggp.manager.clocks import Clocks
    from ggp.manager.runner import MatchSetupError
    from ggp.manager.tournament import check_tournament
    from ggp.players.registry import player_class

    players = args.players or ["random"]
    order_player = args.order_player if args.order_games > 0 else None
    for spec in [*players, *([order_player] if order_player else [])]:
        if not spec.startswith(("http://", "https://")):
            player_class(spec)  # an unknown player is an error before any match
    if args.reference is not None:  # a bad reference file is an error before any match
        if load_reference(args.reference, args.file) is None:
            hooks.say(f"{args.reference} has no figures for {Path(args.file).name}: nothing to compare with")
    description = load_game(args.file)
    seats = seat_count(description)
    if seats == 0:
        raise MatchSetupError(f"{args.file}: the game has no role other than random: nothing to analyse")
    specs = players * seats if len(players) == 1 else players
    check_tournament(description, specs, args.games)
    Clocks(args.startclock, args.playclock, 1.0)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if args.seed is None:
        hooks.say(f"seed {seed}")
    folder = Path(args.out) if args.out else Path(f"analysis-{Path(args.file).stem}")
    db = str(Path(args.db).resolve()) if args.db else None
    plan = AnalysisPlan(str(Path(args.file)), description.to_kif(), description.source, description.digest(), seed,
                        args.games, list(players), order_player, args.order_games, args.rollouts,
                        [args.startclock, args.playclock, 1.0], reasoner=args.reasoner, db=db,
                        reference=str(Path(args.reference).resolve()) if args.reference else None)
    plan.save(folder)
    hooks.say(f"writing to {folder} (if it stops: ggp analyze --resume {folder})")
    return plan, folder


def _run(plan: Any, folder: Path, args: argparse.Namespace, hooks: BarHooks) -> int:
    from ggp.analysis.compute import all_metrics
    from ggp.analysis.plots import all_plots
    from ggp.analysis.reference import compare, load_reference
    from ggp.analysis.report import Report, write
    from ggp.analysis.run import run_analysis

    started, load = time.monotonic(), _load()
    outcome = run_analysis(plan, folder, hooks, workers=args.workers, ray=args.ray)
    hooks.end()
    if outcome.dataset is None:
        print(f"ggp analyze: stopped; finish it with: ggp analyze --resume {folder}", file=sys.stderr)
        return 128 + (outcome.signal or 2)
    data = outcome.dataset
    metrics = all_metrics(data)
    comparisons = []
    if plan.reference is not None:
        entry = load_reference(plan.reference, plan.game)
        comparisons = compare(data, entry) if entry is not None else []
        if any(p != "random" for p in plan.players):
            outcome.problems.append("the CardStock engine's figures are for random players; these matches were not")
    plots = all_plots(data, metrics, comparisons)
    machine = {"cores": os.cpu_count(), "load average before": load, "load average after": _load(),
               "seconds": round(time.monotonic() - started, 1)}
    report = Report(data, metrics, plan.settings_json(), plots, comparisons, plan.reference, outcome.problems, machine)
    result, page = write(report, folder)
    for line in outcome.problems[:20]:
        print(f"ggp analyze: {line}", file=sys.stderr)
    print(json.dumps({"analysis": str(result), "report": str(page), "matches": len(data.finished),
                      "metrics": {m.name: m.estimate.to_json()["value"] for m in metrics}}))
    return 0


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None
