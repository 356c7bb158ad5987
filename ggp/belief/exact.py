"""The exact information set: every consistent history, weighted by its prior probability.

Enumerated by the solver when there are at most ``cap`` histories. Histories that end in the
same state add up: the information set is the distribution over distinct end states.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from ggp.belief.prior import MoveModelError, Prior
from ggp.belief.weighted import Particle, WeightedSample
from ggp.gdl.terms import Term, sort_key
from ggp.reasoner.machine import FluentState
from ggp.reasoner.temporal import HistorySolver


@dataclass(frozen=True)
class InformationSet:
    """The states a role cannot tell apart, with their posterior probabilities.

    ``histories`` are all consistent histories as particles weighted by their posterior
    probability; ``states`` maps each distinct end state to the sum of its histories' weights.
    """

    histories: tuple[Particle, ...]
    states: Mapping[FluentState, float]

    @property
    def size(self) -> int:
        """The number of distinct states."""
        return len(self.states)

    def probability(self, fluent: Term) -> float:
        """The posterior probability that ``fluent`` holds."""
        return sum(p for state, p in self.states.items() if fluent in state.fluents)

    def certain(self) -> frozenset[Term]:
        """The fluents true in every state."""
        return frozenset.intersection(*(s.fluents for s in self.states))

    def possible(self) -> frozenset[Term]:
        """The fluents true in some state."""
        return frozenset.union(*(s.fluents for s in self.states))

    def draw(self, k: int, rng: random.Random) -> WeightedSample:
        """``k`` histories drawn independently from the posterior, equally weighted."""
        picks = rng.choices(self.histories, weights=[p.weight for p in self.histories], k=k)
        return WeightedSample([Particle(p.state, 1.0, p.history) for p in picks])


def enumerate_information_set(solver: HistorySolver, prior: Prior, cap: int) -> InformationSet | None:
    """The exact information set, or None when there are more than ``cap`` consistent histories."""
    records = solver.histories(cap, detail=prior.needs_states)
    if records is None:
        return None
    weighted = [(r, prior.of_history(r, solver.roles, solver.role)) for r in records]
    total = sum(w for _, w in weighted)
    if total <= 0:
        raise MoveModelError("the move model gives every consistent history probability 0")
    histories = tuple(Particle(FluentState(r.end), w / total, r.joints) for r, w in weighted)
    states: dict[FluentState, float] = {}
    for p in histories:
        states[p.state] = states.get(p.state, 0.0) + p.weight
    ordered = sorted(states.items(), key=lambda item: sorted(sort_key(f) for f in item[0].fluents))
    return InformationSet(histories, dict(ordered))
