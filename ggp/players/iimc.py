"""``iimc``: imperfect-information simulation, a player that values information (HyperPlay-II's idea).

A perfect-information simulation (``pimc``) lets every role act on the sampled state as if it
knew it, so knowing more is worth nothing and giving knowledge away costs nothing. Here every
role acts on *what it would know* in the simulated game:

1. A simulation starts from a particle ``H`` (a history the player considers possible) drawn
   in proportion to its weight. Every other role's information set at this point, given ``H``,
   is approximated by particles consistent with that role's own moves and percepts along
   ``H`` (its observation sequence, replayed with the machine), found by the same sequential
   Monte Carlo step the belief uses (:func:`~ggp.belief.advance`), from the initial state, and
   cached by observation sequence (a prefix tree: sequences share prefixes). The player's own
   information set is its real one (its belief's particles).
2. For each of the player's legal moves the game is played on from ``H``'s state. At each of the
   first :attr:`IimcPlayer.depth` steps every role that chooses (the player too, after its
   first move) picks the move that is best *on its own information set*: each of its legal
   moves is valued by random playouts from up to :attr:`IimcPlayer.views` states drawn from
   that set, and the best mean is played. ``random`` moves uniformly. After the joint move each
   role's set is moved on with its own move and percepts (states that cannot have produced its
   percepts drop out). After those steps a random playout ends the game.
3. A move's value is the player's mean final goal over the simulations; the best is played
   (moves are simulated in turn, in random order, and the best so far is proposed after each).
   A few flat playouts come first (at most 16 rounds and 10 % of the time, as ``pimc`` makes
   them): when the clock is too short for one simulation of every move, their means decide.

So a move that brings information (asking which wire arms the bomb) is worth what the better
informed later choice gains, and a move that gives information away (telling the opponent)
costs what the better informed opponent then takes. Every role's information set in the
simulation is a set of consistent histories, weighted as the session weights them (the
filter's importance weights); when a role's set dies out (no sampled history explains its
simulated percepts) the role falls back on the simulated true state. In games without ``sees``
every role sees everything, and every set is the true state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ggp.belief import Observation, Particle, Particles, StepModel, advance
from ggp.errors import ReasonerError
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Term
from ggp.players.base import Player, TurnView
from ggp.players.registry import register
from ggp.players.search import (
    MoveStats,
    best_move,
    goal,
    playout,
    stop_time,
    value_of_move,
)
from ggp.reasoner.machine import JointMove, State, StateMachine

#: One role's view of one step: its move and what it saw.
Seen = tuple[Term, frozenset[Term]]


class _OutOfTime(Exception):
    """The search's time is up (internal: ends the simulation in progress)."""


