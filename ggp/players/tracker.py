"""Keeping one game history consistent with what a role was told, by backtracking search.

In a GDL-II game a player knows its own moves and percepts, not the state. To know its legal
moves it needs some state consistent with its observations: one history (a sequence of joint
moves from the initial state) in which it made its reported moves and would have seen exactly
its reported percepts. :class:`HistoryTracker` keeps such a history and, on each new
observation, extends it, backtracking over earlier unknown moves (of other roles and ``random``)
when the extension is impossible, as HyperPlay does. When every joint move is told (GDL
messages), the history is just the game so far.

The search has a deadline. When no consistent history is found in time (or none exists, which
means the reports contradict the rules), the step is taken ignoring its percepts and the
tracker marks itself inexact; the part of the history before it is kept from then on.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from ggp.errors import GGPError
from ggp.gdl.terms import Constant, Term
from ggp.players.deadline import Deadline
from ggp.reasoner.machine import JointMove, State, StateMachine


@dataclass(frozen=True)
class Observation:
    """What a role was told about one transition; None fields were not told."""

    move: Term | None
    percepts: frozenset[Term] | None
    joint: JointMove | None = None


Candidate = tuple[JointMove, State]

#: Time allowed to extend the history by one step when its percepts are ignored.
_RELAXED_SECONDS = 2.0


class TrackingError(GGPError):
    """No history fits the reported own moves even when percepts are ignored."""


class _OutOfTime(Exception):
    """The search deadline passed (internal: caught by the search)."""


class HistoryTracker:
    """One history of the game consistent with ``role``'s observations (see the module doc)."""

    def __init__(self, machine: StateMachine, role: Constant, rng: random.Random):
        self.machine = machine
        self.role = role
        self.index = machine.role_index(role)
        self.rng = rng
        self.observations: list[Observation] = []
        self.joints: list[JointMove] = []
        self.states: list[State] = [machine.initial_state()]
        self._iters: list[Iterator[Candidate]] = []
        self._relaxed: set[int] = set()
        self._floor = 0  # steps below this index are fixed (no backtracking into them)
        self._deadline = Deadline.after(0.0)

    @property
    def state(self) -> State:
        """The last state of the current history."""
        return self.states[-1]

    @property
    def exact(self) -> bool:
        """False once some step had to ignore its percepts."""
        return not self._relaxed

    @property
    def fully_observed(self) -> bool:
        """True when every observation so far carried the whole joint move."""
        return all(o.joint is not None for o in self.observations)

    def legal_moves(self) -> tuple[Term, ...]:
        """The role's legal moves in :attr:`state` (none in a terminal state)."""
        if self.machine.is_terminal(self.state):
            return ()
        return self.machine.legal_moves(self.state, self.role)

    def observe(self, observation: Observation, deadline: Deadline, live: bool = True) -> bool:
        """Extend the history by one step; True when it is consistent with every observation.

        ``live`` says the game goes on after this step, so its end state must not be terminal.
        Raises :class:`TrackingError` when not even the reported own moves fit the rules.
        """
        good_joints, good_states = list(self.joints), list(self.states)
        self.observations.append(observation)
        if self._search(deadline, live):
            return True
        step = len(self.observations) - 1
        self._relaxed.add(step)
        self._floor = step
        for want_live in (live, False):
            self.joints, self.states = list(good_joints), list(good_states)
            self._iters = [iter(()) for _ in range(step)]
            if self._search(Deadline.after(_RELAXED_SECONDS), want_live):
                return False
        raise TrackingError(f"no legal history fits the own moves reported up to turn {step + 1}")

    def _search(self, deadline: Deadline, live: bool) -> bool:
        """Depth-first search for a history as long as the observations."""
        self._deadline = deadline
        total = len(self.observations)
        try:
            while len(self.joints) < total or (live and total and self.machine.is_terminal(self.states[-1])):
                if len(self.joints) == total:  # a terminal end state while the game goes on
                    self.joints.pop()
                    self.states.pop()
                i = len(self.joints)
                if len(self._iters) == i:
                    self._iters.append(self._candidates(i))
                found = next(self._iters[i], None)
                if found is None:
                    self._iters.pop()
                    if i <= self._floor:
                        return False
                    self.joints.pop()
                    self.states.pop()
                    continue
                self.joints.append(found[0])
                self.states.append(found[1])
        except _OutOfTime:
            return False
        return True

    def _candidates(self, i: int) -> Iterator[Candidate]:
        """Joint moves at step ``i`` that fit observation ``i``, in random order, with next states."""
        state = self.states[i]
        obs = self.observations[i]
        machine = self.machine
        if machine.is_terminal(state):
            return
        if obs.joint is not None:
            yield obs.joint, machine.next_state(state, obs.joint)
            return
        choices: list[list[Term]] = []
        for role, moves in zip(machine.roles, machine.all_legal_moves(state)):
            if role == self.role and obs.move is not None:
                if obs.move not in moves:
                    return
                choices.append([obs.move])
            else:
                shuffled = list(moves)
                self.rng.shuffle(shuffled)
                choices.append(shuffled)
        check = obs.percepts is not None and i not in self._relaxed
        for joint in itertools.product(*choices):
            if self._deadline.expired:
                raise _OutOfTime()
            if check and machine.percepts(state, joint).get(self.role, frozenset()) != obs.percepts:
                continue
            yield joint, machine.next_state(state, joint)
