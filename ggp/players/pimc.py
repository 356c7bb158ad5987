"""``pimc``: perfect-information Monte Carlo over sampled states (HyperPlay's idea).

Each round draws one particle (a state the role considers possible) in proportion to its
weight and evaluates every own legal move on it by a random playout, as if that state were the
true one; a move's value is its mean over the rounds, hence the weighted average over the
states. The playouts of one round use common random numbers (the same seed for every move), so
moves are compared on the same luck. It plays the move with the best mean when the time is up (proposing the best so far
as it goes). Like every player that treats sampled states as known, it never values
information: asking costs something in every sampled state and tells nothing in any of them.
"""

from __future__ import annotations

import random
import time

from ggp.gdl.terms import Term
from ggp.players.base import Player, TurnView
from ggp.players.registry import register
from ggp.players.search import MoveStats, best_move, stop_time, value_of_move


@register
class PimcPlayer(Player):
    """Flat Monte Carlo on weighted particles, averaged with their weights."""

    name = "pimc"
    summary = "perfect-information Monte Carlo: playouts on sampled states, weighted average"
    #: At most this many rounds per turn (None: until the time is up); the time is a cap either
    #: way. A fixed number makes the player's strength independent of the machine's speed.
    iterations: int | None = None

    def play(self, view: TurnView) -> Term:
        """The own legal move with the best mean playout value over the particles."""
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        machine, rng = view.machine, self.rng
        index = machine.role_index(view.role)
        particles = view.particles()
        stats = {move: MoveStats() for move in legal}
        stop = stop_time(view.deadline)
        rounds, limit = 0, self.iterations
        while time.monotonic() < stop and (limit is None or rounds < limit):
            state = particles.draw(rng).state
            allowed = machine.legal_moves(state, view.role)
            seed = rng.getrandbits(64)
            for move in legal:
                if move in allowed:  # common random numbers: every move's playout draws alike
                    stats[move].add(value_of_move(machine, state, index, move, random.Random(seed)))
            rounds += 1
            if rounds < 16 or rounds % 16 == 0:
                view.propose(best_move(legal, stats, rng))
        self.last_search = {"rounds": rounds, "particles": len(particles)}
        return best_move(legal, stats, rng)
