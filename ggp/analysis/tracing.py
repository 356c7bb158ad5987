"""From a match record to its :class:`~ggp.analysis.trace.MatchTrace`: the match is played again
on the game's state machine, and at every turn the seat's options are measured.

**Options.** A turn's branching factor is the number of distinct states its legal moves lead
to, the other roles' moves as they were played (TAG's μ2). At a decision, each option is
valued by ``rollouts`` random playouts after it (the other roles' moves of that step drawn at
random where they had a choice): the mean standing (:mod:`ggp.analysis.outcome`) of every seat
at their ends. This is CardStock's PIPMC estimate (``Players/PIPMCPlayer.cs``: 10 random games
per option, each seat's inverse rank), seen by an observer who knows the true state rather
than by the seat, which CardStock lets guess the hidden cards. The options of a decision are
compared on common random numbers: the ``k``-th playout of every option uses the same
generator, so options that cannot change the outcome get equal values.

**Cards.** Where the game's states place cards (:func:`ggp.view.scheme.card_place`, the one
module that knows the translation's vocabulary), each turn records the share of the cards the
seat could not see and the number it owned.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ggp.analysis.outcome import standings
from ggp.analysis.trace import MatchTrace, Turn
from ggp.errors import GGPError, ReasonerError
from ggp.gdl.kif import parse_term
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant, Term
from ggp.manager.record import MatchRecord
from ggp.reasoner.machine import State, StateMachine
from ggp.view import scheme

#: The GGP convention for "not your turn".
NOOP = Constant("noop")
#: A playout that has not ended after this many steps is scored where it stopped.
MAX_PLAYOUT_STEPS = 10_000


class AnalysisError(GGPError):
    """A match that cannot be analysed (its record does not fit the game); the message names it."""


@dataclass(frozen=True)
class Moves:
    """What tracing needs of a match record: its id, status, roles, players (role to spec),
    joint moves (text, role order) and goals (role to value)."""

    match_id: str
    status: str
    roles: tuple[str, ...]
    players: dict[str, str]
    joints: tuple[tuple[str, ...], ...]
    goals: dict[str, float]

    @classmethod
    def of(cls, record: MatchRecord) -> Moves:
        """The moves of ``record``."""
        return cls(record.match_id, record.status, tuple(record.roles), dict(record.players),
                   tuple(tuple(s.joint_move) for s in record.steps), {r: float(v) for r, v in record.goals.items()})

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (to send to a worker process)."""
        return {"match_id": self.match_id, "status": self.status, "roles": list(self.roles), "players": self.players,
                "joints": [list(j) for j in self.joints], "goals": self.goals}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Moves:
        """The inverse of :meth:`to_json`."""
        return cls(data["match_id"], data["status"], tuple(data["roles"]), dict(data["players"]),
                   tuple(tuple(j) for j in data["joints"]), {r: float(v) for r, v in data["goals"].items()})


def seat_roles(machine: StateMachine) -> list[Constant]:
    """The roles other than ``random``, in order: the seats."""
    return [r for r in machine.roles if r != RANDOM]


def trace_match(moves: Moves, experiment: str, machine: StateMachine, rollouts: int, seed: str) -> MatchTrace:
    """The trace of one match (see the module doc); ``seed`` makes its rollouts repeatable.
    Raises :class:`AnalysisError` when the record does not fit the machine's game."""
    roles = [str(r) for r in machine.roles]
    if list(moves.roles) != roles:
        raise AnalysisError(f"match {moves.match_id}: its roles {list(moves.roles)} are not the game's {roles}")
    seats = seat_roles(machine)
    seat_index = {machine.role_index(r): i for i, r in enumerate(seats)}
    state = machine.initial_state()
    sizes = [len(state.fluents)]
    turns: list[Turn] = []
    cards = _card_count(state.fluents)
    for step, text in enumerate(moves.joints):
        where = f"match {moves.match_id}, step {step + 1}"
        if machine.is_terminal(state):
            raise AnalysisError(f"{where}: the game was already over")
        try:
            joint = tuple(parse_term(m) for m in text)
        except GGPError as exc:
            raise AnalysisError(f"{where}: unreadable move: {exc}") from None
        if len(joint) != len(roles):
            raise AnalysisError(f"{where}: {len(joint)} moves for {len(roles)} roles")
        legal = machine.all_legal_moves(state)
        for role, move, options in zip(roles, joint, legal):
            if move not in options:
                raise AnalysisError(f"{where}: {role} played {move}, which is not legal")
        fluents = state.fluents
        for role_index, seat in seat_index.items():
            options = legal[role_index]
            if len(options) < 2 and (not options or options[0] == NOOP):
                continue
            turns.append(_turn(machine, state, fluents, legal, joint, step, role_index, seat, seats, rollouts,
                               f"{seed}/{step}/{seat}", cards))
        state = machine.next_state(state, joint)
        sizes.append(len(state.fluents))
        if cards is not None:
            cards = max(cards, _card_count(state.fluents) or 0)
    goals = None
    if moves.status == "finished" and all(str(r) in moves.goals for r in seats):
        goals = tuple(moves.goals[str(r)] for r in seats)
    return MatchTrace(moves.match_id, experiment, tuple(str(r) for r in seats),
                      tuple(moves.players.get(str(r), "") for r in seats), moves.status, goals, len(moves.joints),
                      tuple(sizes), tuple(turns), cards, rollouts)


