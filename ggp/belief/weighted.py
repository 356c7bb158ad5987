"""Weighted histories and states: the values a belief hands to players.

A :class:`Particle` is one consistent history with its end state and a weight;
a :class:`WeightedSample` is a normalised collection of them with the usual queries
(probability of a fluent, expectations, effective sample size, resampling).
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ggp.gdl.terms import Term
from ggp.reasoner.machine import FluentState, JointMove


@dataclass(frozen=True)
class Particle:
    """A consistent history (joint moves in role order), its end state and its weight."""

    state: FluentState
    weight: float
    history: tuple[JointMove, ...]


class WeightedSample(Sequence[Particle]):
    """Particles whose weights sum to one; estimates are weighted averages over them."""

    def __init__(self, particles: Sequence[Particle]):
        total = sum(p.weight for p in particles)
        if not particles or total <= 0:
            raise ValueError("a weighted sample needs particles with a positive total weight")
        self._particles = tuple(Particle(p.state, p.weight / total, p.history) for p in particles)

    def __len__(self) -> int:
        return len(self._particles)

    def __getitem__(self, index: int) -> Particle:  # type: ignore[override]
        return self._particles[index]

    def __iter__(self) -> Iterator[Particle]:
        return iter(self._particles)

    def __repr__(self) -> str:
        return f"<WeightedSample of {len(self)} particles, effective size {self.effective_size():.1f}>"

    @property
    def states(self) -> tuple[FluentState, ...]:
        """The particles' end states, in order."""
        return tuple(p.state for p in self._particles)

    @property
    def weights(self) -> tuple[float, ...]:
        """The normalised weights, in order."""
        return tuple(p.weight for p in self._particles)

    def expectation(self, value: Callable[[FluentState], float]) -> float:
        """The weighted mean of ``value`` over the end states."""
        return sum(p.weight * value(p.state) for p in self._particles)

    def probability(self, fluent: Term) -> float:
        """The weight of the particles whose end state holds ``fluent``."""
        return sum(p.weight for p in self._particles if fluent in p.state.fluents)

    def distribution(self) -> dict[FluentState, float]:
        """The total weight of each distinct end state."""
        out: dict[FluentState, float] = {}
        for p in self._particles:
            out[p.state] = out.get(p.state, 0.0) + p.weight
        return out

    def effective_size(self) -> float:
        """Kish's effective sample size, ``1 / sum(w^2)``: K for equal weights, 1 at worst."""
        return 1.0 / sum(p.weight * p.weight for p in self._particles)

    def resample(self, k: int, rng: random.Random) -> WeightedSample:
        """``k`` particles drawn in proportion to the weights (systematic resampling), equally weighted."""
        cumulative = list(itertools.accumulate(p.weight for p in self._particles))
        start = rng.random() / k
        picks = [min(bisect.bisect_left(cumulative, start + i / k), len(cumulative) - 1) for i in range(k)]
        return WeightedSample([Particle(self._particles[i].state, 1.0, self._particles[i].history) for i in picks])
