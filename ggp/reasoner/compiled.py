"""The compiled reasoner: the ground network as native code (``--reasoner compiled``).

The game is grounded and turned into a network exactly as for the fast reasoner
(:class:`~ggp.reasoner.fast.GroundMachine`); :mod:`ggp.reasoner.ccode` writes it as C with the
same rule layout, :mod:`ggp.reasoner.native` compiles that with the runtime (``native.c``) into
an extension module, once per game and generator version (kept in the disk cache). States are
:class:`BitState` values, a bit set of 64-bit words. Every query is one call into the module,
and the loops that make many queries run there whole: random playouts (:meth:`depth_charge`,
:meth:`playout_totals`), perft, and the batches a particle filter makes
(:meth:`role_percepts_match`, :meth:`next_states`). Playouts draw from the ``random.Random``
passed in exactly as the generic loop does, so a seed gives the same playout as with any other
reasoner.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ggp.errors import ReasonerError
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.fast import GroundMachine
from ggp.reasoner.machine import PlayoutTotals, State
from ggp.reasoner.native import Built, compile_source, file_digest, load, module_name

log = logging.getLogger(__name__)

_direct: list[bool] = []
_direct_guard = threading.Lock()


class _Table:
    """The terms behind a machine's fluent indices and the native decoder of its states."""

    __slots__ = ("decode", "terms")

    def __init__(self, terms: tuple[Term, ...], decode: Callable[[bytes], list[int]]):
        self.terms = terms
        self.decode = decode


class BitState(State):
    """A state as the bytes of a bit set of 64-bit little-endian words, fluent ``k`` at bit ``k``."""

    __slots__ = ("_hash", "_table", "analysis", "bits")

    def __init__(self, bits: bytes, table: _Table):
        self.bits = bits
        self._table = table
        self.analysis: tuple[tuple[list[int], ...], Any] | None = None
        self._hash = hash(bits)

    @property
    def fluents(self) -> frozenset[Term]:
        """The fluents whose bit is set."""
        terms = self._table.terms
        return frozenset([terms[i] for i in self._table.decode(self.bits)])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BitState) and self.bits == other.bits and self._table is other._table

    def __hash__(self) -> int:
        return self._hash


def code_cached(digest: str) -> bool:
    """Whether the disk cache holds the compiled code of the game with this digest (loading it
    takes a moment; building it, up to minutes for a large game)."""
    from ggp.reasoner.cache import CacheEntry

    entry = CacheEntry.for_game(digest)
    info = entry.load_value("compiled") if entry is not None else None
    return (entry is not None and isinstance(info, dict) and isinstance(info.get("name"), str)
            and (entry.directory / f"{info['name']}.so").is_file())


def draws_directly(module: Any) -> bool:
    """Whether the compiled runtime draws from a ``random.Random``'s own state exactly as
    ``randrange`` does on this Python (checked once per process on fresh generators)."""
    with _direct_guard:
        if not _direct:
            ok = True
            try:
                for n in (2, 3, 5, 7, 64, 100, 1000, 65_537, 2**31 - 1):
                    ours, theirs = random.Random(n), random.Random(n)
                    ours.random(), theirs.random()
                    if tuple(module.mt_state(ours)) != tuple(ours.getstate()[1]):
                        ok = False
                        break
                    drawn = module.draws(ours, n, 700, True)  # past one regeneration of the state
                    if drawn != [theirs.randrange(n) for _ in range(700)] or ours.getstate() != theirs.getstate():
                        ok = False
                        break
            except Exception as exc:  # noqa: BLE001 - any failure means: call randrange instead
                log.debug("compiled reasoner: direct draws disabled (%s)", exc)
                ok = False
            if not ok:
                log.info("compiled reasoner: this Python's random differs from the runtime's; playouts call randrange")
            _direct.append(ok)
    return _direct[0]


