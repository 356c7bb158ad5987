"""The analysis's output: ``analysis.json`` (every metric with the name of its definition,
value, 95 % interval and sample size) and ``report.html``, one self-contained page (styles
inline, plots as inline SVG, no script, nothing fetched) with a short text per metric saying
what it means.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ggp.analysis.metric import CARDS, CARDSTOCK, TAG, Dataset, Metric
from ggp.analysis.plots import Plot
from ggp.analysis.reference import Comparison
from ggp.analysis.stats import Estimate

REPORT, RESULT = "report.html", "analysis.json"
FORMAT = 1
FAMILIES = {CARDSTOCK: "CardStock's heuristics", TAG: "TAG's game metrics", CARDS: "Card metrics"}


@dataclass
class Report:
    """Everything the report shows."""

    data: Dataset
    metrics: list[Metric]
    settings: dict[str, Any]
    plots: list[Plot] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)
    reference: str | None = None
    problems: list[str] = field(default_factory=list)
    machine: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The content of ``analysis.json``."""
        data = self.data
        return {
            "format": FORMAT,
            "game": data.game,
            "seats": list(data.seats),
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "settings": self.settings,
            "matches": {"main": _counts(data.main), "order": _counts(data.order)},
            "cards": data.has_cards,
            "metrics": [m.to_json(data.seats) for m in self.metrics],
            "plots": [p.key for p in self.plots],
            "reference": None if self.reference is None else {
                "file": self.reference, "comparisons": [c.to_json() for c in self.comparisons]},
            "problems": self.problems,
            "machine": self.machine,
        }


def _counts(traces: Sequence[Any]) -> dict[str, int]:
    return {"traced": len(traces), "finished": sum(1 for t in traces if t.finished)}


