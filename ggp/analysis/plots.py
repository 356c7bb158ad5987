"""The report's plots, drawn with matplotlib (the optional extra ``ggp[analysis]``) as SVG text
to be inlined in the page: no file beside it, no script, text kept as text.

Each function returns a :class:`Plot` (or None when the matches give it nothing to show).
Figures are built on :class:`matplotlib.figure.Figure` directly, never through pyplot's global
state, so plotting is safe in any thread and leaves no window or backend behind.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ggp.analysis import series
from ggp.analysis.metric import Dataset, Metric
from ggp.analysis.reference import Comparison
from ggp.analysis.stats import Estimate
from ggp.errors import GGPError

#: Colours of the report (colour-blind safe: Okabe and Ito's palette).
BLUE, ORANGE, GREEN, VERMILION, GREY = "#0072B2", "#E69F00", "#009E73", "#D55E00", "#888888"
STYLE: dict[str, Any] = {"svg.fonttype": "none", "font.family": "DejaVu Sans", "font.size": 10, "axes.spines.top": False,
         "axes.spines.right": False, "svg.hashsalt": "ggp-analysis"}
#: The metrics on a 0-to-1 scale shown in the profile plot.
PROFILE = ("fairness", "order", "drama", "decisiveness", "meaningful_moves", "variance", "clarity", "coolness",
           "stability", "score_convergence", "lead_security", "action_diversity", "hidden_information")


class PlotError(GGPError):
    """matplotlib is missing."""


@dataclass(frozen=True)
class Plot:
    """A plot: its title, a caption saying how to read it, and the SVG text."""

    key: str
    title: str
    caption: str
    svg: str


def require_matplotlib() -> None:
    """Raise :class:`PlotError` with the install command when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotError("the report's plots need matplotlib: pip install 'ggp[analysis]'") from None


def _style() -> Any:
    """The report's matplotlib settings, for a ``with`` block."""
    import matplotlib

    settings: Any = STYLE
    return matplotlib.rc_context(settings)


def _figure(width: float = 7.5, height: float = 3.6) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _svg(fig: Any) -> str:
    buffer = io.StringIO()
    with _style():
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = re.sub(r"^<\?xml[^>]*>\s*", "", text)
    text = re.sub(r"^<!DOCTYPE[^>]*>\s*", "", text)
    return text


def _errors(estimates: Sequence[Estimate]) -> tuple[list[float], list[list[float]]]:
    values = [e.value if e.value is not None else 0.0 for e in estimates]
    low = [max(0.0, v - e.low) if e.low is not None else 0.0 for v, e in zip(values, estimates)]
    high = [max(0.0, e.high - v) if e.high is not None else 0.0 for v, e in zip(values, estimates)]
    return values, [low, high]


def profile(metrics: Sequence[Metric]) -> Plot | None:
    """The metrics on a 0-to-1 scale as bars with their 95 % intervals."""
    shown = [m for name in PROFILE for m in metrics if m.name == name and m.defined]
    if not shown:
        return None
    with _style():
        fig = _figure(7.5, 0.42 * len(shown) + 1.0)
        ax = fig.subplots()
        values, errors = _errors([m.estimate for m in shown])
        rows = list(range(len(shown)))[::-1]
        ax.barh(rows, values, xerr=errors, color=BLUE, alpha=0.85, capsize=3, error_kw={"ecolor": "#333333"})
        ax.set_yticks(rows, [m.title for m in shown])
        ax.set_xlim(min(0.0, min(values) - 0.05), 1.0)
        ax.set_xlabel("value (0 to 1), with its 95 % interval")
        ax.axvline(0, color="#333333", linewidth=0.8)
        return Plot("profile", "The game's profile", "Every metric measured on a 0-to-1 scale; the whisker is its 95 % "
                    "confidence interval. What each one means is in the table below.", _svg(fig))


