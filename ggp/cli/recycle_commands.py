"""Subcommands on RECYCLE card games: ``ggp recycle tree``, ``ggp recycle print``,
``ggp recycle stats`` and ``ggp translate``.

(``ggp validate FILE.rcy`` parses, checks, translates and validates RECYCLE files too; see
:mod:`.gdl_commands`.)
"""

from __future__ import annotations

import argparse
import json
import math
import pprint
import random
import sys
from pathlib import Path
from typing import Any

from ggp.cli.progress import Progress, quiet_option
from ggp.reasoner import REASONERS

#: The CardStock engine's random-play figures, when the project sits next to ``shared/``.
DEFAULT_REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "cardstock-random-play.json"


def register(sub: Any) -> None:
    """Add the ``recycle`` subcommands to ``sub``."""
    p = sub.add_parser(
        "recycle",
        help="read RECYCLE card games (CardStock)",
        description="Read RECYCLE (.rcy) card games. A file that does not parse is reported as "
        "FILE:LINE:COL: message, with exit status 1.",
    )
    actions = p.add_subparsers(dest="recycle_command", metavar="ACTION")
    actions.required = True

    tree = actions.add_parser(
        "tree",
        help="print the syntax tree of a game",
        description="Print the typed syntax tree of a RECYCLE game: an indented outline, one node "
        "per line with its line and column (default), or the tree's Python repr (--format repr).",
    )
    tree.add_argument("file", metavar="FILE.rcy")
    tree.add_argument("--format", choices=("outline", "repr"), default="outline",
                      help="outline (default) or repr")
    tree.set_defaults(run=run_tree)

    show = actions.add_parser(
        "print",
        help="print a game back as RECYCLE text",
        description="Parse a RECYCLE game and print it back, laid out the same way every time "
        "(0.5 forms are written in their v0.5.10 spelling).",
    )
    show.add_argument("file", metavar="FILE.rcy")
    show.set_defaults(run=run_print)

    stats = actions.add_parser(
        "stats",
        help="random-play statistics of a game's translation, next to the CardStock engine's",
        description="Translate a RECYCLE game and play N games of the translation with every role "
        "(the random role included) picking uniformly among its legal moves, like CardStock's "
        "RandomPlayer; print a summary and, on the last line, one JSON object with the fields of "
        "the engine's reference file (cardstock-random-play.json): games_run, completed, "
        "failures_choice_limit, choices_mean/std/min/max (player decisions per completed game), "
        "options_per_decision_mean (pooled over the decisions of completed games), "
        "decision_share_by_seat, win_share_tie_split (1/k to each of k co-winners), score_mean/std. "
        "With --compare, the engine's entry for the file's name is read from the reference (with "
        "--engine, the real engine plays the file now) and each "
        "figure is said to agree when |ours - engine| <= 3 standard errors of the difference (from "
        "each side's std and counts; binomial for shares) plus 0.0005 (the reference's rounding). "
        "Exit status 0 whatever the comparison says; 1 with FILE:LINE:COL: message when the game "
        "cannot be read or translated.",
    )
    stats.add_argument("file", metavar="FILE.rcy")
    stats.add_argument("--games", "-n", type=_positive, default=100, metavar="N",
                       help="games to play (default 100; the engine's reference played 500)")
    stats.add_argument("--seed", type=int, default=1, metavar="S", help="random seed (default 1)")
    stats.add_argument("--json", action="store_true", help="print only the JSON line")
    stats.add_argument("--compare", action="store_true",
                       help="compare with the engine's figures for this file name")
    stats.add_argument("--reference", metavar="FILE.json", default=str(DEFAULT_REFERENCE),
                       help="the engine's figures (default: ../shared/reference/cardstock-random-play.json "
                       "beside the project)")
    stats.add_argument("--engine", action="store_true",
                       help="compare with the real CardStock engine playing the same file now (the runner "
                       "built by conformance/cardstock/build.sh under Mono, or $CARDSTOCK_RUNNER), not with "
                       "the reference; works for any game")
    stats.add_argument("--engine-games", type=_positive, default=500, metavar="M",
                       help="games the engine plays with --engine (default 500, seeded as the reference)")
    stats.add_argument("--reasoner", choices=REASONERS, default="auto", help="state machine (default: auto)")
    stats.add_argument("--max-steps", type=_positive, default=20000, metavar="K",
                       help="GDL steps after which a game counts as unfinished (default 20000)")
    quiet_option(stats)
    stats.set_defaults(run=run_stats)

    tr = sub.add_parser(
        "translate",
        help="translate a RECYCLE game to GDL-II (KIF)",
        description="Translate a RECYCLE (.rcy) card game to GDL-II rules in KIF, with comments tying "
        "each group of rules to its RECYCLE line. Writes to standard output, or to OUT with -o. "
        "Warnings (FILE:LINE:COL: warning: ...) and a summary (roles, rules, steps) go to standard error. Exit status 0, or 1 with "
        "FILE:LINE:COL: message when the game does not parse, has an error, or uses something the "
        "translator does not support.",
    )
    tr.add_argument("file", metavar="FILE.rcy")
    tr.add_argument("-o", "--output", metavar="OUT.kif", help="write the KIF here instead of standard output")
    tr.set_defaults(run=run_translate)


