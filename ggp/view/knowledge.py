"""What a viewer knows of a state: everything (the omniscient view of a record), or what one
role knows (its belief: the facts it is sure of, and how likely the others are)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ggp.belief import Belief
from ggp.belief.marginals import EPSILON
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.machine import State


@dataclass(frozen=True)
class Knowledge:
    """The fluents a viewer knows to hold, and for the rest their chances.

    ``role`` is None for the omniscient view (``known`` is then the whole state). ``chances``
    maps each fluent the viewer thinks possible but is not sure of to its probability;
    ``places`` gives, for keys of positional relations (``(at CARD LOC)``: the card), each
    value's probability, as ``places[(relation, key)][value]``. ``exact`` says whether the
    chances are exact or estimated from particles.
    """

    known: frozenset[Term]
    role: Constant | None = None
    chances: Mapping[Term, float] = field(default_factory=dict)
    places: Mapping[tuple[tuple[str, int], tuple[Term, ...]], Mapping[Term, float]] = field(default_factory=dict)
    exact: bool = True

    @classmethod
    def of_state(cls, state: State) -> Knowledge:
        """Everything: the omniscient view of ``state``."""
        return cls(state.fluents)

    @classmethod
    def of_belief(cls, belief: Belief) -> Knowledge:
        """What ``belief``'s role knows."""
        marginals = belief.marginals()
        known = belief.known()
        chances = {f: p for f, p in marginals.fluents.items() if f not in known and p > EPSILON}
        return cls(known, belief.role, chances, marginals.places, marginals.exact)

    def chance(self, fluent: Term) -> float:
        """The probability of ``fluent``: 1 when known, else its chance (0 when impossible)."""
        return 1.0 if fluent in self.known else self.chances.get(fluent, 0.0)
