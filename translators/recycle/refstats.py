"""A translation's random-play figures in the CardStock engine's terms, and their agreement
with the engine's own figures (``../shared/reference/cardstock-random-play.json``).

:func:`engine_figures` pools :class:`~.playstats.Playout` records under the reference's field
names and meanings (``games_run``, ``completed``, ``choices_mean``... over completed games);
:func:`compare` says, field by field, whether the two sides agree: ``|ours - engine| <= 3`` standard
errors of the difference (plus the reference's rounding, :data:`ROUNDING`).

Standard errors of the difference, each side from its own figures:

* means (``choices_mean``, ``score_mean``): ``sqrt(s1^2/n1 + s2^2/n2)`` with each side's std and
  completed games;
* ``choices_std``: ``sqrt(s1^2 (k - 1)/(4 n1) + s2^2 (k - 1)/(4 n2))``, k the kurtosis of the
  translation's decisions per game (``choices_kurtosis``; the engine's distribution is the same
  when the two agree), at least the normal distribution's 3 (then ``s/sqrt(2n)``): a game whose
  length has a long tail (a few games going on for three times as long) has a spread that varies
  far more from sample to sample than a normal one's;
* shares (``completed``, ``failures_choice_limit`` over games run; ``win_share_tie_split`` over
  completed games; ``decision_share_by_seat`` over all decisions): binomial,
  ``sqrt(p1 (1-p1)/n1 + p2 (1-p2)/n2)``;
* ``options_per_decision_mean``: the reference gives no spread, so the translation's standard
  error of its pooled mean (a ratio estimator over games: decisions of one game are not
  independent) is scaled to the engine's number of games for the engine's side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from translators.recycle.playstats import Playout, summarize

#: Standard errors of the difference within which two figures agree.
Z = 3.0
#: Added to the tolerance: the reference's figures are rounded to 4 decimals.
ROUNDING = 0.0005


def engine_figures(playouts: Sequence[Playout], players: int, order: str = "max") -> dict[str, Any]:
    """The figures of ``playouts`` under the reference's field names (see the module doc), plus
    ``endings`` (how many games ended each way) and ``options_per_decision_se``."""
    s = summarize(playouts, players, order)
    done = [g for g in playouts if g.completed]
    choices = [g.decisions for g in done]
    return {
        "players": players,
        "games_run": s.playouts,
        "completed": s.completed,
        "failures_choice_limit": s.endings.get("limit", 0),
        "failures_other": s.playouts - s.completed - s.endings.get("limit", 0),
        "endings": dict(sorted(s.endings.items())),
        "choices_mean": _finite(s.decisions_mean),
        "choices_std": s.decisions_std,
        "choices_kurtosis": _kurtosis(choices, s.decisions_mean, s.decisions_std),
        "choices_min": min(choices) if choices else None,
        "choices_max": max(choices) if choices else None,
        "options_per_decision_mean": _finite(s.options_mean),
        "options_per_decision_se": _ratio_se(done),
        "decision_share_by_seat": s.decision_share,
        "win_share_tie_split": s.win_share,
        "score_mean": [_finite(v) for v in s.score_mean],
        "score_std": s.score_std,
        "scoring_direction": order,
    }


@dataclass(frozen=True)
class Agreement:
    """One compared figure: ours, the engine's, the standard error of their difference, and
    whether ``|ours - engine| <= Z * se + ROUNDING``."""

    field: str
    ours: float | None
    engine: float | None
    se: float
    agree: bool
    test: str

    def __str__(self) -> str:
        if self.ours is None or self.engine is None:
            return f"{self.field:<32} {_fmt(self.ours):>10} {_fmt(self.engine):>10}  {'n/a':>8}  no ({self.test})"
        verdict = "agree" if self.agree else "DIFFER"
        z = abs(self.ours - self.engine) / self.se if self.se > 0 else (0.0 if self.ours == self.engine else math.inf)
        return (f"{self.field:<32} {_fmt(self.ours):>10} {_fmt(self.engine):>10}  {_fmt(self.se):>8}  "
                f"{verdict} ({z:.1f} se; {self.test})")

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"field": self.field, "ours": self.ours, "engine": self.engine, "se": self.se,
                "agree": self.agree, "test": self.test}


def compare(ours: dict[str, Any], engine: dict[str, Any]) -> list[Agreement]:
    """Field by field agreement of ``ours`` (from :func:`engine_figures`) with ``engine`` (one
    entry of the reference file)."""
    out: list[Agreement] = []
    n1, n2 = ours["completed"], engine["completed"]
    g1, g2 = ours["games_run"], engine["games_run"]
    for name in ("completed", "failures_choice_limit"):
        if name in engine:
            out.append(_share(name, ours[name] / g1 if g1 else None, engine[name] / g2 if g2 else None, g1, g2,
                              f"share of games run, binomial, n={g1}/{g2}"))
    out.append(_mean("choices_mean", ours["choices_mean"], engine.get("choices_mean"),
                     math.hypot(_sd(ours["choices_std"], n1), _sd(engine.get("choices_std"), n2)),
                     f"mean, s/sqrt(n) each side, n={n1}/{n2}"))
    k = max(ours.get("choices_kurtosis") or 3.0, 3.0)
    out.append(_mean("choices_std", ours["choices_std"], engine.get("choices_std"),
                     math.hypot(_sd(ours["choices_std"], 4 * n1 / (k - 1)), _sd(engine.get("choices_std"), 4 * n2 / (k - 1))),
                     f"std, s sqrt((k - 1)/4n) each side, kurtosis k = {k:.1f}"))
    se = ours["options_per_decision_se"]
    engine_se = se * math.sqrt(n1 / n2) if n2 else math.inf
    out.append(_mean("options_per_decision_mean", ours["options_per_decision_mean"],
                     engine.get("options_per_decision_mean"), math.hypot(se, engine_se),
                     "pooled mean, ratio-estimator se over games, scaled to the engine's games"))
    d1 = ours["choices_mean"] * n1 if ours["choices_mean"] is not None else 0
    d2 = (engine.get("choices_mean") or 0) * n2
    seats = ours["players"]
    for name, count1, count2, what in (("decision_share_by_seat", d1, d2, "decisions"),
                                       ("win_share_tie_split", n1, n2, "completed games")):
        values = engine.get(name) or []
        for i in range(max(seats, len(values))):
            mine = ours[name][i] if i < len(ours[name]) else None
            theirs = values[i] if i < len(values) else None
            out.append(_share(f"{name}[{i}]", mine, theirs, round(count1), round(count2),
                              f"binomial over {what}, n={round(count1)}/{round(count2)}"))
    means, stds = engine.get("score_mean") or [], engine.get("score_std") or []
    for i in range(max(seats, len(means))):
        mine = ours["score_mean"][i] if i < seats else None
        theirs = means[i] if i < len(means) else None
        spread = math.hypot(_sd(ours["score_std"][i] if i < seats else None, n1),
                            _sd(stds[i] if i < len(stds) else None, n2))
        out.append(_mean(f"score_mean[{i}]", mine, theirs, spread, f"mean, s/sqrt(n) each side, n={n1}/{n2}"))
    return out


def _share(name: str, p1: float | None, p2: float | None, n1: int, n2: int, test: str) -> Agreement:
    if p1 is None or p2 is None or n1 == 0 or n2 == 0:
        return Agreement(name, p1, p2, math.nan, False, "missing on one side")
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    return Agreement(name, p1, p2, se, abs(p1 - p2) <= Z * se + ROUNDING, test)


def _mean(name: str, m1: float | None, m2: float | None, se: float, test: str) -> Agreement:
    if m1 is None or m2 is None or math.isnan(se):
        return Agreement(name, m1, m2, se, False, "missing on one side")
    if math.isinf(se):
        return Agreement(name, m1, m2, se, False, "no completed game on one side")
    return Agreement(name, m1, m2, se, abs(m1 - m2) <= Z * se + ROUNDING, test)


def _kurtosis(values: list[int], mean: float, std: float) -> float | None:
    """The sample kurtosis of ``values`` (their fourth central moment over ``std`` to the fourth;
    3 for a normal distribution), None for fewer than four values or no spread."""
    if len(values) < 4 or std == 0:
        return None
    return sum((v - mean) ** 4 for v in values) / len(values) / std ** 4


def _sd(std: float | None, n: float) -> float:
    if std is None:
        return math.nan
    return std / math.sqrt(n) if n > 0 else math.inf


def _ratio_se(games: Sequence[Playout]) -> float:
    """The standard error of the pooled options-per-decision mean (sum of options over sum of
    decisions, games as clusters)."""
    n = len(games)
    total = sum(len(g.options) for g in games)
    if n < 2 or total == 0:
        return 0.0
    ratio = sum(sum(g.options) for g in games) / total
    per_game = total / n
    residual = sum((sum(g.options) - ratio * len(g.options)) ** 2 for g in games) / (n - 1)
    return math.sqrt(residual / n) / per_game


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def _fmt(value: float | None) -> str:
    if value is None or math.isnan(value):
        return "-"
    if math.isinf(value):
        return "inf"
    return f"{value:.4g}"


__all__ = ["ROUNDING", "Z", "Agreement", "compare", "engine_figures"]
