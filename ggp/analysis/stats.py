"""Estimates with their 95 % confidence intervals: :class:`Estimate`, made by :func:`mean_estimate`
(Student's t), :func:`proportion_estimate` (Wilson's score interval, which stays inside 0 to 1
and is not empty at 0 % or 100 %) or :func:`bootstrap_estimate` (the percentile bootstrap over
matches, for statistics pooled over the decisions of several matches).

Matches are the independent units: an interval over decisions of the same match would be too
narrow, so a pooled statistic is resampled by whole matches. The bootstrap's generator is passed
in, so the same data and seed give the same interval.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ggp.manager.tournament import mean_ci95

T = TypeVar("T")

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959964
#: Resamples of the bootstrap.
RESAMPLES = 1000


@dataclass(frozen=True)
class Estimate:
    """A value with its 95 % confidence interval ``low`` to ``high`` and its sample size ``n``
    (matches, unless said otherwise); ``value`` None when the sample defines nothing."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def empty(cls, n: int = 0) -> Estimate:
        """No value: nothing to measure in ``n`` matches."""
        return cls(None, None, None, n)

    @classmethod
    def exact(cls, value: float, n: int) -> Estimate:
        """A value known without sampling error."""
        return cls(value, value, value, n)

    def mapped(self, f: Callable[[float], float]) -> Estimate:
        """The estimate of ``f(value)`` for an increasing ``f``."""
        if self.value is None or self.low is None or self.high is None:
            return self
        return Estimate(f(self.value), f(self.low), f(self.high), self.n)

    def contains(self, value: float, slack: float = 0.0) -> bool:
        """Whether ``value`` lies in the interval widened by ``slack`` on each side."""
        if self.low is None or self.high is None:
            return False
        return self.low - slack <= value <= self.high + slack

    def to_json(self) -> dict[str, Any]:
        """``{"value", "ci95": [low, high], "n"}``, rounded to 4 decimals."""
        ci = None if self.low is None or self.high is None else [_round(self.low), _round(self.high)]
        return {"value": None if self.value is None else _round(self.value), "ci95": ci, "n": self.n}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Estimate:
        """The inverse of :meth:`to_json`."""
        ci = data.get("ci95") or (None, None)
        return cls(data.get("value"), ci[0], ci[1], int(data.get("n", 0)))


def _round(x: float) -> float:
    return round(x, 4)


def mean_estimate(values: Sequence[float], clip: tuple[float, float] | None = None) -> Estimate:
    """The mean of ``values`` and its Student's t interval (clipped to ``clip``)."""
    if not values:
        return Estimate.empty()
    mean, low, high = mean_ci95(values)
    if clip is not None:
        low, high = max(low, clip[0]), min(high, clip[1])
    return Estimate(mean, low, high, len(values))


def proportion_estimate(successes: float, n: int) -> Estimate:
    """A share of ``n`` trials (``successes`` may be fractional: a tie split between
    co-winners) with Wilson's score interval."""
    if n <= 0:
        return Estimate.empty()
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def bootstrap_estimate(units: Sequence[T], statistic: Callable[[Sequence[T]], float | None],
                       rng: random.Random, resamples: int = RESAMPLES) -> Estimate:
    """``statistic(units)`` with a percentile-bootstrap interval: ``units`` (matches) drawn with
    replacement ``resamples`` times; resamples on which the statistic is undefined are left out."""
    value = statistic(units)
    if value is None or not units:
        return Estimate.empty(len(units))
    if len(units) == 1:
        return Estimate(value, value, value, 1)
    draws: list[float] = []
    count = len(units)
    for _ in range(resamples):
        sample = [units[rng.randrange(count)] for _ in range(count)]
        drawn = statistic(sample)
        if drawn is not None:
            draws.append(drawn)
    if not draws:
        return Estimate(value, value, value, count)
    draws.sort()
    low = draws[int(0.025 * (len(draws) - 1))]
    high = draws[int(math.ceil(0.975 * (len(draws) - 1)))]
    return Estimate(value, min(low, value), max(high, value), count)


def ratio(pairs: Sequence[tuple[float, float]]) -> float | None:
    """Sum of the first components over the sum of the second (None when that is 0): a mean
    pooled over the observations of several matches, each match giving (total, count)."""
    total = sum(p[1] for p in pairs)
    return sum(p[0] for p in pairs) / total if total else None


def ratio_estimate(pairs: Sequence[tuple[float, float]]) -> Estimate:
    """A ratio of sums over matches (each giving (sum, count), e.g. its options and its turns)
    with the ratio estimator's interval (its linearisation: the residuals ``sum - r * count``
    over matches); ``n`` is the number of matches that counted something."""
    pairs = [p for p in pairs if p[1] > 0]
    k = len(pairs)
    if k == 0:
        return Estimate.empty()
    total = sum(c for _, c in pairs)
    r = sum(s for s, _ in pairs) / total
    if k < 2:
        return Estimate(r, r, r, k)
    mean_count = total / k
    residuals = [(s - r * c) / mean_count for s, c in pairs]
    half = Z95 * math.sqrt(sum(e * e for e in residuals) / (k - 1) / k)
    return Estimate(r, r - half, r + half, k)


def fmean(values: Sequence[float]) -> float | None:
    """The mean, or None for no values."""
    return statistics.fmean(values) if values else None


__all__ = ["Estimate", "RESAMPLES", "bootstrap_estimate", "fmean", "mean_estimate", "proportion_estimate", "ratio",
           "ratio_estimate"]
