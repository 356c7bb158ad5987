"""Cross-checking two reasoners on seeded random playouts.

At every state of every playout both machines answer every query (terminal, goals, each role's
legal moves, and for the chosen joint move the percepts and the next state; a machine with its
own ``role_percepts`` answers it for every role, checked against the other's percepts); the
first answer that differs is reported with the state, the query and both answers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from ggp.errors import GGPError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.domains import DEFAULT_MAX_SECONDS
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.reasoner.play import random_joint_move

T = TypeVar("T")


@dataclass(frozen=True)
class Disagreement:
    """The first query on which the two machines differ."""

    playout: int
    step: int
    query: str
    state: frozenset[str]
    first: str
    second: str

    def describe(self, names: tuple[str, str]) -> str:
        """A readable account of the disagreement."""
        state = " ".join(sorted(self.state))
        return (
            f"disagreement in playout {self.playout}, step {self.step}, on {self.query}\n"
            f"  state: {state}\n  {names[0]}: {self.first}\n  {names[1]}: {self.second}"
        )


@dataclass
class CrossCheckReport:
    """The outcome of a cross-check."""

    names: tuple[str, str]
    playouts: int = 0
    states: int = 0
    seconds: float = 0.0
    disagreement: Disagreement | None = None
    unfinished: int = 0
    details: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the machines agreed on everything."""
        return self.disagreement is None

    def describe(self) -> str:
        """One line on success, the disagreement otherwise."""
        if self.disagreement is not None:
            return self.disagreement.describe(self.names)
        extra = f", {self.unfinished} stopped at the step limit" if self.unfinished else ""
        return (f"ok: {self.names[0]} and {self.names[1]} agree on {self.playouts} playouts "
                f"({self.states} states{extra}) in {self.seconds:.1f} s")


def _answer(query: Callable[[], T]) -> tuple[str, T | None]:
    try:
        value = query()
    except GGPError as exc:
        return f"error: {exc}", None
    return _show(value), value


def _show(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) + "}"
    if isinstance(value, (frozenset, set)):
        return "{" + " ".join(sorted(str(v) for v in value)) + "}"
    if isinstance(value, tuple):
        return "(" + " ".join(str(v) for v in value) + ")"
    return str(value)


class _Percepts:
    """Each machine's percepts for one transition, asked once."""

    def __init__(self, machines: tuple[tuple[StateMachine, State], ...], joint: JointMove):
        self.machines, self.joint = machines, joint
        self.known: dict[int, dict[Constant, frozenset[Term]]] = {}

    def of(self, k: int) -> dict[Constant, frozenset[Term]]:
        """The percepts of the ``k``-th machine."""
        if k not in self.known:
            machine, state = self.machines[k]
            self.known[k] = machine.percepts(state, self.joint)
        return self.known[k]

    def of_role(self, k: int, role: Constant) -> frozenset[Term]:
        """What ``role`` sees according to the ``k``-th machine's percepts."""
        return self.of(k).get(role, frozenset())


def compare_machines(
    first: StateMachine, second: StateMachine, count: int, seed: int,
    names: tuple[str, str] = ("first", "second"), max_steps: int = 1000,
    progress: Callable[[int], None] | None = None,
) -> CrossCheckReport:
    """Play ``count`` seeded random playouts, asking both machines everything at every state;
    ``progress(n)`` is called after the ``n``-th playout."""
    report = CrossCheckReport(names)
    rng = random.Random(seed)
    start = time.perf_counter()
    if first.roles != second.roles:
        report.disagreement = Disagreement(0, 0, "roles", frozenset(), _show(first.roles), _show(second.roles))
        return report
    for playout in range(count):
        a: State = first.initial_state()
        b: State = second.initial_state()
        step = 0
        while True:
            report.states += 1
            checks: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
                ("the state", lambda: a.fluents, lambda: b.fluents),
                ("terminal", lambda: first.is_terminal(a), lambda: second.is_terminal(b)),
                ("goals", lambda: first.goals(a), lambda: second.goals(b)),
            ]
            if not first.is_terminal(a):
                for role in first.roles:
                    checks.append((f"legal moves of {role}", partial(first.legal_moves, a, role),
                                   partial(second.legal_moves, b, role)))
            for query, ask_first, ask_second in checks:
                shown_a, _ = _answer(ask_first)
                shown_b, _ = _answer(ask_second)
                if shown_a != shown_b:
                    report.disagreement = Disagreement(playout, step, query, frozenset(str(f) for f in a.fluents),
                                                       shown_a, shown_b)
                    report.seconds = time.perf_counter() - start
                    return report
            if first.is_terminal(a):
                break
            if step >= max_steps:
                report.unfinished += 1
                break
            joint = random_joint_move(first, a, rng)
            seen = _Percepts(((first, a), (second, b)), joint)
            moves: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
                (f"percepts for {_show(joint)}", partial(seen.of, 0), partial(seen.of, 1)),
            ]
            for role in first.roles:  # a machine's own role_percepts against the other's percepts
                for k, (machine, state) in enumerate(((first, a), (second, b))):
                    if type(machine).role_percepts is not StateMachine.role_percepts:
                        moves.append((f"percepts of {role} for {_show(joint)}",
                                      partial(machine.role_percepts, state, joint, role),
                                      partial(seen.of_role, 1 - k, role)))
            moves.append((f"next state for {_show(joint)}", lambda: first.next_state(a, joint).fluents,
                          lambda: second.next_state(b, joint).fluents))
            for query, ask_first, ask_second in moves:
                shown_a, _ = _answer(ask_first)
                shown_b, _ = _answer(ask_second)
                if shown_a != shown_b:
                    report.disagreement = Disagreement(playout, step, query, frozenset(str(f) for f in a.fluents),
                                                       shown_a, shown_b)
                    report.seconds = time.perf_counter() - start
                    return report
            a = first.next_state(a, joint)
            b = second.next_state(b, joint)
            step += 1
        report.playouts += 1
        if progress is not None:
            progress(report.playouts)
    report.seconds = time.perf_counter() - start
    return report


def cross_check(description: GameDescription, count: int, seed: int, max_steps: int = 1000,
                max_seconds: float = DEFAULT_MAX_SECONDS, reasoner: str = "fast",
                progress: Callable[[int], None] | None = None) -> CrossCheckReport:
    """A ground reasoner (``"fast"`` or ``"compiled"``, given ``max_seconds`` to ground) against
    the clingo oracle on ``count`` seeded playouts (``progress`` as for :func:`compare_machines`)."""
    from ggp.reasoner.fast import FastMachine, GroundMachine
    from ggp.reasoner.oracle import OracleMachine

    machine: GroundMachine
    if reasoner == "compiled":
        from ggp.reasoner.compiled import CompiledMachine

        machine = CompiledMachine(description, max_seconds=max_seconds, cache=True)
    elif reasoner == "fast":
        machine = FastMachine(description, max_seconds=max_seconds)
    else:
        raise ValueError(f"cross_check checks the fast or the compiled reasoner, not {reasoner!r}")
    return compare_machines(machine, OracleMachine(description), count, seed, (reasoner, "oracle"), max_steps,
                            progress)
