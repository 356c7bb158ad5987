"""Every metric of a :class:`~ggp.analysis.metric.Dataset`: CardStock's heuristics, TAG's
metrics, and the card metrics where the game has cards."""

from __future__ import annotations

from ggp.analysis import cardstock, cards, tag
from ggp.analysis.metric import Dataset, Metric


def all_metrics(data: Dataset) -> list[Metric]:
    """The metrics of ``data``, in report order (the card metrics only for a card game)."""
    functions = [*cardstock.HEURISTICS, *tag.METRICS]
    if data.has_cards:
        functions.extend(cards.METRICS)
    return [f(data) for f in functions]


__all__ = ["all_metrics"]
