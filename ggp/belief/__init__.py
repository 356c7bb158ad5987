"""Beliefs over game states for GDL-II players: exact information sets and weighted samples.

``Belief(description, role)`` follows one role through a match (``update(move, percepts)``
once per step) and answers what is certain, possible or probable, and which moves are legal
in every state it considers possible. See ``docs/belief.md``.
"""

from __future__ import annotations

from ggp.belief.belief import DEFAULT_CAP, DEFAULT_SAMPLES, Belief, Observation
from ggp.belief.exact import InformationSet
from ggp.belief.prior import MoveModel, MoveModelError, Prior
from ggp.belief.sampling import SamplerSettings
from ggp.belief.weighted import Particle, WeightedSample
from ggp.reasoner.temporal import InconsistentObservationError

__all__ = [
    "DEFAULT_CAP",
    "DEFAULT_SAMPLES",
    "Belief",
    "InconsistentObservationError",
    "InformationSet",
    "MoveModel",
    "MoveModelError",
    "Observation",
    "Particle",
    "Prior",
    "SamplerSettings",
    "WeightedSample",
]
