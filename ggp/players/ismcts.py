"""``ismcts``: single-observer information-set Monte Carlo tree search.

After Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search". One tree
per turn; its nodes are the player's information sets: a child is reached by the player's own
move and what it then sees (its percepts in a GDL-II game, the whole joint move in a fully
observed one). Each iteration draws a *determinization*, a particle (a state the player
considers possible) in proportion to its weight, and descends the tree with it. At a node every role that chooses
picks its move by UCB1 over the moves legal in this determinization, with *availability
counts*: a move's exploration term uses the number of visits in which it was available, not
the node's visit count (moves legal only in some states are not starved). The other roles'
statistics live in the player's nodes too (they choose without seeing the determinization, as
the observer does; simultaneous moves are decoupled), ``random`` moves uniformly. The first
new node ends the descent; a random playout gives every role its goal, which is backed up the
path (as a share of 100). At the root the player chooses among the moves legal in every state
it considers possible, and plays the one visited most.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable

from ggp.errors import ReasonerError
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Term
from ggp.players.base import Player, TurnView
from ggp.players.registry import register
from ggp.players.search import goals, playout, stop_time
from ggp.reasoner.machine import JointMove, State, StateMachine

#: The UCB1 exploration constant for values in [0, 1].
EXPLORATION = 0.7


class _Edge:
    """Statistics of one move at one node: visits, total value, availability."""

    __slots__ = ("available", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0


class _Node:
    """One information set of the observer: per-role move statistics and children."""

    __slots__ = ("children", "edges")

    def __init__(self, roles: int):
        self.edges: list[dict[Term, _Edge]] = [{} for _ in range(roles)]
        self.children: dict[Hashable, _Node] = {}


def _select(edges: dict[Term, _Edge], moves: tuple[Term, ...], rng: random.Random) -> Term:
    """UCB1 with availability counts over ``moves`` (untried moves first, at random)."""
    untried = []
    for move in moves:
        edge = edges.get(move)
        if edge is None:
            edge = edges[move] = _Edge()
        edge.available += 1
        if edge.visits == 0:
            untried.append(move)
    if untried:
        return untried[rng.randrange(len(untried))]
    best, best_score = moves[0], -math.inf
    for move in moves:
        edge = edges[move]
        score = edge.total / edge.visits + EXPLORATION * math.sqrt(math.log(edge.available) / edge.visits)
        if score > best_score:
            best, best_score = move, score
    return best


@register
class IsmctsPlayer(Player):
    """Single-observer ISMCTS on the weighted particles (see the module doc)."""

    name = "ismcts"
    summary = "single-observer information-set MCTS (Cowling et al. 2012) on sampled states"
    #: At most this many iterations per turn (None: until the time is up); the time is a cap
    #: either way. A fixed number makes the player's strength independent of the machine's speed.
    iterations: int | None = None

    def play(self, view: TurnView) -> Term:
        """The most visited root move among the moves legal in every possible state."""
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        machine, rng = view.machine, self.rng
        me = machine.role_index(view.role)
        observed = view.fully_observed or not view.match.uses_sees
        particles = view.particles()
        root = _Node(len(machine.roles))
        stop = stop_time(view.deadline)
        iterations, limit = 0, self.iterations
        while time.monotonic() < stop and (limit is None or iterations < limit):
            try:
                self._iterate(machine, root, particles.draw(rng).state, me, legal, observed)
            except ReasonerError:
                pass
            iterations += 1
            if iterations % 64 == 0 or iterations == len(legal):
                view.propose(self._choice(root, me, legal))
        self.last_search = {"iterations": iterations, "particles": len(particles)}
        return self._choice(root, me, legal)

    def _choice(self, root: _Node, me: int, legal: tuple[Term, ...]) -> Term:
        edges = root.edges[me]
        most = max(edges[m].visits if m in edges else 0 for m in legal)
        tied = [m for m in legal if (edges[m].visits if m in edges else 0) == most]
        if len(tied) > 1:
            top = max(edges[m].total / max(1, edges[m].visits) if m in edges else 0.0 for m in tied)
            tied = [m for m in tied if (edges[m].total / max(1, edges[m].visits) if m in edges else 0.0) >= top]
        return tied[self.rng.randrange(len(tied))]

    def _iterate(self, machine: StateMachine, root: _Node, state: State, me: int,
                 root_moves: tuple[Term, ...], observed: bool) -> None:
        rng = self.rng
        node = root
        path: list[tuple[_Node, JointMove]] = []
        while not machine.is_terminal(state):
            joint: list[Term] = []
            for i, moves in enumerate(machine.all_legal_moves(state)):
                if node is root and i == me:
                    moves = tuple(m for m in moves if m in root_moves) or moves
                if len(moves) == 1:
                    joint.append(moves[0])
                elif machine.roles[i] == RANDOM:
                    joint.append(moves[rng.randrange(len(moves))])
                else:
                    joint.append(_select(node.edges[i], moves, rng))
            move = tuple(joint)
            path.append((node, move))
            key: Hashable = move if observed else (move[me], machine.role_percepts(state, move, machine.roles[me]))
            state = machine.next_state(state, move)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node(len(machine.roles))
                break
            node = child
        values = goals(machine, playout(machine, state, rng))
        for node, move in path:
            for i, m in enumerate(move):
                edge = node.edges[i].get(m)
                if edge is not None:
                    edge.visits += 1
                    edge.total += values[i] / 100.0
