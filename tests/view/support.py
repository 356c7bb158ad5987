"""Helpers of the view tests: the RECYCLE card table, seeded random matches with every role's
belief, and recorded matches."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ggp.belief import Belief, Observation
from ggp.cli.view_commands import recycle_card_table
from ggp.gdl.load import load_game
from ggp.gdl.rules import RANDOM, GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner import make_machine
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.view.glossary import register_card_table

register_card_table(".rcy", recycle_card_table)  # as the command line composes it


@dataclass
class Moment:
    """One step of a random match: the state before it, the joint move, the state after, each
    player's belief after it."""

    before: State
    joint: JointMove
    after: State
    beliefs: dict[Constant, Belief]
    last: bool


def load(path: Path) -> tuple[GameDescription, StateMachine]:
    """The rules and a machine for them."""
    description = load_game(path)
    return description, make_machine(description)


def random_match(description: GameDescription, machine: StateMachine, seed: int,
                 roles: tuple[Constant, ...] | None = None) -> Iterator[Moment]:
    """A seeded random match, step by step, with the beliefs of ``roles`` (default: every player)."""
    rng = random.Random(seed)
    players = roles if roles is not None else tuple(r for r in machine.roles if r != RANDOM)
    beliefs = {r: Belief(machine, r, description=description, rng=random.Random(f"{seed}/{r}")) for r in players}
    state = machine.initial_state()
    while not machine.is_terminal(state):
        joint: tuple[Term, ...] = tuple(moves[rng.randrange(len(moves))] for moves in machine.all_legal_moves(state))
        seen = machine.percepts(state, joint)
        after = machine.next_state(state, joint)
        last = machine.is_terminal(after)
        for role, belief in beliefs.items():
            belief.update(Observation(joint[machine.role_index(role)], seen.get(role, frozenset())), live=not last)
        yield Moment(state, joint, after, beliefs, last)
        state = after
