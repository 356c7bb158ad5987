"""What the analysis keeps of a match: :class:`MatchTrace`, one per match, with a
:class:`Turn` for every step at which a seat had the move.

A seat **has a turn** at a step when it has more than one legal move, or one legal move other
than ``noop`` (the GGP convention for "not your turn", which the RECYCLE translation follows): a
forced move counts, as CardStock counts a choice with one option. A turn with two or more legal
moves is a **decision** (TAG's definition: an agent is asked only then). Traces are written one
JSON line each, so an analysis that stops keeps the matches it traced (:mod:`ggp.analysis.plan`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ggp.errors import GGPError


class TraceError(GGPError, ValueError):
    """A trace line that cannot be read."""


@dataclass(frozen=True)
class Turn:
    """Seat ``seat`` had the move at step ``step`` (0 is the first joint move): ``options``
    legal moves, of which it played number ``chosen`` (``played``, as text); ``branching``
    distinct next states over its options (the other roles' moves as played). For a decision
    evaluated by rollouts, ``values`` is the seat's estimated standing after each option (legal
    moves in order) and ``standings`` every seat's after the option played. ``hidden``: the share
    of the game's cards the seat could not see then, and ``hand``: the cards it owned (card
    games only)."""

    step: int
    seat: int
    options: int
    chosen: int
    played: str
    branching: int
    values: tuple[float, ...] = ()
    standings: tuple[float, ...] = ()
    hidden: float | None = None
    hand: int | None = None

    @property
    def decision(self) -> bool:
        """True when the seat had a choice (two or more legal moves)."""
        return self.options >= 2

    @property
    def spread(self) -> float | None:
        """Best minus worst option's estimated standing (None when not evaluated)."""
        return max(self.values) - min(self.values) if self.values else None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (optional fields left out when empty)."""
        out: dict[str, Any] = {"step": self.step, "seat": self.seat, "options": self.options, "chosen": self.chosen,
                               "played": self.played, "branching": self.branching}
        if self.values:
            out["values"] = [round(v, 4) for v in self.values]
            out["standings"] = [round(v, 4) for v in self.standings]
        if self.hidden is not None:
            out["hidden"] = round(self.hidden, 4)
            out["hand"] = self.hand
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Turn:
        """The inverse of :meth:`to_json`."""
        return cls(int(data["step"]), int(data["seat"]), int(data["options"]), int(data["chosen"]), str(data["played"]),
                   int(data["branching"]), tuple(float(v) for v in data.get("values", ())),
                   tuple(float(v) for v in data.get("standings", ())),
                   None if data.get("hidden") is None else float(data["hidden"]),
                   None if data.get("hand") is None else int(data["hand"]))


@dataclass(frozen=True)
class MatchTrace:
    """One match of experiment ``experiment`` (``main`` or ``order``): the seats (roles other
    than ``random``) and the player spec in each, its status, the goals in seat order (None
    when the match gave no result), the number of steps, the number of fluents of every state
    from the first to the last, every turn, the number of cards (None: no cards), and how many
    rollouts estimated each option (0: none)."""

    match_id: str
    experiment: str
    seats: tuple[str, ...]
    players: tuple[str, ...]
    status: str
    goals: tuple[float, ...] | None
    steps: int
    sizes: tuple[int, ...]
    turns: tuple[Turn, ...] = field(default=())
    cards: int | None = None
    rollouts: int = 0

    @property
    def finished(self) -> bool:
        """True when the match gave a result (goals for every seat)."""
        return self.goals is not None

    def decisions(self) -> list[Turn]:
        """The turns with a choice."""
        return [t for t in self.turns if t.decision]

    def to_json(self) -> dict[str, Any]:
        """One JSON object (one line of the traces file)."""
        return {"match_id": self.match_id, "experiment": self.experiment, "seats": list(self.seats),
                "players": list(self.players), "status": self.status,
                "goals": None if self.goals is None else list(self.goals), "steps": self.steps,
                "sizes": list(self.sizes), "turns": [t.to_json() for t in self.turns], "cards": self.cards,
                "rollouts": self.rollouts}

    @classmethod
    def from_json(cls, data: Any) -> MatchTrace:
        """The inverse of :meth:`to_json`; raises :class:`TraceError`."""
        try:
            return cls(str(data["match_id"]), str(data["experiment"]), tuple(data["seats"]), tuple(data["players"]),
                       str(data["status"]), None if data["goals"] is None else tuple(float(g) for g in data["goals"]),
                       int(data["steps"]), tuple(int(s) for s in data["sizes"]),
                       tuple(Turn.from_json(t) for t in data["turns"]),
                       None if data.get("cards") is None else int(data["cards"]), int(data.get("rollouts", 0)))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise TraceError(f"not a match trace: {type(exc).__name__} {exc}") from None


__all__ = ["MatchTrace", "TraceError", "Turn"]