class CompiledMachine(GroundMachine):
    """A state machine running the ground network as compiled C (see the module doc).

    Raises :class:`~ggp.errors.ReasonerError` when the game cannot be compiled here (no C
    compiler: :func:`ggp.reasoner.native.unavailable` says why) and
    :class:`~ggp.reasoner.domains.GroundingTooLarge` when it does not ground.
    ``compile_seconds`` and ``generate_seconds`` are what building the code took (also when it
    came from the cache: the figures of the build that filled it), ``code_from_cache`` whether
    it did.
    """

    def _load_code(self) -> None:
        built = self._native_code()
        self._native = native = built.module
        self.module_name = built.name
        self.generate_seconds = built.generate_seconds
        self.compile_seconds = built.compile_seconds
        self.source_bytes = built.source_bytes
        self.code_from_cache = built.from_cache
        self._bytes = int(native.WORDS) * 8
        self._table = _Table(self._fluents, native.fluents)
        self._initial = BitState(self._pack(i for i, b in enumerate(self._face.init) if b), self._table)
        self._wanted: list[dict[frozenset[Term], bytes | None]] = [{} for _ in self.roles]
        self._seen_index = [{t: i for i, t in enumerate(terms)} for terms in self._seen_terms]

    def _native_code(self) -> Built:
        entry = self._entry
        if entry is not None:
            info = entry.load_value("compiled")
            if isinstance(info, dict) and isinstance(info.get("name"), str):
                path = entry.directory / f"{info['name']}.so"
                if file_digest(path) == info.get("sha256"):
                    try:
                        module = load(info["name"], path)
                        return Built(module, info["name"], info["generate"], info["compile"], info["bytes"], True)
                    except (ReasonerError, KeyError) as exc:
                        log.debug("cache: %s does not load (%s); compiling again", path, exc)
        from ggp.reasoner.ccode import generate_c

        start = time.perf_counter()
        source = generate_c(self.network)
        generate = time.perf_counter() - start
        name = module_name(source)
        if entry is not None:
            path = entry.directory / f"{name}.so"
            seconds = compile_source(source, name, path)
            module = load(name, path)
            entry.store_value("compiled", {"name": name, "sha256": file_digest(path), "generate": generate,
                                           "compile": seconds, "bytes": len(source)})
        else:
            import tempfile

            with tempfile.TemporaryDirectory(prefix="ggp-game-") as folder:
                path = Path(folder) / f"{name}.so"
                seconds = compile_source(source, name, path)
                module = load(name, path)
        log.info("compiled %s in %.2f s (C generated in %.2f s, %d bytes)",
                 self.description.source or "the game", seconds, generate, len(source))
        return Built(module, name, generate, seconds, len(source), False)

    # -- internal helpers ----------------------------------------------------------------------

    def _pack(self, indices: Iterable[int]) -> bytes:
        value = 0
        for i in indices:
            value |= 1 << i
        return value.to_bytes(self._bytes, "little")

    def _state(self, state: State) -> BitState:
        if isinstance(state, BitState) and state._table is self._table:
            return state
        return self.state_from_fluents(state.fluents)

    def _analysis(self, state: BitState) -> tuple[tuple[list[int], ...], Any]:
        result = state.analysis
        if result is None:
            result = state.analysis = self._native.analyze(state.bits)
        return result

    def _mask(self, r: int, percepts: frozenset[Term]) -> bytes | None:
        """One byte per percept of role ``r``, 1 for those in ``percepts`` (None: some percept
        in it is one the role can never see)."""
        cache = self._wanted[r]
        if percepts not in cache:
            index = self._seen_index[r]
            mask: bytearray | None = bytearray(len(self._seen_terms[r]))
            for term in percepts:
                i = index.get(term)
                if i is None or mask is None:
                    mask = None
                    break
                mask[i] = 1
            if len(cache) > 4096:
                cache.clear()
            cache[percepts] = None if mask is None else bytes(mask)
        return cache[percepts]

    # -- the state machine ---------------------------------------------------------------------

    def initial_state(self) -> State:
        """The initial state."""
        return self._initial

    def state_from_fluents(self, fluents: Iterable[Term]) -> BitState:
        """The state of ``fluents``; every fluent must be in the reachable domain."""
        indices = []
        for fluent in fluents:
            index = self._fluent_index.get(fluent)
            if index is None:
                raise ReasonerError(f"fluent {fluent} can never hold in this game")
            indices.append(index)
        return BitState(self._pack(indices), self._table)

    def legal_moves(self, state: State, role: Constant) -> tuple[Term, ...]:
        """The role's legal moves, sorted."""
        r = self.roles.index(role)
        moves = self._moves[r]
        return tuple([moves[m] for m in self._analysis(self._state(state))[0][r]])

    def all_legal_moves(self, state: State) -> tuple[tuple[Term, ...], ...]:
        """Every role's legal moves from one evaluation."""
        lists = self._analysis(self._state(state))[0]
        return tuple(tuple([self._moves[r][m] for m in lst]) for r, lst in enumerate(lists))

    def is_terminal(self, state: State) -> bool:
        """Whether ``terminal`` holds."""
        return bool(self._analysis(self._state(state))[1])

    def goals(self, state: State) -> dict[Constant, int]:
        """Each role's goal value (roles without one absent)."""
        result: dict[Constant, int] = {}
        for role, values in zip(self.roles, self._native.goals(self._state(state).bits)):
            if len(values) > 1:
                result[role] = self._goal_order().value(state.fluents, role, values)
            elif values:
                result[role] = values[0]
        return result

    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The successor state."""
        return BitState(self._native.step(self._state(state).bits, self._indices(joint)), self._table)

    def next_states(self, state: State, joints: Sequence[Sequence[Term]]) -> list[State]:
        """The successor state for each joint move, in one native call."""
        table = self._table
        found = self._native.steps(self._state(state).bits, [self._indices(j) for j in joints])
        return [BitState(bits, table) for bits in found]

    def percepts(self, state: State, joint: Sequence[Term]) -> dict[Constant, frozenset[Term]]:
        """What each role sees on the transition."""
        _, seen = self._native.step_sees(self._state(state).bits, self._indices(joint))
        per_role: list[set[Term]] = [set() for _ in self.roles]
        for i in seen:
            r, term = self._sees[i]
            per_role[r].add(term)
        return {role: frozenset(p) for role, p in zip(self.roles, per_role)}

    def role_percepts(self, state: State, joint: Sequence[Term], role: Constant) -> frozenset[Term]:
        """What ``role`` sees on the transition, computing only its percepts."""
        r = self._role_index.get(role)
        if r is None or not self._seen_terms[r]:
            return frozenset()
        terms = self._seen_terms[r]
        return frozenset([terms[i] for i in self._native.role_sees(r, self._state(state).bits, self._indices(joint))])

    def role_percepts_match(self, state: State, joints: Sequence[Sequence[Term]], role: Constant,
                            percepts: frozenset[Term]) -> list[bool]:
        """For each joint move, whether ``role`` sees exactly ``percepts``: one native call."""
        r = self._role_index.get(role)
        if r is None or not self._seen_terms[r]:
            return [not percepts] * len(joints)
        mask = self._mask(r, percepts)
        indices = [self._indices(j) for j in joints]
        if mask is None:
            return [False] * len(joints)
        result: list[bool] = self._native.role_sees_match(r, self._state(state).bits, indices, mask)
        return result

    def depth_charge(self, state: State, rng: random.Random, max_steps: int) -> tuple[State, int, bool]:
        """A uniform random playout in one native call (the same draws as the generic loop)."""
        direct = type(rng) is random.Random and draws_directly(self._native)
        bits, steps, status = self._native.playout(self._state(state).bits, rng, max_steps, direct)
        if status == -2:
            raise ReasonerError("a role has no legal move in a non-terminal state")
        return BitState(bits, self._table), steps, status == 1

    def playout_totals(self, state: State, rng: random.Random, count: int, max_steps: int) -> PlayoutTotals:
        """``count`` random playouts from ``state`` in one native call, summed."""
        direct = type(rng) is random.Random and draws_directly(self._native)
        snapshot = rng.getstate()
        status, steps, unfinished, sums, counts, several = self._native.playouts(
            self._state(state).bits, rng, count, max_steps, direct)
        if status == -2:
            raise ReasonerError("a role has no legal move in a non-terminal state")
        if several >= 0:
            # A role with several goal values at an end: the same playouts again, one by one,
            # each end's goals read as the GameController reads them (the first rule that holds).
            rng.setstate(snapshot)
            return super().playout_totals(state, rng, count, max_steps)
        return PlayoutTotals(count, steps, unfinished,
                             {role: s for role, s, c in zip(self.roles, sums, counts) if c},
                             {role: c for role, c in zip(self.roles, counts) if c})

    def perft(self, state: State, depth: int) -> int:
        """The number of joint-move sequences of ``depth`` steps from ``state``, counted natively."""
        if depth < 0:
            raise ValueError("perft depth must be 0 or more")
        count: int = self._native.perft(self._state(state).bits, depth)
        return count
