"""Solver-guided sequential Monte Carlo over consistent histories.

Particles are histories built forward together, one step at a time, one unobserved role's
move at a time (roles in order within a step). At each choice the state is known, so are the
role's legal moves ``L`` and their prior probabilities ``p``; the *feasible* moves ``F`` are
those that some consistent history still makes, given the moves chosen so far (the solver
decides). The sampler picks a move from ``F`` with probability ``p(m)/M``,
``M = sum(p(m) for m in F)``, and multiplies the particle's weight by ``M`` (or by an unbiased
estimate of it, below). No choice is a dead end: every particle is a consistent history.

Why this is unbiased: the proposal probability of a history ``h`` is ``q(h) = prod p(m)/M``
over its choices, so its weight ``prod M`` equals ``prior(h)/q(h)``, and every consistent
history has ``q(h) > 0``; hence ``E_q[w f] = sum over consistent h of prior(h) f(h)``, the
unnormalised posterior expectation. Replacing ``M`` by an estimate ``M'`` with
``E[M' | choices so far, move chosen] = M`` keeps this identity (tower rule). When the weights
of the particles have grown uneven (effective sample size below ``resample_below`` times their
number) they are resampled after a step, as in a particle filter; the estimates stay consistent
and the total weight stays an unbiased estimate of the evidence (sequential Monte Carlo, also
with unbiased random weights). Normalising the weights over ``K`` particles leaves a bias of
order ``1/K``. Without the weights (picking proportionally to ``p`` among feasible moves
only) the sampler would be biased: Monty Hall would give the chosen door 1/2.

How ``F`` and ``M`` are obtained at a choice (the costs are solver calls; checks are cached):

* ``|L| <= enumerate_up_to``, or ``|F| <= pinned_up_to`` (a move pinned down by a percept;
  tried when the role's previous choice at that step was pinned): the solver enumerates ``F``
  (one model per feasible move) and ``M`` is exact; so it is once every legal move has been
  checked.
* otherwise, inverse sampling: moves are drawn from ``p`` (with replacement) and checked until
  two feasible ones have come up, after ``N`` draws; the first is the move chosen and
  ``M' = 1/(N-1)`` is unbiased for ``M`` (``N`` is negative binomial) and independent of which
  move was chosen. A big, mostly feasible move set (a deal from a large deck) costs a few checks.
* when ``patience`` (``C``) draws bring fewer than two feasible moves, ``F`` is enumerated
  with a budget of ``ceil(sqrt(2|L|))`` models. If it fits, the move is drawn from ``F`` and
  the factor is ``M/(1+(C-1)M)``, which is ``E[1/(N-1) | N > C]``, so that the estimate stays
  unbiased over both outcomes; if not, the draws simply go on until the second feasible move.

Whether ``F`` fits the budget is a property of the node, not of the draws, so the estimate is
unbiased in every branch.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ggp.belief.particles import Particle, past_of
from ggp.belief.prior import Prior
from ggp.errors import ReasonerError
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.reasoner.temporal import Fixed, HistorySolver, Snapshot


@dataclass(frozen=True)
class SamplerSettings:
    """Tuning of the guided sampler (see the module docstring); none of it affects unbiasedness."""

    enumerate_up_to: int = 8
    pinned_up_to: int = 1
    patience: int = 8
    max_draws: int = 1_000_000
    resample_below: float = 0.5


#: The settings used unless others are given.
DEFAULT_SETTINGS = SamplerSettings()


@dataclass
class _Choice:
    """One role's choice point: its legal moves, their prior, and what the solver said."""

    legal: tuple[Term, ...]
    probabilities: tuple[float, ...]
    cumulative: list[float]
    checked: dict[Term, bool] = field(default_factory=dict)
    feasible: tuple[Term, ...] | None = None
    tried_small: bool = False
    too_many: bool = False


