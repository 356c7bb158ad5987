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
tracker marks itself inexact (see :meth:`HistoryTracker.observe`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from ggp.errors import GGPError, ReasonerError
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

#: Share of an observation's time for the exact search; the rest is for the fallbacks.
_EXACT_SHARE = 0.6
#: Least time given to the fallbacks, even past the deadline (the history must go on).
_RELAXED_SECONDS = 0.5
#: Candidate joint moves a first search round may try before restarting.
_FIRST_BUDGET = 100


class TrackingError(GGPError):
    """No history fits the reported own moves even when percepts are ignored."""


class _OutOfTime(Exception):
    """The search deadline passed (internal: caught by the search)."""


class _OutOfBudget(Exception):
    """A search round used up its queries (internal: the search restarts)."""


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
        self._work = 0
        self._budget = 0

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
        if self._terminal(self.state):
            return ()
        try:
            return self.machine.legal_moves(self.state, self.role)
        except ReasonerError:
            return ()

    def _terminal(self, state: State) -> bool:
        """Whether the game is over in ``state``; states the rules leave undefined count as over."""
        try:
            return self.machine.is_terminal(state)
        except ReasonerError:
            return True

    def observe(self, observation: Observation, deadline: Deadline, live: bool = True) -> bool:
        """Extend the history by one step; True when it is consistent with every observation.

        ``live`` says the game goes on after this step, so its end state must not be terminal.
        When the search fails, the step is taken ignoring its percepts; when even that is
        impossible (the history kept so far cannot make the reported move), a history is sought
        from the start ignoring every percept. Raises :class:`TrackingError` when not even the
        reported own moves fit the rules.
        """
        kept = (list(self.joints), list(self.states))
        self.observations.append(observation)
        if self._search(deadline.share(_EXACT_SHARE), live):
            return True
        step = len(self.observations) - 1
        self._relaxed.add(step)
        self._floor = step
        if self._retry(kept, step, live, deadline):
            return False
        self._relaxed.update(range(len(self.observations)))
        self._floor = 0
        if self._retry(kept, 0, live, deadline):
            return False
        raise TrackingError(f"no legal history fits the own moves reported up to turn {step + 1}")

    def _retry(self, kept: tuple[list[JointMove], list[State]], keep: int, live: bool, deadline: Deadline) -> bool:
        """Search again from the first ``keep`` steps of the history ``kept``."""
        for want_live in (live, False):
            self.joints, self.states = list(kept[0][:keep]), list(kept[1][:keep + 1])
            self._iters = [iter(()) for _ in range(keep)]
            if self._search(max(deadline, Deadline.after(_RELAXED_SECONDS)), want_live):
                return True
        return False

    def _search(self, deadline: Deadline, live: bool) -> bool:
        """Search for a history as long as the observations, by depth-first rounds with restarts.

        The first round continues from the current history. A round that uses up its budget
        of reasoner queries restarts with fresh random move orders and twice the budget from an
        earlier step: 1, 2, 4, ... steps back until the first free step, then from random steps,
        so a bad guess made many steps back costs little. Only a round that started from the
        first free step and tried everything proves there is no history.
        """
        self._deadline = deadline
        budget = _FIRST_BUDGET
        restart = len(self.joints)
        back = 1
        while True:
            restart = min(restart, len(self.joints))
            del self.joints[restart:], self.states[restart + 1:], self._iters[restart:]
            self._work, self._budget = 0, budget
            try:
                if self._depth_first(live):
                    return True
                if restart <= self._floor:
                    return False
            except _OutOfTime:
                return False
            except _OutOfBudget:
                pass
            budget *= 2
            last = len(self.observations) - 1
            if last - back >= self._floor:
                restart = last - back
                back *= 2
            else:
                restart = self._floor if back > 0 else self.rng.randint(self._floor, max(self._floor, last))
                back = 0

    def _depth_first(self, live: bool) -> bool:
        total = len(self.observations)
        while len(self.joints) < total or (live and total and self._terminal(self.states[-1])):
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
        return True

    def _candidates(self, i: int) -> Iterator[Candidate]:
        """Joint moves at step ``i`` that fit observation ``i``, in random order, with next states."""
        state = self.states[i]
        obs = self.observations[i]
        machine = self.machine
        if self._terminal(state):
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
            self._work += 1
            if self._work > self._budget:
                raise _OutOfBudget()
            try:
                if check and machine.percepts(state, joint).get(self.role, frozenset()) != obs.percepts:
                    continue
                after = machine.next_state(state, joint)
            except ReasonerError:
                continue
            yield joint, after
