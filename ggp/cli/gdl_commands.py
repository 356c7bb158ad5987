"""Subcommands on game rules: ``validate``, ``perft``, ``playout`` and ``verify``."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from ggp.cli.progress import Progress, quiet_option
from ggp.errors import Location, Problem
from ggp.gdl.load import load_game, load_game_with_warnings, read_game_file
from ggp.gdl.rules import GameDescription
from ggp.reasoner import REASONERS, make_machine
from ggp.reasoner.domains import DEFAULT_MAX_SECONDS, GroundingTooLarge
from ggp.reasoner.machine import PlayoutTotals
from ggp.reasoner.play import perft, random_playouts


def register(sub: Any) -> None:
    """Add the rule subcommands to ``sub``."""
    p = sub.add_parser(
        "validate",
        help="check game files and report every problem",
        description="Check GDL/GDL-II (KIF or infix) or RECYCLE files. Prints one line per problem "
        "as FILE:LINE:COL: message; exits 0 when every file is valid (warnings allowed), else 1.",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(run=run_validate)

    p = sub.add_parser(
        "perft",
        help="count joint-move sequences of a given length",
        description='Print {"depth": D, "nodes": N}: N joint-move sequences of exactly D steps from '
        "the initial state (every role's legal moves, random included; a terminal state before D "
        "ends its sequence uncounted).",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--depth", type=int, required=True, metavar="D")
    _reasoner_option(p)
    p.set_defaults(run=run_perft)

    p = sub.add_parser(
        "playout",
        help="play uniform random playouts and report statistics",
        description="Play N uniformly random playouts from the initial state and print one JSON "
        "object with playouts, mean_length, playouts_per_second and mean_goals (role to its mean goal "
        "over the playouts in which it has one; roles without goals are left out).",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--count", type=int, default=100, metavar="N", help="number of playouts (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    _reasoner_option(p)
    quiet_option(p)
    p.set_defaults(run=run_playout)

    p = sub.add_parser(
        "verify",
        help="cross-check a ground reasoner (compiled or fast) against the clingo oracle (or the "
        "GameController's prover)",
        description="Play N seeded random playouts, asking both a ground reasoner (--reasoner: the "
        "compiled one, the fast one, or auto: compiled where a C compiler is present) and the clingo "
        "oracle every query (legal moves, terminal, goals, next state, percepts). Reports the first "
        "disagreement (state, query, both answers) and exits 1, or reports success. The file's "
        "warnings go to stderr first. With --against gamecontroller, or when the game is too large "
        "for the fast reasoner and the GameController is built, the project's reasoner is checked "
        "against the Dresden GameController's own prover instead (interop/build.sh builds it from "
        "../shared/tools/peers; --against gamecontroller builds it when needed).",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--count", type=int, default=20, metavar="N", help="number of playouts (default 20)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--grounding-seconds", type=float, default=DEFAULT_MAX_SECONDS, metavar="S",
                   help=f"time the fast reasoner may take to ground the game (default {DEFAULT_MAX_SECONDS:g}; "
                   "a game past it is checked against the GameController when it is built, else not at all)")
    quiet_option(p)
    p.add_argument("--reasoner", choices=("auto", "compiled", "fast"), default="auto",
                   help="the reasoner checked against the oracle (default auto: compiled where a C compiler is "
                   "present, else fast)")
    p.add_argument("--against", choices=("oracle", "gamecontroller"), default="oracle",
                   help="oracle (default): the ground reasoner against the clingo oracle; gamecontroller: "
                   "the project's reasoner against the Dresden GameController's prover (needs Java)")
    p.set_defaults(run=run_verify)


def _reasoner_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--reasoner", choices=REASONERS, default="auto",
        help="compiled: ground network as C; fast: ground network as Python; oracle: clingo per state; auto "
        "(default): compiled (fast without a C compiler) unless the game is too large to ground"
    )


def run_validate(args: argparse.Namespace) -> int:
    """Validate each file; print problems; exit 1 if any error."""
    from ggp.gdl.load import validate_file

    failed = False
    for name in args.files:
        if name.lower().endswith(".rcy"):
            from translators.recycle.symbols.check import check_file

            problems = check_file(name)
            if not any(p.is_error for p in problems):
                problems += _translated_problems(name)
        else:
            problems = validate_file(name)
        for problem in sorted(problems, key=lambda p: (p.location.line, p.location.column)):
            print(problem)
        failed = failed or any(p.is_error for p in problems)
    return 1 if failed else 0


def _translated_problems(name: str) -> list[Problem]:
    """Translate a RECYCLE file and validate the GDL: RECYCLE-located translation errors and
    warnings, and GDL problems of the translation (reported at the RECYCLE file, with the rule)."""

    from ggp.gdl.validate import validate
    from translators.recycle import parse_recycle_file
    from translators.recycle.translate import compile_game
    from translators.recycle.translation_error import TranslationError

    try:
        translation = compile_game(parse_recycle_file(name))
    except TranslationError as exc:
        return [exc.as_problem()]
    out = list(translation.warnings)
    for problem in validate(translation.description):
        if problem.is_error:
            out.append(Problem(Location(name, 1, 1), f"the GDL translation has an error: {problem.message}"))
    return out


def run_perft(args: argparse.Namespace) -> int:
    """Print the perft count as JSON."""
    if args.depth < 0:
        print("ggp perft: --depth must be 0 or more", file=sys.stderr)
        return 2
    machine = make_machine(load_game(args.file), args.reasoner)
    print(json.dumps({"depth": args.depth, "nodes": perft(machine, args.depth)}))
    return 0


def run_playout(args: argparse.Namespace) -> int:
    """Print random-playout statistics as JSON."""
    if args.count < 1:
        print("ggp playout: --count must be 1 or more", file=sys.stderr)
        return 2
    machine = make_machine(load_game(args.file), args.reasoner)
    start = time.perf_counter()
    rng = random.Random(args.seed)
    totals = PlayoutTotals(0, 0, 0, {}, {})
    chunk = max(1, args.count // 100)  # the same draws as one call, with progress between chunks
    with Progress(args.count, "playouts", quiet=args.quiet) as bar:
        while totals.playouts < args.count:
            part = random_playouts(machine, rng, min(chunk, args.count - totals.playouts))
            totals = totals.plus(part)
            bar.update(part.playouts)
    elapsed = time.perf_counter() - start
    report: dict[str, Any] = {
        "playouts": args.count,
        "mean_length": totals.steps / args.count,
        "playouts_per_second": args.count / elapsed if elapsed > 0 else float("inf"),
        "mean_goals": {str(r): totals.goal_sums[r] / totals.goal_counts[r] for r in machine.roles
                       if r in totals.goal_counts},
    }
    if totals.unfinished:
        report["unfinished"] = totals.unfinished
    print(json.dumps(report))
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """Cross-check the two reasoners; exit 1 on the first disagreement."""
    from ggp.reasoner.verify import cross_check

    if args.grounding_seconds <= 0:
        print("ggp verify: --grounding-seconds must be positive", file=sys.stderr)
        return 2
    reasoner = args.reasoner
    if reasoner == "auto":
        from ggp.reasoner import compiled_unavailable

        reasoner = "fast" if compiled_unavailable() else "compiled"
    description, warnings = load_game_with_warnings(args.file)
    for warning in warnings:
        print(warning, file=sys.stderr)
    if args.against == "gamecontroller":
        return _verify_against_gamecontroller(args, description, "auto")
    try:
        with Progress(args.count, "playouts", quiet=args.quiet) as bar:
            report = cross_check(description, args.count, args.seed, max_seconds=args.grounding_seconds,
                                 reasoner=reasoner, progress=lambda done: bar.update())
    except GroundingTooLarge as exc:
        from ggp.peers import PeerError, find_peers

        try:
            find_peers()
        except PeerError:
            print(f"ggp verify: the ground reasoner cannot take this game ({exc}), so there is nothing to check "
                  "the oracle against; --against gamecontroller checks it against the Dresden "
                  "GameController's prover (interop/build.sh builds it)", file=sys.stderr)
            return 1
        print(f"ggp verify: the ground reasoner cannot take this game ({exc}), so the oracle that plays it "
              "is checked against the Dresden GameController's prover", file=sys.stderr)
        return _verify_against_gamecontroller(args, description, "oracle")
    print(report.describe())
    return 0 if report.ok else 1


def _verify_against_gamecontroller(args: argparse.Namespace, description: GameDescription, reasoner: str) -> int:
    """The project's reasoner against the Dresden GameController's prover on seeded playouts."""
    import tempfile
    from pathlib import Path

    from ggp.gdl.load import looks_like_kif
    from ggp.peers import find_peers
    from ggp.peers.prover import compare, trace

    began = time.perf_counter()
    peers = find_peers(build_if_needed=True)
    path = Path(args.file)
    with tempfile.TemporaryDirectory(prefix="ggp-verify-") as folder:
        if path.suffix.lower() == ".rcy" or not looks_like_kif(path.read_text(encoding="utf-8-sig")):
            kif = Path(folder) / "game.kif"  # the GameController reads KIF: the rules as read here
            kif.write_text(read_game_file(path)[0].to_kif())
            path = kif
        reference = trace(peers, path, playouts=args.count, seed=args.seed, max_steps=1000, time_limit=3600)
    machine = make_machine(description, reasoner)
    differences = compare(reference, machine)
    name = type(machine).__name__.removesuffix("Machine").lower()
    for line in differences:
        print(line)
    if differences:
        return 1
    playouts = len({s.playout for s in reference.steps})
    print(f"ok: {name} and the Dresden GameController's prover agree on {playouts} playouts "
          f"({len(reference.steps)} states) in {time.perf_counter() - began:.1f} s")
    return 0
