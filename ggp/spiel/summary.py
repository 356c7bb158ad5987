"""What OpenSpiel must know of a game before play: its size, depth, returns and utility kind.

A game small enough is walked whole (every node made and kept in the tree), which gives exact
figures: node and information-state counts, the longest game in decisions and in GDL steps, the
returns' range and whether they always sum to the same value (zero- or constant-sum). Whether it
is small enough is decided first by Knuth's estimate of the tree size (the mean, over seeded
random paths, of the sum of the products of the branching factors along the path): a game
estimated past the budget is not walked, and its figures come from the sampled paths instead
(``complete`` is then False: the depth and range are those seen, the utility kind a hypothesis
that the bridged game checks at every terminal it reaches).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ggp.spiel.tree import CHANCE, TERMINAL, BridgeError, Node, Tree

#: Nodes a game may be estimated to have and still be walked whole when it is loaded.
DEFAULT_EXPAND = 500_000
#: Random paths for the size estimate (and the figures of a game not walked whole).
PROBES = 64
ZERO_SUM, CONSTANT_SUM, GENERAL_SUM = "zero_sum", "constant_sum", "general_sum"


@dataclass(frozen=True)
class Summary:
    """The figures of a bridged game (exact when ``complete``, else from sampled paths)."""

    complete: bool
    nodes: int
    decisions: int
    chance_nodes: int
    terminals: int
    information_states: tuple[int, ...]
    max_game_length: int
    max_chance_nodes: int
    max_gdl_steps: int
    max_chance_outcomes: int
    min_return: float
    max_return: float
    utility: str
    utility_sum: float | None
    estimated_nodes: float

    def as_dict(self) -> dict[str, object]:
        """The figures as JSON values."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def estimate(tree: Tree, probes: int = PROBES, seed: int = 0) -> tuple[float, list[list[Node]]]:
    """Knuth's estimate of the number of nodes, and the sampled paths (root to terminal)."""
    rng = random.Random(seed)
    total = 0.0
    paths = []
    for _ in range(probes):
        node, weight, size, path = tree.root, 1.0, 1.0, [tree.root]
        while not node.is_terminal:
            weight *= len(node.actions)
            size += weight
            node = node.child(node.actions[rng.randrange(len(node.actions))])
            path.append(node)
        total += size
        paths.append(path)
    return total / probes, paths


def _utility(sums: set[float]) -> tuple[str, float | None]:
    values = sorted(sums)
    if values and values[-1] - values[0] <= 1e-9:
        return (ZERO_SUM if abs(values[0]) <= 1e-9 else CONSTANT_SUM), values[0]
    return GENERAL_SUM, None


def summarize(tree: Tree, expand: int = DEFAULT_EXPAND, seed: int = 0) -> Summary:
    """The figures of ``tree``'s game: exact when the estimated size is at most ``expand`` nodes
    and the walk finds no more than that, else from sampled paths."""
    estimated, paths = estimate(tree, seed=seed)
    if estimated <= expand:
        found = _walk(tree, expand, estimated)
        if found is not None:
            return found
    return _sampled(tree, paths, estimated)


def _walk(tree: Tree, limit: int, estimated: float) -> Summary | None:
    """Every node of the tree, or None past ``limit`` nodes."""
    counts = {TERMINAL: 0, CHANCE: 0}
    decisions = 0
    keys: list[set[str]] = [set() for _ in tree.players]
    longest = chance_longest = steps = outcomes = 0
    low, high = float("inf"), float("-inf")
    sums: set[float] = set()
    stack: list[tuple[Node, int, int]] = [(tree.root, 0, 0)]
    seen = 0
    while stack:
        node, depth, chance_depth = stack.pop()
        seen += 1
        if seen > limit:
            return None
        player = node.player
        if player == TERMINAL:
            counts[TERMINAL] += 1
            assert node.returns is not None
            low, high = min(low, *node.returns), max(high, *node.returns)
            sums.add(round(sum(node.returns), 9))
            longest, chance_longest = max(longest, depth), max(chance_longest, chance_depth)
            steps = max(steps, node.gdl_steps)
            continue
        if player == CHANCE:
            counts[CHANCE] += 1
            outcomes = max(outcomes, len(node.actions))
            for action in node.actions:
                stack.append((node.child(action), depth, chance_depth + 1))
        else:
            decisions += 1
            keys[player].add(node.key(player))
            for action in node.actions:
                stack.append((node.child(action), depth + 1, chance_depth))
    utility, total = _utility(sums)
    return Summary(True, seen, decisions, counts[CHANCE], counts[TERMINAL], tuple(len(k) for k in keys),
                   longest, chance_longest, steps, outcomes, low, high, utility, total, estimated)


def _sampled(tree: Tree, paths: list[list[Node]], estimated: float) -> Summary:
    """Figures from the sampled paths of a game too large to walk."""
    if not paths:
        raise BridgeError("no path through the game was sampled")
    finals = [path[-1] for path in paths]
    returns = [r for final in finals for r in (final.returns or ())]
    sums = {round(sum(final.returns or ()), 9) for final in finals}
    utility, total = _utility(sums)
    longest = max(sum(1 for n in path if n.player >= 0) for path in paths)
    chance_longest = max(sum(1 for n in path if n.player == CHANCE) for path in paths)
    outcomes = max((len(n.actions) for path in paths for n in path if n.player == CHANCE), default=0)
    return Summary(False, 0, 0, 0, 0, tuple(0 for _ in tree.players), longest, chance_longest,
                   max(f.gdl_steps for f in finals), outcomes, min(returns, default=0.0),
                   max(returns, default=0.0), utility, total, estimated)
