"""Last resorts for particles that no joint move carries over a step.

A particle dies when its state cannot explain what the role saw: in a card game, player 1
lays the seven of hearts that the particle had dealt to player 2. Resampling the survivors
loses diversity and, after a few such steps, every particle; re-deriving the deal needs the
whole history. Two cheap repairs work on the state alone, at the cost of exactness (a
repaired particle's state may not be reachable by any history consistent with everything
seen, so it is marked inconsistent):

* :func:`swap_repair` exchanges hidden things (the keys of a positional relation,
  :mod:`ggp.belief.positions`, whose place the role does not know), renaming each as the other
  in every fluent, so that a thing the step's percepts name goes to a place they name: the
  seven of hearts goes to player 1's hand and one of player 1's unseen cards to where the seven
  was; when that is not enough (player 1 showed that it holds no heart), the rest of player
  1's unseen cards are dealt anew from the hidden ones elsewhere, a few times; each time it
  checks that the step is explained from the exchanged state;
* :func:`forced_step` carries a particle over the step with the joint move whose percepts are
  closest to those seen, playing a move the percepts reveal even where the particle has it
  illegal, so that what the role saw happen (the public cards, the trick) happens in the
  particle too.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from ggp.belief.particles import Particle
from ggp.belief.positions import Positions, Relation
from ggp.belief.proposal import StepModel
from ggp.errors import ReasonerError
from ggp.gdl.terms import Function, Term, sort_key, subterms
from ggp.reasoner.machine import JointMove, State

#: Single exchanges tried per dead particle.
SWAP_TRIES = 8
#: Re-deals of the named place tried per dead particle, after the single exchanges.
REDEALS = 16
#: Joint moves compared per particle and state by :func:`forced_step`.
FORCED_CANDIDATES = 32
#: Arrangements of a particle's state tried by :func:`forced_step`, besides the state itself.
FORCED_ARRANGEMENTS = 3


def swap_repair(particle: Particle, model: StepModel, positions: Positions, known: frozenset[Term],
                rng: random.Random, tries: int = SWAP_TRIES, redeals: int = REDEALS,
                most: int | None = None) -> tuple[Particle | None, int]:
    """``particle`` carried over the step of ``model`` from the first of its (at most ``most``)
    :func:`arrangements` that explains the step, None when none tried does; and the number of
    arrangements tried. The result is marked inconsistent."""
    tried = 0
    for fluents in arrangements(particle, model, positions, known, rng, tries, redeals):
        if (most is not None and tried >= most) or (model.deadline is not None and model.deadline.expired):
            break
        tried += 1
        try:
            state = model.machine.state_from_fluents(fluents)
        except ReasonerError:
            continue
        found = model.guess(state, rng)
        if found is not None:
            joint, after, factor = found
            return Particle(after, particle.weight * factor, (joint, particle.past), False), tried
    return None, tried


class Arrangement:
    """Hidden things of a state exchanged among themselves.

    The things are the keys of the positional relation with the most hidden keys (the cards of
    ``(at CARD PLACE)``) whose place the role does not know and that no fluent the role knows
    mentions. Exchanging two things renames each as the other in every fluent (``at``, the
    card on top of a pile, anything that names it), so the state stays what it was but for
    which card is where.
    """

    def __init__(self, fluents: frozenset[Term], positions: Positions, known: frozenset[Term]):
        self.original = fluents
        placed: dict[Relation, dict[Term, Term]] = {}
        for fluent in fluents:
            split = positions.split(fluent)
            if split is not None and fluent not in known and len(split[1]) == 1:
                placed.setdefault(split[0], {})[split[1][0]] = split[2]
        seen = subterms(known)
        main = max(placed, key=lambda r: (len(placed[r]), r), default=None)
        self.place: dict[Term, Term] = {t: v for t, v in placed.get(main, {}).items() if t not in seen} \
            if main is not None else {}
        self.things = sorted(self.place, key=sort_key)  # an order that does not depend on hashing
        self._mentions: dict[Term, list[Term]] = {}  # each thing: the fluents that name it
        for fluent in fluents:
            for term in subterms([fluent]):
                if term in self.place:
                    self._mentions.setdefault(term, []).append(fluent)
        self._new: dict[Term, Term] = {}  # original thing -> the thing now in its place
        self._old: dict[Term, Term] = {}  # the inverse
        self._where = dict(self.place)  # each thing: where it is now

    def copy(self) -> Arrangement:
        """An independent copy."""
        other = Arrangement.__new__(Arrangement)
        other.original, other.place, other.things = self.original, self.place, self.things
        other._mentions = self._mentions
        other._new, other._old, other._where = dict(self._new), dict(self._old), dict(self._where)
        return other

    def at(self, thing: Term) -> Term:
        """Where ``thing`` is now."""
        return self._where[thing]

    def exchange(self, x: Term, y: Term) -> None:
        """``x`` takes ``y``'s place and ``y`` takes ``x``'s."""
        ux, uy = self._old.get(x, x), self._old.get(y, y)
        self._new[ux], self._new[uy] = y, x
        self._old[y], self._old[x] = ux, uy
        self._where[x], self._where[y] = self._where[y], self._where[x]

    def redeal(self, place: Term, keep: set[Term], rng: random.Random) -> None:
        """Every thing at ``place`` but those in ``keep`` exchanged with a thing elsewhere."""
        where = self._where
        here = [t for t in self.things if where[t] == place and t not in keep]
        elsewhere = [t for t in self.things if where[t] != place and t not in keep]
        for thing in here:
            if elsewhere:
                n = rng.randrange(len(elsewhere))
                other = elsewhere[n]
                self.exchange(thing, other)
                elsewhere[n] = thing  # now elsewhere, where ``other`` was

    def fluents(self) -> frozenset[Term]:
        """The state's fluents with the things renamed."""
        moved = {u: t for u, t in self._new.items() if u != t}
        if not moved:
            return self.original
        touched = {f for thing in moved for f in self._mentions.get(thing, ())}
        return (self.original - touched) | {_renamed(f, moved) for f in touched}


