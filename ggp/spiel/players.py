"""Players that bring OpenSpiel's algorithms to any match: ``cfr`` and ``spiel_ismcts``.

Both bridge the rules they are given at START (:class:`~ggp.spiel.game.GGPGame`, returns in the
game's own units: a translated card game's score, else goals) and map what their role was told
(its moves and percepts, :func:`~ggp.spiel.records.information_key`) to the bridged game's
information states, so they play under any game manager, remote ones included.

- ``cfr`` runs OpenSpiel's CFR+ (a game walked whole) or external-sampling MCCFR (a larger game)
  for the start clock, keeps training in later matches of the same rules, and plays the average
  policy, drawing its move with its own ``rng``.
- ``spiel_ismcts`` runs OpenSpiel's ISMCTS bot for the play clock, its worlds drawn from the
  player's belief (:meth:`~ggp.players.base.TurnView.particles`), its leaves valued by the
  reasoner's random playouts.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr, ismcts

from ggp.deadline import Deadline
from ggp.errors import GGPError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Term
from ggp.players.base import Player, StartView, TurnView
from ggp.players.registry import register
from ggp.players.search import stop_time
from ggp.spiel.game import GGPGame, GGPState
from ggp.spiel.records import Record, information_key, seen_record
from ggp.spiel.tree import BridgeError, Node

log = logging.getLogger(__name__)

#: Draws from the belief before ``spiel_ismcts`` gives up on a world.
WORLD_TRIES = 8
#: Bridged games a player object keeps (by the rules' digest).
GAMES_KEPT = 2


def view_records(view: TurnView) -> list[Record] | None:
    """The role's records of every step so far, as the bridged tree spells them (None when a
    step's move or percepts were not reported)."""
    if not view.match.uses_sees:
        return list(view.joint_moves) if view.joint_moves is not None else None
    records: list[Record] = []
    for move, percepts in zip(view.moves, view.percepts):
        if move is None or percepts is None:
            return None
        records.append(seen_record(move, percepts))
    return records


class _Bridged(Player):
    """A player that bridges the rules of its matches (kept per rules, a few at a time)."""

    #: Game parameters of the bridged games (see :mod:`ggp.spiel.game`).
    game_parameters: dict[str, Any] = {}

    def __init__(self, rng: random.Random | None = None, reasoner: str | None = None) -> None:
        super().__init__(rng=rng, reasoner=reasoner)
        self._games: dict[str, GGPGame] = {}
        self._failed: dict[str, str] = {}

    def bridged(self, description: GameDescription) -> GGPGame | None:
        """The bridged game of ``description`` (made on first use), or None when the rules cannot
        be bridged (said once in the log; the player then plays uniformly at random)."""
        digest = description.digest()
        game = self._games.get(digest)
        if game is None and digest not in self._failed:
            try:
                game = GGPGame(dict(self.game_parameters), description)
            except GGPError as exc:
                self._failed[digest] = str(exc)
                log.warning("%s cannot bridge these rules to OpenSpiel, so it plays at random: %s", self.name, exc)
                return None
            self._games[digest] = game
            while len(self._games) > GAMES_KEPT:
                self._games.pop(next(iter(self._games)))
        return game


class _KeyState:
    """What OpenSpiel's MCCFR average policy reads of a state: the key and the legal actions."""

    def __init__(self, key: str, actions: list[int]):
        self._key, self._actions = key, actions

    def legal_actions(self) -> list[int]:
        """The legal actions at the key."""
        return self._actions

    def information_state_string(self, player: int) -> str:
        """The key."""
        return self._key


