"""The joint moves that explain one observed step from one state, and how to draw one.

A joint move *explains* a role's observation from a state when the state is not terminal,
every move in it is legal, the role's own move is the one it reported, the role sees exactly
the reported percepts, and the next state is terminal exactly when the match ended there.
The unobserved roles' moves have a prior (:class:`~ggp.belief.prior.Prior`: ``random``
uniform, the others uniform or modelled); the *mass* ``M`` of a state is the prior
probability of the explaining joint moves.

The moves a percept reveals (:meth:`~ggp.reasoner.machine.StateMachine.percept_moves`) prune
the candidates before any percept is computed: a card seen played face up pins the player's
move. Then a :class:`StepModel` either enumerates the candidates (few of them: the exact set
of explaining moves, ``M`` exact) or draws them from the prior until two explain the step,
after ``N`` draws (``1/(N-1)`` is an unbiased estimate of ``M``, the first explaining move a
draw from the prior restricted to the explaining moves): a deal from a large deck that the
role does not see costs two checks. Everything is cached per state, so particles that share a
state share the work.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ggp.belief.observation import Observation
from ggp.belief.positions import PlaceWatch
from ggp.belief.prior import Prior
from ggp.deadline import Deadline
from ggp.errors import ReasonerError
from ggp.gdl.terms import Constant, Term, subterms
from ggp.reasoner.machine import JointMove, State, StateMachine


@dataclass(frozen=True)
class ProposalSettings:
    """How a step's explaining moves are found (none of it changes what is estimated)."""

    #: Candidate joint moves enumerated per state; above this, drawn from the prior.
    enumerate_up_to: int = 8
    #: Draws after which, with fewer than two explaining moves found, every candidate is
    #: checked instead (when there are at most ``enumerate_after_patience``).
    patience: int = 8
    enumerate_after_patience: int = 256
    #: Draws after which a state with fewer than two explaining moves is given up.
    max_draws: int = 400


#: The settings used unless others are given.
DEFAULT_PROPOSAL = ProposalSettings()

#: Transitions per step told to the place watch.
WATCHED = 4
#: Joint moves remembered per step as having explained it (tried first by :meth:`StepModel.guess`).
HINTS = 8

#: An explaining joint move, its prior probability and the state after it.
Explanation = tuple[JointMove, float, State]


@dataclass
class _Options:
    """One state's candidates: per role, the moves left after pruning and their prior."""

    moves: list[tuple[Term, ...]]
    probabilities: list[tuple[float, ...]]
    cumulative: list[list[float]]
    mass: float
    size: int
    seen: dict[JointMove, bool] = field(default_factory=dict)
    after: dict[JointMove, State | None] = field(default_factory=dict)
    feasible: list[Explanation] | None = None


