"""What a player of a bridged game observes, as OpenSpiel strings and tensors.

With perfect recall (the information state) a player's view is its records of every step so far
(:mod:`ggp.spiel.records`) and, where it chooses, its legal moves; without (the observation),
the step number, its record of the last step and its legal moves. Nothing else: never the
hidden state.

Tensors, one-hot over the game's numbered moves and percepts:

- information state (needs the longest game in GDL steps, known when the game was walked whole
  or given as ``max_steps``): ``moves[step, action]`` the player's own move at each step (in a
  GDL game without ``sees``: ``moves[step, role, action]``, every role's move),
  ``percepts[step, percept]`` what it saw, ``legal[action]`` its legal moves where it chooses;
- observation: ``move``, ``percepts`` and ``legal`` of the last step alone.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import pyspiel

from ggp.gdl.terms import Term
from ggp.spiel.records import SEPARATOR, legal_text, record_text
from ggp.spiel.tree import BridgeError, Node, Tree


class _OnNode(Protocol):
    """An OpenSpiel state of a bridged game (``GGPState``): it stands on a node of the tree."""

    node: Node


class GGPObserver:
    """An observer in OpenSpiel's Python protocol: ``tensor``, ``dict``, ``set_from``,
    ``string_from``."""

    def __init__(self, tree: Tree, iig_obs_type: Any, params: dict[str, Any] | None, max_steps: int | None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        public = iig_obs_type.public_info if iig_obs_type is not None else True
        if private != pyspiel.PrivateInfoType.SINGLE_PLAYER or not public:
            raise ValueError("a GDL-II game only tells each player what it sees: the observer must be "
                             "SINGLE_PLAYER with public information")
        self.tree = tree
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        self.max_steps = max_steps
        actions = max((len(tree.moves[r]) for r in tree.players), default=0)
        everyone = max((len(ms) for ms in tree.moves), default=0)
        percepts = max((len(p) for p in tree.percepts), default=0)
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        pieces: list[tuple[str, tuple[int, ...]]]
        if self.perfect_recall:
            if max_steps is None:
                return
            moves_shape = (max_steps, len(tree.roles), everyone) if not tree.sees else (max_steps, actions)
            pieces = [("moves", moves_shape)]
            if tree.sees:
                pieces.append(("percepts", (max_steps, percepts)))
        else:
            pieces = [("move", (len(tree.roles), everyone) if not tree.sees else (actions,))]
            if tree.sees:
                pieces.append(("percepts", (percepts,)))
        pieces.append(("legal", (actions,)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        start = 0
        for name, shape in pieces:
            count = int(np.prod(shape))
            self.dict[name] = self.tensor[start:start + count].reshape(shape)
            start += count

    def set_from(self, state: _OnNode, player: int) -> None:
        """Fill the tensor with what ``player`` knows in ``state``."""
        if self.tensor is None:
            raise BridgeError("no information-state tensor: the game's length is not known (walk the game "
                              "whole, or load it with max_steps)")
        tree, node = self.tree, state.node
        self.tensor.fill(0)
        trie = tree.tries[player]
        number = node.obs[player]
        records = trie.sequence(number) if self.perfect_recall else trie.sequence(number)[-1:]
        if self.perfect_recall and self.max_steps is not None and len(records) > self.max_steps:
            raise BridgeError(f"the game is longer than max_steps={self.max_steps} GDL steps")
        role = tree.players[player]
        moves = self.dict["moves" if self.perfect_recall else "move"]
        for t, record in enumerate(records):
            row = moves[t] if self.perfect_recall else moves
            if tree.sees:
                move, percepts = record
                assert isinstance(percepts, tuple)
                row[tree.action_index[role][move]] = 1
                seen = self.dict["percepts"][t] if self.perfect_recall else self.dict["percepts"]
                index = tree.percept_index[player]
                for percept in percepts:
                    seen[index[percept]] = 1
            else:
                for r, played in enumerate(record):
                    assert isinstance(played, Term)
                    row[r, tree.action_index[r][played]] = 1
        if node.player == player:
            self.dict["legal"][list(node.actions)] = 1

    def string_from(self, state: _OnNode, player: int) -> str:
        """What ``player`` knows in ``state``, as text."""
        node = state.node
        if self.perfect_recall:
            return node.key(player)
        return observation_text(node, player)


def observation_text(node: Node, player: int) -> str:
    """The player's last record and, where it chooses, its legal moves."""
    tree = node.tree
    trie = tree.tries[player]
    number = node.obs[player]
    last = trie.records[number]
    text = f"{trie.role}{SEPARATOR}step {trie.lengths[number]}"
    if last is not None:
        text += SEPARATOR + record_text(last, tree.sees)
    if node.player == player:
        text += SEPARATOR + legal_text(node.step.legal[node.role]) if node.step is not None else ""
    return text
