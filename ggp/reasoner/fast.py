"""The fast reasoner: clingo grounds the game once; generated Python evaluates the network.

States are :class:`PackedState` values: one byte per fluent of the reachable domain. The first
query on a state computes every role's legal moves and whether it is terminal in one call and
keeps the answer on the state.

A machine built with ``cache=True`` (as :func:`ggp.reasoner.make_machine` builds them) first
looks for the game in the disk cache (:mod:`ggp.reasoner.cache`) and stores what it builds
there: the interface, the network, and each generated module's code the first time it is
compiled (:meth:`FastMachine.module`), so the next process gets them without building.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ggp.collector import rare_collections
from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.cache import CacheEntry, interned
from ggp.reasoner.domains import (
    DEFAULT_MAX_RULES,
    DEFAULT_MAX_SECONDS,
    GroundingTooLarge,
    GroundingTooSlow,
)
from ggp.reasoner.machine import State, StateMachine
from ggp.reasoner.network import Network

if TYPE_CHECKING:
    from ggp.reasoner.goal_order import GoalOrder

T = TypeVar("T")
Analysis = tuple[tuple[list[int], ...], Any]
PerceptMoves = Mapping[Term, tuple[frozenset[Term] | None, ...]]


@dataclass(frozen=True)
class Interface:
    """What a machine needs besides its generated code: the terms behind its indices."""

    roles: tuple[Constant, ...]
    fluents: tuple[Term, ...]
    moves: tuple[tuple[Term, ...], ...]
    init: bytes
    sees: tuple[tuple[Term, ...], ...]
    grounding_seconds: float
    ground_rules: int

    @classmethod
    def of(cls, net: Network, grounding_seconds: float, ground_rules: int) -> Interface:
        """The interface of ``net``, equal subterms shared (its pickle loads several times faster)."""
        table: dict[Term, Term] = {}
        return cls(
            tuple(net.roles), interned(net.fluents, table), tuple(interned(ms, table) for ms in net.moves),
            net.init, tuple(interned([t for t, _ in seen], table) for seen in net.sees),
            grounding_seconds, ground_rules,
        )

    def agrees_with(self, net: Network) -> bool:
        """True when ``net`` numbers roles, fluents, moves and percepts as this interface does."""
        return (self.roles == net.roles and self.fluents == net.fluents and self.moves == net.moves
                and self.sees == tuple(tuple(t for t, _ in seen) for seen in net.sees))


def _entry(namespace: dict[str, Any], name: str) -> Callable[..., Any]:
    """The generated function ``name``, or a function answering through the generators
    ``name_loop()`` when the code generator wrote it as one (a large frame): one generator per
    thread calling at the same time, kept for the next call."""
    function = namespace.get(name)
    if function is not None:
        return function  # type: ignore[no-any-return]
    make: Callable[[], Generator[Any, tuple[Any, ...], None]] = namespace[f"{name}_loop"]
    idle: list[Generator[Any, tuple[Any, ...], None]] = []

    def call(*args: Any) -> Any:
        try:
            gen = idle.pop()
        except IndexError:
            gen = make()
            next(gen)
        result = gen.send(args)  # a generator that raised is finished and not kept
        idle.append(gen)
        return result

    return call


def _source(net: Network, name: str) -> str:
    """The source of the generated module ``name``: ``main``, ``sees`` or ``sees<role index>``."""
    from ggp.reasoner.codegen import generate, generate_role_sees, generate_sees

    if name == "main":
        return generate(net)
    if name == "sees":
        return generate_sees(net)
    if name.startswith("sees") and name[4:].isdigit() and int(name[4:]) < len(net.roles):
        return generate_role_sees(net, int(name[4:]))
    raise ReasonerError(f"no generated module named {name!r}")


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


class GroundMachine(StateMachine):
    """What the machines evaluating the ground network share: the grounding, the network, the
    terms behind its indices, the disk cache and the analyses of the network. Subclasses load
    their code in :meth:`_load_code` (:class:`FastMachine`: generated Python;
    :class:`~ggp.reasoner.compiled.CompiledMachine`: generated C).

    With ``cache=True`` the machine is loaded from the disk cache when it is there, and what is
    built is stored there (see :mod:`ggp.reasoner.cache`; ``from_cache`` says which happened).
    """

    #: The reading of several goal values for one role, made when first needed.
    _order: GoalOrder | None = None

    def __init__(
        self, description: GameDescription, max_rules: int = DEFAULT_MAX_RULES,
        max_seconds: float = DEFAULT_MAX_SECONDS, cache: bool = False,
    ):
        self.description = description
        self.max_rules, self.max_seconds = max_rules, max_seconds
        start = time.perf_counter()
        self._lock = threading.RLock()
        self._modules: dict[str, dict[str, Any]] = {}
        self._values: dict[str, object] = {}
        self._network: Network | None = None
        self._entry = CacheEntry.for_game(description.digest()) if cache else None
        face = self._cached_interface()
        self.from_cache = face is not None
        if face is None:
            face = self._build()
        self._face = face
        self.grounding_seconds = face.grounding_seconds
        self.ground_rules = face.ground_rules
        self.roles = face.roles
        self._role_index = {r: i for i, r in enumerate(face.roles)}
        self._fluents = face.fluents
        self._fluent_index = {f: i for i, f in enumerate(face.fluents)}
        self._moves = face.moves
        self._move_index = [{m: i for i, m in enumerate(ms)} for ms in face.moves]
        self._seen_terms = face.sees
        self._sees = [(r, term) for r, seen in enumerate(face.sees) for term in seen]
        self._load_code()
        self.build_seconds = time.perf_counter() - start

    def _load_code(self) -> None:
        """Load (or generate) the code evaluating the network."""
        raise NotImplementedError

    # -- building and the cache ----------------------------------------------------------------

    def _cached_interface(self) -> Interface | None:
        entry = self._entry
        if entry is None:
            return None
        verdict = entry.load_value("too_large")
        if (isinstance(verdict, tuple) and len(verdict) == 3 and self.max_rules <= verdict[0]
                and self.max_seconds <= verdict[1]):
            raise GroundingTooLarge(str(verdict[2]))
        face = entry.load_value("interface")
        if not isinstance(face, Interface):
            return None
        entry.touch()
        return face

    def _ground(self) -> tuple[Network, float, int]:
        from ggp.reasoner.grounding import ground
        from ggp.reasoner.network import build_network

        with rare_collections():
            try:
                program = ground(self.description, self.max_rules, self.max_seconds)
            except GroundingTooLarge as exc:
                # the rule count is a property of the game; the time a property of this run
                if self._entry is not None and not isinstance(exc, GroundingTooSlow):
                    self._entry.store_value("too_large", (self.max_rules, self.max_seconds, str(exc)))
                raise
            return build_network(self.description, program), program.seconds, len(program.rules)

    def _build(self) -> Interface:
        net, seconds, rules = self._ground()
        self._network = net
        face = Interface.of(net, seconds, rules)
        if self._entry is not None:
            self._entry.store_value("network", net)
            self._entry.store_value("interface", face)
        return face

    @property
    def network(self) -> Network:
        """The ground network (loaded from the cache, or grounded again, when first asked for)."""
        net = self._network
        if net is None:
            with self._lock:
                net = self._network
                if net is None:
                    loaded = self._entry.load_value("network") if self._entry is not None else None
                    if isinstance(loaded, Network) and self._face.agrees_with(loaded):
                        net = loaded
                    else:
                        net = self._ground()[0]
                        if not self._face.agrees_with(net):
                            raise ReasonerError("the cached machine does not match the game's network")
                        if self._entry is not None:
                            self._entry.store_value("network", net)
                    self._network = net
        return net

    def module(self, name: str) -> dict[str, Any]:
        """The namespace of the generated module ``name`` (``main``, ``sees`` or ``sees<r>``),
        compiled once per machine: from the cache when it has the code, else generated,
        compiled and added to the cache."""
        found = self._modules.get(name)
        if found is None:
            with self._lock:
                found = self._modules.get(name)
                if found is None:
                    code = self._entry.load_code(name) if self._entry is not None else None
                    if code is None:
                        with rare_collections():
                            code = compile(_source(self.network, name), f"<fast machine: {name}>", "exec")
                        if self._entry is not None:
                            self._entry.store_code(name, code)
                    found = {}
                    exec(code, found)
                    self._modules[name] = found
        return found

    def _derived(self, name: str, kind: type, compute: Callable[[], T]) -> T:
        """A value computed from the network once, kept in memory and in the cache."""
        found = self._values.get(name)
        if found is None:
            with self._lock:
                found = self._values.get(name)
                if found is None:
                    found = self._entry.load_value(name) if self._entry is not None else None
                    if not isinstance(found, kind):
                        found = compute()
                        if self._entry is not None:
                            self._entry.store_value(name, found)
                    self._values[name] = found
        return found  # type: ignore[return-value]

    def compile_all(self) -> None:
        """Compile every generated module and compute every analysis now (filling the cache)."""
        for role in self.roles:
            self.percept_moves(role)

    def _indices(self, joint: Sequence[Term]) -> tuple[int, ...]:
        if len(joint) != len(self.roles):
            raise ReasonerError(f"a joint move needs {len(self.roles)} moves, got {len(joint)}")
        try:
            return tuple(table[move] for table, move in zip(self._move_index, joint))
        except KeyError as exc:
            raise ReasonerError(f"move {exc.args[0]} can never be legal in this game") from None

    def percept_moves(self, role: Constant) -> PerceptMoves:
        """Per percept ``role`` can see that reveals moves, the moves it reveals (see
        :mod:`ggp.reasoner.percept_moves`)."""
        r = self._role_index.get(role)
        if r is None:
            return {}

        def compute() -> PerceptMoves:
            from ggp.reasoner.percept_moves import percept_moves

            return percept_moves(self.network, r)

        return self._derived(f"percept_moves{r}", dict, compute)

    def _goal_order(self) -> GoalOrder:
        """The reading of several goal values for one role (made when first needed)."""
        from ggp.reasoner.goal_order import GoalOrder

        if self._order is None:
            self._order = GoalOrder(self.description)
        return self._order


class FastMachine(GroundMachine):
    """A state machine evaluating the ground network with generated straight-line Python.

    With ``cache=True`` the machine is loaded from the disk cache when it is there, and what is
    built is stored there (see :mod:`ggp.reasoner.cache`; ``from_cache`` says which happened).
    """

    def _load_code(self) -> None:
        self._initial = PackedState(self._face.init, self._fluents)
        main = self.module("main")
        self._analyze: Callable[[bytes], Analysis] = _entry(main, "analyze")
        self._goals: Callable[[bytes], tuple[list[int], ...]] = _entry(main, "goals")
        self._step: Callable[[bytes, tuple[int, ...]], bytes] = _entry(main, "step")
        self._playout: Callable[[bytes, Callable[[int], int], int], tuple[bytes, int, bool]] = main["playout"]
        self._step_sees: Callable[[bytes, tuple[int, ...]], tuple[bytes, list[int]]] | None = None
        self._role_sees: list[Callable[[bytes, tuple[int, ...]], list[int]] | None] = [None] * len(self.roles)

    def compile_all(self) -> None:
        """Compile every generated module and compute every analysis now (filling the cache)."""
        self.module("sees")
        for r, role in enumerate(self.roles):
            if self._seen_terms[r]:
                self.module(f"sees{r}")
            self.percept_moves(role)

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

    def move_domain(self, role: Constant) -> tuple[Term, ...] | None:
        """Every move of ``role`` in the ground network, sorted (None for an unknown role)."""
        r = self._role_index.get(role)
        return None if r is None else self._moves[r]

    def percept_domain(self, role: Constant) -> tuple[Term, ...] | None:
        """Every ``sees`` term of ``role`` in the ground network, sorted (None for an unknown role)."""
        r = self._role_index.get(role)
        return None if r is None else self._seen_terms[r]

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
                result[role] = self._goal_order().value(state.fluents, role, values)
            elif values:
                result[role] = values[0]
        return result

    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The successor state."""
        return PackedState(self._step(self._packed(state).bits, self._indices(joint)), self._fluents)

    def percepts(self, state: State, joint: Sequence[Term]) -> dict[Constant, frozenset[Term]]:
        """What each role sees on the transition."""
        return self.transition(state, joint)[1]

    def transition(self, state: State, joint: Sequence[Term]) -> tuple[State, dict[Constant, frozenset[Term]]]:
        """The next state and every role's percepts, from one generated transition."""
        step_sees = self._step_sees
        if step_sees is None:
            step_sees = self._step_sees = _entry(self.module("sees"), "step_sees")
        bits, seen = step_sees(self._packed(state).bits, self._indices(joint))
        per_role: list[set[Term]] = [set() for _ in self.roles]
        for i in seen:
            r, term = self._sees[i]
            per_role[r].add(term)
        return PackedState(bits, self._fluents), {role: frozenset(p) for role, p in zip(self.roles, per_role)}

    def role_percepts(self, state: State, joint: Sequence[Term], role: Constant) -> frozenset[Term]:
        """What ``role`` sees on the transition, from a function computing only its percepts."""
        r = self._role_index.get(role)
        if r is None or not self._seen_terms[r]:
            return frozenset()
        role_sees = self._role_sees[r]
        if role_sees is None:
            role_sees = self._role_sees[r] = _entry(self.module(f"sees{r}"), "role_sees")
        terms = self._seen_terms[r]
        return frozenset([terms[i] for i in role_sees(self._packed(state).bits, self._indices(joint))])

    def depth_charge(self, state: State, rng: random.Random, max_steps: int) -> tuple[State, int, bool]:
        """A uniform random playout in one generated loop (same choices as the generic one)."""
        try:
            bits, steps, finished = self._playout(self._packed(state).bits, rng.randrange, max_steps)
        except IndexError:
            raise ReasonerError("a role has no legal move in a non-terminal state") from None
        return PackedState(bits, self._fluents), steps, finished