def run_tree(args: argparse.Namespace) -> int:
    """Print the syntax tree of ``args.file``."""
    from translators.recycle import parse_recycle_file
    from translators.recycle.syntax.outline import outline

    game = parse_recycle_file(args.file)
    for warning in game.warnings:
        print(warning, file=sys.stderr)
    print(outline(game) if args.format == "outline" else pprint.pformat(game, width=100))
    return 0


def run_print(args: argparse.Namespace) -> int:
    """Print ``args.file`` back as RECYCLE text."""
    from translators.recycle import parse_recycle_file, print_recycle

    print(print_recycle(parse_recycle_file(args.file)), end="")
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def run_stats(args: argparse.Namespace) -> int:
    """Play ``args.games`` random games of the translation of ``args.file``; print the figures
    (and their agreement with the engine's, with ``--compare``)."""
    from ggp.errors import GGPError, InvalidGameError
    from ggp.reasoner import make_machine
    from translators.recycle import check, parse_recycle_file
    from translators.recycle.playstats import play
    from translators.recycle.refstats import compare, engine_figures
    from translators.recycle.translate import compile_game

    engine: dict[str, Any] | None = None
    name = Path(args.file).name
    if args.engine:
        from translators.recycle.engine import engine_figures as live_engine_figures

        engine = live_engine_figures(args.file, games=args.engine_games)
        args.compare = True
    elif args.compare:
        try:
            reference = json.loads(Path(args.reference).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise GGPError(f"cannot read the engine's figures {args.reference}: {exc}") from exc
        engine = reference.get(name) if isinstance(reference, dict) else None
        if engine is not None and not (isinstance(engine, dict) and all(
                isinstance(engine.get(k), int) for k in ("games_run", "completed"))):
            raise GGPError(f"{args.reference}: the entry {name!r} has no integer games_run and completed")
        if engine is None:
            print(f"{args.file}: the engine's figures ({args.reference}) have no entry {name!r}; "
                  "nothing to compare", file=sys.stderr)
    game = parse_recycle_file(args.file)
    errors = [p for p in check(game) if p.is_error]
    if errors:
        raise InvalidGameError(errors)
    translation = compile_game(game)
    machine = make_machine(translation.description, args.reasoner)
    rng = random.Random(args.seed)
    played = []
    with Progress(args.games, "games", quiet=args.quiet, description=name) as bar:
        for _ in range(args.games):
            played.append(play(machine, translation.description, rng, args.max_steps))
            bar.update()
    order = game.scoring.order
    figures = engine_figures(played, translation.model.players, order)
    figures = {"file": name, "seed": args.seed, **figures}
    agreements = compare(figures, engine) if engine is not None else None
    if not args.json:
        _print_figures(figures)
        if agreements is not None:
            print(f"against the CardStock engine ({engine['games_run'] if engine else 0} games; agree: "
                  f"|diff| <= 3 standard errors of the difference + 0.0005):")
            print(f"  {'field':<32} {'ours':>10} {'engine':>10}  {'se':>8}  verdict")
            for a in agreements:
                print(f"  {a}")
            print(f"  {sum(a.agree for a in agreements)} of {len(agreements)} figures agree")
    if args.compare:
        figures["comparison"] = [a.as_dict() for a in agreements] if agreements is not None else None
    print(json.dumps(_finite(figures), allow_nan=False))
    return 0


def _finite(value: Any) -> Any:
    """``value`` with NaN and infinities (not JSON) as ``null``."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def _print_figures(f: dict[str, Any]) -> None:
    def show(values: list[float | None]) -> str:
        return " ".join("-" if v is None else f"{v:.3f}" for v in values)

    endings = ", ".join(f"{k} {v}" for k, v in f["endings"].items())
    print(f"{f['file']}: {f['games_run']} random games (seed {f['seed']}), {f['completed']} completed ({endings})")
    if f["choices_mean"] is not None:
        print(f"  decisions per completed game: mean {f['choices_mean']:.3f}, std {f['choices_std']:.3f}, "
              f"min {f['choices_min']}, max {f['choices_max']}")
    if f["options_per_decision_mean"] is not None:
        print(f"  options per decision: {f['options_per_decision_mean']:.3f} "
              f"(se {f['options_per_decision_se']:.3f})")
    print(f"  decision share by seat: {show(f['decision_share_by_seat'])}")
    print(f"  win share (ties split): {show(f['win_share_tie_split'])}")
    print(f"  score ({f['scoring_direction']}) mean: {show(f['score_mean'])}; std: {show(f['score_std'])}")


def run_translate(args: argparse.Namespace) -> int:
    """Translate ``args.file`` to KIF."""
    from ggp.errors import InvalidGameError
    from translators.recycle import check, parse_recycle_file
    from translators.recycle.translate import compile_game

    game = parse_recycle_file(args.file)
    errors = [p for p in check(game) if p.is_error]
    if errors:
        raise InvalidGameError(errors)
    translation = compile_game(game)
    for warning in translation.warnings:
        print(warning, file=sys.stderr)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(translation.kif)
    else:
        sys.stdout.write(translation.kif)
    roles = " ".join(str(r) for r in translation.description.roles)
    print(f"{args.file}: roles {roles}; {len(translation.description.rules)} rules; "
          f"{sum(1 for k in translation.steps.values() if k in ('batch', 'choice'))} step points; "
          f"{translation.seconds:.2f} s", file=sys.stderr)
    return 0