def write(report: Report, folder: Path) -> tuple[Path, Path]:
    """Write ``analysis.json`` and ``report.html`` into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    result = folder / RESULT
    _replace(result, json.dumps(report.to_json(), indent=1, ensure_ascii=False) + "\n")
    page = folder / REPORT
    _replace(page, render(report))
    return result, page


def _replace(path: Path, text: str) -> None:
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


def fmt(x: float | None) -> str:
    """A number for a person: up to 3 decimals, no trailing zeros."""
    if x is None:
        return "–"
    if abs(x) >= 100:
        return f"{x:.1f}"
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def interval(e: Estimate) -> str:
    """``[low, high]`` or a dash."""
    if e.low is None or e.high is None:
        return "–"
    return f"[{fmt(e.low)}, {fmt(e.high)}]"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


CSS = """
body { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1100px;
       color: #222; line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; }
.lede { color: #555; margin-top: 0; }
table { border-collapse: collapse; width: 100%; margin: 0.6em 0 1.2em; font-size: 0.92em; }
th, td { text-align: left; vertical-align: top; padding: 0.35em 0.6em; border-bottom: 1px solid #e4e4e4; }
th { background: #f3f5f8; } td.num { white-space: nowrap; font-variant-numeric: tabular-nums; }
.value { font-weight: bold; font-size: 1.05em; } .muted { color: #777; font-size: 0.88em; }
.note { color: #9a5b00; } .ok { color: #0a7a3a; } .bad { color: #b3261e; font-weight: bold; }
figure { margin: 1.2em 0 2em; } figcaption { color: #555; font-size: 0.92em; margin-top: 0.3em; }
figure svg { max-width: 100%; height: auto; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(16em, 1fr)); gap: 0.6em; }
.card { border: 1px solid #e1e4e8; border-radius: 6px; padding: 0.6em 0.8em; background: #fafbfc; }
.card .v { font-size: 1.4em; font-weight: bold; } code { font-size: 0.92em; }
"""


def render(report: Report) -> str:
    """The HTML page."""
    data, settings = report.data, report.settings
    done = len(data.finished)
    players = " ".join(settings.get("players") or [])
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Analysis of {_e(_name(data.game))}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>Analysis of {_e(_name(data.game))}</h1>",
        f'<p class="lede">{done} finished matches of <code>{_e(players)}</code> over the seats '
        f"{_e(', '.join(data.seats))} (seed {_e(settings.get('seed'))}; every option valued by "
        f"{_e(settings.get('rollouts'))} random playouts)"
        + (f"; order from {len([t for t in data.order if t.finished])} matches of <code>{_e(data.strong)}</code> "
           f"against <code>{_e(data.baseline)}</code>" if data.order else "")
        + ". Every value comes with its 95 % confidence interval and the number of matches it rests on.</p>",
        _highlights(report.metrics),
    ]
    for family, title in FAMILIES.items():
        rows = [m for m in report.metrics if m.family == family]
        if rows:
            parts.append(f"<h2>{_e(title)}</h2>")
            parts.append(_table(rows, data.seats))
    if report.plots:
        parts.append("<h2>Plots</h2>")
        for plot in report.plots:
            parts.append(f'<figure id="plot-{_e(plot.key)}"><h3>{_e(plot.title)}</h3>{plot.svg}'
                         f"<figcaption>{_e(plot.caption)}</figcaption></figure>")
    if report.reference is not None:
        parts.append(_reference(report))
    parts.append(_notes(report))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _name(game: str) -> str:
    return Path(game).name if game else "a game"


def _highlights(metrics: Sequence[Metric]) -> str:
    cards = []
    for name in ("fairness", "order", "drama", "meaningful_moves", "game_length", "action_space"):
        m = next((x for x in metrics if x.name == name and x.defined), None)
        if m is not None:
            cards.append(f'<div class="card"><div class="muted">{_e(m.title)}</div><div class="v">{fmt(m.estimate.value)}'
                         f'</div><div class="muted">95 %: {interval(m.estimate)} · n = {m.estimate.n}</div></div>')
    return f'<div class="grid">{"".join(cards)}</div>' if cards else ""


def _table(metrics: Sequence[Metric], seats: Sequence[str]) -> str:
    rows = ["<table><tr><th>metric</th><th>value</th><th>95 % interval</th><th>n</th><th>what it means</th></tr>"]
    for m in metrics:
        extra = []
        for seat, e in zip(seats, m.by_seat):
            extra.append(f"{_e(seat)}: {fmt(e.value)} {interval(e)}")
        for name, e in m.parts:
            extra.append(f"{_e(name)}: {fmt(e.value)} {interval(e)}")
        details = f'<div class="muted">{"; ".join(extra)}</div>' if extra else ""
        note = f'<div class="note">{_e(m.note)}</div>' if m.note else ""
        rows.append(
            f'<tr id="metric-{_e(m.name)}"><td><b>{_e(m.title)}</b><div class="muted"><code>{_e(m.name)}</code></div></td>'
            f'<td class="num"><span class="value">{fmt(m.estimate.value)}</span> <span class="muted">{_e(m.unit)}</span></td>'
            f'<td class="num">{interval(m.estimate)}</td><td class="num">{m.estimate.n}</td>'
            f'<td>{_e(m.meaning)}{details}{note}<div class="muted">Definition: {_e(m.source)}</div></td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


def _reference(report: Report) -> str:
    if not report.comparisons:
        return (f"<h2>Against the CardStock engine</h2><p class=\"muted\">{_e(report.reference)} has no figures for "
                "this game.</p>")
    rows = ["<h2>Against the CardStock engine</h2>",
            f'<p class="muted">The engine\'s own random-play figures ({_e(report.reference)}). A figure agrees when the '
            "two differ by less than 1.96 standard errors of the difference (or, where the engine gives no spread, "
            "when its value lies in our interval).</p>",
            "<table><tr><th>figure</th><th>this analysis</th><th>95 % interval</th><th>engine</th><th>z</th>"
            "<th>agrees</th></tr>"]
    for c in report.comparisons:
        z = c.z
        verdict = '<span class="ok">yes</span>' if c.agrees else '<span class="bad">no</span>'
        rows.append(f"<tr><td>{_e(c.figure)}</td><td class=\"num\">{fmt(c.ours.value)}</td>"
                    f"<td class=\"num\">{interval(c.ours)}</td><td class=\"num\">{fmt(c.engine)}</td>"
                    f"<td class=\"num\">{fmt(z) if z is not None else '–'}</td><td>{verdict}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _notes(report: Report) -> str:
    items = [f"<li>{_e(line)}</li>" for line in report.problems[:50]]
    if len(report.problems) > 50:
        items.append(f"<li>... and {len(report.problems) - 50} more</li>")
    machine = report.machine
    setting = ", ".join(f"{k} = {' '.join(map(str, v)) if isinstance(v, list) else v}"
                        for k, v in report.settings.items() if k != "tournaments" and v is not None)
    lines = ["<h2>About these figures</h2>",
             f'<p class="muted">Settings: {_e(setting)}.</p>']
    if report.settings.get("tournaments"):
        ids = ", ".join(f"{k}: {v}" for k, v in report.settings["tournaments"].items())
        lines.append(f'<p class="muted">Matches in the match database as tournaments {_e(ids)} '
                     "(<code>ggp matches list --tournament ID</code>).</p>")
    if machine:
        lines.append(f'<p class="muted">Machine: {_e(", ".join(f"{k} {v}" for k, v in machine.items()))}.</p>')
    if items:
        lines.append("<p>Problems met:</p><ul>" + "".join(items) + "</ul>")
    return "\n".join(lines)


__all__ = ["REPORT", "RESULT", "Report", "fmt", "render", "write"]
