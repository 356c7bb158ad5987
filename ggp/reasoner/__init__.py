"""Reasoning about GDL-II games: the state machine interface and its implementations.

``make_machine(description)`` gives the compiled reasoner (clingo grounds once, the network
runs as C compiled for the game) where a C compiler is present, else the fast reasoner (the
same network as generated Python), or the clingo-per-state oracle for games too large to
ground whole; ``"compiled"``, ``"fast"`` and ``"oracle"`` ask for one of them. Given a time
``budget`` (a player's start clock), ``auto`` compiles a game not compiled before in the
background and answers with the fast reasoner when the compiler is not done in time (a large
card game's C takes minutes to compile); the next match of the game finds it compiled. Ground machines
come from the disk cache when another process built them before (:mod:`ggp.reasoner.cache`);
:func:`warm` builds and stores everything a game's machine compiles lazily, so that the
processes started next find it all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING

from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.reasoner.machine import FluentState, JointMove, State, StateMachine

if TYPE_CHECKING:
    from ggp.reasoner.fast import GroundMachine

log = logging.getLogger(__name__)

#: Digests of games found too large to ground in this process, with the reason.
_TOO_LARGE: dict[str, str] = {}
#: Digests of games the C compiler failed on in this process, with the reason (``auto`` then
#: uses the fast reasoner for them).
_NOT_COMPILED: dict[str, str] = {}
#: Ground machines built in this process, by kind and game digest (a few, least recently used
#: dropped): they are immutable once built, so the players and the manager of one process share them.
_SHARED: OrderedDict[tuple[str, str], GroundMachine] = OrderedDict()
_SHARED_KEPT = 4
_BUILDING: dict[tuple[str, str], threading.Lock] = {}
#: Compilations running in the background, by game digest.
_PENDING: dict[str, Future[StateMachine]] = {}
_GUARD = threading.Lock()
_WARNED: set[str] = set()

#: The reasoner names accepted by :func:`make_machine` and ``--reasoner``.
REASONERS = ("auto", "compiled", "fast", "oracle")


def _warn_once(key: str, message: str) -> None:
    with _GUARD:
        if key in _WARNED:
            return
        _WARNED.add(key)
    log.warning("%s", message)


def compiled_unavailable() -> str | None:
    """Why the compiled reasoner cannot be used on this machine (no C compiler, no Python
    headers), or None when it can."""
    from ggp.reasoner.native import unavailable

    return unavailable()


def make_machine(description: GameDescription, reasoner: str = "auto", budget: float | None = None) -> StateMachine:
    """A state machine for ``description``.

    ``"compiled"``: the ground network as compiled C (a :class:`~ggp.errors.ReasonerError`
    when there is no C compiler); ``"fast"``: the ground network as generated Python;
    ``"oracle"``: clingo per state; ``"auto"`` (default): the compiled one when a C compiler is
    present (else, with one warning per process, the fast one), and the oracle for a game that
    grounds to more rules than the budget. With ``budget`` (seconds), ``auto`` waits for a
    compilation no longer than that (from the call) and answers with the fast machine if it is
    not done, the compilation going on in the background (:func:`compiled_later`).
    """
    from ggp.reasoner.domains import GroundingTooLarge

    if reasoner == "oracle":
        from ggp.reasoner.oracle import OracleMachine

        return OracleMachine(description)
    if reasoner == "fast":
        return _shared(description, "fast")
    if reasoner == "compiled":
        problem = compiled_unavailable()
        if problem is not None:
            raise ReasonerError(f"the compiled reasoner is unavailable: {problem}")
        return _shared(description, "compiled")
    if reasoner == "auto":
        digest = description.digest()
        if digest not in _TOO_LARGE:
            try:
                problem = compiled_unavailable()
                if problem is None and digest not in _NOT_COMPILED:
                    if budget is not None and not _compiled_ready(digest):
                        return _within(description, digest, time.monotonic() + budget)
                    try:
                        return _shared(description, "compiled", digest)
                    except GroundingTooLarge:
                        raise
                    except ReasonerError as exc:
                        _NOT_COMPILED[digest] = str(exc)
                        log.warning("%s: %s; using the fast reasoner", description.source or "game", exc)
                elif problem is not None:
                    _warn_once("compiler", f"the compiled reasoner is unavailable: {problem}; "
                                           "using the fast reasoner (pure Python)")
                return _shared(description, "fast", digest)
            except GroundingTooLarge:
                pass  # _shared remembered the verdict
        log.warning("%s: %s; using the clingo oracle", description.source or "game", _TOO_LARGE[digest])
        from ggp.reasoner.oracle import OracleMachine  # imported only when needed: a costly import

        return OracleMachine(description)
    raise ValueError(f"unknown reasoner {reasoner!r}; choose one of {', '.join(REASONERS)}")


def _compiled_ready(digest: str) -> bool:
    """Whether the compiled machine of a game loads at once: built in this process, or its code
    in the disk cache."""
    from ggp.reasoner.compiled import code_cached

    with _GUARD:
        if ("compiled", digest) in _SHARED:
            return True
    return code_cached(digest)


def _within(description: GameDescription, digest: str, deadline: float) -> StateMachine:
    """The compiled machine if it is built by ``deadline`` (monotonic seconds), else the fast
    one, the compilation going on in the background."""
    fast = _shared(description, "fast", digest)  # the ground network, which the compiled machine reuses
    pending = compiled_later(description)
    try:
        return pending.result(timeout=max(deadline - time.monotonic(), 0.0))
    except FutureTimeout:
        log.info("%s: not compiled in time; the fast reasoner plays, the compiler goes on",
                 description.source or "game")
    except ReasonerError as exc:
        with _GUARD:
            _NOT_COMPILED[digest] = str(exc)
        log.warning("%s: %s; using the fast reasoner", description.source or "game", exc)
    return fast


def compiled_later(description: GameDescription) -> Future[StateMachine]:
    """The compiled machine of ``description``, built in a background thread (one build per
    game in the process; kept in the disk cache and for the process's next matches)."""
    digest = description.digest()
    with _GUARD:
        known = _PENDING.get(digest)
        if known is not None:
            return known
        pending: Future[StateMachine] = Future()
        _PENDING[digest] = pending

    def build() -> None:
        try:
            pending.set_result(_shared(description, "compiled", digest))
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits for it
            pending.set_exception(exc)
        finally:
            with _GUARD:
                _PENDING.pop(digest, None)

    threading.Thread(target=build, name=f"compile-{digest[:8]}", daemon=True).start()
    return pending


def _shared(description: GameDescription, kind: str, digest: str | None = None) -> GroundMachine:
    """The ground machine of ``kind`` (``fast`` or ``compiled``) for ``description`` (whose
    digest may be given), built once per process even when several threads (in-process
    players, the manager) ask for it at the same time."""
    from ggp.reasoner.compiled import CompiledMachine
    from ggp.reasoner.domains import GroundingTooLarge
    from ggp.reasoner.fast import FastMachine

    digest = digest or description.digest()
    key = (kind, digest)
    with _GUARD:
        building = _BUILDING.setdefault(key, threading.Lock())
    waited = not building.acquire(blocking=False)
    if waited:
        building.acquire()
    try:
        with _GUARD:
            machine = _SHARED.get(key)
            if machine is not None:
                _SHARED.move_to_end(key)
                return machine
            if waited and digest in _TOO_LARGE:  # the thread we waited for found it too large
                raise GroundingTooLarge(_TOO_LARGE[digest])
        try:
            machine = (CompiledMachine if kind == "compiled" else FastMachine)(description, cache=True)
        except GroundingTooLarge as exc:
            with _GUARD:
                _TOO_LARGE[digest] = str(exc)
            raise
        with _GUARD:
            _SHARED[key] = machine
            while len(_SHARED) > _SHARED_KEPT:
                _SHARED.popitem(last=False)
            _BUILDING.pop(key, None)
        return machine
    finally:
        building.release()


def warm(description: GameDescription, reasoner: str = "auto") -> StateMachine:
    """:func:`make_machine`, and for a ground machine every generated module compiled and every
    analysis computed now: a game manager calls it before START so that its players' processes
    load the whole machine from the cache."""
    from ggp.reasoner.fast import GroundMachine

    machine = make_machine(description, reasoner)
    if isinstance(machine, GroundMachine):
        machine.compile_all()
    return machine


__all__ = ["REASONERS", "FluentState", "JointMove", "State", "StateMachine", "compiled_later", "compiled_unavailable",
           "make_machine", "warm"]
