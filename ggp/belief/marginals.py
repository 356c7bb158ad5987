"""What a role knows, fluent by fluent: certain facts, and where each hidden thing may be.

From a weighted set of states (the exact information set, or particles) :func:`marginals`
gives the probability of every fluent, and for every key of a positional relation (where a
card is; :mod:`ggp.belief.positions`) the probability of each of its values: the card
tracker's "mine, an opponent's, unknown, played", generalised to any game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ggp.belief.positions import Positions, Relation
from ggp.gdl.terms import Term, sort_key
from ggp.reasoner.machine import State

#: Probabilities this close to 0 or 1 count as 0 or 1.
EPSILON = 1e-9


@dataclass(frozen=True)
class Marginals:
    """Fluent and position probabilities over a weighted set of states.

    ``fluents`` maps every fluent true in some state to its probability; ``places`` maps each
    key of a positional relation, as ``(relation, key)``, to the probability of each value.
    ``exact`` says whether the states were the whole information set (else particles).
    """

    fluents: Mapping[Term, float]
    places: Mapping[tuple[Relation, tuple[Term, ...]], Mapping[Term, float]]
    exact: bool

    def certain(self) -> frozenset[Term]:
        """The fluents that hold in every state."""
        return frozenset(f for f, p in self.fluents.items() if p >= 1 - EPSILON)

    def hidden(self) -> dict[tuple[Relation, tuple[Term, ...]], Mapping[Term, float]]:
        """The positional keys whose value is uncertain, with their distributions."""
        return {k: v for k, v in self.places.items() if max(v.values(), default=0.0) < 1 - EPSILON}

    def entropy(self) -> float:
        """The sum, over uncertain positional keys and uncertain other fluents, of their
        entropies (nats): treating them as independent, ``exp`` of it estimates how many
        states the role cannot tell apart (an overestimate where they are correlated)."""
        total = 0.0
        placed: set[Term] = set()
        for (relation, key), values in self.places.items():
            for value, p in values.items():
                placed.add(Positions.join((relation, key, value)))
                if EPSILON < p < 1 - EPSILON:
                    total -= p * math.log(p)
        for fluent, p in self.fluents.items():
            if fluent not in placed and EPSILON < p < 1 - EPSILON:
                total -= p * math.log(p) + (1 - p) * math.log(1 - p)
        return total


def marginals(weighted: Mapping[State, float], positions: Positions, exact: bool) -> Marginals:
    """The marginals of ``weighted`` (state to probability, summing to one)."""
    fluents: dict[Term, float] = {}
    places: dict[tuple[Relation, tuple[Term, ...]], dict[Term, float]] = {}
    for state, p in weighted.items():
        for fluent in state.fluents:
            fluents[fluent] = fluents.get(fluent, 0.0) + p
            split = positions.split(fluent)
            if split is not None:
                relation, key, value = split
                values = places.setdefault((relation, key), {})
                values[value] = values.get(value, 0.0) + p
    ordered = {f: min(1.0, fluents[f]) for f in sorted(fluents, key=sort_key)}
    sorted_places = {
        k: dict(sorted(v.items(), key=lambda item: (-item[1], sort_key(item[0]))))
        for k, v in sorted(places.items(), key=lambda item: (item[0][0], [sort_key(t) for t in item[0][1]]))
    }
    return Marginals(ordered, sorted_places, exact)
