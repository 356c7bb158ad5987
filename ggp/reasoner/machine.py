"""The state machine: the small abstract core every reasoner implements.

Modelled on ggp-base's ``StateMachine``: roles, the initial state, legal moves, the next state
for a joint move, GDL-II percepts, terminal states and goals. Joint moves are tuples with one
move per role in the order of :attr:`StateMachine.roles` (``random`` included). Everything else
(joint-move enumeration, playouts, perft) is built on this interface as plain functions in
:mod:`ggp.reasoner.play`, so any reasoner can be checked against any other.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term, integer_value

JointMove = tuple[Term, ...]


def goal_value(role: Term, value: Term) -> int:
    """The integer a ``goal`` atom gives ``role``: GDL's 0 to 100, or any integer (``-20``, ``+5``:
    rules that return a game's own score give negative values too)."""
    found = integer_value(value)
    if found is None:
        raise ReasonerError(f"goal value {value} of {role} is not an integer")
    return found


class State(ABC):
    """An immutable game state; equal within one machine when the same fluents hold."""

    __slots__ = ()

    @property
    @abstractmethod
    def fluents(self) -> frozenset[Term]:
        """The ground fluents true in this state (the arguments of ``true``)."""

    def __repr__(self) -> str:
        body = " ".join(sorted(str(f) for f in self.fluents))
        return f"<{type(self).__name__} {body}>"


class FluentState(State):
    """A state held as a plain frozenset of fluents (the common, machine-neutral form)."""

    __slots__ = ("_fluents",)

    def __init__(self, fluents: Iterable[Term]):
        self._fluents = frozenset(fluents)

    @property
    def fluents(self) -> frozenset[Term]:
        """The fluents, as given."""
        return self._fluents

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FluentState) and self._fluents == other._fluents

    def __hash__(self) -> int:
        return hash(self._fluents)


@dataclass(frozen=True)
class PlayoutTotals:
    """What many random playouts add up to: their number, steps, how many stopped at the step
    limit, and per role the sum and the number of its goal values at the ends (a role without a
    goal value in a final state is not counted there)."""

    playouts: int
    steps: int
    unfinished: int
    goal_sums: dict[Constant, int]
    goal_counts: dict[Constant, int]

    def plus(self, other: PlayoutTotals) -> PlayoutTotals:
        """The totals of both sets of playouts."""
        roles = list(dict.fromkeys([*self.goal_counts, *other.goal_counts]))
        return PlayoutTotals(self.playouts + other.playouts, self.steps + other.steps,
                             self.unfinished + other.unfinished,
                             {r: self.goal_sums.get(r, 0) + other.goal_sums.get(r, 0) for r in roles},
                             {r: self.goal_counts.get(r, 0) + other.goal_counts.get(r, 0) for r in roles})


