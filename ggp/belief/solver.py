"""Fresh consistent histories from the answer-set solver, when the particles have died.

The solver holds the whole history as an incremental answer-set program
(:class:`~ggp.reasoner.temporal.HistorySolver`: clingo multi-shot solving, one program part
grounded per step, the observations switched on by ``#external`` atoms, moves fixed by
assumptions, learned constraints kept between calls). It is complete: if a history explains
everything the role saw, it finds one, however long ago the event a percept now reveals. But
each call costs time in proportion to the whole history, so the belief never uses it to
update: it is grounded lazily, only when particles must be rejuvenated, catching up on the
steps since the last time in as few grounding calls as fit the time left (its pace is measured;
before the first call it is guessed from the machine's), and every solver call is cut off at the
deadline. Histories come from the solver-guided sequential Monte Carlo sampler
(:class:`~ggp.belief.sampling.GuidedSampler`), which weights them without bias.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Sequence

from ggp.belief.observation import Observation
from ggp.belief.particles import Particle
from ggp.belief.prior import Prior
from ggp.belief.sampling import DEFAULT_SETTINGS, GuidedSampler, SamplerSettings
from ggp.deadline import Deadline
from ggp.errors import GGPError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.machine import StateMachine
from ggp.reasoner.temporal import HistorySolver, SolverTimeout

log = logging.getLogger(__name__)


#: A priori, seconds to ground one step of the solver per second the machine takes to check
#: one candidate joint move (both grow with the ground program; measured: translated Agram
#: about 300, Blackjack about 600). Replaced by the measured pace once the solver has run.
GROUND_PER_CHECK = 1000.0


class SolverBackend:
    """Consistent histories of ``role`` from the solver, grounded on demand (see the module doc)."""

    def __init__(self, description: GameDescription, role: Constant, machine: StateMachine,
                 prior: Prior, settings: SamplerSettings = DEFAULT_SETTINGS):
        self.description = description
        self.role = role
        self.machine = machine
        self.prior = prior
        self.settings = settings
        self.usable = True
        self.why_not = ""
        self._solver: HistorySolver | None = None
        self._own: list[Term] = []
        self._ground_pace: float | None = None  # seconds per step grounded, per step held (learned)
        self._sample_pace = 0.0005  # seconds per particle and step (learned)
        self._wanted = 0.0  # twice the time of the last draw that ran out of time

    @property
    def horizon(self) -> int:
        """The number of steps grounded so far."""
        return 0 if self._solver is None else self._solver.horizon

    def estimate(self, steps: int, k: int, check_seconds: float) -> float:
        """Seconds it would take to catch up to ``steps`` steps and draw ``k`` histories;
        ``check_seconds`` is the machine's time to check one candidate joint move (the a priori
        measure of the game's size, before the solver has run)."""
        pending = steps - self.horizon
        if self._ground_pace is None:
            grounding = GROUND_PER_CHECK * check_seconds * pending * (1 + steps / 10)
        else:
            grounding = self._ground_pace * pending * max(steps, 1)
        return max(grounding + self._sample_pace * k * max(steps, 1), self._wanted)

    def sample(self, observations: Sequence[Observation], k: int, rng: random.Random,
               deadline: Deadline, check_seconds: float = 1e-4) -> list[Particle]:
        """Up to ``k`` weighted consistent histories (weights not normalised) after
        ``observations``, by ``deadline``; none when the solver cannot be used (observations
        not fully reported, rules beyond it, no consistent history) or is not done in time
        (the steps grounded so far stay grounded for the next call)."""
        if not self.usable:
            return []
        try:
            if not self._catch_up(observations, deadline, check_seconds) or not observations:
                return []
        except SolverTimeout:
            return []
        except GGPError as exc:
            self._give_up(str(exc))
            return []
        assert self._solver is not None
        sampler = GuidedSampler(self._solver, self.prior, tuple(self._own), self.machine, self.settings)
        started = time.monotonic()
        self._solver.cutoff = deadline.at
        try:
            drawn = sampler.sample(k, rng, deadline.remaining())
        except SolverTimeout:
            self._wanted = 2 * (time.monotonic() - started)  # not again with less time than this
            return []
        except GGPError as exc:
            self._give_up(str(exc))
            return []
        finally:
            self._solver.cutoff = None
        spent = time.monotonic() - started
        self._sample_pace = max(1e-6, spent / (max(len(drawn), 1) * len(observations)))
        self._wanted = 0.0
        return drawn

    def _catch_up(self, observations: Sequence[Observation], deadline: Deadline, check_seconds: float) -> bool:
        """Ground the observed steps not grounded yet, in as few grounding calls as the time
        allows (a call cannot be interrupted: one is made only when its predicted time fits);
        True when every step is grounded."""
        pending = list(observations[self.horizon:])
        if any(o.move is None or o.percepts is None or o.joint is not None for o in pending):
            raise GGPError("a step's move or percepts were not reported")
        if self._solver is None:
            self._solver = HistorySolver(self.description, self.role)
        while pending:
            if self._ground_pace is None:  # the first call: one step, if the guess says it fits
                fit = 1 if GROUND_PER_CHECK * check_seconds <= deadline.remaining() else 0
            else:
                fit = int(deadline.remaining() / max(self._ground_pace * (self.horizon + 1), 1e-9))
            chunk = pending[:fit]
            if not chunk:
                return False
            began = time.monotonic()
            steps: list[tuple[Term, frozenset[Term]]] = []
            for o in chunk:
                assert o.move is not None and o.percepts is not None
                steps.append((o.move, o.percepts))
            self._solver.cutoff = deadline.at
            try:
                self._solver.extend_many(steps, check=len(chunk) == len(pending))
            finally:
                self._solver.cutoff = None
            self._own.extend(move for move, _ in steps)
            del pending[:len(chunk)]
            self._ground_pace = max(1e-6, (time.monotonic() - began) / (len(steps) * max(self.horizon, 1)))
        return True

    def _give_up(self, why: str) -> None:
        log.info("%s: no more histories from the solver: %s", self.role, why)
        self.usable = False
        self.why_not = why
        self._solver = None
