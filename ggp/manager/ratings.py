"""Ratings of players from match results: OpenSkill's Plackett-Luce model (the optional extra
``ggp[ratings]``, the ``openskill`` package).

Each match ranks the distinct players in it by their goals (higher is better, equal goals
tie). A player seated in several roles of one match (self-play) counts once, with its mean
goal; a match with a single distinct player rates nobody. Matches are taken in the order given,
so the same matches give the same ratings whatever order they finished in. A rating is ``mu``
(the estimated skill), ``sigma`` (its uncertainty) and ``ordinal`` = ``mu - 3 sigma`` (a
conservative estimate, what leaderboards sort by); new players start at 25 and 8.33.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rating:
    """A player's rating: skill ``mu``, uncertainty ``sigma``, ``ordinal`` (mu - 3 sigma)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the skill the player has with about 99.7 % confidence at least."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float]:
        """``{"mu": .., "sigma": .., "ordinal": ..}``, rounded to 4 places."""
        return {"mu": round(self.mu, 4), "sigma": round(self.sigma, 4), "ordinal": round(self.ordinal, 4)}


def ratings_available() -> bool:
    """True when the ``openskill`` package is installed."""
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        return False
    return True


def rate(players: Iterable[str], matches: Iterable[Mapping[str, float]]) -> dict[str, Rating] | None:
    """The rating of every player after ``matches`` (each: player to its goal in that match,
    already pooled per player), or None without ``openskill``."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    current: dict[str, Any] = {name: model.rating(name=name) for name in players}
    for goals in matches:
        names = [name for name in goals if name in current]
        if len(names) < 2:
            continue
        teams = model.rate([[current[name]] for name in names], scores=[float(goals[name]) for name in names])
        for name, team in zip(names, teams):
            current[name] = team[0]
    return {name: Rating(float(r.mu), float(r.sigma)) for name, r in current.items()}


def pooled_goals(seats: Mapping[str, str], goals: Mapping[str, float]) -> dict[str, float]:
    """One match's goal per player (``seats``: role to player), the mean over its roles."""
    by_player: dict[str, list[float]] = {}
    for role, player in seats.items():
        if role in goals:
            by_player.setdefault(player, []).append(float(goals[role]))
    return {player: statistics.fmean(values) for player, values in by_player.items()}


__all__ = ["Rating", "pooled_goals", "rate", "ratings_available"]
