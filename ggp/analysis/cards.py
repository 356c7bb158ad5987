"""Metrics of card games, measured only where the game's states place cards
(:func:`ggp.view.scheme.card_place`): TAG's hidden information (seed 003, section 5, μ4) and
the size of a player's hand."""

from __future__ import annotations

from collections.abc import Callable

from ggp.analysis.metric import CARDS, Dataset, Metric, pooled
from ggp.analysis.trace import MatchTrace


def hidden_information(data: Dataset) -> Metric:
    """μ4: the share of the game's cards a seat cannot see at its turns."""
    meaning = ("How much a player does not know: the share of the game's cards it cannot see when it is its turn "
               "(face down, in the stock, in the others' hands).")
    estimate = pooled(data, "hidden_information", data.main,
                      lambda t: (sum(d.hidden or 0.0 for d in t.turns if d.hidden is not None),
                                 sum(1 for d in t.turns if d.hidden is not None)))
    return Metric("hidden_information", "Hidden information", CARDS,
                  "TAG (seed 003, 5: Game Analysis, μ4 amount of hidden information)", meaning, estimate, "share")


def hand_size(data: Dataset) -> Metric:
    """The cards a seat owns (in any of its locations) at its turns."""
    meaning = "How many cards a player holds (in any of its own places) when it is its turn."
    estimate = pooled(data, "hand_size", data.main,
                      lambda t: (float(sum(d.hand or 0 for d in t.turns if d.hand is not None)),
                                 sum(1 for d in t.turns if d.hand is not None)))
    def of_seat(seat: int) -> Callable[[MatchTrace], tuple[float, float]]:
        return lambda t: (float(sum(d.hand or 0 for d in t.turns if d.hand is not None and d.seat == seat)),
                          sum(1 for d in t.turns if d.hand is not None and d.seat == seat))

    by_seat = tuple(pooled(data, f"hand_size.{s}", data.main, of_seat(s)) for s in range(len(data.seats)))
    return Metric("hand_size", "Hand size", CARDS, "the cards a player owns at its turns (docs/analysis.md)", meaning,
                  estimate, "cards", by_seat)


#: The card metrics, in report order.
METRICS = (hidden_information, hand_size)

__all__ = ["METRICS", "hand_size", "hidden_information"]
