"""Figures over the course of a match, for the plots: a value averaged over the matches in each
tenth of their length (TAG's metrics over time, CardStock's lead histories).

A turn at step ``s`` of a match of ``T`` steps lies at progress ``(s + 0.5) / T``; state ``t``
(0 to ``T``) at ``t / T``. Each bin's value is the mean over the matches of their mean in the
bin, with a Student's t interval over those matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ggp.analysis.cardstock import own_values
from ggp.analysis.outcome import winners
from ggp.analysis.stats import Estimate, mean_estimate
from ggp.analysis.trace import MatchTrace, Turn

BINS = 10


@dataclass(frozen=True)
class Series:
    """A value per bin of progress (bin ``i`` covers ``i / bins`` to ``(i + 1) / bins``)."""

    name: str
    bins: tuple[Estimate, ...]

    @property
    def centres(self) -> list[float]:
        """The middle of each bin, 0 to 1."""
        return [(i + 0.5) / len(self.bins) for i in range(len(self.bins))]

    @property
    def empty(self) -> bool:
        """True when no bin has a value."""
        return all(b.value is None for b in self.bins)


def _bin(progress: float, bins: int) -> int:
    return min(bins - 1, max(0, int(progress * bins)))


def binned(name: str, traces: Iterable[MatchTrace], points: Callable[[MatchTrace], Iterable[tuple[float, float]]],
           bins: int = BINS) -> Series:
    """``points(trace)`` gives (progress, value) pairs; the series of their per-match means."""
    per_bin: list[list[float]] = [[] for _ in range(bins)]
    for trace in traces:
        sums = [0.0] * bins
        counts = [0] * bins
        for progress, value in points(trace):
            b = _bin(progress, bins)
            sums[b] += value
            counts[b] += 1
        for b in range(bins):
            if counts[b]:
                per_bin[b].append(sums[b] / counts[b])
    return Series(name, tuple(mean_estimate(values) for values in per_bin))


def turn_points(value: Callable[[Turn], float | None]) -> Callable[[MatchTrace], list[tuple[float, float]]]:
    """(progress, value) of every turn with a value."""
    def points(trace: MatchTrace) -> list[tuple[float, float]]:
        steps = max(trace.steps, 1)
        return [((t.step + 0.5) / steps, v) for t in trace.turns if (v := value(t)) is not None]
    return points


def state_points(trace: MatchTrace) -> list[tuple[float, float]]:
    """(progress, fluents) of every state."""
    steps = max(trace.steps, 1)
    return [(t / steps, float(size)) for t, size in enumerate(trace.sizes)]


def winner_points(winning: bool) -> Callable[[MatchTrace], list[tuple[float, float]]]:
    """(progress, standing) of the eventual winners (``winning``) or of the other seats after
    every evaluated decision."""
    def points(trace: MatchTrace) -> list[tuple[float, float]]:
        won = set(winners(trace.goals or ()))
        if not won:
            return []
        steps = max(trace.steps, 1)
        out = []
        for t in trace.turns:
            if t.standings:
                group = [v for s, v in enumerate(t.standings) if (s in won) == winning]
                if group:
                    out.append(((t.step + 0.5) / steps, sum(group) / len(group)))
        return out
    return points


def lead_histories(traces: Sequence[MatchTrace], count: int = 12) -> list[list[tuple[float, float]]]:
    """The winner's own standing at its decisions in the first ``count`` matches with one
    winner: CardStock's lead graph of single matches."""
    out = []
    for trace in traces:
        won = winners(trace.goals or ())
        if len(won) != 1:
            continue
        steps = max(trace.steps, 1)
        values = own_values(trace, won[0])
        turns = [t for t in trace.turns if t.seat == won[0] and t.standings]
        if values:
            out.append([((t.step + 0.5) / steps, v) for t, v in zip(turns, values)])
        if len(out) >= count:
            break
    return out


__all__ = ["BINS", "Series", "binned", "lead_histories", "state_points", "turn_points", "winner_points"]