class _Trainer:
    """OpenSpiel's CFR+ (C++) or external-sampling MCCFR (Python) on one bridged game."""

    def __init__(self, game: GGPGame, algorithm: str, seed: int):
        if algorithm == "auto":
            algorithm = "cfr+" if game.summary.complete else "mccfr"
        if algorithm not in ("cfr+", "mccfr"):
            raise BridgeError(f"unknown algorithm {algorithm!r}: cfr+ or mccfr")
        self.algorithm = algorithm
        if algorithm == "cfr+":
            self.solver: Any = pyspiel.CFRPlusSolver(game)
        else:
            np.random.seed(seed)  # OpenSpiel's Python MCCFR samples with numpy's global generator
            self.solver = external_sampling_mccfr.ExternalSamplingSolver(game)
        self.iterations = 0
        self.seconds = 0.0
        self._table: dict[str, list[tuple[int, float]]] | None = None

    def iterate(self) -> None:
        """One iteration."""
        start = time.monotonic()
        if self.algorithm == "cfr+":
            self.solver.evaluate_and_update_policy()
        else:
            self.solver.iteration()
        self.seconds += time.monotonic() - start
        self.iterations += 1
        self._table = None

    def train(self, deadline: Deadline, limit: int | None) -> None:
        """Iterate while an iteration at the pace so far fits before ``deadline`` (exactly
        ``limit`` iterations when given)."""
        done = 0
        while limit is None or done < limit:
            pace = self.seconds / self.iterations if self.iterations else 0.0
            if limit is None and deadline.remaining() <= 1.5 * pace + 0.05:
                break
            self.iterate()
            done += 1

    def probabilities(self, key: str, actions: list[int]) -> dict[int, float] | None:
        """The average policy at ``key`` over ``actions`` (CFR+: None where it was never
        reached; MCCFR: uniform there)."""
        if self.algorithm == "mccfr":  # uniform where never reached
            found = self.solver.average_policy().action_probabilities(_KeyState(key, actions), 0)
            return {int(a): float(p) for a, p in found.items()}
        if self._table is None:
            self._table = dict(self.solver.tabular_average_policy().policy_table())
        entry = self._table.get(key)
        return None if entry is None else {int(a): float(p) for a, p in entry}


@register
class CfrPlayer(_Bridged):
    """OpenSpiel's CFR+ or MCCFR for the start clock; plays the average policy."""

    name = "cfr"
    summary = "OpenSpiel's CFR+ (MCCFR on large games) on the bridged game for the start clock; plays the average policy"
    particles = 8
    #: CFR iterations in each start (None: as many as fit in the start clock); the clock is
    #: not a cap then, so a fixed number gives the same policy on any machine.
    iterations: int | None = None
    #: ``auto`` (CFR+ on a game walked whole, else external-sampling MCCFR), ``cfr+`` or ``mccfr``.
    algorithm = "auto"
    #: Games estimated at most this large are walked whole (CFR+); larger ones are sampled (MCCFR).
    game_parameters = {"expand": 200_000}

    def __init__(self, rng: random.Random | None = None, reasoner: str | None = None) -> None:
        super().__init__(rng=rng, reasoner=reasoner)
        self._trainers: dict[str, _Trainer] = {}

    def trainer(self, description: GameDescription) -> _Trainer | None:
        """The trainer of ``description``'s bridged game (made on first use; None when the
        rules cannot be bridged)."""
        digest = description.digest()
        found = self._trainers.get(digest)
        if found is None:
            game = self.bridged(description)
            if game is None:
                return None
            found = self._trainers[digest] = _Trainer(game, self.algorithm, self.rng.getrandbits(31))
            for stale in set(self._trainers) - set(self._games):
                del self._trainers[stale]
        return found

    def start(self, view: StartView) -> None:
        """Bridge the rules and train until the start clock is nearly out."""
        trainer = self.trainer(view.match.description)
        if trainer is not None:
            trainer.train(view.deadline, self.iterations)

    def move_probabilities(self, view: TurnView) -> dict[Term, float] | None:
        """The average policy at the role's information state (uniform where it was never
        trained, or when the rules cannot be bridged)."""
        legal = view.legal_moves
        uniform = {move: 1.0 / len(legal) for move in legal}
        trainer = self.trainer(view.match.description) if len(legal) > 1 else None
        game = self.bridged(view.match.description) if trainer is not None else None
        records = view_records(view)
        if game is None or trainer is None or records is None:
            return uniform
        role = game.tree.roles.index(view.role)
        moves, index = game.tree.moves[role], game.tree.action_index[role]
        actions = sorted(index[m] for m in legal if m in index)
        found = trainer.probabilities(information_key(view.role, records, game.tree.sees, legal), actions)
        probs = {moves[a]: p for a, p in (found or {}).items() if 0 <= a < len(moves) and moves[a] in legal}
        total = sum(probs.values())
        if total <= 0:
            return uniform
        return {move: probs.get(move, 0.0) / total for move in legal}

    def play(self, view: TurnView) -> Term:
        """A move drawn from the average policy."""
        probs = self.move_probabilities(view)
        assert probs is not None
        return _draw(probs, self.rng)