class StateMachine(ABC):
    """A reasoner for one game description."""

    description: GameDescription
    roles: tuple[Constant, ...]

    @abstractmethod
    def initial_state(self) -> State:
        """The state defined by the ``init`` rules."""

    @abstractmethod
    def legal_moves(self, state: State, role: Constant) -> tuple[Term, ...]:
        """The legal moves of ``role`` in ``state``, sorted by :func:`ggp.gdl.terms.sort_key`."""

    @abstractmethod
    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The state after every role plays its move of ``joint`` (in role order)."""

    @abstractmethod
    def percepts(self, state: State, joint: Sequence[Term]) -> dict[Constant, frozenset[Term]]:
        """What each role sees (``sees``) on the transition from ``state`` by ``joint``."""

    @abstractmethod
    def is_terminal(self, state: State) -> bool:
        """True when ``terminal`` holds in ``state``."""

    @abstractmethod
    def goals(self, state: State) -> dict[Constant, int]:
        """Each role's goal value in ``state``; a role without one is absent.

        When the rules give a role several values, the first goal rule (in source order) that
        holds gives it, as the Dresden GameController reads them (:mod:`ggp.reasoner.goal_order`).
        """

    @abstractmethod
    def state_from_fluents(self, fluents: Iterable[Term]) -> State:
        """This machine's state in which exactly ``fluents`` hold."""

    def transition(self, state: State, joint: Sequence[Term]) -> tuple[State, dict[Constant, frozenset[Term]]]:
        """The next state and what each role sees on the way: ``next_state`` and ``percepts``
        together (reasoners may compute both in one pass)."""
        return self.next_state(state, joint), self.percepts(state, joint)

    def role_percepts(self, state: State, joint: Sequence[Term], role: Constant) -> frozenset[Term]:
        """What ``role`` alone sees on the transition from ``state`` by ``joint``.

        The same as ``percepts(state, joint)[role]``; reasoners may override it with a cheaper
        computation of the one role's percepts.
        """
        return self.percepts(state, joint).get(role, frozenset())

    def percept_moves(self, role: Constant) -> Mapping[Term, tuple[frozenset[Term] | None, ...]]:
        """Which moves each percept of ``role`` reveals, as far as the reasoner knows.

        For a percept ``P`` in the mapping, per role (in role order): None when ``P`` says
        nothing about that role's move, else a set of moves one of which that role played on
        every transition on which ``role`` sees ``P``. A percept absent from the mapping
        reveals nothing; the default, an empty mapping, knows nothing.
        """
        return {}

    def move_domain(self, role: Constant) -> tuple[Term, ...] | None:
        """Every move ``role`` can ever have among its legal moves (a superset, sorted like
        legal moves), or None when the reasoner cannot tell without playing (the default)."""
        return None

    def percept_domain(self, role: Constant) -> tuple[Term, ...] | None:
        """Every percept ``role`` can ever see (a superset, sorted), or None when the reasoner
        cannot tell without playing (the default)."""
        return None

    def role_percepts_match(self, state: State, joints: Sequence[Sequence[Term]], role: Constant,
                            percepts: frozenset[Term]) -> list[bool]:
        """For each joint move of ``joints``, whether ``role`` sees exactly ``percepts`` on the
        transition from ``state`` (a particle filter's test of many candidates at once; a
        reasoner may answer the whole batch in one call)."""
        return [self.role_percepts(state, joint, role) == percepts for joint in joints]

    def next_states(self, state: State, joints: Sequence[Sequence[Term]]) -> list[State]:
        """The state after each joint move of ``joints`` (a batch of :meth:`next_state`)."""
        return [self.next_state(state, joint) for joint in joints]

    def all_legal_moves(self, state: State) -> tuple[tuple[Term, ...], ...]:
        """The legal moves of every role, in role order."""
        return tuple(self.legal_moves(state, role) for role in self.roles)

    def role_index(self, role: Constant) -> int:
        """The position of ``role`` in :attr:`roles`."""
        return self.roles.index(role)

    def depth_charge(self, state: State, rng: random.Random, max_steps: int) -> tuple[State, int, bool]:
        """Play uniformly random joint moves from ``state`` until terminal or ``max_steps``.

        Returns the last state, the number of steps and whether it is terminal. Reasoners may
        override this with a faster loop that draws from ``rng`` exactly as this one does.
        """
        steps = 0
        while not self.is_terminal(state):
            if steps >= max_steps:
                return state, steps, False
            state = self.next_state(state, random_joint_move(self, state, rng))
            steps += 1
        return state, steps, True

    def playout_totals(self, state: State, rng: random.Random, count: int, max_steps: int) -> PlayoutTotals:
        """``count`` random playouts from ``state`` (each as :meth:`depth_charge`, then the final
        goals), summed. Reasoners may override it with one loop that draws alike.

        Raises :class:`~ggp.errors.ReasonerError` when a role has several goal values at an end.
        """
        steps = unfinished = 0
        sums: dict[Constant, int] = {}
        counts: dict[Constant, int] = {}
        for _ in range(count):
            final, length, finished = self.depth_charge(state, rng, max_steps)
            steps += length
            unfinished += not finished
            for role, value in self.goals(final).items():
                sums[role] = sums.get(role, 0) + value
                counts[role] = counts.get(role, 0) + 1
        order = {role: i for i, role in enumerate(self.roles)}
        return PlayoutTotals(count, steps, unfinished, dict(sorted(sums.items(), key=lambda kv: order[kv[0]])),
                             dict(sorted(counts.items(), key=lambda kv: order[kv[0]])))

    def perft(self, state: State, depth: int) -> int:
        """The number of joint-move sequences of exactly ``depth`` steps from ``state``.

        Every role's legal moves count (``random`` included); a terminal state reached before
        ``depth`` ends its sequence and is not counted. Reasoners may count faster.
        """
        import itertools

        if depth < 0:
            raise ValueError("perft depth must be 0 or more")

        def count(s: State, d: int) -> int:
            if d == 0:
                return 1
            if self.is_terminal(s):
                return 0
            legal = self.all_legal_moves(s)
            if d == 1:
                total = 1
                for moves in legal:
                    total *= len(moves)
                return total
            return sum(count(self.next_state(s, joint), d - 1) for joint in itertools.product(*legal))

        return count(state, depth)

    def convert(self, state: State) -> State:
        """``state`` (possibly of another machine) as a state of this machine."""
        return self.state_from_fluents(state.fluents)


def random_joint_move(machine: StateMachine, state: State, rng: random.Random) -> JointMove:
    """One legal move per role, each chosen uniformly with ``rng`` (roles in order)."""
    choices = []
    for role, moves in zip(machine.roles, machine.all_legal_moves(state)):
        if not moves:
            raise ReasonerError(f"role {role} has no legal move in a non-terminal state")
        choices.append(moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0])
    return tuple(choices)
