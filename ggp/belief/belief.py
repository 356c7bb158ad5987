"""A role's belief over the game states, kept up to date one step at a time.

:class:`Belief` is everything a role knows in a match. While the states it cannot tell apart
are few, it keeps them all with their exact probabilities (:mod:`ggp.belief.exact`); when
they become too many (a deal from a deck), it switches to weighted particles
(:mod:`ggp.belief.filter`) carried forward by the state machine. Either way, an update costs
the same at step 300 as at step 3: it maps what is already known through one joint move and
its percepts, and never looks at the whole history again.

When the step kills most particles, the belief rejuvenates within the time it is given, the
cheapest and most exact first: the populations of a few steps back are carried forward again
(:func:`~ggp.belief.filter.advance`), dead particles are repaired by exchanging two hidden
things (:func:`~ggp.belief.repair.swap_repair`), the answer-set solver supplies consistent
histories when its measured pace says it fits (:mod:`ggp.belief.solver`), and, as a last
resort, particles are carried over the step by the moves closest to what was seen
(:func:`~ggp.belief.repair.forced_step`). :attr:`Belief.exact` and :attr:`Belief.consistent`
say what the answers are worth.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections import deque
from dataclasses import dataclass, field

from ggp.belief import exact as exact_set
from ggp.belief.exact import InformationSet, initial_set
from ggp.belief.filter import advance, pool, resampled
from ggp.belief.marginals import Marginals, marginals
from ggp.belief.observation import Observation
from ggp.belief.particles import Particle, Particles
from ggp.belief.positions import PlaceWatch, Positions, find_positions
from ggp.belief.prior import MoveModel, Prior
from ggp.belief.proposal import DEFAULT_PROPOSAL, ProposalSettings, StepModel
from ggp.belief.repair import forced_step, swap_repair
from ggp.belief.sampling import DEFAULT_SETTINGS, SamplerSettings
from ggp.belief.solver import SolverBackend
from ggp.deadline import Deadline
from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term, sort_key
from ggp.reasoner.machine import State, StateMachine

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BeliefSettings:
    """How a belief keeps up (none of it changes what an exact belief computes)."""

    #: Particles carried once the information set is too large to keep whole.
    particles: int = 32
    #: Most states kept exactly.
    cap: int = 512
    #: Most candidate joint moves checked in one exact step (else: particles).
    max_work: int = 512
    #: Rejuvenate when fewer particles than this share survive a step.
    refill_below: float = 0.25
    #: How many steps back the populations are kept for regrowing.
    regrow_steps: int = 8
    #: Whether the answer-set solver may supply histories (when the rules are known).
    solver: bool = True
    #: Seconds the solver may take when an update has no deadline (it is tried only when its
    #: measured pace says it fits).
    solver_seconds: float = 2.0
    proposal: ProposalSettings = DEFAULT_PROPOSAL
    sampler: SamplerSettings = DEFAULT_SETTINGS


#: The settings used unless others are given.
DEFAULT_BELIEF = BeliefSettings()


@dataclass(frozen=True)
class Size:
    """How many states a role cannot tell apart: exact, or an estimate."""

    value: float
    exact: bool

    def __str__(self) -> str:
        return str(int(self.value)) if self.exact else f"~{self.value:.3g}"


@dataclass
class StepReport:
    """What one update did: how long it took and how the belief came through."""

    step: int
    seconds: float = 0.0
    mode: str = "exact"
    survivors: int = 0
    rejuvenated: list[str] = field(default_factory=list)
    #: Percept checks made (the measure of an update's work).
    checks: int = 0


class Belief:
    """The states ``role`` considers possible in a match of ``machine``'s game (module doc).

    ``description`` (the rules) lets the belief ask the solver for histories; ``model``
    weights the other roles' moves (uniform without one; ``random`` is always uniform);
    ``rng`` drives every random choice.
    """

    def __init__(self, machine: StateMachine, role: Constant, *, description: GameDescription | None = None,
                 model: MoveModel | None = None, rng: random.Random | None = None,
                 settings: BeliefSettings = DEFAULT_BELIEF):
        if role not in machine.roles:
            raise ReasonerError(f"{role} is not a role of the game (roles: {' '.join(map(str, machine.roles))})")
        self.machine = machine
        self.role = role
        self.settings = settings
        self.prior = Prior(model)
        self.rng = rng if rng is not None else random.Random(0)
        self.observations: list[Observation] = []
        self.last: StepReport | None = None
        self._info: InformationSet | None = initial_set(machine.initial_state())
        self._particles: list[Particle] = []
        self._populations: deque[list[Particle]] = deque(maxlen=settings.regrow_steps + 1)
        self._solver = (SolverBackend(description, role, machine, self.prior, settings.sampler)
                        if description is not None and settings.solver else None)
        self._positions: Positions | None = None
        self._watch = PlaceWatch()  # the places the role cannot see into
        self._pace = 2e-4  # seconds per candidate checked, learned
        machine.percept_moves(role)  # analysed (and cached by the machine) before the first step

    def __repr__(self) -> str:
        mode = "exact" if self.exact else ("sampled" if self.consistent else "approximate")
        return f"<Belief of {self.role} after {self.steps} steps: {self.size()} states, {mode}>"

    @property
    def steps(self) -> int:
        """The number of steps observed."""
        return len(self.observations)

    @property
    def exact(self) -> bool:
        """True while the belief holds the whole information set with exact probabilities."""
        return self._info is not None

    @property
    def consistent(self) -> bool:
        """True when every state held explains everything the role saw (False after a repair
        or a forced step)."""
        return self._info is not None or all(p.consistent for p in self._particles)

    # --- updating ---------------------------------------------------------------------------

    def update(self, observation: Observation, live: bool | None = True, deadline: Deadline | None = None) -> StepReport:
        """Add one step: what the role was told about it. ``live`` says whether the match went
        on after it (True), ended there (False) or is not known (None). With a ``deadline`` the
        belief spends at most about the time left (rejuvenation is what takes time); without
        one, only counts limit the work, so results depend on the seed alone."""
        began = time.perf_counter()
        report = StepReport(len(self.observations) + 1)
        model = StepModel(self.machine, self.role, observation, live, self.prior, self.settings.proposal, deadline,
                          self._watch)
        self.observations.append(observation)
        if self._info is None or not self._exact_step(model, deadline, report):
            report.mode = "particles"
            self._particle_step(model, deadline, report)
        report.checks += model.evaluations
        if report.checks:
            self._pace = 0.8 * self._pace + 0.2 * (time.perf_counter() - began) / report.checks
        report.seconds = time.perf_counter() - began
        self.last = report
        return report

    def _exact_step(self, model: StepModel, deadline: Deadline | None, report: StepReport) -> bool:
        """The step on the exact set; False when the particles must take it (the set has
        grown too large to step, or nothing in it explains the step)."""
        info = self._info
        assert info is not None
        work = exact_set.work(info, model)
        affordable = work <= self.settings.max_work and (
            deadline is None or work * self._pace <= 0.5 * deadline.remaining())
        after = exact_set.step(info, model, self.rng) if affordable else None
        if after is not None and after.size <= self.settings.cap:
            self._info = after
            report.survivors = after.size
            return True
        if after is not None:  # stepped, but too many states to keep: particles from now on
            self._leave_exact(after)
            report.mode = "particles"
            report.survivors = len(self._particles)
            return True
        if affordable:
            log.info("%s: no state explains step %d exactly; carrying particles", self.role, report.step)
        self._leave_exact(info)
        return False

    def _leave_exact(self, info: InformationSet) -> None:
        """Particles from now on, drawn from ``info``."""
        self._particles = list(info.particles(self.settings.particles, self.rng))
        self._info = None
        self._populations.clear()
        self._populations.append(self._particles)

    def _particle_step(self, model: StepModel, deadline: Deadline | None, report: StepReport) -> None:
        k = self.settings.particles
        alive, dead = advance(self._particles, model, self.rng, deadline)
        report.survivors = len(alive)
        groups = [alive]
        if len(alive) < self.settings.refill_below * k:
            groups += self._rejuvenate(model, alive, dead, deadline, report)
        merged = pool(groups)
        if not merged:  # not even a forced step: every particle was over; keep them, stale
            merged = [Particle(p.state, p.weight, p.past, False) for p in self._particles]
            report.rejuvenated.append("kept as they were: every particle had ended")
        self._particles = resampled(merged, k, self.rng)
        self._populations.append(self._particles)

    def _rejuvenate(self, model: StepModel, alive: list[Particle], dead: list[Particle],
                    deadline: Deadline | None, report: StepReport) -> list[list[Particle]]:
        """Fresh particles for a step that killed most of them (see the module doc)."""
        k = self.settings.particles
        found: list[list[Particle]] = []
        wanted = k - len(alive)

        def enough() -> bool:
            return sum(len(g) for g in found) + len(alive) >= self.settings.refill_below * k * 2

        def timely() -> bool:
            return deadline is None or not deadline.expired

        grown = self._regrow_from(2, model, deadline, report)
        if grown:
            found.append(grown)
            report.rejuvenated.append(f"regrown from 2 steps back: {len(grown)}")
        if not enough() and dead and timely():
            repaired = self._repair(dead, model, deadline, max(1, k // 2 - len(alive)))
            if repaired:
                found.append(repaired)
                report.rejuvenated.append(f"repaired: {len(repaired)}")
        back = 4
        while not enough() and back <= self.settings.regrow_steps and back <= self.steps and timely():
            grown = self._regrow_from(back, model, deadline, report)
            if grown:
                found.append(grown)
                report.rejuvenated.append(f"regrown from {back} steps back: {len(grown)}")
            back *= 2
        if not enough() and self._solver is not None and self._solver.usable:
            budget = self.settings.solver_seconds if deadline is None else 0.8 * deadline.remaining()
            if self._solver.estimate(self.steps, wanted, self._pace) <= budget:
                drawn = self._solver.sample(self.observations, wanted, self.rng, Deadline.after(budget), self._pace)
                if model.live is not None:  # the solver knows only that the match went on before
                    drawn = [p for p in drawn if self.machine.is_terminal(p.state) != model.live]
                if drawn:
                    found.append([p.reweighted(p.weight) for p in drawn])
                    report.rejuvenated.append(f"from the solver: {len(drawn)}")
        if not alive and not any(found):
            positions, known = self._find_positions(), self._known()
            forced: list[Particle] = []
            for d in dead[: max(1, k // 4)]:
                if forced and deadline is not None and deadline.expired:
                    break
                if (carried := forced_step(d, model, self.rng, positions, known)) is not None:
                    forced.append(carried)
            if forced:
                found.append(forced)
                report.rejuvenated.append(f"forced: {len(forced)}")
        return found

    def _regrow_from(self, back: int, model: StepModel, deadline: Deadline | None,
                     report: StepReport) -> list[Particle]:
        """A quarter of the population of ``back`` steps ago carried forward again over the steps
        since."""
        if back > len(self._populations) or back > self.steps:
            return []
        k = max(4, self.settings.particles // 4)  # a quarter of them: regrowth is a long shot
        population = resampled(self._populations[-back], k, self.rng, resample_below=1.01)
        first = self.steps - back
        for i in range(first, self.steps):
            if deadline is not None and deadline.expired:
                return []
            last = i == self.steps - 1
            step_model = model if last else StepModel(self.machine, self.role, self.observations[i], True,
                                                      self.prior, self.settings.proposal, deadline)
            population, _ = advance(population, step_model, self.rng, deadline)
            if not last:
                report.checks += step_model.evaluations
            if not population:
                return []
            if not last:
                population = resampled(population, k, self.rng)
        return population

    def _repair(self, dead: list[Particle], model: StepModel, deadline: Deadline | None, wanted: int) -> list[Particle]:
        """Up to ``wanted`` dead particles repaired by exchanging hidden things (at most about
        eight percept checks and four arrangements tried per particle held, in all)."""
        positions = self._find_positions()
        if not positions.relations:
            return []
        known = self._known()
        repaired: list[Particle] = []
        budget = model.evaluations + 8 * self.settings.particles  # percept checks the repairs may make
        arrangements = 4 * self.settings.particles  # arrangements they may try
        for particle in dead:
            if len(repaired) >= wanted or model.evaluations >= budget or arrangements <= 0 \
                    or (deadline is not None and deadline.expired):
                break
            fixed, tried = swap_repair(particle, model, positions, known, self.rng, most=arrangements)
            arrangements -= tried
            if fixed is not None:
                repaired.append(fixed)
        return repaired

    def _known(self) -> frozenset[Term]:
        """The fluents the role knows: true in every particle and, if positional, in a place the
        role sees into (particles can agree by chance, after resampling, on a card nobody showed
        the role)."""
        if not self._particles:
            return frozenset()
        positions = self._find_positions()
        certain = frozenset.intersection(*(p.state.fluents for p in self._particles))
        return frozenset(f for f in certain if (split := positions.split(f)) is None or self._watch.visible(split))

    def _find_positions(self) -> Positions:
        if self._positions is None:
            states = [self.machine.initial_state(), *(p.state for p in self._particles)]
            self._positions = find_positions(states)
        return self._positions

    # --- questions --------------------------------------------------------------------------

    def information_set(self) -> InformationSet | None:
        """The exact information set while the belief holds it, else None."""
        return self._info

    def particles(self, k: int | None = None) -> Particles:
        """The belief as weighted particles: every state of the exact set with its probability,
        or the particles carried; with ``k``, that many equally weighted, drawn systematically."""
        if self._info is not None:
            return self._info.as_particles() if k is None else self._info.particles(k, self.rng)
        current = Particles(self._particles)
        return current if k is None else current.resample(k, self.rng)

    def distribution(self) -> dict[State, float]:
        """Each state the belief holds and its probability (exact, or the particles' weights)."""
        if self._info is not None:
            return dict(self._info.states)
        return Particles(self._particles).distribution()

    @property
    def state(self) -> State:
        """The most probable state."""
        distribution = self.distribution()
        return max(distribution, key=lambda s: distribution[s])

    def probability(self, fluent: Term) -> float:
        """The probability that ``fluent`` holds now (an estimate unless :attr:`exact`)."""
        return sum(p for s, p in self.distribution().items() if fluent in s.fluents)

    def certain(self) -> frozenset[Term]:
        """The fluents true in every state held."""
        return frozenset.intersection(*(s.fluents for s in self.distribution()))

    def known(self) -> frozenset[Term]:
        """The fluents the role knows: :meth:`certain` while exact; with particles, those true
        in every particle except, for positional relations, places the role cannot see into
        (particles may agree by chance on a card nobody showed the role)."""
        return self.certain() if self._info is not None else self._known()

    def possible(self) -> frozenset[Term]:
        """The fluents true in some state held."""
        return frozenset.union(*(s.fluents for s in self.distribution()))

    def marginals(self) -> Marginals:
        """Every fluent's probability and, for positional relations, each key's distribution
        over its values (where each card is)."""
        return marginals(self.distribution(), self._find_positions(), self.exact)

    def size(self) -> Size:
        """How many states the role cannot tell apart: exact while :attr:`exact`, else estimated
        from the particles' marginals (:meth:`Marginals.entropy`), at least the number of
        distinct states held."""
        if self._info is not None:
            return Size(self._info.size, True)
        distinct = len(self.distribution())
        return Size(max(float(distinct), math.exp(min(self.marginals().entropy(), 700.0))), False)

    def legal_moves(self, role: Constant | None = None) -> tuple[Term, ...]:
        """The moves of ``role`` (default: the belief's) legal in every state held that is not
        terminal (preferring the consistent particles); when no move is, the moves legal in the
        most probable state. Empty when every state is terminal."""
        role = role or self.role
        distribution = self.distribution()
        live = [s for s in distribution if not self.machine.is_terminal(s)]
        if not live:
            return ()
        if self._info is None and not all(p.consistent for p in self._particles):
            consistent = {p.state for p in self._particles if p.consistent and p.state in live}
            if consistent:
                live = [s for s in live if s in consistent]
        common: set[Term] | None = None
        for state in live:
            legal = set(self.machine.legal_moves(state, role))
            common = legal if common is None else common & legal
        if common:
            return tuple(sorted(common, key=sort_key))
        best = max(live, key=lambda s: distribution[s])
        return self.machine.legal_moves(best, role)
