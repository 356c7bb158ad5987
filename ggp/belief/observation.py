"""What a role is told about one step of a match: the only input a belief is updated with."""

from __future__ import annotations

from dataclasses import dataclass

from ggp.gdl.terms import Term
from ggp.reasoner.machine import JointMove


@dataclass(frozen=True)
class Observation:
    """One step as a role saw it.

    ``move`` is the move the role made and ``percepts`` what that step let it see (GDL-II); None
    means the manager did not say. ``joint`` is the whole joint move, in role order, when the
    manager told it (GDL messages): then the step holds no secret.
    """

    move: Term | None
    percepts: frozenset[Term] | None = frozenset()
    joint: JointMove | None = None

    def __str__(self) -> str:
        if self.joint is not None:
            return "(" + " ".join(map(str, self.joint)) + ")"
        seen = "?" if self.percepts is None else "(" + " ".join(sorted(map(str, self.percepts))) + ")"
        return f"{self.move if self.move is not None else '?'} {seen}"