class StepModel:
    """The explanations of one observation by ``role`` (see the module doc).

    ``live`` is True when the match went on after the step (the next state is not terminal),
    False when it ended there, None when unknown. Past ``deadline``, drawing gives up (the
    state counts as explaining nothing). A ``watch`` is told of the first few transitions that
    explain the step (what could have happened out of the role's sight).
    """

    def __init__(self, machine: StateMachine, role: Constant, observation: Observation,
                 live: bool | None = True, prior: Prior | None = None,
                 settings: ProposalSettings = DEFAULT_PROPOSAL, deadline: Deadline | None = None,
                 watch: PlaceWatch | None = None):
        self.machine = machine
        self.role = role
        self.index = machine.role_index(role)
        self.observation = observation
        self.live = live
        self.prior = prior or Prior()
        self.settings = settings
        self.deadline = deadline
        self.watch = watch if observation.percepts is not None and observation.joint is None else None
        self._named = subterms(observation.percepts or ()) if self.watch is not None else set()
        self._noted = 0
        self._hints: list[JointMove] = []  # joint moves that explained the step from some state
        self.evaluations = 0  # percept and transition checks made (the cost of the step)
        self._options: dict[State, _Options | None] = {}
        self._allowed = self._revealed(observation)

    def _revealed(self, observation: Observation) -> list[frozenset[Term] | None]:
        """Per role, the moves the reported percepts allow (None: any)."""
        allowed: list[frozenset[Term] | None] = [None] * len(self.machine.roles)
        if observation.percepts:
            reveals = self.machine.percept_moves(self.role)
            for percept in observation.percepts:
                for r, moves in enumerate(reveals.get(percept, ())):
                    if moves is not None:
                        current = allowed[r]
                        allowed[r] = moves if current is None else current & moves
        return allowed

    def revealed(self, role_index: int) -> frozenset[Term] | None:
        """The moves of the role at ``role_index`` that the reported percepts allow (None: any)."""
        return self._allowed[role_index]

    # --- candidates -------------------------------------------------------------------------

    def options(self, state: State) -> _Options | None:
        """The candidates from ``state`` (None when no joint move can explain the step)."""
        if state in self._options:
            return self._options[state]
        found = self._options[state] = self._build(state)
        return found

    def _build(self, state: State) -> _Options | None:
        machine, obs = self.machine, self.observation
        try:
            if machine.is_terminal(state):
                return None
            legal = machine.all_legal_moves(state)
        except ReasonerError:
            return None
        if obs.joint is not None:
            if len(obs.joint) != len(legal) or any(m not in ms for m, ms in zip(obs.joint, legal)):
                return None
            return _Options([(m,) for m in obs.joint], [(1.0,)] * len(legal), [[1.0]] * len(legal), 1.0, 1)
        moves: list[tuple[Term, ...]] = []
        probabilities: list[tuple[float, ...]] = []
        mass = 1.0
        for r, (role, role_legal) in enumerate(zip(machine.roles, legal)):
            if not role_legal:
                return None
            if r == self.index and obs.move is not None:
                if obs.move not in role_legal:
                    return None
                moves.append((obs.move,))
                probabilities.append((1.0,))
                continue
            prior = self.prior.probabilities(role, role_legal, state)
            allowed = self._allowed[r]
            kept = tuple(m for m in role_legal if allowed is None or m in allowed)
            if not kept:
                return None
            p = tuple(prior[m] for m in kept)
            kept_mass = sum(p)
            if kept_mass <= 0:
                return None
            mass *= kept_mass
            moves.append(kept)
            probabilities.append(tuple(x / kept_mass for x in p))
        size = math.prod(len(m) for m in moves)
        return _Options(moves, probabilities, [list(itertools.accumulate(p)) for p in probabilities], mass, size)

    # --- checking one joint move ------------------------------------------------------------

    def check(self, state: State, options: _Options, joint: JointMove) -> State | None:
        """The state after ``joint`` if it explains the step from ``state``, else None (cached)."""
        return self.after(state, options, joint) if self.seen(state, options, joint) else None

    def seen(self, state: State, options: _Options, joint: JointMove) -> bool:
        """Whether the role sees exactly the reported percepts after ``joint`` (cached)."""
        ok = options.seen.get(joint)
        if ok is None:
            obs = self.observation
            if obs.percepts is None or obs.joint is not None:
                ok = True
            else:
                self.evaluations += 1
                try:
                    ok = self.machine.role_percepts_match(state, [joint], self.role, obs.percepts)[0]
                except ReasonerError:
                    ok = False
            options.seen[joint] = ok
        return ok

    def seen_all(self, state: State, options: _Options, joints: list[JointMove]) -> list[bool]:
        """:meth:`seen` for each of ``joints``, those not checked yet asked of the machine in
        one batch (:meth:`~ggp.reasoner.machine.StateMachine.role_percepts_match`)."""
        obs = self.observation
        if obs.percepts is None or obs.joint is not None:
            return [True] * len(joints)
        unknown = list(dict.fromkeys(j for j in joints if j not in options.seen))
        if unknown:
            try:
                found = self.machine.role_percepts_match(state, unknown, self.role, obs.percepts)
            except ReasonerError:  # some joint move fails: check them one by one
                found = [self.seen(state, options, joint) for joint in unknown]
            else:
                self.evaluations += len(unknown)
            options.seen.update(zip(unknown, found))
        return [options.seen[joint] for joint in joints]

    def after(self, state: State, options: _Options, joint: JointMove) -> State | None:
        """The state after ``joint``, unless it is terminal when the match went on (or not
        terminal when it ended there); cached."""
        if joint in options.after:
            return options.after[joint]
        try:
            result: State | None = self.machine.next_state(state, joint)
            if result is not None and self.live is not None and self.machine.is_terminal(result) == self.live:
                result = None
        except ReasonerError:
            result = None
        options.after[joint] = result
        if result is not None and self.watch is not None and self._noted < WATCHED:
            self._noted += 1
            self.watch.note(state.fluents, result.fluents, self._named)
        return result

    # --- all explanations, or one drawn -----------------------------------------------------

    def explanations(self, state: State) -> list[Explanation]:
        """Every explaining joint move from ``state`` with its prior probability and next state
        (every candidate is checked: :meth:`candidates` tells how many there are)."""
        options = self.options(state)
        if options is None:
            return []
        if options.feasible is None:
            found: list[Explanation] = []
            combinations = self._combinations(options)
            shown = self.seen_all(state, options, [joint for joint, _ in combinations])
            for (joint, p), ok in zip(combinations, shown):
                after = self.after(state, options, joint) if ok else None
                if after is not None:
                    found.append((joint, p, after))
            options.feasible = found
        return options.feasible

    def _combinations(self, options: _Options) -> list[tuple[JointMove, float]]:
        """Every candidate joint move with its prior probability."""
        return [(tuple(move for move, _ in combo), options.mass * math.prod(p for _, p in combo))
                for combo in itertools.product(*(zip(m, p) for m, p in zip(options.moves, options.probabilities)))]

    def candidates(self, state: State) -> int:
        """The number of candidate joint moves from ``state`` (0 when none can explain the step)."""
        options = self.options(state)
        return 0 if options is None else options.size

    def guess(self, state: State, rng: random.Random) -> tuple[JointMove, State, float] | None:
        """A joint move that explains the step from ``state``: first one of those that explained
        it from other states (what the percepts showed happen usually happened the same way),
        then :meth:`draw`. Cheaper, but the weight factor is only the move's prior when a
        hint explains: for repaired particles, whose weights are approximate anyway."""
        options = self.options(state)
        if options is None:
            return None
        for joint in self._hints:
            if all(m in moves for m, moves in zip(joint, options.moves)) and self.seen(state, options, joint):
                after = self.after(state, options, joint)
                if after is not None:
                    prior = options.mass * math.prod(p[moves.index(m)] for m, moves, p
                                                     in zip(joint, options.moves, options.probabilities))
                    return joint, after, prior
        return self.draw(state, rng)

    def draw(self, state: State, rng: random.Random) -> tuple[JointMove, State, float] | None:
        """One joint move drawn in proportion to its prior among those that show the role its
        percepts, the state after it, and the weight factor; None when it does not explain the
        step after all (it ends the match when the match went on, or the reverse), when nothing
        explains it, or when ``max_draws`` draws found fewer than two moves showing the percepts.

        The factor is the prior mass ``M`` of the moves showing the percepts, or an unbiased
        estimate of it: only the move drawn is played, so its weight is an unbiased estimate of
        the prior mass of the explaining moves (the locally optimal proposal's weight).
        """
        options = self.options(state)
        if options is None:
            return None
        if options.feasible is not None:
            return _pick(options.feasible, rng) if options.feasible else None
        if options.size <= self.settings.enumerate_up_to:
            return self._enumerated(state, options, rng)
        hits: list[JointMove] = []
        draws = 0
        patience = self.settings.patience
        while len(hits) < 2:
            if draws >= self.settings.max_draws or (draws % 8 == 7 and self.deadline is not None
                                                    and self.deadline.expired):
                return None
            if draws == patience and options.size <= self.settings.enumerate_after_patience:
                # Rare explanations: check every candidate instead. E[1/(N-1) | N > C] for
                # N ~ NegativeBinomial(2, M) is M / (1 + (C-1) M): the weight stays unbiased.
                return self._enumerated(state, options, rng, lambda mass: mass / (1 + (patience - 1) * mass))
            draws += 1
            joint = _draw_joint(options, rng)
            if self.seen(state, options, joint):
                hits.append(joint)
        after = self.after(state, options, hits[0])
        if after is None:
            return None
        self._hint(hits[0])
        return hits[0], after, options.mass / (draws - 1)

    def _hint(self, joint: JointMove) -> None:
        if joint not in self._hints and len(self._hints) < HINTS:
            self._hints.append(joint)

    def _enumerated(self, state: State, options: _Options, rng: random.Random,
                    factor: Callable[[float], float] = lambda mass: mass) -> tuple[JointMove, State, float] | None:
        """A move drawn in proportion to its prior among all candidates that show the role its
        percepts (every one checked), the state after it and ``factor`` of their prior mass."""
        combinations = self._combinations(options)
        flags = self.seen_all(state, options, [joint for joint, _ in combinations])
        shown = [(joint, p) for (joint, p), ok in zip(combinations, flags) if ok]
        total = sum(p for _, p in shown)
        if not shown or total <= 0:
            return None
        pick = rng.random() * total
        joint = shown[-1][0]
        for candidate, p in shown:
            pick -= p
            if pick < 0:
                joint = candidate
                break
        after = self.after(state, options, joint)
        if after is None:
            return None
        self._hint(joint)
        return joint, after, factor(total)


def _pick(found: list[Explanation], rng: random.Random) -> tuple[JointMove, State, float]:
    """One of ``found`` in proportion to its prior, the state after it, and their total prior."""
    total = sum(p for _, p, _ in found)
    pick = rng.random() * total
    for joint, p, after in found:
        pick -= p
        if pick < 0:
            return joint, after, total
    joint, _, after = found[-1]
    return joint, after, total


def _draw_joint(options: _Options, rng: random.Random) -> JointMove:
    """A joint move drawn from the (pruned, renormalised) prior of ``options``."""
    moves: list[Term] = []
    for candidates, cumulative in zip(options.moves, options.cumulative):
        if len(candidates) == 1:
            moves.append(candidates[0])
        else:
            pick = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
            moves.append(candidates[min(pick, len(candidates) - 1)])
    return tuple(moves)
