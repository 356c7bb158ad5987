"""A measured metric (:class:`Metric`) and the matches it is measured on (:class:`Dataset`).

Every metric is a plain function from a :class:`Dataset` to a :class:`Metric`: its name, the
family and document its definition follows, what it means in a sentence, and its
:class:`~ggp.analysis.stats.Estimate` (value, 95 % interval, sample size), with per-seat
estimates where it has them. A metric that the matches cannot define (no decisions, no
rollouts, one seat) has an empty estimate and a note saying why.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ggp.analysis.stats import Estimate, bootstrap_estimate, ratio
from ggp.analysis.trace import MatchTrace

#: The families of metrics, in the order a report lists them.
CARDSTOCK, TAG, CARDS = "CardStock", "TAG", "cards"


@dataclass(frozen=True)
class Dataset:
    """The traced matches of an analysis: ``main`` (the players under study; every metric but
    order), ``order`` (``strong`` against ``baseline`` players, rotated over the seats), the
    seats, and the seed of the bootstrap."""

    game: str
    seats: tuple[str, ...]
    main: tuple[MatchTrace, ...]
    order: tuple[MatchTrace, ...] = ()
    strong: str | None = None
    baseline: str = "random"
    seed: int = 0

    @property
    def finished(self) -> list[MatchTrace]:
        """The main matches that gave a result."""
        return [t for t in self.main if t.finished]

    @property
    def has_cards(self) -> bool:
        """True when the game's states place cards."""
        return any(t.cards for t in self.main)

    @property
    def rollouts(self) -> int:
        """The rollouts per option of the main matches (0: options were not valued)."""
        return max((t.rollouts for t in self.main), default=0)

    def rng(self, name: str) -> random.Random:
        """The bootstrap's generator for metric ``name`` (the same for the same seed)."""
        return random.Random(f"{self.seed}/{name}")


@dataclass(frozen=True)
class Metric:
    """A metric's measure (see the module doc). ``parts``: named figures that complete it
    (e.g. the strong player's win rate behind the order)."""

    name: str
    title: str
    family: str
    source: str
    meaning: str
    estimate: Estimate
    unit: str = ""
    by_seat: tuple[Estimate, ...] = ()
    parts: tuple[tuple[str, Estimate], ...] = ()
    note: str = ""

    @property
    def defined(self) -> bool:
        """True when the matches gave it a value."""
        return self.estimate.value is not None

    def to_json(self, seats: Sequence[str]) -> dict[str, Any]:
        """JSON-ready data: name, title, family, definition (its source), meaning, value,
        ci95, n, unit, and by_seat, parts and note where present."""
        out: dict[str, Any] = {"name": self.name, "title": self.title, "family": self.family,
                               "definition": self.source, "meaning": self.meaning, **self.estimate.to_json(),
                               "unit": self.unit}
        if self.by_seat:
            out["by_seat"] = {seat: e.to_json() for seat, e in zip(seats, self.by_seat)}
        if self.parts:
            out["parts"] = {name: e.to_json() for name, e in self.parts}
        if self.note:
            out["note"] = self.note
        return out


def pooled(data: Dataset, name: str, traces: Sequence[MatchTrace],
           per_match: Callable[[MatchTrace], tuple[float, float]]) -> Estimate:
    """A mean pooled over the observations of all ``traces``, each match giving (sum, count),
    with a bootstrap interval over matches; empty when nothing was observed."""
    units = [per_match(t) for t in traces]
    units = [u for u in units if u[1] > 0]
    return bootstrap_estimate(units, ratio, data.rng(name))


__all__ = ["CARDS", "CARDSTOCK", "TAG", "Dataset", "Metric", "pooled"]
