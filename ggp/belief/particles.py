"""Weighted particles: states a role considers possible, each with the history that led there.

A :class:`Particle` is one history of the game (joint moves in role order, ``random``
included), its end state (a state of the belief's machine) and a weight. Histories are kept
as shared linked chains (a step adds one link), so carrying a particle forward costs the same
at step 300 as at step 3; :attr:`Particle.history` spells one out when asked.
:class:`Particles` is a normalised weighted collection with the usual queries: what players
search and what a belief answers from.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Union

from ggp.gdl.terms import Term
from ggp.reasoner.machine import JointMove, State

#: A history as a chain of links, the newest joint move first; None is the empty history.
Past = Union[tuple[JointMove, "Past"], None]


def history_of(past: Past) -> tuple[JointMove, ...]:
    """The joint moves of ``past``, oldest first."""
    moves: list[JointMove] = []
    while past is not None:
        joint, past = past
        moves.append(joint)
    moves.reverse()
    return tuple(moves)


def past_of(history: Sequence[JointMove]) -> Past:
    """The chain of ``history`` (oldest first)."""
    past: Past = None
    for joint in history:
        past = (joint, past)
    return past


@dataclass(frozen=True)
class Particle:
    """A state the role considers possible, its weight, and the history that led there.

    ``consistent`` is False for a particle carried over a step that it could not explain
    (a last resort of the belief: see :mod:`ggp.belief.belief`).
    """

    state: State
    weight: float
    past: Past = None
    consistent: bool = True

    @property
    def history(self) -> tuple[JointMove, ...]:
        """The joint moves from the initial state to :attr:`state`, oldest first."""
        return history_of(self.past)

    def then(self, joint: JointMove, state: State, factor: float = 1.0, consistent: bool | None = None) -> Particle:
        """This particle one step on: ``joint`` led to ``state``; the weight times ``factor``."""
        return Particle(state, self.weight * factor, (joint, self.past),
                        self.consistent if consistent is None else consistent)

    def reweighted(self, weight: float) -> Particle:
        """The same particle with ``weight``."""
        return Particle(self.state, weight, self.past, self.consistent)


class Particles(Sequence[Particle]):
    """Particles whose weights sum to one; estimates are weighted averages over them."""

    def __init__(self, particles: Sequence[Particle]):
        total = sum(p.weight for p in particles)
        if not particles or not total > 0:
            raise ValueError("particles need at least one member with a positive weight")
        self._items = tuple(p.reweighted(p.weight / total) for p in particles)
        self._cumulative = list(itertools.accumulate(p.weight for p in self._items))

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> Particle:  # type: ignore[override]
        return self._items[index]

    def __iter__(self) -> Iterator[Particle]:
        return iter(self._items)

    def __repr__(self) -> str:
        return (f"<Particles: {len(self)} histories, {len(self.distribution())} states, "
                f"effective size {self.effective_size():.1f}>")

    @property
    def states(self) -> tuple[State, ...]:
        """The end states, in order."""
        return tuple(p.state for p in self._items)

    @property
    def weights(self) -> tuple[float, ...]:
        """The normalised weights, in order."""
        return tuple(p.weight for p in self._items)

    @property
    def consistent(self) -> bool:
        """True when every particle explains every observation."""
        return all(p.consistent for p in self._items)

    def draw(self, rng: random.Random) -> Particle:
        """One particle drawn in proportion to the weights."""
        i = bisect.bisect_left(self._cumulative, rng.random() * self._cumulative[-1])
        return self._items[min(i, len(self._items) - 1)]

    def distribution(self) -> dict[State, float]:
        """The total weight of each distinct end state."""
        out: dict[State, float] = {}
        for p in self._items:
            out[p.state] = out.get(p.state, 0.0) + p.weight
        return out

    def expectation(self, value: Callable[[State], float]) -> float:
        """The weighted mean of ``value`` over the end states."""
        return sum(p.weight * value(p.state) for p in self._items)

    def probability(self, fluent: Term) -> float:
        """The weight of the particles whose end state holds ``fluent``."""
        return sum(p.weight for p in self._items if fluent in p.state.fluents)

    def effective_size(self) -> float:
        """Kish's effective sample size ``1 / sum(w^2)``: the number of particles for equal
        weights, 1 at worst."""
        return 1.0 / sum(p.weight * p.weight for p in self._items)

    def resample(self, k: int, rng: random.Random) -> Particles:
        """``k`` particles drawn systematically in proportion to the weights, equally weighted
        (each is drawn its expected number of times rounded up or down)."""
        return Particles([p.reweighted(1.0) for p in systematic(self._items, k, rng)])


def systematic(particles: Sequence[Particle], k: int, rng: random.Random) -> list[Particle]:
    """``k`` of ``particles`` by systematic resampling in proportion to their (unnormalised)
    weights: one uniform offset, so each is drawn its expected number of times rounded up or
    down and an exact distribution is kept to within ``1/k``."""
    if k < 1:
        raise ValueError(f"k must be positive, not {k}")
    cumulative = list(itertools.accumulate(p.weight for p in particles))
    step = cumulative[-1] / k
    start = rng.random() * step
    last = len(particles) - 1
    return [particles[min(bisect.bisect_left(cumulative, start + i * step), last)] for i in range(k)]
