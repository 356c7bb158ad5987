"""Rendering pages: the Jinja2 templates (autoescaped) and what they need from the tables.

Every text that comes from a game file (role, card, location and relation names) reaches the
page through the templates' autoescaping, so a card called ``<script>`` shows as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from ggp.view.match import Series
from ggp.view.table import Area, Table

HERE = Path(__file__).parent
_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(template: str, **context: Any) -> str:
    """The page ``template`` filled with ``context``."""
    return _ENV.get_template(template).render(**context)


@dataclass(frozen=True)
class Layout:
    """Where the areas of a card table go: the others along the top, the middle, the viewer's
    (or the first player's) seat at the bottom."""

    top: tuple[Area, ...]
    middle: Area | None
    bottom: Area | None


def layout(table: Table) -> Layout:
    """The layout of ``table``'s areas."""
    middle = table.area("game")
    seats = [a for a in table.areas if a.owner != "game" and (a.piles or a.values)]
    bottom = next((a for a in seats if a.you), seats[0] if seats else None)
    if bottom is not None and bottom.you:
        index = seats.index(bottom)
        top = seats[index + 1:] + seats[:index]  # seat order, starting after the viewer
    else:
        top = [a for a in seats if a is not bottom]
    return Layout(tuple(top), middle, bottom)


#: Colours of plotted series, in order.
PALETTE = ("#e4572e", "#29335c", "#f3a712", "#669bbc", "#a8c686", "#8e5572", "#2e86ab", "#c1292e")


@dataclass(frozen=True)
class Plot:
    """A line chart: each series' polyline points in a ``width`` x ``height`` box, y ticks,
    and the current step's x."""

    width: int
    height: int
    lines: tuple[tuple[str, str, str], ...]
    ticks: tuple[tuple[float, str], ...]
    steps: int
    marker: float
    title: str


def plot(series: Sequence[Series], step: int, title: str, width: int = 320, height: int = 130) -> Plot | None:
    """A chart of ``series`` (None when there is nothing to draw)."""
    values = [v for s in series for v in s.values if v is not None]
    if not series or not values:
        return None
    n = max(len(s.values) for s in series)
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    left, right, top, bottom = 34, 12, 8, 18

    def x(i: int) -> float:
        return left + (width - left - right) * (i / max(1, n - 1))

    def y(v: float) -> float:
        return top + (height - top - bottom) * (1 - (v - low) / (high - low))

    lines = []
    for k, s in enumerate(series):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s.values) if v is not None)
        lines.append((s.name, PALETTE[k % len(PALETTE)], points))
    ticks = tuple((round(y(v), 1), f"{v:g}") for v in _ticks(low, high))
    return Plot(width, height, tuple(lines), ticks, n - 1, round(x(step), 1), title)


def _ticks(low: float, high: float) -> list[float]:
    span = high - low
    step = 10 ** max(0, len(str(int(span))) - 1)
    while span / step > 6:
        step *= 2
    first = (low // step) * step
    out = []
    v = first
    while v <= high + 1e-9:
        if v >= low - 1e-9:
            out.append(round(v, 6))
        v += step
    return out
