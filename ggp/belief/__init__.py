"""Everything a role knows in a match of a GDL-II game: its belief over the states.

``Belief(machine, role)`` follows one role through a match (``update(observation)`` once per
step, at a cost that does not grow with the match) and answers what is certain, probable, where
each hidden card may be, which moves are legal, and hands out weighted particles to search.
See ``docs/belief.md``.
"""

from __future__ import annotations

from ggp.belief.belief import DEFAULT_BELIEF, Belief, BeliefSettings, Size, StepReport
from ggp.belief.exact import InformationSet
from ggp.belief.filter import advance
from ggp.belief.marginals import Marginals
from ggp.belief.observation import Observation
from ggp.belief.particles import Particle, Particles
from ggp.belief.prior import MoveModel, MoveModelError, Prior
from ggp.belief.proposal import ProposalSettings, StepModel
from ggp.belief.sampling import SamplerSettings

__all__ = [
    "DEFAULT_BELIEF",
    "Belief",
    "BeliefSettings",
    "InformationSet",
    "Marginals",
    "MoveModel",
    "MoveModelError",
    "Observation",
    "Particle",
    "Particles",
    "Prior",
    "ProposalSettings",
    "SamplerSettings",
    "Size",
    "StepModel",
    "StepReport",
    "advance",
]