class GuidedSampler:
    """Draws weighted consistent histories for one solver horizon, caching shared prefixes."""

    def __init__(
        self,
        solver: HistorySolver,
        prior: Prior,
        own_moves: tuple[Term, ...],
        machine: StateMachine,
        settings: SamplerSettings = DEFAULT_SETTINGS,
    ):
        self.solver = solver
        self.prior = prior
        self.own_moves = own_moves
        self.settings = settings
        self.machine = machine
        # keyed by time and the moves fixed before it (the time matters in a one-role game)
        self._snapshots: dict[tuple[int, tuple[Fixed, ...]], Snapshot] = {}
        self._states: dict[tuple[int, tuple[Fixed, ...]], State] = {}
        # whether the last choice of a role at a step had a pinned move (then the next one is
        # tried for it first): a guess from earlier samples, which only affects the cost
        self._pinned: dict[tuple[int, Constant], bool] = {}
        self._choices: dict[tuple[tuple[Fixed, ...], Constant], _Choice] = {}

    def _snapshot(self, fixed: tuple[Fixed, ...], time: int, roles: tuple[Constant, ...], state: bool) -> Snapshot:
        """The legal moves and state after the ``fixed`` moves (the history replayed with the machine)."""
        snap = self._snapshots.get((time, fixed))
        if snap is None:
            current = self._replay(fixed, time)
            legal = {r: self.machine.legal_moves(current, r) for r in roles}
            snap = self._snapshots[(time, fixed)] = Snapshot(legal, current.fluents if state else None)
        return snap

    def _replay(self, fixed: tuple[Fixed, ...], time: int) -> State:
        """The machine's state at ``time`` after the ``fixed`` moves (all moves before ``time``)."""
        if time == 0:
            return self.machine.initial_state()
        current = self._states.get((time, fixed))
        if current is None:
            start = len(fixed) - len(self.solver.others)
            before = self._replay(fixed[:start], time - 1)
            moves = {self.solver.role: self.own_moves[time - 1]} | {role: move for _, role, move in fixed[start:]}
            current = self._states[(time, fixed)] = self.machine.next_state(before, tuple(moves[r] for r in self.solver.roles))
        return current

    def _choice(self, fixed: tuple[Fixed, ...], role: Constant, snap: Snapshot) -> _Choice:
        choice = self._choices.get((fixed, role))
        if choice is None:
            legal = snap.legal[role]
            probabilities = self.prior.probabilities(role, legal, snap.state)
            p = tuple(probabilities[m] for m in legal)
            choice = self._choices[(fixed, role)] = _Choice(legal, p, list(itertools.accumulate(p)))
        return choice

    def _check(self, choice: _Choice, fixed: tuple[Fixed, ...], time: int, role: Constant, move: Term) -> bool:
        ok = choice.checked.get(move)
        if ok is None:
            ok = choice.checked[move] = self.solver.consistent(fixed + ((time, role, move),))
            if len(choice.checked) == len(choice.legal):
                choice.feasible = tuple(m for m in choice.legal if choice.checked[m])
        return ok

    def _decide(self, fixed: tuple[Fixed, ...], time: int, role: Constant, choice: _Choice, rng: random.Random) -> tuple[Term, float]:
        """The move chosen and the weight factor (``M`` or an unbiased estimate of it)."""
        legal = choice.legal
        if len(legal) == 1:
            return legal[0], choice.probabilities[0]
        settings = self.settings
        if choice.feasible is None and not choice.tried_small:
            choice.tried_small = True
            if len(legal) <= settings.enumerate_up_to:
                choice.feasible = self.solver.feasible(fixed, time, role, legal)
            elif self._pinned.get((time, role), True):
                choice.feasible = self.solver.feasible(fixed, time, role, legal, settings.pinned_up_to)
                self._pinned[(time, role)] = choice.feasible is not None
        if choice.feasible is not None:
            return self._exact(choice, rng, time, role)

        def draw() -> Term:
            return rng.choices(legal, cum_weights=choice.cumulative)[0]

        hits: list[Term] = []
        draws = 0
        while len(hits) < 2 and draws < settings.patience:
            draws += 1
            move = draw()
            if self._check(choice, fixed, time, role, move):
                hits.append(move)
        if len(hits) < 2 and not choice.too_many:
            budget = math.ceil(math.sqrt(2 * len(legal)))
            choice.feasible = choice.feasible or self.solver.feasible(fixed, time, role, legal, budget)
            choice.too_many = choice.feasible is None
            if choice.feasible is not None:
                move, mass = self._exact(choice, rng, time, role)
                # E[1/(N-1); N > C] / P(N > C) for N ~ NegativeBinomial(2, M), C = patience
                return move, mass / (1 + (settings.patience - 1) * mass)
        while len(hits) < 2:
            draws += 1
            if draws > settings.max_draws:
                raise ReasonerError(f"{settings.max_draws} draws found too few feasible moves of {role} at step {time + 1}")
            move = draw()
            if self._check(choice, fixed, time, role, move):
                hits.append(move)
        return hits[0], 1.0 / (draws - 1)

    def _exact(self, choice: _Choice, rng: random.Random, time: int, role: Constant) -> tuple[Term, float]:
        """A move drawn from the prior restricted to the feasible moves, and their prior mass."""
        assert choice.feasible is not None
        if not choice.feasible:  # pragma: no cover - the node is consistent
            raise ReasonerError(f"role {role} has no feasible move at step {time + 1}")
        p = dict(zip(choice.legal, choice.probabilities))
        masses = [p[m] for m in choice.feasible]
        total = sum(masses)
        return rng.choices(choice.feasible, weights=masses if total > 0 else None)[0], total

    def _step(self, fixed: tuple[Fixed, ...], time: int, rng: random.Random) -> tuple[tuple[Fixed, ...], float]:
        """``fixed`` extended by every unobserved role's move at ``time``, and the weight factor."""
        others = self.solver.others
        snap = self._snapshot(fixed, time, others, self.prior.needs_states)
        factor = 1.0
        for role in others:
            if not snap.legal[role]:  # pragma: no cover - the choice rule needs a legal move
                raise ReasonerError(f"role {role} has no legal move at step {time + 1}")
            move, f = self._decide(fixed, time, role, self._choice(fixed, role, snap), rng)
            factor *= f
            fixed += ((time, role, move),)
        return fixed, factor

    def _particle(self, fixed: tuple[Fixed, ...], weight: float) -> Particle:
        return Particle(self._replay(fixed, self.solver.horizon), weight, past_of(self._joints(fixed)))

    def _joints(self, fixed: Sequence[Fixed]) -> tuple[JointMove, ...]:
        roles = self.solver.roles
        moves: list[dict[Constant, Term]] = [{self.solver.role: own} for own in self.own_moves]
        for t, role, move in fixed:
            moves[t][role] = move
        return tuple(tuple(step[r] for r in roles) for step in moves)

    def sample(self, k: int, rng: random.Random, budget: float | None = None) -> list[Particle]:
        """``k`` weighted particles (weights not normalised), moved forward together one step at a time.

        After a step, when the effective sample size falls below ``resample_below`` times the
        number of particles, they are resampled (systematically, in proportion to their
        weights; each copy gets the mean weight). With ``budget`` seconds, when the remaining
        steps would not fit at the pace so far, the particles are resampled down to as many as
        fit (at least one). Raises ReasonerError when every weight is 0 (a move model's doing).
        """
        deadline = None if budget is None else time.monotonic() + budget
        horizon = self.solver.horizon
        paths: list[tuple[tuple[Fixed, ...], float]] = [((), 1.0)] * k
        for t in range(horizon):
            started = time.monotonic()
            paths = [(fixed, weight * factor) for fixed, weight in paths for fixed, factor in [self._step(fixed, t, rng)]]
            total = sum(w for _, w in paths)
            if total <= 0:
                raise ReasonerError("every sampled history has probability 0 under the move model")
            if t == horizon - 1:
                break
            keep = len(paths)
            if deadline is not None:
                now = time.monotonic()
                pace = (now - started) / len(paths)
                keep = max(1, min(keep, int((deadline - now) / max(pace * (horizon - 1 - t), 1e-9))))
            ess = total * total / sum(w * w for _, w in paths)
            if keep < len(paths) or ess < self.settings.resample_below * len(paths):
                paths = _resample(paths, keep, total, rng)
        return [self._particle(fixed, weight) for fixed, weight in paths]


def _resample(
    paths: list[tuple[tuple[Fixed, ...], float]], k: int, total: float, rng: random.Random
) -> list[tuple[tuple[Fixed, ...], float]]:
    """``k`` paths drawn systematically in proportion to their weights, each with weight ``total/k``."""
    cumulative = list(itertools.accumulate(w for _, w in paths))
    step = total / k
    start = rng.random() * step
    picks = [min(bisect.bisect_left(cumulative, start + i * step), len(paths) - 1) for i in range(k)]
    return [(paths[i][0], step) for i in picks]