@register
class IimcPlayer(Player):
    """Imperfect-information simulation with nested playouts (see the module doc)."""

    name = "iimc"
    summary = "imperfect-information simulation: every simulated role decides from its own information"

    #: Simulated steps at which roles decide from their information sets (then random playout).
    depth = 3
    #: States drawn from a role's information set to value its moves.
    views = 6
    #: Particles kept per role and simulation.
    carried = 12
    #: At most this many rounds per turn (a round simulates every legal move once from one
    #: drawn particle; None: until the time is up); the time is a cap either way. A fixed
    #: number makes the player's strength independent of the machine's speed.
    iterations: int | None = None
    #: Flat playout rounds (and share of the time, at most) spent first, as a fallback.
    flat_rounds = 16
    flat_share = 0.1

    def play(self, view: TurnView) -> Term:
        """The legal move with the best mean goal over imperfect-information simulations."""
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        machine, rng = view.machine, self.rng
        me = machine.role_index(view.role)
        hidden = view.match.uses_sees and not view.fully_observed
        particles = view.particles()
        self._cache: dict[tuple[int, tuple[Seen, ...]], list[Particle]] = {}
        stats = {move: MoveStats() for move in legal}
        self._stop = stop_time(view.deadline)
        flat = self._flat(view, particles, me)
        simulations, rounds, limit = 0, 0, self.iterations
        try:
            while time.monotonic() < self._stop and (limit is None or rounds < limit):
                rounds += 1
                drawn = particles.draw(rng)
                mine = list(particles.resample(self.carried, rng)) if hidden else []
                try:
                    informed = self._informations(machine, drawn, me, mine) if hidden else {}
                except ReasonerError:
                    continue
                order = list(legal)
                rng.shuffle(order)
                for move in order:
                    try:
                        stats[move].add(self._simulate(machine, drawn.state, me, move, dict(informed), hidden))
                    except ReasonerError:
                        stats[move].add(0.0)
                    simulations += 1
                    view.propose(best_move(legal, stats, rng))
        except _OutOfTime:
            pass
        self.last_search = {"rounds": rounds, "simulations": simulations, "particles": len(particles)}
        return best_move(legal, stats if simulations >= len(legal) else flat, rng)

    def _flat(self, view: TurnView, particles: Particles, me: int) -> dict[Term, MoveStats]:
        """Flat playouts on drawn particles, as ``pimc`` makes them, for at most
        :attr:`flat_rounds` rounds and :attr:`flat_share` of the time: the choice when not even
        one imperfect-information simulation of every move completes (short clocks, large games)."""
        machine, rng, legal = view.machine, self.rng, view.legal_moves
        stats = {move: MoveStats() for move in legal}
        now = time.monotonic()
        stop = now + self.flat_share * max(0.0, self._stop - now)
        for _ in range(self.flat_rounds):
            if time.monotonic() >= stop:
                break
            state = particles.draw(rng).state
            allowed = machine.legal_moves(state, view.role)
            seed = rng.getrandbits(64)
            for move in legal:
                if move in allowed:  # common random numbers, as in pimc
                    stats[move].add(value_of_move(machine, state, me, move, random.Random(seed)))
        view.propose(best_move(legal, stats, rng))
        return stats

    def _check_time(self) -> None:
        if time.monotonic() >= self._stop:
            raise _OutOfTime()

    # --- information sets -------------------------------------------------------------------

    def _informations(self, machine: StateMachine, drawn: Particle, me: int,
                      mine: list[Particle]) -> dict[int, list[Particle]]:
        """Each choosing role's particles at the simulation's start, given history ``drawn``."""
        roles = machine.roles
        choosers = [i for i, r in enumerate(roles) if r != RANDOM and i != me]
        seen: dict[int, list[Seen]] = {i: [] for i in choosers}
        states = [machine.initial_state()]
        for joint in drawn.history:
            percepts = machine.percepts(states[-1], joint)
            for i in choosers:
                seen[i].append((joint[i], percepts.get(roles[i], frozenset())))
            states.append(machine.next_state(states[-1], joint))
        out = {me: mine}
        for i in choosers:
            out[i] = self._filtered(machine, i, tuple(seen[i]), states)
        return out

    def _filtered(self, machine: StateMachine, index: int, seen: tuple[Seen, ...],
                  states: Sequence[State]) -> list[Particle]:
        """Particles of role ``index`` after observing ``seen`` (cached, grown from the longest
        cached prefix); ``states`` are the drawn history's states, a fallback that always fits."""
        key = (index, seen)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        start = len(seen)
        while start > 0 and (index, seen[:start]) not in self._cache:
            start -= 1
        population = self._cache.get((index, seen[:start])) or [Particle(machine.initial_state(), 1.0)]
        for t in range(start, len(seen)):
            self._check_time()
            move, percepts = seen[t]
            population = _moved_on(machine, population, index, move, percepts, self.rng)
            if not population:
                population = [Particle(states[t + 1], 1.0)]
            population = list(Particles(population).resample(self.carried, self.rng))
            self._cache[(index, seen[:t + 1])] = population
        return population

    # --- simulation ---------------------------------------------------------------------------

    def _simulate(self, machine: StateMachine, state: State, me: int, first: Term,
                  informed: dict[int, list[Particle]], hidden: bool) -> float:
        """The player's goal after one imperfect-information simulation starting with ``first``."""
        roles = machine.roles
        rng = self.rng
        for step in range(self.depth):
            if machine.is_terminal(state):
                return goal(machine, state, roles[me])
            joint: list[Term] = []
            for i, moves in enumerate(machine.all_legal_moves(state)):
                if step == 0 and i == me:
                    joint.append(first)
                elif len(moves) == 1:
                    joint.append(moves[0])
                elif roles[i] == RANDOM:
                    joint.append(moves[rng.randrange(len(moves))])
                else:
                    own = informed.get(i) if hidden else None
                    joint.append(self._decide(machine, own or [Particle(state, 1.0)], i, moves))
            move: JointMove = tuple(joint)
            after = machine.next_state(state, move)
            if hidden and step < self.depth - 1 and not machine.is_terminal(after):
                percepts = machine.percepts(state, move)
                for i, population in informed.items():
                    moved = _moved_on(machine, population, i, move[i], percepts.get(roles[i], frozenset()), rng)
                    informed[i] = list(Particles(moved).resample(self.carried, rng)) if moved \
                        else [Particle(after, 1.0)]
            state = after
        return goal(machine, playout(machine, state, rng), roles[me])

    def _decide(self, machine: StateMachine, population: list[Particle], index: int,
                moves: tuple[Term, ...]) -> Term:
        """The move of role ``index`` with the best mean playout value over its information."""
        rng = self.rng
        states = Particles(population).resample(self.views, rng).states
        stats = {move: MoveStats() for move in moves}
        role = machine.roles[index]
        for state in states:
            self._check_time()
            allowed = machine.legal_moves(state, role)
            seed = rng.getrandbits(64)
            for move in moves:
                if move in allowed:  # common random numbers, as in pimc
                    stats[move].add(value_of_move(machine, state, index, move, random.Random(seed)))
        return best_move(moves, stats, rng)


def _moved_on(machine: StateMachine, population: Sequence[Particle], index: int, move: Term,
              percepts: frozenset[Term], rng: random.Random) -> list[Particle]:
    """The particles of the role at ``index`` that its move and percepts carry one step on."""
    model = StepModel(machine, machine.roles[index], Observation(move, percepts))
    return advance(population, model, rng)[0]