def win_rates(data: Dataset, metric: Metric, comparisons: Sequence[Comparison]) -> Plot | None:
    """Each seat's win rate with its interval, the equal share, and the engine's figures."""
    if not metric.by_seat or all(e.value is None for e in metric.by_seat):
        return None
    with _style():
        fig = _figure(7.5, 3.4)
        ax = fig.subplots()
        values, errors = _errors(metric.by_seat)
        xs = list(range(len(values)))
        ax.bar(xs, values, yerr=errors, color=BLUE, alpha=0.85, capsize=4, label="this analysis (95 % interval)")
        ax.axhline(1 / len(values), color=GREY, linestyle="--", linewidth=1, label="an equal share")
        engine = {c.figure: c.engine for c in comparisons}
        marks = [engine.get(f"win share of {seat}") for seat in data.seats]
        if any(m is not None for m in marks):
            ax.plot([x for x, m in zip(xs, marks) if m is not None], [m for m in marks if m is not None], "D",
                    color=VERMILION, markersize=8, label="CardStock engine (500 random games)")
        ax.set_xticks(xs, list(data.seats))
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of the wins (ties split)")
        ax.legend(loc="upper right", frameon=False, fontsize=9)
        return Plot("win_rates", "Win rate by seat", "How often each seat won; a seat far from the dashed line is "
                    "favoured or handicapped by where it sits.", _svg(fig))


def choices_over_time(data: Dataset) -> Plot | None:
    """Action space and branching factor over the course of a match."""
    options = series.binned("legal moves", data.main, series.turn_points(lambda t: float(t.options)))
    branching = series.binned("distinct next states", data.main, series.turn_points(lambda t: float(t.branching)))
    if options.empty:
        return None
    with _style():
        fig = _figure()
        ax = fig.subplots()
        for s, colour in ((options, BLUE), (branching, ORANGE)):
            _band(ax, s, colour)
        ax.set_xlim(0, 1)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("progress of the match (0: start, 1: end)")
        ax.set_ylabel("per turn")
        ax.legend(frameon=False, fontsize=9)
        return Plot("choices", "Choices over the game (TAG's action space and branching factor)",
                    "The legal moves a player has at its turns, and how many different positions they lead to, as "
                    "the match goes on (mean over the matches, band: 95 % interval).", _svg(fig))


def _band(ax: Any, s: series.Series, colour: str, label: str | None = None) -> None:
    points = [(x, e) for x, e in zip(s.centres, s.bins) if e.value is not None]
    if not points:
        return
    xs = [x for x, _ in points]
    ax.plot(xs, [e.value for _, e in points], "-o", color=colour, markersize=3, label=label or s.name)
    ax.fill_between(xs, [e.low if e.low is not None else e.value for _, e in points],
                    [e.high if e.high is not None else e.value for _, e in points], color=colour, alpha=0.18,
                    linewidth=0)


def lead_history(data: Dataset) -> Plot | None:
    """The eventual winners' and the others' standing over the course of a match."""
    done = data.finished
    won = series.binned("eventual winner", done, series.winner_points(True))
    lost = series.binned("the others", done, series.winner_points(False))
    if won.empty:
        return None
    with _style():
        fig = _figure()
        ax = fig.subplots()
        for history in series.lead_histories(done):
            ax.plot([x for x, _ in history], [v for _, v in history], color=BLUE, alpha=0.18, linewidth=0.8)
        _band(ax, won, BLUE, "eventual winner (thin: single matches)")
        _band(ax, lost, VERMILION, "the other players")
        ax.axhline(0.5, color=GREY, linestyle=":", linewidth=1)
        ax.axhline(0.8, color=GREY, linestyle="--", linewidth=1)
        ax.text(1.0, 0.5, " drama below", va="center", fontsize=8, color=GREY, transform=ax.get_yaxis_transform())
        ax.text(1.0, 0.8, " decided above", va="center", fontsize=8, color=GREY, transform=ax.get_yaxis_transform())
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("progress of the match (0: start, 1: end)")
        ax.set_ylabel("estimated standing (1: wins)")
        ax.legend(loc="lower left", frameon=False, fontsize=9)
        return Plot("lead", "Lead history (CardStock)", "Each player's estimated standing after its decisions (rollouts "
                    "from the true state): the eventual winner's against the others'. A winner that climbs from below "
                    "the dotted line makes drama; the dashed line is where decisiveness counts the game decided.",
                    _svg(fig))


