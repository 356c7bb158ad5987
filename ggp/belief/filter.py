"""Carrying weighted particles over one observed step (sequential Monte Carlo).

Each particle draws a joint move that explains the step from its state, in proportion to the
move's prior (:meth:`~ggp.belief.proposal.StepModel.draw`), and its weight is multiplied by the
prior mass ``M`` of the explaining moves (or an unbiased estimate of it): the locally optimal
proposal. Every surviving particle is then a history that explains everything the role saw,
and the weighted particles estimate the posterior without bias up to normalisation. A
particle whose state explains nothing dies. Particles that share a state share the work.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ggp.belief.particles import Particle, systematic
from ggp.belief.proposal import StepModel
from ggp.deadline import Deadline


def advance(particles: Sequence[Particle], model: StepModel, rng: random.Random,
            deadline: Deadline | None = None) -> tuple[list[Particle], list[Particle]]:
    """The particles that the step of ``model`` carries on (weights multiplied, not normalised)
    and those it kills (as they were before the step).

    Particles are taken in random order; when ``deadline`` has passed and one has survived, the
    rest are dropped (a random subset survives, so the estimate stays unbiased). Until one
    survives the deadline does not count: losing track of the game costs far more than a late
    answer (the belief would hold only states that contradict what the role saw).
    """
    order = list(range(len(particles)))
    rng.shuffle(order)
    alive: list[Particle] = []
    dead: list[Particle] = []
    for n, i in enumerate(order):
        if deadline is not None and alive and deadline.expired:
            break
        particle = particles[i]
        found = model.draw(particle.state, rng)
        if found is None:
            dead.append(particle)
            continue
        joint, after, factor = found
        if factor > 0:
            alive.append(particle.then(joint, after, factor))
    return alive, dead


def effective_size(particles: Sequence[Particle]) -> float:
    """Kish's effective sample size of unnormalised weights."""
    total = sum(p.weight for p in particles)
    squares = sum(p.weight * p.weight for p in particles)
    return total * total / squares if squares > 0 else 0.0


def resampled(particles: Sequence[Particle], k: int, rng: random.Random, resample_below: float = 0.5) -> list[Particle]:
    """``particles`` brought back to ``k`` when they are fewer or their weights have grown
    uneven (systematic resampling, each copy with the mean weight); else as they are."""
    if len(particles) == k and effective_size(particles) >= resample_below * k:
        return list(particles)
    mean = sum(p.weight for p in particles) / k
    return [p.reweighted(mean) for p in systematic(particles, k, rng)]


def pool(groups: Sequence[Sequence[Particle]]) -> list[Particle]:
    """The union of groups of particles that each estimate the same posterior with weights on
    their own scales: each group's total weight made proportional to its number of members."""
    out: list[Particle] = []
    for group in groups:
        total = sum(p.weight for p in group)
        if not group or total <= 0:
            continue
        scale = len(group) / total
        out.extend(p.reweighted(p.weight * scale) for p in group)
    return out