def _draw(probs: Mapping[Term, float], rng: random.Random) -> Term:
    """A move drawn in proportion to ``probs``."""
    moves = list(probs)
    target, acc = rng.random() * sum(probs.values()), 0.0
    for move in moves:
        acc += probs[move]
        if acc > target:
            return move
    return moves[-1]


class PlayoutEvaluator:
    """Leaf values for OpenSpiel's MCTS bots: the reasoner's uniform random playouts."""

    def __init__(self, rng: random.Random, playouts: int = 1):
        self.rng = rng
        self.playouts = playouts

    def evaluate(self, state: GGPState) -> np.ndarray:
        """Every player's mean return over the playouts from ``state``."""
        total = np.zeros(len(state.node.tree.players))
        for _ in range(self.playouts):
            total += np.array(state.node.playout(self.rng))
        return total / self.playouts

    def prior(self, state: GGPState) -> list[tuple[int, float]]:
        """Uniform over the legal actions (chance: its outcomes)."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def decision_node(game: GGPGame, history: tuple[tuple[Term, ...], ...], role: int, rng: random.Random) -> Node:
    """The node where ``role`` chooses after ``history`` (the moves chosen before it in the
    same step, which it cannot see, drawn uniformly)."""
    node = game.tree.follow(history)
    while node.step is not None and node.role != role:
        if node.step.number != len(history) or node.player < 0:
            break
        node = node.child(node.actions[rng.randrange(len(node.actions))])
    if node.step is None or node.role != role:
        raise BridgeError(f"{game.tree.roles[role]} has no choice after this history")
    return node


@register
class SpielIsmctsPlayer(_Bridged):
    """OpenSpiel's ISMCTS bot on the bridged game, its worlds drawn from the belief."""

    name = "spiel_ismcts"
    summary = "OpenSpiel's ISMCTS bot on the bridged game, worlds drawn from the belief, playout values"
    game_parameters = {"expand": 0, "max_nodes": 200_000}
    #: Simulations per turn (None: until the time is up); the time is a cap either way.
    iterations: int | None = None
    #: UCT exploration constant, for returns scaled to [-1, 1].
    exploration = 1.4

    def start(self, view: StartView) -> None:
        """Bridge the rules."""
        self.bridged(view.match.description)

    def play(self, view: TurnView) -> Term:
        """The move the bot's search visits most."""
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        game = self.bridged(view.match.description)
        if game is None:
            return legal[self.rng.randrange(len(legal))]
        tree, rng = game.tree, self.rng
        role = tree.roles.index(view.role)
        particles = view.particles()

        def world(state: Any = None, player: Any = None) -> GGPState:
            """A state drawn from the belief (particles the tree cannot follow, repaired ones
            whose history is not the game's, are drawn again, a few times)."""
            for attempt in range(WORLD_TRIES):
                try:
                    return game.state_at(decision_node(game, particles.draw(rng).history, role, rng))
                except GGPError:
                    if attempt == WORLD_TRIES - 1:
                        raise
            raise AssertionError("unreachable")

        try:
            root = world()
        except GGPError as exc:
            log.warning("%s: no world to search from (%s); a random move", self.name, exc)
            return legal[rng.randrange(len(legal))]
        spread = max(game.summary.max_return - game.summary.min_return, 1e-9)
        bot = ismcts.ISMCTSBot(game, PlayoutEvaluator(rng), self.exploration * spread / 2,
                               max_simulations=1, random_state=np.random.RandomState(rng.getrandbits(31)),
                               final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                               allow_inconsistent_action_sets=False)
        bot.set_resampler(world)
        node = bot.create_new_node(root)
        stop, done = stop_time(view.deadline), 0
        while time.monotonic() < stop and (self.iterations is None or done < self.iterations):
            try:
                bot.run_simulation(bot.sample_root_state(root))
            except GGPError:
                pass  # a world the tree could not follow: the next draw
            done += 1
        self.last_search = {"simulations": done, "particles": len(particles)}
        if node.total_visits <= 0:
            return legal[rng.randrange(len(legal))]
        policy = bot.get_final_policy(root, node)
        best = max(p for _, p in policy)
        moves: list[Term] = [tree.moves[role][int(a)] for a, p in policy if p >= best - 1e-12]
        moves = [m for m in moves if m in legal] or list(legal)
        return moves[rng.randrange(len(moves))]
