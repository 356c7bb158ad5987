"""Hypotheses about the true state, carried forward by a player's own state machine.

A :class:`Hypothesis` is one history of the game (joint moves in role order, ``random``
included) that fits what a role was told, with its end state in the player's machine and a
weight. :class:`Hypotheses` is a weighted population of them (weights summing to one), the
currency of the players: ``view.hypotheses(k)`` hands them out, searches draw determinizations
from them.

:func:`extend` moves a population forward by one observed step (sequential Monte Carlo with the
locally optimal proposal): for each hypothesis, the other roles' joint moves that explain the
step (the role's own move legal, exactly its percepts seen, and the game not over when it
goes on) are found with the machine; one is drawn in proportion to its prior probability
(``random`` and the other roles uniform) and the hypothesis's weight is multiplied by the
prior mass ``M`` of the explaining moves. Every surviving hypothesis is a consistent history,
and the weights keep the population an importance sample of the posterior, as in
:mod:`ggp.belief.sampling` (whose solver also guarantees no dead ends; here a hypothesis that
no move extends dies). When the joint moves are too many to enumerate, ``M`` is estimated
without bias by drawing from the prior until two explaining moves come up (``1/(N-1)`` after
``N`` draws); after :data:`MAX_DRAWS` draws with fewer the hypothesis dies.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ggp.errors import ReasonerError
from ggp.gdl.terms import Term
from ggp.players.deadline import Deadline
from ggp.reasoner.machine import JointMove, State, StateMachine

#: Joint moves of the other roles enumerated at most per hypothesis and step.
ENUMERATE_UP_TO = 512
#: Draws from the prior after which a hypothesis with fewer than two explaining moves dies.
MAX_DRAWS = 400


@dataclass(frozen=True)
class Hypothesis:
    """A history consistent with a role's observations, its end state (a state of the
    player's machine) and its weight."""

    state: State
    weight: float
    history: tuple[JointMove, ...]


class Hypotheses(Sequence[Hypothesis]):
    """Weighted hypotheses whose weights sum to one (see the module doc)."""

    def __init__(self, hypotheses: Sequence[Hypothesis]):
        total = sum(h.weight for h in hypotheses)
        if not hypotheses or not total > 0:
            raise ValueError("hypotheses need at least one member with a positive weight")
        self._items = tuple(Hypothesis(h.state, h.weight / total, h.history) for h in hypotheses)
        self._cumulative = list(itertools.accumulate(h.weight for h in self._items))

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> Hypothesis:  # type: ignore[override]
        return self._items[index]

    def __iter__(self) -> Iterator[Hypothesis]:
        return iter(self._items)

    def __repr__(self) -> str:
        return (f"<Hypotheses: {len(self)} histories, {len(self.distribution())} states, "
                f"effective size {self.effective_size():.1f}>")

    @property
    def states(self) -> tuple[State, ...]:
        """The end states, in order."""
        return tuple(h.state for h in self._items)

    @property
    def weights(self) -> tuple[float, ...]:
        """The normalised weights, in order."""
        return tuple(h.weight for h in self._items)

    def draw(self, rng: random.Random) -> Hypothesis:
        """One hypothesis drawn in proportion to the weights."""
        i = bisect.bisect_left(self._cumulative, rng.random() * self._cumulative[-1])
        return self._items[min(i, len(self._items) - 1)]

    def distribution(self) -> dict[State, float]:
        """The total weight of each distinct end state."""
        out: dict[State, float] = {}
        for h in self._items:
            out[h.state] = out.get(h.state, 0.0) + h.weight
        return out

    def expectation(self, value: Callable[[State], float]) -> float:
        """The weighted mean of ``value`` over the end states."""
        return sum(h.weight * value(h.state) for h in self._items)

    def effective_size(self) -> float:
        """Kish's effective sample size ``1 / sum(w^2)``."""
        return 1.0 / sum(h.weight * h.weight for h in self._items)

    def resample(self, k: int, rng: random.Random) -> Hypotheses:
        """``k`` hypotheses drawn systematically in proportion to the weights, equally weighted."""
        step = self._cumulative[-1] / k
        start = rng.random() * step
        last = len(self._items) - 1
        picks = [min(bisect.bisect_left(self._cumulative, start + i * step), last) for i in range(k)]
        return Hypotheses([Hypothesis(self._items[i].state, 1.0, self._items[i].history) for i in picks])


def _explaining(machine: StateMachine, state: State, index: int, move: Term | None,
                percepts: frozenset[Term] | None, live: bool,
                rng: random.Random) -> tuple[JointMove, State, float] | None:
    """One joint move from ``state`` that explains the observation, the state after it, and the
    weight factor (the prior mass of the explaining moves, or an unbiased estimate of it)."""
    if machine.is_terminal(state):
        return None
    legal = list(machine.all_legal_moves(state))
    own = legal[index]
    if move is not None:
        if move not in own:
            return None
        legal[index] = (move,)
    role = machine.roles[index]

    def explains(joint: JointMove) -> State | None:
        if percepts is not None and machine.percepts(state, joint).get(role, frozenset()) != percepts:
            return None
        after = machine.next_state(state, joint)
        return None if live and machine.is_terminal(after) else after

    size = 1
    for i, moves in enumerate(legal):
        if i != index:
            size *= len(moves)
    try:
        if size <= ENUMERATE_UP_TO:
            found = [(joint, after) for joint in itertools.product(*legal)
                     if (after := explains(joint)) is not None]
            if not found:
                return None
            joint, after = found[rng.randrange(len(found))]
            return joint, after, len(found) / size
        hits: list[tuple[JointMove, State]] = []
        draws = 0
        while len(hits) < 2:
            if draws >= MAX_DRAWS:
                return None
            draws += 1
            joint = tuple(m[rng.randrange(len(m))] for m in legal)
            after = explains(joint)
            if after is not None:
                hits.append((joint, after))
        return hits[0][0], hits[0][1], 1.0 / (draws - 1)
    except ReasonerError:
        return None


def extend(machine: StateMachine, population: Sequence[Hypothesis], role_index: int,
           move: Term | None, percepts: frozenset[Term] | None, live: bool,
           rng: random.Random, deadline: Deadline | None = None) -> list[Hypothesis]:
    """The hypotheses of ``population`` that one more step extends, extended (unnormalised).

    ``move`` and ``percepts`` are what the role (at ``role_index``) made and saw (None: not
    told); ``live`` says the game goes on. Hypotheses are taken in random order; when
    ``deadline`` passes, the rest are dropped (a random subset survives, so the estimate stays
    unbiased; it may be empty).
    """
    order = list(range(len(population)))
    rng.shuffle(order)
    out: list[Hypothesis] = []
    for i in order:
        if deadline is not None and deadline.expired:
            break
        h = population[i]
        found = _explaining(machine, h.state, role_index, move, percepts, live, rng)
        if found is not None:
            joint, after, factor = found
            if factor > 0:
                out.append(Hypothesis(after, h.weight * factor, h.history + (joint,)))
    return out


def replay(machine: StateMachine, history: Sequence[JointMove]) -> State:
    """The machine's state after ``history`` from the initial state."""
    state = machine.initial_state()
    for joint in history:
        state = machine.next_state(state, joint)
    return state
