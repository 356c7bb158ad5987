"""A role's belief over the game states: what its moves and percepts so far leave possible.

:class:`Belief` keeps the role's observation history and a :class:`~ggp.reasoner.temporal.HistorySolver`
grown by one step per :meth:`Belief.update`. Exact answers (what is certain or possible, the
moves legal in every state) come from the solver's cautious and brave reasoning whatever the
size of the information set; probabilities come from the exact information set when it has at
most ``cap`` histories, and from solver-guided weighted samples otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ggp.belief.exact import InformationSet, enumerate_information_set
from ggp.belief.prior import MoveModel, Prior
from ggp.belief.sampling import DEFAULT_SETTINGS, GuidedSampler, SamplerSettings
from ggp.belief.weighted import WeightedSample
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term, sort_key
from ggp.reasoner.machine import StateMachine
from ggp.reasoner.temporal import HistorySolver

#: Information sets with at most this many histories are enumerated exactly by default.
DEFAULT_CAP = 256
#: Particles drawn for a probability when the information set is too large to enumerate.
DEFAULT_SAMPLES = 500

Method = Literal["auto", "exact", "guided"]


@dataclass(frozen=True)
class Observation:
    """One step as the role saw it: the move it made and the percepts that step brought."""

    move: Term
    percepts: frozenset[Term] = frozenset()


class Belief:
    """The states ``role`` considers possible, given its moves and percepts so far.

    ``model`` gives the probabilities of the non-random roles' moves (uniform without one);
    ``cap`` bounds the number of histories enumerated for exact answers; a ``machine`` for the
    same rules, when given, replays sampled histories (cheaper than asking the solver for each
    state); ``settings`` tune the guided sampler. Raises
    :class:`~ggp.reasoner.temporal.InconsistentObservationError`, naming the step, when no
    history explains the observations.
    """

    def __init__(
        self,
        description: GameDescription,
        role: Constant,
        observations: Iterable[Observation] = (),
        model: MoveModel | None = None,
        cap: int = DEFAULT_CAP,
        machine: StateMachine | None = None,
        settings: SamplerSettings = DEFAULT_SETTINGS,
    ):
        self.description = description
        self.role = role
        self.cap = cap
        self.machine = machine
        self.settings = settings
        self.prior = Prior(model)
        self.observations: list[Observation] = []
        self._solver = HistorySolver(description, role)
        self._exact: InformationSet | None = None
        self._exact_known = False
        self._sampler: GuidedSampler | None = None
        for observation in observations:
            self.update(observation.move, observation.percepts)

    def __repr__(self) -> str:
        return f"<Belief of {self.role} after {self.steps} steps>"

    @property
    def steps(self) -> int:
        """The number of steps observed so far."""
        return len(self.observations)

    @property
    def roles(self) -> tuple[Constant, ...]:
        """The game's roles, in the order of joint moves."""
        return self._solver.roles

    def update(self, move: Term, percepts: Iterable[Term] = ()) -> None:
        """Add one step: the role's move and the percepts it brought (empty for nil)."""
        seen = frozenset(percepts)
        self._solver.extend(move, seen)
        self.observations.append(Observation(move, seen))
        self._exact_known = False
        self._sampler = None

    def information_set(self, cap: int | None = None) -> InformationSet | None:
        """The exact information set, or None when more than ``cap`` (default: the belief's cap)
        histories are consistent."""
        if cap is not None and cap != self.cap:
            return enumerate_information_set(self._solver, self.prior, cap)
        if not self._exact_known:
            self._exact = enumerate_information_set(self._solver, self.prior, self.cap)
            self._exact_known = True
        return self._exact

    def sample(self, k: int, rng: random.Random, method: Method = "auto", budget: float | None = None) -> WeightedSample:
        """``k`` weighted states (with their histories) drawn from the belief.

        ``exact`` draws from the enumerated information set (an error when it exceeds the cap);
        ``guided`` runs the solver-guided importance sampler, which stops early (after at least
        one state) when ``budget`` seconds have passed; ``auto`` uses ``exact`` when the
        information set is within the cap, else ``guided``.
        """
        if k < 1:
            raise ValueError(f"k must be positive, not {k}")
        if method != "guided":
            exact = self.information_set()
            if exact is not None:
                return exact.draw(k, rng)
            if method == "exact":
                raise ValueError(f"the information set has more than {self.cap} histories; use method='guided'")
        if self._sampler is None:
            own = tuple(o.move for o in self.observations)
            self._sampler = GuidedSampler(self._solver, self.prior, own, self.settings, self.machine)
        return self._sampler.sample(k, rng, budget)

    def certain(self) -> frozenset[Term]:
        """The fluents true in every possible state (exact, whatever the information set's size)."""
        return self._solver.consequences("true", cautious=True)

    def possible(self) -> frozenset[Term]:
        """The fluents true in some possible state (exact)."""
        return self._solver.consequences("true", cautious=False)

    def legal_everywhere(self, role: Constant | None = None, budget: float | None = None) -> tuple[Term, ...]:
        """The moves of ``role`` (default: the belief's role) legal in every possible state: exact,
        but proving it can take exponentially long; with a ``budget`` (seconds), the moves legal
        in every possible state met by then (the same in a game where the role always knows
        its legal moves, as GDL-II asks)."""
        moves = self._solver.consequences("legal", cautious=True, role=role, budget=budget)
        return tuple(sorted(moves, key=sort_key))

    def probability(self, fluent: Term, rng: random.Random | None = None, samples: int = DEFAULT_SAMPLES) -> float:
        """The probability that ``fluent`` holds now.

        Exact when the fluent is certain or impossible or the information set is within the
        cap; otherwise estimated from ``samples`` guided samples drawn with ``rng`` (required then).
        """
        if fluent in self.certain():
            return 1.0
        if fluent not in self.possible():
            return 0.0
        exact = self.information_set()
        if exact is not None:
            return exact.probability(fluent)
        if rng is None:
            raise ValueError("the information set is too large to enumerate: pass rng to estimate the probability")
        return self.sample(samples, rng, "guided").probability(fluent)
