"""The exact information set, carried forward one step at a time.

While it is small, a belief keeps every state its role cannot rule out, with its posterior
probability: each step maps every state through every joint move that explains the
observation (:class:`~ggp.belief.proposal.StepModel`), and histories that reach the same state
add up. This is exact Bayesian filtering over states, and its cost depends on the number of
states and candidate moves, never on the length of the match. Each state keeps one history
that leads to it, drawn in proportion to the histories' probabilities.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from ggp.belief.particles import Particle, Particles, Past, history_of, systematic
from ggp.belief.proposal import StepModel
from ggp.gdl.terms import Term
from ggp.reasoner.machine import JointMove, State


@dataclass(frozen=True)
class InformationSet:
    """The states a role cannot tell apart, with their posterior probabilities (summing to
    one) and, for each, one history that leads to it."""

    states: Mapping[State, float]
    pasts: Mapping[State, Past]

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

    def history(self, state: State) -> tuple[JointMove, ...]:
        """A history leading to ``state`` (drawn in proportion to the histories' probabilities)."""
        return history_of(self.pasts[state])

    def particles(self, k: int, rng: random.Random) -> Particles:
        """``k`` equally weighted particles in proportion to the probabilities (systematic
        resampling: each state about its expected number of times)."""
        weighted = [Particle(s, p, self.pasts[s]) for s, p in self.states.items()]
        return Particles([p.reweighted(1.0) for p in systematic(weighted, k, rng)])

    def as_particles(self) -> Particles:
        """One particle per state, weighted by its probability."""
        return Particles([Particle(s, p, self.pasts[s]) for s, p in self.states.items()])


def initial_set(state: State) -> InformationSet:
    """The information set before the first step: the initial state, certainly."""
    return InformationSet({state: 1.0}, {state: None})


def work(info: InformationSet, model: StepModel) -> int:
    """The number of candidate joint moves a step of ``info`` would check."""
    return sum(model.candidates(state) for state in info.states)


def step(info: InformationSet, model: StepModel, rng: random.Random) -> InformationSet | None:
    """``info`` after the step of ``model``; None when no state explains it."""
    weights: dict[State, float] = {}
    pasts: dict[State, Past] = {}
    for state, p in info.states.items():
        past = info.pasts[state]
        for joint, prior, after in model.explanations(state):
            w = p * prior
            if w <= 0:
                continue
            total = weights.get(after, 0.0) + w
            weights[after] = total
            if after not in pasts or rng.random() * total < w:
                pasts[after] = (joint, past)
    total = sum(weights.values())
    if not weights or total <= 0:
        return None
    return InformationSet({s: w / total for s, w in weights.items()}, pasts)
