"""Plain functions built on :class:`~ggp.reasoner.machine.StateMachine`.

Joint-move enumeration, random joint moves, random playouts and perft work with any reasoner;
randomness is always passed in as a :class:`random.Random`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from ggp.gdl.terms import Constant, Term
from ggp.reasoner.machine import JointMove, PlayoutTotals, State, StateMachine, random_joint_move

#: Playouts stop after this many steps unless told otherwise (a game that never ends).
DEFAULT_MAX_STEPS = 10_000


def joint_moves(machine: StateMachine, state: State) -> Iterator[JointMove]:
    """Every joint move in ``state``: the product of each role's legal moves, in role order."""
    return itertools.product(*machine.all_legal_moves(state))


@dataclass(frozen=True)
class Playout:
    """The outcome of one random playout."""

    final: State
    length: int
    goals: dict[Constant, int]
    finished: bool


def random_playout(
    machine: StateMachine, rng: random.Random, state: State | None = None, max_steps: int = DEFAULT_MAX_STEPS
) -> Playout:
    """Play uniformly random joint moves from ``state`` (default: the initial state) to the end.

    ``finished`` is False when ``max_steps`` ran out first; goals are then those of the last state.
    """
    current = machine.initial_state() if state is None else state
    final, steps, finished = machine.depth_charge(current, rng, max_steps)
    return Playout(final, steps, machine.goals(final), finished)


def perft(machine: StateMachine, depth: int, state: State | None = None) -> int:
    """The number of joint-move sequences of exactly ``depth`` steps from ``state``.

    Every role's legal moves count (``random`` included); a terminal state reached before
    ``depth`` ends its sequence and is not counted (:meth:`StateMachine.perft`).
    """
    return machine.perft(machine.initial_state() if state is None else state, depth)


def random_playouts(machine: StateMachine, rng: random.Random, count: int, state: State | None = None,
                    max_steps: int = DEFAULT_MAX_STEPS) -> PlayoutTotals:
    """``count`` uniformly random playouts from ``state`` (default: the initial state), summed:
    the same draws, in the same order, as ``count`` calls of :func:`random_playout`."""
    current = machine.initial_state() if state is None else state
    return machine.playout_totals(current, rng, count, max_steps)


def history_states(machine: StateMachine, joints: list[tuple[Term, ...]], state: State | None = None) -> list[State]:
    """The states visited by playing ``joints`` from ``state`` (default: initial), first included."""
    current = machine.initial_state() if state is None else state
    states = [current]
    for joint in joints:
        current = machine.next_state(current, joint)
        states.append(current)
    return states

__all__ = ["Playout", "history_states", "joint_moves", "perft", "random_joint_move", "random_playout", "random_playouts"]
