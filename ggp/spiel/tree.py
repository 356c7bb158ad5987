"""A GDL-II game as OpenSpiel sees it: a tree of sequential decisions, chance and terminals.

A GDL step is one joint move of every role. In the bridged tree a step becomes a few nodes:
each player (a role other than ``random``) that has more than one legal move chooses, in role
order, then ``random`` chooses when it has more than one (a chance node, uniform over its legal
moves as GDL-II says); a step in which nobody has a choice is played at once. A player choosing
within a step is told nothing of the moves chosen before it in the same step (its information
state is its records of the earlier steps, :mod:`ggp.spiel.records`), so the tree is the
sequential form of the simultaneous game, the one OpenSpiel's turn-based transform makes.

Actions are numbered per role: a move's action is its index in the role's move domain (every
move the reasoner knows the role can ever play, in term order), so the numbers are fixed before
any play. Nodes are made when first visited and kept (up to ``max_nodes``), so the algorithms
that walk the tree again and again (CFR, best responses) ask the reasoner once per node.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ggp.errors import GGPError, ReasonerError
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant, Term, sort_key
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.spiel.records import ObservationTrie, legal_text

#: OpenSpiel's player ids for chance and terminal nodes (``pyspiel.PlayerId``).
CHANCE = -1
TERMINAL = -4
#: Nodes a tree keeps by default; past it, new nodes are made afresh on every visit.
DEFAULT_MAX_NODES = 1_000_000
#: Steps in a row in which nobody has a choice, past which the game is taken not to end.
MAX_FORCED_STEPS = 10_000


def _in_order(percepts: Iterable[Term], rank: dict[Term, int]) -> tuple[Term, ...]:
    """``percepts`` in term order (the order of the percept domain, when it holds them all)."""
    try:
        return tuple(sorted(percepts, key=rank.__getitem__))
    except KeyError:
        return tuple(sorted(percepts, key=sort_key))


class BridgeError(GGPError):
    """The rules cannot be bridged, or a query does not fit the game tree."""


class Step:
    """One GDL state where someone has a choice: its legal moves and who chooses, in order."""

    __slots__ = ("choosers", "legal", "number", "state")

    def __init__(self, state: State, number: int, legal: tuple[tuple[Term, ...], ...], choosers: tuple[int, ...]):
        self.state = state
        self.number = number  # GDL steps played before this state
        self.legal = legal
        self.choosers = choosers  # role indices, players first in role order, random last


class Node:
    """A node of the bridged tree: a decision of one player, a chance node or a terminal.

    Shared by every OpenSpiel state standing on it (copying returns the node itself).
    """

    __slots__ = ("_key", "_outcomes", "actions", "children", "chosen", "obs", "parent", "player", "returns", "step",
                 "tree", "via")

    def __init__(self, tree: Tree, step: Step | None, chosen: tuple[Term, ...], obs: tuple[int, ...],
                 returns: tuple[float, ...] | None = None):
        self.tree = tree
        self.parent: Node | None = None
        self.via = -1
        self.step = step
        self.chosen = chosen
        self.obs = obs
        self.returns = returns
        self.children: dict[int, Node] | None = None
        self._key: str | None = None
        self._outcomes: list[tuple[int, float]] | None = None
        if step is None:
            self.player = TERMINAL
            self.actions: tuple[int, ...] = ()
        else:
            role = step.choosers[len(chosen)]
            self.player = tree.player_of.get(role, CHANCE)
            index = tree.action_index[role]
            self.actions = tuple(sorted(index[m] for m in step.legal[role]))

    def __deepcopy__(self, memo: object) -> Node:
        return self

    def __copy__(self) -> Node:
        return self

    @property
    def is_terminal(self) -> bool:
        """True at the end of the game."""
        return self.step is None

    @property
    def role(self) -> int:
        """The index (in the machine's roles) of the role choosing here."""
        assert self.step is not None, "a terminal node has no chooser"
        return self.step.choosers[len(self.chosen)]

    @property
    def gdl_steps(self) -> int:
        """GDL steps played to reach this node."""
        return self.step.number if self.step is not None else self.tree.trie_length(self.obs)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``random``'s legal moves as actions, each with the same probability."""
        outcomes = self._outcomes
        if outcomes is None:
            p = 1.0 / len(self.actions)
            outcomes = self._outcomes = [(a, p) for a in self.actions]
        return outcomes

    def key(self, player: int) -> str:
        """The information-state key of OpenSpiel player ``player`` here (with the legal moves
        it is offered when it is the one choosing)."""
        if player == self.player:
            key = self._key
            if key is None:
                assert self.step is not None
                trie = self.tree.tries[player]
                key = self._key = (trie.text(self.obs[player]) + " | "
                                   + legal_text(self.step.legal[self.role]))
            return key
        return self.tree.tries[player].text(self.obs[player])

    def child(self, action: int) -> Node:
        """The node after the chooser here plays ``action``."""
        children = self.children
        if children is not None:
            found = children.get(action)
            if found is not None:
                return found
        if action not in self.actions:
            raise BridgeError(f"action {action} is not legal here (legal: {list(self.actions)})")
        tree = self.tree
        step = self.step
        assert step is not None
        chosen = self.chosen + (tree.moves[self.role][action],)
        if len(chosen) < len(step.choosers):
            node = Node(tree, step, chosen, self.obs)
        else:
            node = tree.settle(step.state, step.number, self.obs, tree.joint(step, chosen))
        node.parent, node.via = self, action
        if tree.keep():
            if children is None:
                children = self.children = {}
            children[action] = node
        return node

    def path(self) -> list[int]:
        """The actions from the root to this node."""
        actions = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            actions.append(node.via)
            node = node.parent
        actions.reverse()
        return actions

    def move(self, action: int) -> Term:
        """The move that ``action`` names for the role choosing here."""
        return self.tree.moves[self.role][action]

    def playout(self, rng: random.Random, max_steps: int = MAX_FORCED_STEPS) -> tuple[float, ...]:
        """The returns at the end of a uniformly random playout from here (the reasoner's own
        playout loop; no node is made)."""
        if self.returns is not None:
            return self.returns
        tree, step = self.tree, self.step
        assert step is not None
        chosen = list(self.chosen)
        for role in step.choosers[len(chosen):]:
            legal = step.legal[role]
            chosen.append(legal[rng.randrange(len(legal))])
        machine = tree.machine
        state = machine.next_state(step.state, tree.joint(step, tuple(chosen)))
        final, _, finished = machine.depth_charge(state, rng, max_steps)
        if not finished:
            raise BridgeError(f"a random playout did not end within {max_steps} steps")
        return tree.returns_of(final)

    def __repr__(self) -> str:
        kind = {TERMINAL: "terminal", CHANCE: "chance"}.get(self.player, f"player {self.player}")
        return f"<Node {kind} after {self.gdl_steps} steps>"


class Tree:
    """The bridged tree of one game on one state machine (see the module doc)."""

    def __init__(self, machine: StateMachine, sees: bool, max_nodes: int = DEFAULT_MAX_NODES):
        self.machine = machine
        self.sees = sees
        self.max_nodes = max_nodes
        roles = machine.roles
        self.roles: tuple[Constant, ...] = roles
        self.players: tuple[int, ...] = tuple(i for i, r in enumerate(roles) if r != RANDOM)
        self.player_of: dict[int, int] = {r: p for p, r in enumerate(self.players)}
        self.chance_role: int | None = roles.index(RANDOM) if RANDOM in roles else None
        moves: list[tuple[Term, ...]] = []
        for role in roles:
            domain = machine.move_domain(role)
            if domain is None:
                raise BridgeError(f"the {type(machine).__name__} cannot list {role}'s moves in advance, which "
                                  "OpenSpiel's numbered actions need: use the fast reasoner")
            moves.append(tuple(domain))
        self.moves: tuple[tuple[Term, ...], ...] = tuple(moves)
        self.action_index: tuple[dict[Term, int], ...] = tuple({m: i for i, m in enumerate(ms)} for ms in moves)
        self.tries: tuple[ObservationTrie, ...] = tuple(ObservationTrie(roles[r], sees) for r in self.players)
        percepts = [machine.percept_domain(roles[r]) or () for r in self.players]
        self.percepts: tuple[tuple[Term, ...], ...] = tuple(tuple(p) for p in percepts)
        self.percept_index: tuple[dict[Term, int], ...] = tuple({t: i for i, t in enumerate(p)} for p in percepts)
        self.nodes = 0
        #: What every terminal's returns sum to, when the game is zero- or constant-sum.
        self.utility_sum: float | None = None
        self.root = self.settle(machine.initial_state(), 0, tuple(0 for _ in self.players), None)

    # --- building ---------------------------------------------------------------------------

    def keep(self) -> bool:
        """Count one more node kept; False once the tree holds ``max_nodes``."""
        if self.nodes >= self.max_nodes:
            return False
        self.nodes += 1
        return True

    def joint(self, step: Step, chosen: Sequence[Term]) -> JointMove:
        """The joint move of ``step`` in which the choosers play ``chosen`` (in chooser order)
        and every other role its only legal move."""
        joint = [legal[0] for legal in step.legal]
        for role, move in zip(step.choosers, chosen):
            joint[role] = move
        return tuple(joint)

    def settle(self, state: State, number: int, obs: tuple[int, ...], joint: JointMove | None) -> Node:
        """The node reached by playing ``joint`` (None: nothing) in ``state`` after ``number``
        steps, then every step in which nobody has a choice."""
        machine = self.machine
        forced = 0
        while True:
            if joint is not None:
                state, obs = self._observe(state, joint, obs)
                number += 1
            if machine.is_terminal(state):
                return Node(self, None, (), obs, self.returns_of(state))
            legal = machine.all_legal_moves(state)
            choosers = tuple(r for r in self.players if len(legal[r]) > 1)
            if self.chance_role is not None and len(legal[self.chance_role]) > 1:
                choosers += (self.chance_role,)
            if choosers:
                return Node(self, Step(state, number, legal, choosers), (), obs)
            for role, moves in zip(self.roles, legal):
                if not moves:
                    raise ReasonerError(f"role {role} has no legal move in a non-terminal state (step {number})")
            joint = tuple(moves[0] for moves in legal)
            forced += 1
            if forced > MAX_FORCED_STEPS:
                raise BridgeError(f"nobody has a choice for {MAX_FORCED_STEPS} steps after step "
                                  f"{number - forced}: the game does not end")

    def _observe(self, state: State, joint: JointMove, obs: tuple[int, ...]) -> tuple[State, tuple[int, ...]]:
        """The state after ``joint`` is played in ``state``, and every player's observations."""
        if self.sees:
            after, percepts = self.machine.transition(state, joint)
            roles = self.roles
            return after, tuple(trie.child(o, (joint[r], _in_order(percepts.get(roles[r], ()), rank)))
                                for trie, o, r, rank in zip(self.tries, obs, self.players, self.percept_index))
        return self.machine.next_state(state, joint), tuple(trie.child(o, joint) for trie, o in zip(self.tries, obs))

    def returns_of(self, state: State) -> tuple[float, ...]:
        """Every player's goal value in the terminal ``state`` (its score, with score rules)."""
        goals = self.machine.goals(state)
        out = []
        for r in self.players:
            value = goals.get(self.roles[r])
            if value is None:
                raise BridgeError(f"role {self.roles[r]} has no goal value in a terminal state")
            out.append(float(value))
        return tuple(out)

    def trie_length(self, obs: tuple[int, ...]) -> int:
        """GDL steps recorded in ``obs`` (every player records every step)."""
        return self.tries[0].lengths[obs[0]] if self.tries else 0

    # --- from a GDL history ---------------------------------------------------------------

    def follow(self, history: Sequence[JointMove]) -> Node:
        """The node at the start of the step after ``history`` (the joint moves of every GDL step
        from the initial state, forced steps included)."""
        node = self.root
        for number, joint in enumerate(history):
            step = node.step
            if step is None:
                raise BridgeError(f"the history goes on after the end of the game (step {number})")
            if number < step.number:
                continue  # a step nobody chose in: the tree played it already
            for role in step.choosers:
                move = joint[role]
                action = self.action_index[role].get(move)
                if action is None:
                    raise BridgeError(f"{self.roles[role]} cannot play {move} at step {number}")
                node = node.child(action)
        return node