def state_size_over_time(data: Dataset) -> Plot | None:
    """Fluents per state over the course of a match."""
    sizes = series.binned("fluents per state", data.main, series.state_points)
    if sizes.empty:
        return None
    with _style():
        fig = _figure(7.5, 3.0)
        ax = fig.subplots()
        _band(ax, sizes, GREEN)
        ax.set_xlim(0, 1)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("progress of the match (0: start, 1: end)")
        ax.set_ylabel("fluents")
        return Plot("state_size", "State size over the game (TAG)", "How many facts hold in the state as the match goes "
                    "on (mean over the matches, band: 95 % interval).", _svg(fig))


def lengths(data: Dataset) -> Plot | None:
    """Histograms of steps and decisions per match."""
    from matplotlib.ticker import MaxNLocator

    done = data.finished
    if not done:
        return None
    with _style():
        fig = _figure(7.5, 3.0)
        left, right = fig.subplots(1, 2)
        for ax, values, colour, label in ((left, [t.steps for t in done], BLUE, "steps per match"),
                                          (right, [len(t.decisions()) for t in done], ORANGE, "decisions per match")):
            low, high = min(values), max(values)
            ax.hist(values, bins=[x - 0.5 for x in range(low, high + 2)] if high - low < 40 else 30, color=colour,
                    alpha=0.85)
            ax.set_xlim(low - 1.5, high + 1.5)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel(label)
            ax.set_ylabel("matches")
        return Plot("lengths", "Game length (TAG)", "How many steps and how many decisions the matches took.", _svg(fig))


def spreads(data: Dataset) -> Plot | None:
    """Histogram of the best-to-worst gap of the decisions."""
    values = [d.spread for t in data.main for d in t.turns if d.spread is not None]
    if not values:
        return None
    with _style():
        fig = _figure(7.5, 3.0)
        ax = fig.subplots()
        ax.hist(values, bins=[i / 20 for i in range(21)], color=GREEN, alpha=0.85)
        ax.set_xlim(0, 1)
        ax.set_xlabel("best option's standing minus worst option's")
        ax.set_ylabel("decisions")
        return Plot("spreads", "How much decisions matter (CardStock's meaningful moves)",
                    "For every decision, the gap between its best and its worst option: near 0 the choice changes "
                    "little, near 1 it decides the match.", _svg(fig))


def hidden_over_time(data: Dataset) -> Plot | None:
    """The share of hidden cards at a player's turn over the course of a match."""
    if not data.has_cards:
        return None
    hidden = series.binned("hidden cards", data.main, series.turn_points(lambda t: t.hidden))
    if hidden.empty:
        return None
    with _style():
        fig = _figure(7.5, 3.0)
        ax = fig.subplots()
        _band(ax, hidden, VERMILION)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("progress of the match (0: start, 1: end)")
        ax.set_ylabel("share of the cards")
        return Plot("hidden", "Hidden information over the game (TAG, cards)", "The share of the cards a player cannot "
                    "see at its turns, as the match goes on.", _svg(fig))


def all_plots(data: Dataset, metrics: Sequence[Metric], comparisons: Sequence[Comparison]) -> list[Plot]:
    """Every plot the matches give something to show, in report order."""
    require_matplotlib()
    by_name = {m.name: m for m in metrics}
    found = [profile(metrics), win_rates(data, by_name["win_rate_by_seat"], comparisons), lead_history(data),
             choices_over_time(data), spreads(data), state_size_over_time(data), lengths(data), hidden_over_time(data)]
    return [p for p in found if p is not None]


__all__ = ["Plot", "PlotError", "all_plots", "require_matplotlib"]
