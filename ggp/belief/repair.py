"""Last resorts for particles that no joint move carries over a step.

A particle dies when its state cannot explain what the role saw: in a card game, player 1
lays the seven of hearts that the particle had dealt to player 2. Resampling the survivors
loses diversity and, after a few such steps, every particle; re-deriving the deal needs the
whole history. Two cheap repairs work on the state alone, at the cost of exactness (a
repaired particle's state may not be reachable by any history consistent with everything
seen, so it is marked inconsistent):

* :func:`swap_repair` exchanges the values of keys of a positional relation
  (:mod:`ggp.belief.positions`), none known to the role, so that a thing the step's percepts
  name goes to a place they name: the seven of hearts goes to player 1's hand and one of
  player 1's unseen cards to where the seven was; when that is not enough (player 1 showed
  that it holds no heart), the rest of player 1's unseen cards are dealt anew from the hidden
  ones elsewhere, a few times; each time it checks that the step is explained from the
  exchanged state;
* :func:`forced_step` carries a particle over the step with the joint move whose percepts are
  closest to those seen, playing a move the percepts reveal even where the particle has it
  illegal, so that what the role saw happen (the public cards, the trick) happens in the
  particle too.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable

from ggp.belief.particles import Particle
from ggp.belief.positions import Positions, Relation
from ggp.belief.proposal import StepModel
from ggp.errors import ReasonerError
from ggp.gdl.terms import Function, Term
from ggp.reasoner.machine import JointMove, State

#: Single exchanges tried per dead particle.
SWAP_TRIES = 8
#: Re-deals of the named place tried per dead particle, after the single exchanges.
REDEALS = 16
#: Joint moves compared per particle by :func:`forced_step`.
FORCED_CANDIDATES = 32


def subterms(terms: Iterable[Term]) -> set[Term]:
    """Every term occurring in ``terms``, the terms themselves included."""
    out: set[Term] = set()
    stack = list(terms)
    while stack:
        term = stack.pop()
        if term in out:
            continue
        out.add(term)
        if isinstance(term, Function):
            stack.extend(term.args)
    return out


def swap_repair(particle: Particle, model: StepModel, positions: Positions, known: frozenset[Term],
                rng: random.Random, tries: int = SWAP_TRIES, redeals: int = REDEALS) -> Particle | None:
    """``particle`` carried over the step of ``model`` after moving a thing the step's percepts
    name to a place they name (see the module doc), exchanging values of keys of a positional
    relation whose fluents are not ``known`` to the role: first one exchange (the thing with
    one of the things at the place), then, up to ``redeals`` times, that exchange and every
    other thing at the place exchanged with a hidden thing elsewhere. None when nothing tried
    explains the step. The result is marked inconsistent."""
    percepts = model.observation.percepts
    if not percepts or not positions.relations:
        return None
    named = subterms(percepts)
    hidden: dict[tuple[Relation, tuple[Term, ...]], Term] = {}
    fixed: set[Term] = set()
    for fluent in particle.state.fluents:
        split = positions.split(fluent) if fluent not in known else None
        if split is None:
            fixed.add(fluent)
        else:
            hidden[(split[0], split[1])] = split[2]
    things = [k for k in hidden if any(t in named for t in k[1])]
    moves = [(thing, other) for thing in things for other, value in hidden.items()
             if other[0] == thing[0] and other != thing and value in named and value != hidden[thing]]
    rng.shuffle(moves)
    for thing, other in moves[:tries]:
        found = _explained(particle, model, fixed, _exchanged(hidden, thing, other), rng)
        if found is not None:
            return found
    for n in range(redeals if moves else 0):
        thing, other = moves[n % len(moves)]
        place = hidden[other]
        dealt = _exchanged(hidden, thing, other)
        elsewhere = [k for k, v in dealt.items() if k[0] == thing[0] and v != place and k != thing]
        for key in [k for k, v in dealt.items() if v == place and k != thing]:
            if elsewhere:
                dealt = _exchanged(dealt, key, elsewhere[rng.randrange(len(elsewhere))])
        found = _explained(particle, model, fixed, dealt, rng)
        if found is not None:
            return found
    return None


def _exchanged(hidden: dict[tuple[Relation, tuple[Term, ...]], Term], a: tuple[Relation, tuple[Term, ...]],
               b: tuple[Relation, tuple[Term, ...]]) -> dict[tuple[Relation, tuple[Term, ...]], Term]:
    """``hidden`` with the values of keys ``a`` and ``b`` exchanged."""
    out = dict(hidden)
    out[a], out[b] = hidden[b], hidden[a]
    return out


def _explained(particle: Particle, model: StepModel, fixed: set[Term],
               hidden: dict[tuple[Relation, tuple[Term, ...]], Term], rng: random.Random) -> Particle | None:
    """``particle`` with the positions ``hidden`` carried over the step, if that explains it."""
    fluents = fixed | {Positions.join((relation, key, value)) for (relation, key), value in hidden.items()}
    try:
        state = model.machine.state_from_fluents(fluents)
    except ReasonerError:
        return None
    found = model.draw(state, rng)
    if found is None:
        return None
    joint, after, factor = found
    return Particle(after, particle.weight * factor, (joint, particle.past), False)


def forced_step(particle: Particle, model: StepModel, rng: random.Random,
                candidates: int = FORCED_CANDIDATES) -> Particle | None:
    """``particle`` carried over the step by the joint move whose percepts are closest to those
    seen (moves the percepts reveal are played even where illegal); None when the particle's
    state is terminal or no joint move can be formed. The result is marked inconsistent."""
    machine, obs = model.machine, model.observation
    state = particle.state
    try:
        if machine.is_terminal(state):
            return None
        legal = machine.all_legal_moves(state)
    except ReasonerError:
        return None
    if obs.joint is not None:
        return _carry(particle, model, obs.joint)
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
        return _carry(particle, model, joints[0])
    best: tuple[int, JointMove] | None = None
    for joint in joints:
        try:
            seen = machine.role_percepts(state, joint, model.role)
        except ReasonerError:
            continue
        distance = len(seen ^ obs.percepts)
        if best is None or distance < best[0]:
            best = (distance, joint)
            if distance == 0:
                break
    return None if best is None else _carry(particle, model, best[1])


def _carry(particle: Particle, model: StepModel, joint: JointMove) -> Particle | None:
    try:
        after: State = model.machine.next_state(particle.state, joint)
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
