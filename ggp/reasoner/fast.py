"""The fast reasoner: clingo grounds the game once; generated Python evaluates the network.

States are :class:`PackedState` values: one byte per fluent of the reachable domain. The first
query on a state computes every role's legal moves and whether it is terminal in one call and
keeps the answer on the state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ggp.collector import rare_collections
from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.codegen import generate, generate_sees
from ggp.reasoner.domains import DEFAULT_MAX_RULES, DEFAULT_MAX_SECONDS
from ggp.reasoner.grounding import ground
from ggp.reasoner.machine import State, StateMachine
from ggp.reasoner.network import Network, build_network


class PackedState(State):
    """A state as a bytes of 0/1 per fluent of its machine's domain."""

    __slots__ = ("_fluents", "_hash", "analysis", "bits")

    def __init__(self, bits: bytes, fluents: tuple[Term, ...]):
        self.bits = bits
        self._fluents = fluents
        self.analysis: tuple[tuple[list[int], ...], Any] | None = None
        self._hash = hash(bits)

    @property
    def fluents(self) -> frozenset[Term]:
        """The fluents whose byte is 1."""
        table = self._fluents
        return frozenset(table[i] for i, b in enumerate(self.bits) if b)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PackedState) and self.bits == other.bits and self._fluents is other._fluents

    def __hash__(self) -> int:
        return self._hash


class FastMachine(StateMachine):
    """A state machine evaluating the ground network with generated straight-line Python."""

    def __init__(
        self, description: GameDescription, max_rules: int = DEFAULT_MAX_RULES,
        max_seconds: float = DEFAULT_MAX_SECONDS,
    ):
        self.description = description
        start = time.perf_counter()
        namespace: dict[str, Any] = {}
        with rare_collections():
            program = ground(description, max_rules, max_seconds)
            self.grounding_seconds = program.seconds
            self.ground_rules = len(program.rules)
            net = build_network(description, program)
            self.network: Network = net
            self.source = generate(net)
            exec(compile(self.source, f"<network of {description.source or 'game'}>", "exec"), namespace)
        self._analyze: Callable[[bytes], tuple[tuple[list[int], ...], Any]] = namespace["analyze"]
        self._goals: Callable[[bytes], tuple[list[int], ...]] = namespace["goals"]
        self._step: Callable[[bytes, tuple[int, ...]], bytes] = namespace["step"]
        self._step_sees: Callable[[bytes, tuple[int, ...]], tuple[bytes, list[int]]] | None = None
        self._playout: Callable[[bytes, Callable[[int], int], int], tuple[bytes, int, bool]] = namespace["playout"]
        self.build_seconds = time.perf_counter() - start
        self.roles = net.roles
        self._fluents = net.fluents
        self._fluent_index = {f: i for i, f in enumerate(net.fluents)}
        self._moves = net.moves
        self._move_index = [{m: i for i, m in enumerate(ms)} for ms in net.moves]
        self._sees = [(r, term) for r, seen in enumerate(net.sees) for term, _ in seen]
        self._initial = PackedState(net.init, self._fluents)

    # -- internal helpers ----------------------------------------------------------------------

    def _packed(self, state: State) -> PackedState:
        if isinstance(state, PackedState) and state._fluents is self._fluents:
            return state
        return self.state_from_fluents(state.fluents)

    def _analysis(self, state: PackedState) -> tuple[tuple[list[int], ...], Any]:
        result = state.analysis
        if result is None:
            result = state.analysis = self._analyze(state.bits)
        return result

    def _indices(self, joint: Sequence[Term]) -> tuple[int, ...]:
        if len(joint) != len(self.roles):
            raise ReasonerError(f"a joint move needs {len(self.roles)} moves, got {len(joint)}")
        try:
            return tuple(table[move] for table, move in zip(self._move_index, joint))
        except KeyError as exc:
            raise ReasonerError(f"move {exc.args[0]} can never be legal in this game") from None

    # -- the state machine ---------------------------------------------------------------------

    def initial_state(self) -> State:
        """The initial state."""
        return self._initial

    def state_from_fluents(self, fluents: Iterable[Term]) -> PackedState:
        """The packed state of ``fluents``; every fluent must be in the reachable domain."""
        bits = bytearray(len(self._fluents))
        for fluent in fluents:
            index = self._fluent_index.get(fluent)
            if index is None:
                raise ReasonerError(f"fluent {fluent} can never hold in this game")
            bits[index] = 1
        return PackedState(bytes(bits), self._fluents)

    def legal_moves(self, state: State, role: Constant) -> tuple[Term, ...]:
        """The role's legal moves, sorted."""
        r = self.roles.index(role)
        moves = self._moves[r]
        return tuple(moves[m] for m in self._analysis(self._packed(state))[0][r])

    def all_legal_moves(self, state: State) -> tuple[tuple[Term, ...], ...]:
        """Every role's legal moves from one evaluation."""
        lists = self._analysis(self._packed(state))[0]
        return tuple(tuple(self._moves[r][m] for m in lst) for r, lst in enumerate(lists))

    def is_terminal(self, state: State) -> bool:
        """Whether ``terminal`` holds."""
        return bool(self._analysis(self._packed(state))[1])

    def goals(self, state: State) -> dict[Constant, int]:
        """Each role's goal value (roles without one absent)."""
        result: dict[Constant, int] = {}
        for role, values in zip(self.roles, self._goals(self._packed(state).bits)):
            if len(values) > 1:
                raise ReasonerError(f"role {role} has several goal values: {sorted(values)}")
            if values:
                result[role] = values[0]
        return result

    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The successor state."""
        return PackedState(self._step(self._packed(state).bits, self._indices(joint)), self._fluents)

    def percepts(self, state: State, joint: Sequence[Term]) -> dict[Constant, frozenset[Term]]:
        """What each role sees on the transition."""
        if self._step_sees is None:
            namespace: dict[str, Any] = {}
            source = generate_sees(self.network)
            exec(compile(source, f"<percepts of {self.description.source or 'game'}>", "exec"), namespace)
            self._step_sees = namespace["step_sees"]
        _, seen = self._step_sees(self._packed(state).bits, self._indices(joint))
        per_role: list[set[Term]] = [set() for _ in self.roles]
        for i in seen:
            r, term = self._sees[i]
            per_role[r].add(term)
        return {role: frozenset(p) for role, p in zip(self.roles, per_role)}

    def depth_charge(self, state: State, rng: random.Random, max_steps: int) -> tuple[State, int, bool]:
        """A uniform random playout in one generated loop (same choices as the generic one)."""
        try:
            bits, steps, finished = self._playout(self._packed(state).bits, rng.randrange, max_steps)
        except IndexError:
            raise ReasonerError("a role has no legal move in a non-terminal state") from None
        return PackedState(bits, self._fluents), steps, finished
