"""The state machine's transition with percepts, move and percept domains, and integer goals."""

from __future__ import annotations

import random

import pytest

from ggp.errors import ReasonerError
from ggp.gdl.load import load_game, read_game
from ggp.gdl.terms import Constant, Term
from ggp.reasoner import make_machine
from ggp.reasoner.machine import goal_value
from ggp.reasoner.play import random_joint_move, random_playouts
from tests.conftest import RULESHEETS


@pytest.mark.parametrize("name", ["montyhall.kif", "exploding_bomb.kif", "blind_tictactoe.kif"])
def test_transition_is_next_state_and_percepts(name: str) -> None:
    description = load_game(RULESHEETS / name)
    for kind in ("fast", "oracle"):
        machine = make_machine(description, kind)
        rng = random.Random(7)
        for _ in range(5):
            state = machine.initial_state()
            while not machine.is_terminal(state):
                joint = random_joint_move(machine, state, rng)
                after, percepts = machine.transition(state, joint)
                assert after == machine.next_state(state, joint)
                assert percepts == machine.percepts(state, joint)
                state = after


def test_domains_hold_every_legal_move_and_percept() -> None:
    machine = make_machine(load_game(RULESHEETS / "montyhall.kif"), "fast")
    rng = random.Random(3)
    for _ in range(20):
        state = machine.initial_state()
        while not machine.is_terminal(state):
            for role in machine.roles:
                domain = machine.move_domain(role)
                assert domain is not None and set(machine.legal_moves(state, role)) <= set(domain)
            joint = random_joint_move(machine, state, rng)
            for role, seen in machine.percepts(state, joint).items():
                assert seen <= set(machine.percept_domain(role) or ())
            state = machine.next_state(state, joint)
    assert make_machine(load_game(RULESHEETS / "montyhall.kif"), "oracle").move_domain(Constant("candidate")) is None


def test_goal_values_are_integers() -> None:
    assert goal_value(Constant("r"), Constant("-3")) == -3
    assert goal_value(Constant("r"), Constant("100")) == 100
    with pytest.raises(ReasonerError, match="not an integer"):
        goal_value(Constant("r"), Constant("lots"))
    with pytest.raises(ReasonerError, match="not an integer"):
        goal_value(Constant("r"), Term.parse("(f 1)"))
    rules, problems = read_game("(role a) (init s) (<= terminal (true s)) (goal a -2)")
    assert not problems
    for kind in ("fast", "oracle"):
        machine = make_machine(rules, kind)
        assert machine.goals(machine.initial_state()) == {Constant("a"): -2}


def test_playout_totals_in_parts_add_up_to_one_call() -> None:
    machine = make_machine(load_game(str(RULESHEETS / "kuhn.rcy")))
    whole = random_playouts(machine, random.Random(7), 10)
    rng = random.Random(7)
    parts = random_playouts(machine, rng, 4).plus(random_playouts(machine, rng, 6))
    assert parts == whole and whole.playouts == 10
