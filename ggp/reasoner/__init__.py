"""Reasoning about GDL-II games: the state machine interface and its implementations.

``make_machine(description)`` gives the fast reasoner (clingo grounds once, a propositional
network evaluates); ``make_machine(description, "oracle")`` the clingo-per-query oracle.
"""

from __future__ import annotations

from ggp.gdl.rules import GameDescription
from ggp.reasoner.machine import FluentState, JointMove, State, StateMachine

#: The reasoner names accepted by :func:`make_machine` and ``--reasoner``.
REASONERS = ("fast", "oracle")


def make_machine(description: GameDescription, reasoner: str = "fast") -> StateMachine:
    """A state machine for ``description``: ``"fast"`` (default) or ``"oracle"``."""
    if reasoner == "oracle":
        from ggp.reasoner.oracle import OracleMachine

        return OracleMachine(description)
    if reasoner == "fast":
        from ggp.reasoner.fast import FastMachine

        return FastMachine(description)
    raise ValueError(f"unknown reasoner {reasoner!r}; choose one of {', '.join(REASONERS)}")


__all__ = ["REASONERS", "FluentState", "JointMove", "State", "StateMachine", "make_machine"]
