"""The prior probability of the moves a role does not see: ``random`` uniform, others modelled.

GDL-II defines ``random`` to choose uniformly among its legal moves. The other roles' moves are
uniform too unless a :class:`MoveModel` says otherwise (a player's opponent model). A history's
prior probability is the product of these move probabilities over its steps.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

from ggp.errors import GGPError
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.machine import FluentState, State
from ggp.reasoner.temporal import HistoryRecord


class MoveModel(Protocol):
    """Relative probabilities of ``role``'s ``legal`` moves in ``state`` (same order, >= 0)."""

    def __call__(self, role: Constant, state: State, legal: tuple[Term, ...]) -> Sequence[float]: ...


class MoveModelError(GGPError, ValueError):
    """A move model returned something that is not a probability distribution over the moves."""


class Prior:
    """Move probabilities of the unobserved roles: uniform, or from ``model`` for non-random roles."""

    def __init__(self, model: MoveModel | None = None):
        self.model = model

    @property
    def needs_states(self) -> bool:
        """True when the probabilities depend on the state (a model is set)."""
        return self.model is not None

    def probabilities(self, role: Constant, legal: tuple[Term, ...], state: State | frozenset[Term] | None) -> Mapping[Term, float]:
        """The probability of each legal move of ``role`` (``state`` needed only with a model)."""
        if not legal:
            return {}
        if self.model is None or role == RANDOM:
            return dict.fromkeys(legal, 1.0 / len(legal))
        if state is None:
            raise ValueError("a move model needs the state")
        if not isinstance(state, State):
            state = FluentState(state)
        weights = [float(w) for w in self.model(role, state, legal)]
        if len(weights) != len(legal) or not all(math.isfinite(w) and w >= 0 for w in weights):
            raise MoveModelError(f"the move model gave {weights} for the {len(legal)} legal moves of {role}")
        total = sum(weights)
        if total <= 0:
            raise MoveModelError(f"the move model gives every legal move of {role} probability 0")
        return {move: w / total for move, w in zip(legal, weights)}

    def of_history(self, record: HistoryRecord, roles: tuple[Constant, ...], observer: Constant) -> float:
        """The prior probability of the unobserved roles' moves in ``record``."""
        p = 1.0
        for t, joint in enumerate(record.joints):
            for role, move in zip(roles, joint):
                if role == observer:
                    continue
                if self.model is None or role == RANDOM:
                    p /= record.legal_counts[t][role]
                else:
                    assert record.legal is not None and record.states is not None
                    p *= self.probabilities(role, record.legal[t][role], record.states[t])[move]
        return p
