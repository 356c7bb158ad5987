"""The Dresden GameController's Java prover as an independent reference for this project's reasoners.

:func:`trace` runs ``interop``'s ProverTrace: seeded random playouts of a game file with the
GameController's own prover, every state with its legal moves, the joint move chosen, each role's
percepts and, at the end, the goals. :func:`compare` replays the same joint moves with one of
this project's state machines and lists every answer that differs: states, terminal, legal moves,
percepts (as sets: the prover's order means nothing), goals. Agreement means a game file is read
here as the reference game manager reads it.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ggp.errors import GGPError
from ggp.gdl.kif import parse_term
from ggp.gdl.terms import Constant, Term
from ggp.peers.build import PeerError, Peers
from ggp.reasoner.machine import State, StateMachine


@dataclass(frozen=True)
class TraceStep:
    """One state of a playout as the GameController's prover saw it."""

    playout: int
    step: int
    state: frozenset[Term]
    terminal: bool
    legal: dict[Constant, frozenset[Term]]
    goals: dict[Constant, int] | None
    joint: tuple[Term, ...] | None
    sees: dict[Constant, frozenset[Term]] | None


@dataclass(frozen=True)
class Trace:
    """The roles, the states of every playout in order, and the prover's time per kind of query (ms)."""

    roles: tuple[Constant, ...]
    steps: tuple[TraceStep, ...]
    milliseconds: dict[str, float]


def _term(text: str) -> Term:
    if "VAR#" in text:
        raise PeerError(f"the GameController's prover derived a term with a free variable: {text}")
    return parse_term(text)


def _terms(texts: list[str]) -> frozenset[Term]:
    return frozenset(_term(t) for t in texts)


def _constant(text: str) -> Constant:
    term = _term(text)
    if not isinstance(term, Constant):
        raise PeerError(f"expected a role name, got {text}")
    return term


def parse_trace(lines: list[str]) -> Trace:
    """Read ProverTrace's JSON lines."""
    try:
        records = [json.loads(line) for line in lines if line.strip()]
    except json.JSONDecodeError as exc:
        raise PeerError(f"ProverTrace printed something that is not JSON: {exc}") from None
    if not records or "roles" not in records[0]:
        raise PeerError("ProverTrace printed no roles")
    roles = tuple(_constant(r) for r in records[0]["roles"])
    steps = []
    milliseconds: dict[str, float] = {}
    for record in records[1:]:
        if "done" in record:
            milliseconds = {k: float(v) for k, v in record["ms"].items()}
            continue
        steps.append(TraceStep(
            record["playout"], record["step"], _terms(record["state"]), record["terminal"],
            {_constant(r): _terms(ms) for r, ms in record["legal"].items()},
            {_constant(r): int(v) for r, v in record["goals"].items()} if "goals" in record else None,
            tuple(_term(m) for m in record["joint"]) if "joint" in record else None,
            {_constant(r): _terms(ps) for r, ps in record["sees"].items()} if "sees" in record else None))
    return Trace(roles, tuple(steps), milliseconds)


def trace(peers: Peers, game: Path, playouts: int = 1, seed: int = 0, max_steps: int = 200,
          time_limit: float = 600) -> Trace:
    """Run ProverTrace on ``game`` (see the module doc). Raises :class:`PeerError` when it fails
    (its message names the cause: an unreadable file, a role without a legal move...)."""
    argv = [*peers.prover_trace_command(), str(game), "--playouts", str(playouts), "--seed", str(seed),
            "--max-steps", str(max_steps)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=time_limit, check=False)
    except subprocess.TimeoutExpired:
        raise PeerError(f"the GameController's prover took more than {time_limit:g} s on {game}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise PeerError(f"the GameController's prover failed on {game}: {last}")
    return parse_trace(done.stdout.splitlines())


def _show(terms: frozenset[Term]) -> str:
    return "{" + " ".join(sorted(map(str, terms))) + "}"


def _differences(reference: TraceStep, machine: StateMachine, state: State) -> Iterator[str]:
    where = f"playout {reference.playout}, step {reference.step}"
    if state.fluents != reference.state:
        yield (f"{where}: the state differs: only the GameController has {_show(reference.state - state.fluents)}, "
               f"only this project {_show(state.fluents - reference.state)}")
        return
    terminal = machine.is_terminal(state)
    if terminal != reference.terminal:
        yield f"{where}: terminal is {reference.terminal} for the GameController, {terminal} here"
        return
    if reference.goals is not None:
        goals = machine.goals(state)
        for role, value in reference.goals.items():
            if goals.get(role, 0) != value:  # the GameController reads a missing goal as 0
                yield f"{where}: goal of {role} is {value} for the GameController, {goals.get(role)} here"
    if not terminal:
        for role, moves in reference.legal.items():
            mine = frozenset(machine.legal_moves(state, role))
            if mine != moves:
                yield f"{where}: legal moves of {role}: GameController {_show(moves)}, here {_show(mine)}"
    if reference.joint is not None and reference.sees is not None:
        seen = machine.percepts(state, reference.joint)
        for role, percepts in reference.sees.items():
            mine = seen.get(role, frozenset())
            if mine != percepts:
                yield (f"{where}: percepts of {role} after {' '.join(map(str, reference.joint))}: "
                       f"GameController {_show(percepts)}, here {_show(mine)}")


def compare(reference: Trace, machine: StateMachine, limit: int = 10) -> list[str]:
    """Every difference (at most ``limit``) between ``machine`` and the prover's ``reference``
    playouts, replaying the prover's joint moves; empty when they agree on every query."""
    if tuple(machine.roles) != reference.roles:
        return [f"roles: GameController {' '.join(map(str, reference.roles))}, here {' '.join(map(str, machine.roles))}"]
    found: list[str] = []
    state: State | None = None
    for step in reference.steps:
        if step.step == 0:
            state = machine.initial_state()
        assert state is not None
        try:
            found.extend(_differences(step, machine, state))
        except GGPError as exc:
            found.append(f"playout {step.playout}, step {step.step}: this project's reasoner failed: {exc}")
        if len(found) >= limit:
            return found[:limit]
        if step.joint is not None:
            if state.fluents != step.state:  # follow the reference, so one difference is reported once
                state = machine.state_from_fluents(step.state)
            try:
                state = machine.next_state(state, step.joint)
            except GGPError as exc:
                found.append(f"playout {step.playout}, step {step.step}: this project's reasoner failed: {exc}")
                return found[:limit]
    return found
