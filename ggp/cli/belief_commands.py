"""The ``ggp belief`` subcommand: what one role knows after each step of a seeded match."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import textwrap
import time
from collections.abc import Iterator
from typing import Any

from ggp.belief import Belief, Observation
from ggp.belief.marginals import Marginals
from ggp.errors import GGPError
from ggp.gdl.rules import RANDOM, GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner import REASONERS, make_machine
from ggp.reasoner.machine import JointMove, StateMachine

#: Exit status for a bad file or an unknown role, as for other usage errors.
USAGE = 2


def register(sub: Any) -> None:
    """Add the ``belief`` subcommand to ``sub``."""
    p = sub.add_parser(
        "belief",
        help="show what a role knows after each step of a seeded match",
        description="Play a seeded match of FILE (uniformly random moves for every role unless "
        "--player is given) and, after each step, show what ROLE knows: how many states it cannot "
        "tell apart (exact, or an estimate marked ~), the facts it is certain of, and for every "
        "hidden card (every key of a positional relation, such as (at CARD PLACE)) where it can "
        "be with what probability; for games without such relations, the uncertain fluents' "
        "probabilities. With --json, one JSON object per step: step, move, percepts, "
        "update_seconds, sample_seconds (with --samples), states, states_exact, mode, consistent, "
        "certain, cards. A bad file or an unknown role: one line on stderr, exit status 2.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--role", required=True, metavar="ROLE", help="the role whose knowledge is shown")
    p.add_argument("--steps", type=int, metavar="N", help="stop after N steps (default: the whole match)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the match and the belief (default 0)")
    p.add_argument("--samples", type=int, metavar="K",
                   help="also time drawing K states consistent with everything seen, after each step")
    p.add_argument("--particles", type=int, metavar="P",
                   help="particles the belief carries once its information set is too large (default 32)")
    p.add_argument("--player", action="append", metavar="SPEC",
                   help="play the match with these players, one per non-random role in order (a registered "
                   "name or http://HOST:PORT; default: uniformly random moves, no manager)")
    p.add_argument("--playclock", type=float, default=1.0, metavar="S",
                   help="play clock for --player matches, seconds (default 1)")
    p.add_argument("--json", action="store_true", help="one JSON object per step instead of a table")
    p.add_argument("--reasoner", choices=REASONERS, default=None,
                   help="state machine: auto (default), fast or oracle")
    p.set_defaults(run=run_belief)


def run_belief(args: argparse.Namespace) -> int:
    """Play the match and print the role's knowledge after each step."""
    from ggp.belief import BeliefSettings
    from ggp.gdl.load import load_game

    try:
        description = load_game(args.file)
    except (OSError, GGPError) as exc:
        print(f"ggp belief: {args.file}: {_one_line(exc)}", file=sys.stderr)
        return USAGE
    role = Constant(args.role.lower())
    if role not in description.roles:
        roles = " ".join(str(r) for r in description.roles)
        print(f"ggp belief: {args.file} has no role {args.role!r} (its roles: {roles})", file=sys.stderr)
        return USAGE
    for name, value in (("--steps", args.steps), ("--samples", args.samples), ("--particles", args.particles)):
        if value is not None and value < 1:
            print(f"ggp belief: {name} must be positive, not {value}", file=sys.stderr)
            return USAGE
    machine = make_machine(description, args.reasoner) if args.reasoner else make_machine(description)
    settings = BeliefSettings(particles=args.particles) if args.particles else BeliefSettings()
    belief = Belief(machine, role, description=description, rng=random.Random(f"belief/{args.seed}"),
                    settings=settings)
    steps = (_played(description, args) if args.player else _random_match(machine, args.seed))
    width = shutil.get_terminal_size((100, 20)).columns
    index = machine.role_index(role)
    for n, (joint, seen, last) in enumerate(steps, start=1):
        observation = Observation(joint[index], seen.get(role, frozenset()))
        report = belief.update(observation, live=not last)
        sample_seconds = None
        if args.samples:
            began = time.perf_counter()
            belief.particles(args.samples)
            sample_seconds = time.perf_counter() - began
        record = _record(n, observation, belief, report.seconds, sample_seconds, report.mode)
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print(_table(record, width), flush=True)
        if args.steps is not None and n >= args.steps:
            break
    return 0


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _random_match(machine: StateMachine, seed: int) -> Iterator[tuple[JointMove, dict[Constant, frozenset[Term]], bool]]:
    """Each step of a match of uniformly random moves: the joint move, every role's percepts,
    and whether it ended the match."""
    rng = random.Random(seed)
    state = machine.initial_state()
    while not machine.is_terminal(state):
        joint = tuple(moves[rng.randrange(len(moves))] for moves in machine.all_legal_moves(state))
        seen = machine.percepts(state, joint)
        state = machine.next_state(state, joint)
        yield joint, seen, machine.is_terminal(state)


