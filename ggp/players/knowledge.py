"""What one role knows during a match: its belief over states and weighted hypotheses.

:class:`Knowledge` is kept by the player's session and updated with every observation:

* in a fully observed game (GDL messages carry every joint move) the state is played forward;
* otherwise the role's :class:`~ggp.belief.Belief` (exact and complete: a clingo encoding of
  the histories) is updated; it gives the moves legal in every possible state. A population of
  weighted :class:`~ggp.players.particles.Hypothesis` is carried forward by the player's own
  fast state machine (:func:`~ggp.players.particles.extend`), far cheaper than sampling every
  history afresh from the solver each turn; when too few distinct ones survive it is refilled
  from the belief (exact draws from a small information set, else solver-guided samples as
  time allows);
* when no hypothesis survives and the belief cannot refill in time, the population is grown
  again from 2, 4, 8, ... steps back; failing that, a :class:`~ggp.players.tracker.HistoryTracker`
  (depth-first search for one history, relaxing percepts if it must) supplies one; failing that,
  the hypotheses go on ignoring the step's percepts. ``consistent`` says whether they still
  explain every percept. The belief is given up when the reports go beyond it (a move or
  percepts not reported, percepts no history explains) or its updates are too slow for the clock.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Sequence

from ggp.belief import Belief
from ggp.belief.weighted import Particle
from ggp.errors import GGPError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term, sort_key
from ggp.players.deadline import Deadline
from ggp.players.particles import Hypotheses, Hypothesis, extend, replay
from ggp.players.tracker import HistoryTracker, Observation, TrackingError
from ggp.reasoner.machine import JointMove, State, StateMachine

log = logging.getLogger(__name__)

#: Hypotheses carried from turn to turn.
POPULATION = 96
#: Refill from the belief when fewer distinct histories than this share of the population survive.
REFILL_BELOW = 0.25
#: A belief whose update takes more than this share of the play clock is given up.
BELIEF_SHARE = 0.5
#: Share of the play clock the belief may spend proving the legal moves (cautious reasoning,
#: which can take exponentially long); past it, the moves legal in every state met so far.
LEGAL_SHARE = 0.1


class Knowledge:
    """One role's knowledge of the state in one match (see the module doc).

    ``play_clock`` (seconds) bounds how slow a belief update may be before the belief is given
    up; ``population`` is the number of hypotheses carried. With ``population`` 0 the player
    only wants the legal moves: while the belief gives them, one hypothesis is carried forward
    as cheaply as possible (never refilled from the belief, which is the costly part).
    """

    def __init__(self, machine: StateMachine, description: GameDescription, role: Constant,
                 rng: random.Random, play_clock: float = 10.0, population: int = POPULATION,
                 use_belief: bool = True):
        self.machine = machine
        self.description = description
        self.role = role
        self.index = machine.role_index(role)
        self.rng = rng
        self.play_clock = play_clock
        self.size = max(1, population)
        self._light = population == 0
        self.observations: list[Observation] = []
        self.consistent = True
        self.note: str | None = None
        self.tracker: HistoryTracker | None = None
        self._tracker_failed = False
        self.belief: Belief | None = None
        self._population = [Hypothesis(machine.initial_state(), 1.0, ())] * self.size
        self._past = [self._population]  # the population after each step, for backtracking
        self._use_belief = use_belief and description.uses_sees
        self._belief_started = False
        self._legal: tuple[Term, ...] | None = None
        self._pending: list[Observation] = []  # recorded, not yet followed by the hypotheses
        self._sample_cost = 0.002  # seconds per history and squared step, drawn from the belief
        self._enumeration_cost = 0.0  # seconds to enumerate the information set, learned
        self._exact = True  # every hypothesis explains every percept

    # --- what the session asks --------------------------------------------------------------

    @property
    def fully_observed(self) -> bool:
        """True while every observation carried the whole joint move (the state is known)."""
        return all(o.joint is not None for o in self.observations)

    @property
    def state(self) -> State:
        """The most probable end state among the hypotheses (the true state when fully observed)."""
        return max(self._population, key=lambda h: h.weight).state

    @property
    def history(self) -> tuple[JointMove, ...]:
        """The history of the most probable hypothesis."""
        return max(self._population, key=lambda h: h.weight).history

    def hypotheses(self, k: int | None = None) -> Hypotheses:
        """The current hypotheses (normalised), or ``k`` of them resampled in proportion to weight."""
        population = Hypotheses(self._population)
        return population if k is None else population.resample(k, self.rng)

    def legal_moves(self) -> tuple[Term, ...]:
        """The role's moves that are legal in every possible state (none once the game is over).

        Exact from the belief when there is one; else the moves legal in every hypothesis (if
        none is, those legal in the most probable one).
        """
        if self._legal is None:
            self._legal = self._find_legal()
        return self._legal

    def _find_legal(self) -> tuple[Term, ...]:
        machine, role = self.machine, self.role
        live = [h for h in self._population if not machine.is_terminal(h.state)]
        if not live:
            return ()
        if not self.fully_observed:
            moves = self._belief_legal()
            if moves:
                return moves
        common: set[Term] | None = None
        for state in {h.state for h in live}:
            legal = set(machine.legal_moves(state, role))
            common = legal if common is None else common & legal
        if common:
            return tuple(sorted(common, key=sort_key))
        return machine.legal_moves(max(live, key=lambda h: h.weight).state, role)

    # --- observations -----------------------------------------------------------------------

    def start(self) -> None:
        """Build the belief (grounds the first part of the encoding) and warm the machine up
        (its first percepts query compiles code); cheap for most games."""
        if self._use_belief and not self._belief_started:
            self._belief_started = True
            initial = self.machine.initial_state()
            try:
                if not self.machine.is_terminal(initial):
                    joint = tuple(moves[0] for moves in self.machine.all_legal_moves(initial))
                    self.machine.percepts(initial, joint)
            except (GGPError, IndexError):
                pass
            try:
                self.belief = Belief(self.description, self.role, machine=self.machine)
            except GGPError as exc:
                self._drop_belief(f"no belief for these rules: {exc}")

    def observe(self, observation: Observation, deadline: Deadline, live: bool = True) -> None:
        """Add one step (``live``: the game goes on after it), within ``deadline`` as far as it can.

        The hypotheses are carried forward; refilled from the belief when too few distinct ones
        survive (or they were inexact). When none survives and there is no time to sample the
        belief (or no belief), they are grown again from the populations 2, 4, 8, ... steps
        back; failing that, the tracker supplies one history (inexact if it had to ignore
        percepts) and is kept up to date from then on; failing that too, the hypotheses are
        carried forward ignoring the percepts, or even the role's move (the legal moves still
        come from the belief, when there is one). Raises :class:`TrackingError` when every
        hypothesis had ended.
        """
        self.record(observation)
        self.follow(deadline, live)

    def record(self, observation: Observation) -> None:
        """The first half of :meth:`observe`: note the step and update the belief (after this,
        :meth:`early_legal_moves` knows the legal moves); :meth:`follow` must come next."""
        self.start()
        self.observations.append(observation)
        self._pending.append(observation)
        self._legal = None
        if observation.joint is None:
            self._update_belief(observation)

    def early_legal_moves(self) -> tuple[Term, ...] | None:
        """The legal moves when the belief knows them before the hypotheses are updated, else None."""
        if self.belief is None or self.fully_observed:
            return None
        if self._legal is not None:
            return self._legal or None
        moves = self._belief_legal()
        if moves is None:
            return None
        self._legal = moves
        return moves or None

    def _belief_legal(self) -> tuple[Term, ...] | None:
        """The belief's legal moves within its share of the clock; None without a belief (or
        when its query failed, which drops it)."""
        if self.belief is None:
            return None
        try:
            return self.belief.legal_everywhere(budget=LEGAL_SHARE * self.play_clock)
        except GGPError as exc:
            self._drop_belief(f"belief query failed: {exc}")
            return None

    def follow(self, deadline: Deadline, live: bool = True) -> None:
        """The second half of :meth:`observe`: move the hypotheses on over the recorded steps
        (``live`` says the game goes on after the last one)."""
        pending, self._pending = self._pending, []
        for i, observation in enumerate(pending):
            self._follow(observation, deadline.share(1 / (len(pending) - i)), live or i < len(pending) - 1)

    def _follow(self, observation: Observation, deadline: Deadline, live: bool) -> None:
        if observation.joint is not None:
            self._observe_joint(observation.joint)
            return
        if self.tracker is not None:
            self._track(observation, deadline.share(0.3), live)
        move, percepts = observation.move, observation.percepts
        alive = extend(self.machine, self._population, self.index, move, percepts, live, self.rng,
                       deadline.share(0.4))
        exact = self._exact and percepts is not None
        if self._light and self.belief is not None and not alive:
            exact = False
            alive = self._carry_on(move, live) or list(self._population)  # stale: only the belief's legal moves count
        if self.belief is not None and not self._light and (not exact or len({h.history for h in alive}) < REFILL_BELOW * self.size):
            refilled = self._refill(alive if exact else [], deadline)
            if refilled:
                alive, exact = refilled, True
        if not alive and exact:
            alive = self._backtrack(deadline.share(0.5), live)
        if not alive:
            alive, exact = self._from_tracker(deadline, live)
        if not alive:  # nothing explains the step in time
            exact = False
            alive = self._carry_on(move, live)
        if not alive:
            raise TrackingError(f"every hypothesis had ended before step {len(self.observations)}")
        self._exact = exact
        self.consistent = exact
        self._population = _regrow(alive, self.size, self.rng)
        self._past.append(self._population)

    def _carry_on(self, move: Term | None, live: bool) -> list[Hypothesis]:
        """The hypotheses carried over a step ignoring its percepts, else ignoring the move too."""
        for told in (move, None):
            alive = extend(self.machine, self._population, self.index, told, None, live, self.rng)
            if alive:
                return alive
        return []

    def _backtrack(self, deadline: Deadline, live: bool) -> list[Hypothesis]:
        """Hypotheses for the last step grown again from the populations 2, 4, 8, ... steps back
        over the observations since (the recent guesses that failed are drawn anew)."""
        steps = len(self.observations)
        back = 2
        while back <= steps and not deadline.expired:
            population = self._past[steps - back]
            for i in range(steps - back, steps):
                obs = self.observations[i]
                population = extend(self.machine, population, self.index, obs.move, obs.percepts,
                                    live or i < steps - 1, self.rng, deadline)
                if not population:
                    break
                if i < steps - 1:
                    population = _regrow(population, self.size, self.rng)
            if population:
                return population
            back *= 2
        return []

    def _track(self, observation: Observation, deadline: Deadline, live: bool) -> None:
        assert self.tracker is not None
        try:
            self.tracker.observe(observation, deadline, live)
        except GGPError as exc:
            log.info("%s: the tracker gave up: %s", self.role, exc)
            self.tracker = None
            self._tracker_failed = True

    def _observe_joint(self, joint: JointMove) -> None:
        """A step whose joint move is known: every hypothesis plays it (those it fits)."""
        alive = []
        for h in self._population:
            try:
                if all(m in legal for m, legal in zip(joint, self.machine.all_legal_moves(h.state))):
                    alive.append(Hypothesis(self.machine.next_state(h.state, joint), h.weight, h.history + (joint,)))
            except GGPError:
                continue
        if not alive:  # the hypotheses were wrong: only the told moves are certain
            self.consistent = False
            alive = [Hypothesis(self.machine.next_state(self.state, joint), 1.0, self.history + (joint,))]
        self._population = alive
        self._past.append(alive)

    def _update_belief(self, observation: Observation) -> None:
        belief = self.belief
        if belief is None:
            return
        if observation.move is None or observation.percepts is None:
            self._drop_belief("a step's move or percepts were not reported")
            return
        # CPU time of this thread: players in one process share the interpreter, and the
        # question is what the belief costs this role, not what the others took meanwhile.
        began = time.thread_time()
        try:
            belief.update(observation.move, observation.percepts)
        except GGPError as exc:
            self._drop_belief(str(exc))
            return
        spent = time.thread_time() - began
        if spent > BELIEF_SHARE * self.play_clock:
            self._drop_belief(f"a belief update took {spent:.2f} s, too long for a {self.play_clock:g} s clock")

    def _drop_belief(self, why: str) -> None:
        if self.belief is not None or self._use_belief:
            log.info("%s: %s; going on with hypotheses alone", self.role, why)
        self.belief = None
        self._use_belief = False
        self.note = why

    def _refill(self, alive: list[Hypothesis], deadline: Deadline) -> list[Hypothesis]:
        """Exact draws from the information set when it is small enough to enumerate (and that
        was cheap so far); else ``alive`` plus fresh weighted samples from the belief (each group
        weighted by its size); ``alive`` alone when there is no time to sample."""
        assert self.belief is not None
        budget = deadline.remaining() * 0.8
        if self._enumeration_cost <= 0.25 * budget:  # a small information set: exact draws
            began = time.monotonic()
            try:
                exact = self.belief.information_set()
            except GGPError as exc:
                self._drop_belief(f"enumeration failed: {exc}")
                return alive
            self._enumeration_cost = time.monotonic() - began
            if exact is not None:
                drawn = _systematic(exact.histories, self.size, self.rng)
                return [Hypothesis(self.machine.convert(p.state), 1.0, p.history) for p in drawn]
        else:
            self._enumeration_cost *= 0.8
        # The sampler checks its budget only after a step of every history: ask for as many as
        # the pace of the last refill says fit (its cost per history grows about with the
        # square of the number of steps); none when not even one fits (the estimate decays, so
        # sampling is tried again later).
        scale = len(self.observations) ** 2  # each solver call grows with the history
        k = min(self.size, int(budget / (self._sample_cost * scale)))
        if k < 1:
            self._sample_cost *= 0.95
            return alive
        began = time.monotonic()
        try:
            sample = self.belief.sample(k, self.rng, budget=budget)
        except GGPError as exc:
            self._drop_belief(f"sampling failed: {exc}")
            return alive
        spent = (time.monotonic() - began) / (len(sample) * scale)
        self._sample_cost = max(spent, 0.5 * self._sample_cost, 1e-5)
        fresh = [Hypothesis(self.machine.convert(p.state), p.weight, p.history) for p in sample]
        if not alive:
            return fresh
        # Both groups estimate the same posterior: the union, each group's total weight in
        # proportion to its number of members, estimates it too.
        scale_old = len(alive) / sum(h.weight for h in alive)
        scale_new = len(fresh) / sum(h.weight for h in fresh)
        return ([Hypothesis(h.state, h.weight * scale_old, h.history) for h in alive]
                + [Hypothesis(h.state, h.weight * scale_new, h.history) for h in fresh])

    def _from_tracker(self, deadline: Deadline, live: bool) -> tuple[list[Hypothesis], bool]:
        """One history from the depth-first tracker (built on first need) and whether it explains
        every percept; none when the tracker failed."""
        if self._tracker_failed:
            return [], False
        if self.tracker is None:
            self.tracker = HistoryTracker(self.machine, self.role, random.Random(self.rng.getrandbits(64)))
            for i, observation in enumerate(self.observations):
                last = i == len(self.observations) - 1
                self._track(observation, deadline.share(0.5 if last else 0.2), live or not last)
                if self.tracker is None:
                    break
        if self.tracker is None:
            return [], False
        history = tuple(self.tracker.joints)
        try:
            state = replay(self.machine, history)
        except GGPError:
            state = self.tracker.state
        return [Hypothesis(state, 1.0, history)], self.tracker.exact


def _systematic(histories: Sequence[Particle], k: int, rng: random.Random) -> list[Particle]:
    """``k`` of ``histories`` in proportion to their weights by systematic resampling: each is
    drawn its expected number of times rounded up or down (one uniform offset), so an exact
    information set's probabilities are kept to within 1/k rather than with the noise of k
    independent draws (Monty Hall: 64 of 96 hypotheses behind the other door, not 64 +- 5)."""
    total = sum(p.weight for p in histories)
    step = total / k
    point = rng.random() * step
    picked: list[Particle] = []
    cumulative = 0.0
    for particle in histories:
        cumulative += particle.weight
        while point < cumulative and len(picked) < k:
            picked.append(particle)
            point += step
    while len(picked) < k:  # rounding at the end of the sum
        picked.append(histories[-1])
    return picked


def _regrow(alive: list[Hypothesis], size: int, rng: random.Random) -> list[Hypothesis]:
    """``alive`` resampled to ``size`` when its weights are uneven or it has shrunk; else as is."""
    total = sum(h.weight for h in alive)
    ess = total * total / sum(h.weight * h.weight for h in alive)
    if len(alive) == size and ess >= 0.5 * size:
        return alive
    return list(Hypotheses(alive).resample(size, rng))
