"""Random play of a translated game, counted the way CardStock counts it.

For each playout: GDL steps, player decisions (steps where a player has a move other than
``noop``) and the options offered at each, chance decisions (steps where ``random`` does something
other than ``noop``), how the game ended (normally, or which failure), the goals, and the raw
scores (the ``score`` relation). Used by the tests (comparison with CardStock's own random-play
statistics in ``../shared/reference``) and by ``benchmarks/translate.py``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Function
from ggp.reasoner.machine import State, StateMachine
from translators.recycle.symbols.vocabulary import RANDOM

NOOP = Constant("noop")


@dataclass
class Playout:
    """One random game."""

    steps: int = 0
    decisions: int = 0
    options: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    chance: int = 0
    ending: str = "unfinished"
    goals: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)

    @property
    def completed(self) -> bool:
        """Whether the game ended normally (not by a failure or the choice limit)."""
        return self.ending == "end"


def ending_of(description: GameDescription, state: State) -> tuple[str, dict[str, int]]:
    """How a terminal state ended (``end``, ``limit``, ``stuck``, ``loop`` or a failure) and the
    raw scores, asked of clingo (a terminal state only, so this is rare)."""
    from ggp.reasoner.asp import AspNames, description_to_asp, facts
    from ggp.reasoner.oracle import solve_once

    names = AspNames()
    program = description_to_asp(description, names) + facts("true", state.fluents, names)
    shows = ("#show score/2. #show scoredigit/3. #show normal_end/0. #show limit/0. #show stuck/0. "
             "#show at_step/1. #show failsnow/1.")
    atoms = [names.to_term(symbol) for symbol in solve_once(program, shows)]
    scores: dict[str, int] = {}
    reasons: list[str] = []
    digits: dict[str, dict[int, int]] = {}
    for atom in atoms:
        text = str(atom)
        if isinstance(atom, Function) and text.startswith("(score "):
            scores[str(atom.args[0])] = int(atom.args[1].name)
        elif isinstance(atom, Function) and text.startswith("(scoredigit "):
            digits.setdefault(str(atom.args[0]), {})[int(atom.args[1].name)] = int(atom.args[2].name)
        elif isinstance(atom, Function) and text.startswith(("(failed ", "(failsnow ")):
            reasons.append(str(atom.args[0]))
        elif text in ("limit", "stuck"):
            reasons.append(text)
        elif text == "(at_step loop)":
            reasons.append("loop")
    for role, ds in digits.items():
        k = len(ds)
        scores[role] = sum(d * 10**i for i, d in ds.items()) - 5 * 10 ** (k - 1)
    for fluent in state.fluents:
        text = str(fluent)
        if isinstance(fluent, Function) and text.startswith("(failed "):
            reasons.insert(0, str(fluent.args[0]))
    if "normal_end" in [str(a) for a in atoms]:
        return "end", scores
    return (reasons[0] if reasons else "unknown"), scores


def play(machine: StateMachine, description: GameDescription, rng: random.Random, max_steps: int = 20000) -> Playout:
    """One uniformly random playout, with its statistics."""
    out = Playout()
    state = machine.initial_state()
    roles = list(machine.roles)
    while not machine.is_terminal(state):
        if out.steps >= max_steps:
            return out
        joint = []
        for index, role in enumerate(roles):
            moves = machine.legal_moves(state, role)
            move = moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]
            joint.append(move)
            if role == RANDOM:
                if move != NOOP:
                    out.chance += 1
            elif move != NOOP:
                out.decisions += 1
                out.options.append(len(moves))
                out.seats.append(index)
        state = machine.next_state(state, tuple(joint))
        out.steps += 1
    out.goals = {str(r): v for r, v in machine.goals(state).items()}
    out.ending, out.scores = ending_of(description, state)
    return out


@dataclass
class Summary:
    """Statistics over several playouts (of completed games where CardStock counts so)."""

    playouts: int
    completed: int
    endings: dict[str, int]
    steps_per_decision: float
    decisions_mean: float
    decisions_std: float
    options_mean: float
    chance_mean: float
    steps_mean: float
    win_share: list[float]
    score_mean: list[float]
    score_std: list[float]
    decision_share: list[float]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return dict(self.__dict__)


def summarize(playouts: Iterable[Playout], players: int, order: str = "max") -> Summary:
    """Pool playouts the way the reference statistics are pooled."""
    games = list(playouts)
    done = [g for g in games if g.completed]
    endings: dict[str, int] = {}
    for g in games:
        endings[g.ending] = endings.get(g.ending, 0) + 1
    decisions = [g.decisions for g in done]
    options = [o for g in done for o in g.options]
    total_decisions = sum(g.decisions + g.chance for g in games)
    total_steps = sum(g.steps for g in games)
    wins = [0.0] * players
    seats = [0] * players
    for g in done:
        values = [g.scores.get(f"player{i}", 0) for i in range(players)]
        best = max(values) if order == "max" else min(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            wins[i] += 1 / len(winners)
        for s in g.seats:
            seats[s] += 1
    n = max(len(done), 1)
    scores = [[g.scores.get(f"player{i}", 0) for g in done] for i in range(players)]
    total_seats = max(sum(seats), 1)
    return Summary(
        playouts=len(games),
        completed=len(done),
        endings=endings,
        steps_per_decision=total_steps / total_decisions if total_decisions else float("nan"),
        decisions_mean=_mean(decisions),
        decisions_std=_std(decisions),
        options_mean=_mean(options),
        chance_mean=_mean([g.chance for g in games]),
        steps_mean=_mean([g.steps for g in games]),
        win_share=[w / n for w in wins],
        score_mean=[_mean(s) for s in scores],
        score_std=[_std(s) for s in scores],
        decision_share=[s / total_seats for s in seats],
    )


def _mean(values: list[int] | list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def _std(values: list[int] | list[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = _mean(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


__all__ = ["Playout", "Summary", "ending_of", "play", "summarize"]
