"""Re-checking a match record against its rules: ``ggp replay``.

The rules are read back from the record (their SHA-256 must match), then every step is played
again: each recorded move must be legal, each role's recorded percepts must be what the rules
give, the game must not end early, must end after the last step, and give the recorded goals.
"""

from __future__ import annotations

from dataclasses import dataclass

from ggp.errors import GGPError
from ggp.gdl.kif import parse_kif, parse_term
from ggp.gdl.rules import GameDescription
from ggp.gdl.validate import prepare
from ggp.manager.record import MatchRecord
from ggp.reasoner import make_machine


class ReplayError(GGPError):
    """A record that disagrees with its own rules; the message names the step."""


@dataclass(frozen=True)
class ReplayResult:
    """What a replay found: the goals by the rules and the number of steps checked."""

    goals: dict[str, int]
    steps: int


def record_description(record: MatchRecord) -> GameDescription:
    """The rules stored in ``record``, checked against their hash."""
    description, _ = prepare(parse_kif(record.game_kif, record.game_source))
    if description.digest() != record.game_sha256:
        raise ReplayError("the rules in the record do not match their SHA-256: the record was altered")
    return description


def replay(record: MatchRecord, reasoner: str | None = None) -> ReplayResult:
    """Check ``record`` step by step (see the module doc); raises :class:`ReplayError`."""
    description = record_description(record)
    machine = make_machine(description, reasoner) if reasoner else make_machine(description)
    roles = [str(r) for r in machine.roles]
    if roles != record.roles:
        raise ReplayError(f"the record's roles {record.roles} are not the game's roles {roles}")
    state = machine.initial_state()
    for step in record.steps:
        where = f"turn {step.turn}"
        if machine.is_terminal(state):
            raise ReplayError(f"{where}: the game was already over")
        if len(step.joint_move) != len(roles):
            raise ReplayError(f"{where}: {len(step.joint_move)} moves for {len(roles)} roles")
        try:
            joint = tuple(parse_term(m) for m in step.joint_move)
        except GGPError as exc:
            raise ReplayError(f"{where}: unreadable move: {exc}") from None
        for role, move in zip(machine.roles, joint):
            if move not in machine.legal_moves(state, role):
                raise ReplayError(f"{where}: {role} played {move}, which is not legal")
        percepts = machine.percepts(state, joint)
        for role in machine.roles:
            expected = sorted((str(p) for p in percepts.get(role, ())), key=str)
            if step.percepts.get(str(role), []) != expected:
                raise ReplayError(f"{where}: {role}'s percepts were recorded as {step.percepts.get(str(role))}, "
                                  f"the rules give {expected}")
        state = machine.next_state(state, joint)
    if record.status != "finished":
        return ReplayResult({}, len(record.steps))
    if not machine.is_terminal(state):
        raise ReplayError(f"the record ends after {len(record.steps)} steps but the game is not over")
    goals = {str(r): v for r, v in machine.goals(state).items()}
    if goals != record.goals:
        raise ReplayError(f"the record's goals {record.goals} are not the rules' goals {goals}")
    return ReplayResult(goals, len(record.steps))
