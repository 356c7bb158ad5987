"""Helpers for the belief tests: games from the corpus and rulesheets, and seeded observations."""

from __future__ import annotations

import random

from ggp.belief import Observation, Prior
from ggp.errors import Problem
from ggp.gdl.load import read_game, read_game_file
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.reasoner.play import joint_moves, random_joint_move
from ggp.reasoner.temporal import HistorySolver
from tests.conftest import RULESHEETS, shared_path


def corpus_game(name: str) -> GameDescription:
    """A GDL-II game of ``../shared/corpus/gdl2`` (skips the test when it is absent)."""
    return _checked(*read_game_file(shared_path("corpus", "gdl2", name)))


def rulesheet(name: str) -> GameDescription:
    """A game of the project's ``rulesheets/``."""
    return _checked(*read_game_file(RULESHEETS / name))


def game_text(text: str) -> GameDescription:
    """A game written inline in a test."""
    return _checked(*read_game(text, "<test>"))


def _checked(description: GameDescription, problems: list[Problem]) -> GameDescription:
    errors = [p for p in problems if p.is_error]
    assert not errors, "\n".join(map(str, errors))
    return description


def random_history(machine: StateMachine, role: Constant, steps: int, seed: int) -> tuple[list[JointMove], list[Observation]]:
    """``steps`` uniformly random joint moves (fewer if the game ends) and what ``role`` saw."""
    rng = random.Random(seed)
    state = machine.initial_state()
    joints, seen = [], []
    for _ in range(steps):
        if machine.is_terminal(state):
            break
        joint = random_joint_move(machine, state, rng)
        joints.append(joint)
        seen.append(Observation(joint[machine.roles.index(role)], machine.percepts(state, joint)[role]))
        state = machine.next_state(state, joint)
    return joints, seen


def parse(text: str) -> Term:
    """A term from KIF text."""
    return Term.parse(text)


def brute_force(machine: StateMachine, role: Constant, observations: list[Observation]) -> tuple[dict[frozenset[Term], float], int]:
    """The information set by enumerating every joint move with ``machine``: the posterior
    probability of each end state (by its fluents) and the number of consistent histories.

    Each history is weighted by ``1/|legal moves|`` of every role but ``role`` at every step;
    nothing is played from a terminal state.
    """
    index = machine.roles.index(role)
    frontier = {machine.initial_state(): (1.0, 1)}
    for seen in observations:
        following: dict[State, tuple[float, int]] = {}
        for state, (weight, count) in frontier.items():
            if machine.is_terminal(state):
                continue
            legal = machine.all_legal_moves(state)
            prior = weight
            for other, moves in zip(machine.roles, legal):
                if other != role:
                    prior /= len(moves)
            for joint in joint_moves(machine, state):
                if joint[index] != seen.move or machine.percepts(state, joint)[role] != seen.percepts:
                    continue
                after = machine.next_state(state, joint)
                w, c = following.get(after, (0.0, 0))
                following[after] = (w + prior, c + count)
        frontier = following
    total = sum(w for w, _ in frontier.values())
    return {s.fluents: w / total for s, (w, _) in frontier.items()}, sum(c for _, c in frontier.values())


def solver_information_set(description: GameDescription, role: Constant,
                           observations: list[Observation]) -> tuple[dict[frozenset[Term], float], int]:
    """The information set from scratch with the answer-set solver (the whole history as one
    program, every consistent history enumerated): each end state's posterior probability and
    the number of consistent histories. An implementation independent of the belief's."""
    solver = HistorySolver(description, role)
    solver.extend_many([(o.move, o.percepts) for o in observations])  # type: ignore[misc]
    records = solver.histories(1_000_000)
    assert records is not None
    prior = Prior()
    weights: dict[frozenset[Term], float] = {}
    for record in records:
        w = prior.of_history(record, solver.roles, role)
        weights[record.end] = weights.get(record.end, 0.0) + w
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items()}, len(records)
