"""Pieces shared by the searching players: time keeping, goals, playouts, move statistics."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ggp.errors import ReasonerError
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant, Term
from ggp.deadline import Deadline
from ggp.reasoner.machine import JointMove, State, StateMachine

#: Playouts stop after this many steps (a game that does not end counts as its last state).
MAX_PLAYOUT_STEPS = 500


def stop_time(deadline: Deadline) -> float:
    """The ``time.monotonic()`` moment a search should stop at to answer by ``deadline``: a
    little before it (10 % of the time left, at most 50 ms), so the answer itself is in time."""
    now = time.monotonic()
    left = max(0.0, deadline.at - now)
    return now + left - min(0.05, 0.1 * left)


def goal(machine: StateMachine, state: State, role: Constant) -> float:
    """``role``'s goal in ``state`` (0 when the rules give none or several)."""
    try:
        return float(machine.goals(state).get(role, 0))
    except ReasonerError:
        return 0.0


def goals(machine: StateMachine, state: State) -> list[float]:
    """Every role's goal in ``state`` (in role order; 0 where the rules give none or several)."""
    try:
        found = machine.goals(state)
    except ReasonerError:
        found = {}
    return [float(found.get(role, 0)) for role in machine.roles]


def random_joint(machine: StateMachine, state: State, rng: random.Random,
                 fixed: dict[int, Term] | None = None) -> JointMove:
    """A joint move with the roles in ``fixed`` (index to move) playing those, the others uniform."""
    joint = []
    for i, moves in enumerate(machine.all_legal_moves(state)):
        if fixed is not None and i in fixed:
            joint.append(fixed[i])
        elif not moves:
            raise ReasonerError(f"role {machine.roles[i]} has no legal move in a non-terminal state")
        else:
            joint.append(moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0])
    return tuple(joint)


def playout(machine: StateMachine, state: State, rng: random.Random) -> State:
    """The state a uniformly random playout from ``state`` ends in."""
    final, _, _ = machine.depth_charge(state, rng, MAX_PLAYOUT_STEPS)
    return final


def value_of_move(machine: StateMachine, state: State, index: int, move: Term, rng: random.Random) -> float:
    """One random playout's goal for the role at ``index`` after it plays ``move`` in ``state``."""
    try:
        after = machine.next_state(state, random_joint(machine, state, rng, {index: move}))
        return goal(machine, playout(machine, after, rng), machine.roles[index])
    except ReasonerError:
        return 0.0


def player_roles(machine: StateMachine) -> list[int]:
    """Indices of the roles that choose (every role but ``random``)."""
    return [i for i, r in enumerate(machine.roles) if r != RANDOM]


@dataclass
class MoveStats:
    """Running sums of the values seen for one move."""

    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        """The mean value (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0

    def add(self, value: float, weight: int = 1) -> None:
        """Count ``value`` ``weight`` times."""
        self.visits += weight
        self.total += value * weight


def best_move(moves: Sequence[Term], stats: dict[Term, MoveStats], rng: random.Random) -> Term:
    """The move with the highest mean (ties broken at random; unvisited moves count as 0)."""
    top = max(stats[m].mean if m in stats else 0.0 for m in moves)
    tied = [m for m in moves if (stats[m].mean if m in stats else 0.0) >= top - 1e-12]
    return tied[rng.randrange(len(tied))]
