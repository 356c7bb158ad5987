"""Reasoning about GDL-II games: the state machine interface and its implementations.

``make_machine(description)`` gives the fast reasoner (clingo grounds once, a propositional
network evaluates), or the clingo-per-state oracle for games too large to ground whole;
``"fast"`` and ``"oracle"`` ask for one of them. Fast machines come from the disk cache when
another process built them before (:mod:`ggp.reasoner.cache`); :func:`warm` builds and stores
everything a game's machine compiles lazily, so that the processes started next find it all.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from ggp.gdl.rules import GameDescription
from ggp.reasoner.machine import FluentState, JointMove, State, StateMachine

if TYPE_CHECKING:
    from ggp.reasoner.fast import FastMachine

log = logging.getLogger(__name__)

#: Digests of games found too large to ground in this process, with the reason.
_TOO_LARGE: dict[str, str] = {}
#: Fast machines built in this process, by game digest (a few, least recently used dropped):
#: they are immutable once built, so the players and the manager of one process share them.
_SHARED: OrderedDict[str, FastMachine] = OrderedDict()
_SHARED_KEPT = 4
_BUILDING: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()

#: The reasoner names accepted by :func:`make_machine` and ``--reasoner``.
REASONERS = ("auto", "fast", "oracle")


def make_machine(description: GameDescription, reasoner: str = "auto") -> StateMachine:
    """A state machine for ``description``.

    ``"fast"``: the ground network; ``"oracle"``: clingo per state; ``"auto"`` (default): the
    fast one unless the game grounds to more rules than its budget, then the oracle.
    """
    from ggp.reasoner.domains import GroundingTooLarge

    if reasoner == "oracle":
        from ggp.reasoner.oracle import OracleMachine

        return OracleMachine(description)
    if reasoner == "fast":
        return _shared_fast(description)
    if reasoner == "auto":
        digest = description.digest()
        if digest not in _TOO_LARGE:
            try:
                return _shared_fast(description, digest)
            except GroundingTooLarge:
                pass  # _shared_fast remembered the verdict
        log.warning("%s: %s; using the clingo oracle", description.source or "game", _TOO_LARGE[digest])
        from ggp.reasoner.oracle import OracleMachine  # imported only when needed: a costly import

        return OracleMachine(description)
    raise ValueError(f"unknown reasoner {reasoner!r}; choose one of {', '.join(REASONERS)}")


def _shared_fast(description: GameDescription, digest: str | None = None) -> FastMachine:
    """The fast machine of ``description`` (whose digest may be given), built once per process
    even when several threads (in-process players, the manager) ask for it at the same time."""
    from ggp.reasoner.domains import GroundingTooLarge
    from ggp.reasoner.fast import FastMachine

    digest = digest or description.digest()
    with _GUARD:
        building = _BUILDING.setdefault(digest, threading.Lock())
    waited = not building.acquire(blocking=False)
    if waited:
        building.acquire()
    try:
        with _GUARD:
            machine = _SHARED.get(digest)
            if machine is not None:
                _SHARED.move_to_end(digest)
                return machine
            if waited and digest in _TOO_LARGE:  # the thread we waited for found it too large
                raise GroundingTooLarge(_TOO_LARGE[digest])
        try:
            machine = FastMachine(description, cache=True)
        except GroundingTooLarge as exc:
            with _GUARD:
                _TOO_LARGE[digest] = str(exc)
            raise
        with _GUARD:
            _SHARED[digest] = machine
            while len(_SHARED) > _SHARED_KEPT:
                _SHARED.popitem(last=False)
            _BUILDING.pop(digest, None)
        return machine
    finally:
        building.release()


def warm(description: GameDescription, reasoner: str = "auto") -> StateMachine:
    """:func:`make_machine`, and for a fast machine every generated module compiled and every
    analysis computed now: a game manager calls it before START so that its players' processes
    load the whole machine from the cache."""
    from ggp.reasoner.fast import FastMachine

    machine = make_machine(description, reasoner)
    if isinstance(machine, FastMachine):
        machine.compile_all()
    return machine


__all__ = ["REASONERS", "FluentState", "JointMove", "State", "StateMachine", "make_machine", "warm"]
