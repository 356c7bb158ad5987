"""Drawing a history a player cannot tell from the true one (OpenSpiel's
``resample_from_infostate``): what information-set search (ISMCTS) samples its worlds from.

Chance is uniform over ``random``'s legal moves and, as in the project's beliefs, every other
role's hidden move is taken as uniform over its legal moves. When the whole tree has been made
(a game walked whole) the draw is exact: the nodes sharing the player's key, each weighted by
the product of ``1 / branching`` over the choices on its path that are not the player's own.
Otherwise the player's :class:`~ggp.belief.Belief` over the GDL game is updated with its
records and one of its weighted histories is followed in the tree (exact while the belief is;
weighted particles past that).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable

from ggp.belief import Belief, Observation, Particles
from ggp.gdl.rules import GameDescription
from ggp.spiel.tree import TERMINAL, BridgeError, Node, Tree

#: Beliefs kept for a game not walked whole (by player and record sequence).
BELIEFS_KEPT = 64


class _Uniform:
    """A ``random()`` source from OpenSpiel's probability sampler (a callable)."""

    def __init__(self, sample: Callable[[], float]):
        self.random = sample


class Resampler:
    """Histories consistent with a player's information state, drawn with the prior above."""

    def __init__(self, tree: Tree, description: GameDescription, complete: bool):
        self.tree = tree
        self.description = description
        self.complete = complete
        self._index: dict[str, list[tuple[Node, float]]] | None = None
        self._beliefs: OrderedDict[tuple[int, int], Particles] = OrderedDict()

    def draw(self, node: Node, player: int, sample: Callable[[], float]) -> Node:
        """A node ``player`` cannot tell from ``node``, drawn with ``sample`` (uniform in [0, 1))."""
        if node.is_terminal:
            raise BridgeError("a terminal state has no information state to resample from")
        if self.complete:
            return self._exact(node, player, sample)
        return self._believed(node, player, sample)

    # --- a tree made whole --------------------------------------------------------------------

    def _exact(self, node: Node, player: int, sample: Callable[[], float]) -> Node:
        index = self._index
        if index is None:
            index = self._index = self._build_index()
        entries = index.get(f"{player}\0{node.key(player)}")
        if not entries:
            raise BridgeError(f"no history of the game gives player {player} the key {node.key(player)!r}")
        total = sum(w for _, w in entries)
        target, acc = sample() * total, 0.0
        for candidate, weight in entries:
            acc += weight
            if acc > target:
                return candidate
        return entries[-1][0]

    def _build_index(self) -> dict[str, list[tuple[Node, float]]]:
        """Every non-terminal node under each player's key, with its prior weight for that player."""
        tree = self.tree
        index: dict[str, list[tuple[Node, float]]] = {}
        players = range(len(tree.players))
        stack: list[tuple[Node, tuple[float, ...]]] = [(tree.root, tuple(1.0 for _ in players))]
        while stack:
            node, weights = stack.pop()
            if node.player == TERMINAL:
                continue
            for p in players:
                index.setdefault(f"{p}\0{node.key(p)}", []).append((node, weights[p]))
            share = 1.0 / len(node.actions)
            below = tuple(w if p == node.player else w * share for p, w in zip(players, weights))
            for action in node.actions:
                stack.append((node.child(action), below))
        return index

    # --- a tree too large to make whole ---------------------------------------------------------

    def _believed(self, node: Node, player: int, sample: Callable[[], float]) -> Node:
        tree = self.tree
        number = node.obs[player]
        particles = self._particles(player, number)
        drawn = particles.draw(_Uniform(sample))  # type: ignore[arg-type]
        found = tree.follow(drawn.history)
        # the moves chosen earlier in this step: the player's own as it chose, the others' unseen
        own = tree.players[player]
        for role, move in zip(node.step.choosers if node.step is not None else (), node.chosen):
            if found.step is None or found.role != role:
                raise BridgeError("the drawn history does not lead to the player's step")
            if role == own:
                found = found.child(tree.action_index[role][move])
            else:
                actions = found.actions
                found = found.child(actions[min(int(sample() * len(actions)), len(actions) - 1)])
        return found

    def _particles(self, player: int, number: int) -> Particles:
        key = (player, number)
        found = self._beliefs.get(key)
        if found is not None:
            self._beliefs.move_to_end(key)
            return found
        tree = self.tree
        role = tree.roles[tree.players[player]]
        belief = Belief(tree.machine, role, description=self.description, rng=random.Random(number))
        for record in tree.tries[player].sequence(number):
            if tree.sees:
                move, percepts = record
                belief.update(Observation(move, frozenset(percepts)))  # type: ignore[arg-type]
            else:
                belief.update(Observation(record[tree.players[player]], frozenset(), joint=record))  # type: ignore[arg-type]
        found = self._beliefs[key] = belief.particles()
        while len(self._beliefs) > BELIEFS_KEPT:
            self._beliefs.popitem(last=False)
        return found