def _renamed(term: Term, names: dict[Term, Term]) -> Term:
    if term in names:
        return names[term]
    if isinstance(term, Function):
        args = tuple(_renamed(a, names) for a in term.args)
        if args != term.args:
            return Function(term.name, args)
    return term


def arrangements(particle: Particle, model: StepModel, positions: Positions, known: frozenset[Term],
                 rng: random.Random, tries: int = SWAP_TRIES, redeals: int = REDEALS) -> Iterator[frozenset[Term]]:
    """The fluents of ``particle``'s state with hidden things exchanged (an
    :class:`Arrangement`), most likely first:

    1. up to ``tries`` single exchanges: a thing the percepts name with a thing at a place named
       in the same percept (the seven of hearts and one of player 1's cards);
    2. up to ``redeals`` times, every named thing moved at once to a place named with it, each
       exchanged with a thing there; every other time, the rest of those places dealt anew from
       the hidden things elsewhere (player 1 showed it holds no heart);
    3. when the percepts name no thing, up to ``redeals`` times, the hidden things at a place
       whose terms the percepts mention (a player's hand, when the player is named) dealt anew;
    4. up to ``redeals`` times, the hidden things at each hidden place in turn dealt anew (what
       the step shows may hang on a place it does not mention: asked for kings, player 1 has
       none).
    """
    percepts = model.observation.percepts
    if not percepts or not positions.relations:
        return
    start = Arrangement(particle.state.fluents, positions, known)
    if len(start.things) < 2:
        return
    places = set(start.place.values())
    beside: dict[Term, list[Term]] = {}  # each named thing: the places named in the same percepts
    for percept in sorted(percepts, key=str):
        inside = subterms([percept])
        for thing in start.things:
            if thing in inside:
                near = beside.setdefault(thing, [])
                near.extend(v for v in sorted(inside & places, key=str) if v != start.at(thing) and v not in near)
    singles = [(thing, other) for thing, near in beside.items() for other in start.things
               if other != thing and start.at(other) in near]
    rng.shuffle(singles)
    for thing, other in singles[:tries]:
        arrangement = start.copy()
        arrangement.exchange(thing, other)
        yield arrangement.fluents()
    if beside:
        for n in range(redeals):
            arrangement = start.copy()
            for thing, near in beside.items():
                if not near:
                    continue
                place = near[rng.randrange(len(near))]
                there = [t for t in start.things if arrangement.at(t) == place and t not in beside]
                if there:
                    arrangement.exchange(thing, there[rng.randrange(len(there))])
                    if n % 2:
                        arrangement.redeal(place, set(beside), rng)
            yield arrangement.fluents()
    else:
        named = subterms(percepts)
        mentioned = sorted({v for v in places if v not in named and subterms([v]) & named}, key=str)
        for n in range(redeals if mentioned else 0):
            arrangement = start.copy()
            arrangement.redeal(mentioned[n % len(mentioned)], set(), rng)
            yield arrangement.fluents()
    everywhere = sorted(places, key=str)
    for n in range(redeals if len(everywhere) > 1 else 0):
        arrangement = start.copy()
        arrangement.redeal(everywhere[n % len(everywhere)], set(beside), rng)
        yield arrangement.fluents()


