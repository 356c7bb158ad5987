"""Reasoning about GDL-II games: the state machine interface and its implementations.

``make_machine(description)`` gives the fast reasoner (clingo grounds once, a propositional
network evaluates), or the clingo-per-query oracle for games too large to ground whole;
``"fast"`` and ``"oracle"`` ask for one of them.
"""

from __future__ import annotations

import logging

from ggp.gdl.rules import GameDescription
from ggp.reasoner.machine import FluentState, JointMove, State, StateMachine

log = logging.getLogger(__name__)

#: Digests of games found too large to ground in this process, with the reason.
_TOO_LARGE: dict[str, str] = {}

#: The reasoner names accepted by :func:`make_machine` and ``--reasoner``.
REASONERS = ("auto", "fast", "oracle")


def make_machine(description: GameDescription, reasoner: str = "auto") -> StateMachine:
    """A state machine for ``description``.

    ``"fast"``: the ground network; ``"oracle"``: clingo per query; ``"auto"`` (default): the
    fast one unless the game grounds to more rules than its budget, then the oracle.
    """
    from ggp.reasoner.domains import GroundingTooLarge
    from ggp.reasoner.fast import FastMachine
    from ggp.reasoner.oracle import OracleMachine

    if reasoner == "oracle":
        return OracleMachine(description)
    if reasoner == "fast":
        return FastMachine(description)
    if reasoner == "auto":
        digest = description.digest()
        if digest not in _TOO_LARGE:
            try:
                return FastMachine(description)
            except GroundingTooLarge as exc:
                _TOO_LARGE[digest] = str(exc)
        log.warning("%s: %s; using the clingo oracle", description.source or "game", _TOO_LARGE[digest])
        return OracleMachine(description)
    raise ValueError(f"unknown reasoner {reasoner!r}; choose one of {', '.join(REASONERS)}")


__all__ = ["REASONERS", "FluentState", "JointMove", "State", "StateMachine", "make_machine"]