def _played(description: GameDescription, args: argparse.Namespace) -> Iterator[tuple[JointMove, dict[Constant, frozenset[Term]], bool]]:
    """Each step of a match hosted with the given players, as recorded."""
    from ggp.manager.seating import make_client
    from ggp.manager.clocks import Clocks
    from ggp.manager.runner import MatchSettings, run_match

    seats = [r for r in description.roles if r != RANDOM]
    if len(args.player) != len(seats):
        raise GGPError(f"the game has {len(seats)} player roles ({' '.join(map(str, seats))}) "
                       f"but {len(args.player)} players were given")
    clients = [make_client(spec, random.Random(f"{args.seed}/{i}"), args.reasoner) for i, spec in enumerate(args.player)]
    settings = MatchSettings(Clocks(max(10.0, args.playclock), args.playclock, 1.0), args.seed, "auto", args.reasoner)
    record = run_match(description, clients, settings)
    if record.status != "finished":
        raise GGPError(f"the match did not finish: {'; '.join(record.errors) or record.status}")
    roles = description.roles
    for i, step in enumerate(record.steps):
        joint = tuple(Term.parse(m) for m in step.joint_move)
        seen = {r: frozenset(Term.parse(p) for p in step.percepts.get(str(r), [])) for r in roles}
        yield joint, seen, i == len(record.steps) - 1


def _cards(marginals: Marginals) -> dict[str, Any]:
    """Hidden keys of the main positional relation (the one with the most keys) and where each
    may be; without positional relations, the uncertain fluents and their probabilities."""
    by_relation: dict[tuple[str, int], int] = {}
    for relation, _ in marginals.places:
        by_relation[relation] = by_relation.get(relation, 0) + 1
    if not by_relation:
        return {str(f): round(p, 4) for f, p in marginals.fluents.items() if 1e-9 < p < 1 - 1e-9}
    main = max(by_relation, key=lambda r: (by_relation[r], r))
    return {" ".join(map(str, key)): {str(v): round(p, 4) for v, p in values.items()}
            for (relation, key), values in marginals.hidden().items() if relation == main}


def _record(step: int, observation: Observation, belief: Belief, update: float, sample: float | None,
            mode: str) -> dict[str, Any]:
    marginals = belief.marginals()
    size = belief.size()
    record: dict[str, Any] = {
        "step": step,
        "move": str(observation.move),
        "percepts": sorted(str(p) for p in observation.percepts or ()),
        "update_seconds": round(update, 6),
    }
    if sample is not None:
        record["sample_seconds"] = round(sample, 6)
    record.update({
        "states": size.value if not size.exact else int(size.value),
        "states_exact": size.exact,
        "mode": mode,
        "consistent": belief.consistent,
        "certain": [str(f) for f in sorted(marginals.certain(), key=str)],
        "cards": _cards(marginals),
    })
    return record


def _table(record: dict[str, Any], width: int) -> str:
    """One step as a readable block."""
    states = record["states"] if record["states_exact"] else f"~{record['states']:.3g} (estimate)"
    timing = f"update {record['update_seconds'] * 1000:.1f} ms"
    if "sample_seconds" in record:
        timing += f", sample {record['sample_seconds'] * 1000:.1f} ms"
    lines = [f"step {record['step']}: played {record['move']}, saw {' '.join(record['percepts']) or 'nothing'}",
             f"  states: {states}   {record['mode']}{'' if record['consistent'] else ' (approximate)'}   {timing}"]
    wrap = textwrap.TextWrapper(width=max(40, width), initial_indent="  ", subsequent_indent="    ")
    lines.extend(wrap.wrap(f"certain ({len(record['certain'])}): " + " ".join(record["certain"])))
    cards = record["cards"]
    if cards and all(isinstance(v, dict) for v in cards.values()):
        name = max((len(k) for k in cards), default=4)
        for key, places in cards.items():
            where = "  ".join(f"{place} {p:.2f}" for place, p in places.items())
            lines.extend(wrap.wrap(f"{key.ljust(name)}  {where}"))
    elif cards:
        lines.extend(wrap.wrap("uncertain: " + "  ".join(f"{f} {p:.2f}" for f, p in cards.items())))
    return "\n".join(lines)
