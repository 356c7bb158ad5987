"""Any GDL or GDL-II game as an OpenSpiel game: ``pyspiel.load_game("ggp", {"file": PATH})``.

:class:`GGPGame` loads the rules (GDL or GDL-II in KIF or infix, or RECYCLE, translated on the
fly), builds the fast reasoner and the bridged tree (:mod:`ggp.spiel.tree`), and describes the
game to OpenSpiel: its players (every role but ``random``), its chance nodes (``random``'s
choices, uniform), its numbered actions, its returns (:mod:`ggp.spiel.units`: a translated card
game's score, else goal values) and its figures (:mod:`ggp.spiel.summary`). States are
:class:`GGPState`, each standing on a shared node of the tree, so cloning one is cheap.

Game parameters (``pyspiel.load_game("ggp", {"file": ..., "returns": "goals"})``):

- ``file``: the game file (required);
- ``returns``: ``auto`` (the score where the rules define ``(score ROLE N)``, else goals),
  ``score`` or ``goals``;
- ``expand``: walk the game whole when loading it if it is estimated to have at most this
  many nodes (default 500,000; 0: never), for exact figures and tensors;
- ``max_nodes``: nodes the tree keeps (default 1,000,000; past it nodes are made afresh);
- ``max_steps``: the longest game in GDL steps, for information-state tensors of a game not
  walked whole (default 0: only when walked whole);
- ``seed``: the seed of the size estimate's random paths (default 0).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyspiel

from ggp.errors import GGPError
from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.reasoner import make_machine
from ggp.spiel.observer import GGPObserver
from ggp.spiel.resample import Resampler
from ggp.spiel.summary import CONSTANT_SUM, DEFAULT_EXPAND, ZERO_SUM, Summary, summarize
from ggp.spiel.tree import CHANCE, DEFAULT_MAX_NODES, BridgeError, Node, Tree
from ggp.spiel.units import returns_rules

SHORT_NAME = "ggp"
#: The game parameters and their defaults.
PARAMETERS: dict[str, Any] = {
    "file": "", "returns": "auto", "expand": DEFAULT_EXPAND, "max_nodes": DEFAULT_MAX_NODES, "max_steps": 0,
    "seed": 0,
}
_UTILITY = {
    ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
    CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM,
}


def _game_type(players: tuple[int, int], chance: bool, utility: str, tensor: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="GDL-II game (ggp bridge)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY.get(utility, pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
        default_loadable=False,
    )


class GGPGame(pyspiel.Game):  # type: ignore[misc]
    """A GDL or GDL-II game for OpenSpiel (see the module doc).

    ``GGPGame(params)`` reads ``params["file"]``; ``GGPGame(params, description)`` bridges rules
    already loaded (a START message's), ``params`` giving the other parameters.
    """

    def __init__(self, params: dict[str, Any] | None = None, description: GameDescription | None = None):
        params = {**PARAMETERS, **(params or {})}
        unknown = set(params) - set(PARAMETERS)
        if unknown:
            raise GGPError(f"unknown game parameters {sorted(unknown)}; known: {', '.join(PARAMETERS)}")
        if description is None:
            if not params["file"]:
                raise GGPError('the ggp game needs a file: pyspiel.load_game("ggp", {"file": PATH})')
            description = load_game(params["file"])
        self.description = description
        self.rules, self.units = returns_rules(description, str(params["returns"]))
        machine = make_machine(self.rules, "fast")
        self.tree = Tree(machine, description.uses_sees, int(params["max_nodes"]))
        self.summary: Summary = summarize(self.tree, int(params["expand"]), int(params["seed"]))
        tree, summary = self.tree, self.summary
        self.max_steps: int | None = (int(params["max_steps"]) or None) if not summary.complete \
            else max(summary.max_gdl_steps, 1)
        players = len(tree.players)
        if players == 0:
            raise BridgeError("the game has no player (every role is random)")
        chance = tree.chance_role is not None
        total = summary.utility_sum if summary.utility in _UTILITY else None
        info = pyspiel.GameInfo(
            num_distinct_actions=max(1, max(len(tree.moves[r]) for r in tree.players)),
            max_chance_outcomes=len(tree.moves[tree.chance_role]) if tree.chance_role is not None else 0,
            num_players=players,
            min_utility=summary.min_return,
            max_utility=summary.max_return,
            utility_sum=total,
            max_game_length=max(1, summary.max_game_length),
        )
        super().__init__(_game_type((players, players), chance, summary.utility, self.max_steps is not None), info, params)
        self.resampler = Resampler(tree, self.rules, summary.complete)
        tree.utility_sum = total

    def new_initial_state(self) -> GGPState:
        """The state at the start of the game."""
        return GGPState(self, self.tree.root)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> GGPObserver:
        """An observer of what a player sees (information state with perfect recall, else the
        last observation)."""
        return GGPObserver(self.tree, iig_obs_type, params, self.max_steps)

    def max_chance_nodes_in_history(self) -> int:
        """The most chance nodes on one path from the root."""
        return self.summary.max_chance_nodes

    def state_at(self, node: Node) -> GGPState:
        """An OpenSpiel state standing on ``node``, its history the actions that lead there."""
        state = self.new_initial_state()
        for action in node.path():
            state.apply_action(action)
        return state


class GGPState(pyspiel.State):  # type: ignore[misc]
    """A position in a bridged game: a node of the shared tree."""

    def __init__(self, game: GGPGame, node: Node):
        super().__init__(game)
        self.node = node

    def current_player(self) -> int:
        """The player choosing here, ``CHANCE`` (-1) or ``TERMINAL`` (-4)."""
        return self.node.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.node.actions)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``random``'s legal moves, each equally likely."""
        return self.node.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.node = self.node.child(action)

    def _action_to_string(self, player: int, action: int) -> str:
        tree = self.node.tree
        role = tree.chance_role if player == CHANCE else tree.players[player]
        if role is None or not 0 <= action < len(tree.moves[role]):
            return f"action {action}"
        return str(tree.moves[role][action])

    def is_terminal(self) -> bool:
        """True at the end of the game."""
        return self.node.is_terminal

    def returns(self) -> list[float]:
        """Each player's return at the end (its score or goal value), 0 before."""
        returns = self.node.returns
        if returns is None:
            return [0.0] * len(self.node.tree.players)
        expected = self.node.tree.utility_sum
        if expected is not None and abs(sum(returns) - expected) > 1e-9:
            raise BridgeError(f"returns {list(returns)} do not sum to {expected}, as the game's sampled paths "
                              "did: load it with a larger expand to walk it whole")
        return list(returns)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GGPState:
        """A state ``player_id`` cannot tell from this one, drawn by its prior weight (chance
        uniform, other players' hidden moves uniform) with ``probability_sampler``."""
        game = self.get_game()
        assert isinstance(game, GGPGame)
        return game.state_at(game.resampler.draw(self.node, player_id, probability_sampler))

    def __str__(self) -> str:
        node = self.node
        if node.step is None:
            head = f"terminal after {node.gdl_steps} GDL steps; returns {list(node.returns or ())}"
            return head
        head = f"GDL step {node.step.number}"
        if node.chosen:
            head += "; chosen this step: " + " ".join(str(m) for m in node.chosen)
        return head + "\n" + " ".join(sorted(str(f) for f in node.step.state.fluents))


def load(source: str | Path | GameDescription, **params: Any) -> GGPGame:
    """A bridged game from a file path or loaded rules, with game parameters as keywords."""
    if isinstance(source, GameDescription):
        return GGPGame(params, source)
    return GGPGame({**params, "file": str(source)})


pyspiel.register_game(_game_type((1, 64), True, ZERO_SUM, True), GGPGame)
