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

from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term

JointMove = tuple[Term, ...]


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
        from ggp.reasoner.play import random_joint_move

        steps = 0
        while not self.is_terminal(state):
            if steps >= max_steps:
                return state, steps, False
            state = self.next_state(state, random_joint_move(self, state, rng))
            steps += 1
        return state, steps, True

    def convert(self, state: State) -> State:
        """``state`` (possibly of another machine) as a state of this machine."""
        return self.state_from_fluents(state.fluents)