def forced_step(particle: Particle, model: StepModel, rng: random.Random, positions: Positions | None = None,
                known: frozenset[Term] = frozenset(), candidates: int = FORCED_CANDIDATES) -> Particle | None:
    """``particle`` carried over the step by the joint move whose percepts are closest to those
    seen (moves the percepts reveal are played even where illegal), from its state or, with
    ``positions``, from one of a few of its :func:`arrangements` if that comes closer; None when
    the particle's state is terminal or no joint move can be formed. The result is marked
    inconsistent."""
    best: tuple[int, State, JointMove] | None = None
    states = [particle.state]
    if positions is not None:
        for fluents in itertools.islice(arrangements(particle, model, positions, known, rng, 0, 2 * FORCED_ARRANGEMENTS), FORCED_ARRANGEMENTS):
            try:
                states.append(model.machine.state_from_fluents(fluents))
            except ReasonerError:
                continue
    for n, state in enumerate(states):
        if n and model.deadline is not None and model.deadline.expired:
            break
        found = _closest(state, model, rng, candidates)
        if found is not None and (best is None or found[0] < best[0]):
            best = (found[0], state, found[1])
            if best[0] == 0:
                break
    return None if best is None else _carry(particle, best[1], model, best[2])


def _closest(state: State, model: StepModel, rng: random.Random, candidates: int) -> tuple[int, JointMove] | None:
    """The joint move from ``state`` whose percepts differ least from those seen, and by how many."""
    machine, obs = model.machine, model.observation
    try:
        if machine.is_terminal(state):
            return None
        legal = machine.all_legal_moves(state)
    except ReasonerError:
        return None
    if obs.joint is not None:
        return 0, obs.joint
    choices: list[tuple[Term, ...]] = []
    for r, moves in enumerate(legal):
        if r == model.index and obs.move is not None:
            choices.append((obs.move,))
        elif model.revealed(r) is not None:
            choices.append(tuple(sorted(model.revealed(r) or (), key=str)) or moves)
        else:
            choices.append(moves)
    if any(not c for c in choices):
        return None
    joints = _some_joints(choices, candidates, rng)
    if obs.percepts is None:
        return 0, joints[0]
    best: tuple[int, JointMove] | None = None
    for n, joint in enumerate(joints):
        if n and model.deadline is not None and model.deadline.expired:
            break
        try:
            seen = machine.role_percepts(state, joint, model.role)
        except ReasonerError:
            continue
        distance = len(seen ^ obs.percepts)
        if best is None or distance < best[0]:
            best = (distance, joint)
            if distance == 0:
                break
    return best


def _carry(particle: Particle, state: State, model: StepModel, joint: JointMove) -> Particle | None:
    try:
        after: State = model.machine.next_state(state, joint)
    except ReasonerError:
        return None
    return Particle(after, particle.weight, (joint, particle.past), False)


def _some_joints(choices: list[tuple[Term, ...]], limit: int, rng: random.Random) -> list[JointMove]:
    """Every joint move of ``choices`` when there are at most ``limit``, else ``limit`` drawn."""
    total = 1
    for c in choices:
        total *= len(c)
    if total <= limit:
        return list(itertools.product(*choices))
    return [tuple(c[rng.randrange(len(c))] for c in choices) for _ in range(limit)]