def _turn(machine: StateMachine, state: State, fluents: frozenset[Term], legal: tuple[tuple[Term, ...], ...],
          joint: tuple[Term, ...], step: int, role_index: int, seat: int, seats: list[Constant], rollouts: int,
          seed: str, cards: int | None) -> Turn:
    options = legal[role_index]
    chosen = options.index(joint[role_index])
    if len(options) > 1:
        branching = len({machine.next_state(state, joint[:role_index] + (m,) + joint[role_index + 1:])
                         for m in options})
    else:
        branching = 1
    values: tuple[float, ...] = ()
    after: tuple[float, ...] = ()
    if len(options) > 1 and rollouts > 0:
        table = option_standings(machine, state, legal, role_index, seats, rollouts, seed)
        values = tuple(row[seat] for row in table)
        after = tuple(table[chosen])
    hidden = hand = None
    if cards:
        hidden, hand = _card_view(fluents, str(machine.roles[role_index]))
    # kept to the 4 decimals a trace file keeps, so a trace read back is the trace made
    return Turn(step, seat, len(options), chosen, str(joint[role_index]), branching,
                tuple(round(v, 4) for v in values), tuple(round(v, 4) for v in after),
                None if hidden is None else round(hidden, 4), hand)


def option_standings(machine: StateMachine, state: State, legal: Sequence[Sequence[Term]], role_index: int,
                     seats: Sequence[Constant], rollouts: int, seed: str) -> list[list[float]]:
    """For each legal move of role ``role_index`` in ``state`` (in order), every seat's mean
    standing over ``rollouts`` random playouts after it, on common random numbers (see the
    module doc). Playouts whose end has no goal for every seat are left out."""
    options = legal[role_index]
    sums = [[0.0] * len(seats) for _ in options]
    counts = [0] * len(options)
    for k in range(rollouts):
        for i, move in enumerate(options):
            rng = random.Random(f"{seed}/{k}")
            joint = []
            for index, moves in enumerate(legal):
                if index == role_index:
                    joint.append(move)
                else:
                    joint.append(moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0])
            final, _, _ = machine.depth_charge(machine.next_state(state, tuple(joint)), rng, MAX_PLAYOUT_STEPS)
            try:
                goals = machine.goals(final)
            except ReasonerError:
                continue
            if not all(r in goals for r in seats):
                continue
            for s, value in enumerate(standings([float(goals[r]) for r in seats])):
                sums[i][s] += value
            counts[i] += 1
    return [[v / counts[i] if counts[i] else 0.5 for v in row] for i, row in enumerate(sums)]


def _card_count(fluents: frozenset[Term]) -> int | None:
    """The number of cards placed in a state (None when none is)."""
    places = {p[0] for f in fluents if (p := _placed(f)) is not None}
    return len(places) or None


def _placed(fluent: Term) -> tuple[Term, scheme.Location] | None:
    """(card, location) for a fluent that places a card (not a remembered copy)."""
    if getattr(fluent, "name", None) != scheme.CARD_RELATION[0]:
        return None
    return scheme.card_place(fluent)


def _card_view(fluents: frozenset[Term], role: str) -> tuple[float, int]:
    """The share of the placed cards ``role`` cannot see, and how many it owns."""
    places = [p for f in fluents if (p := _placed(f)) is not None]
    if not places:
        return 0.0, 0
    hidden = sum(1 for _, where in places if not where.visible_to(role))
    owned = sum(1 for _, where in places if where.owner == role)
    return hidden / len(places), owned


__all__ = ["AnalysisError", "MAX_PLAYOUT_STEPS", "Moves", "option_standings", "seat_roles", "trace_match"]
