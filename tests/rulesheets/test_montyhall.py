"""Monty Hall: exact enumeration of the game tree, weighting random's moves uniformly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant, Function, Term
from ggp.reasoner.machine import State, StateMachine
from ggp.reasoner.play import joint_moves
from tests.rulesheets.support import REASONER_PARAMS, machine

CANDIDATE = Constant("candidate")


def _win_probability(m: StateMachine, state: State, plan: dict[str, Term]) -> Fraction:
    """The chance that the candidate wins from ``state`` playing ``plan`` (its move per step kind).

    Random's moves are weighted uniformly among its legal moves, as GDL-II defines them.
    """
    if m.is_terminal(state):
        return Fraction(m.goals(state)[CANDIDATE], 100)
    legal = dict(zip(m.roles, m.all_legal_moves(state)))
    mine = legal[CANDIDATE]
    wanted = next((plan[k] for k in plan if plan[k] in mine), None)
    if wanted is None:
        assert mine == (Term.parse("noop"),)
        wanted = mine[0]
    total = Fraction(0)
    for joint in joint_moves(m, state):
        if joint[m.role_index(CANDIDATE)] == wanted:
            seen = m.percepts(state, joint)[CANDIDATE]
            host = joint[m.role_index(RANDOM)]
            opened = [host] if isinstance(host, Function) and host.name == "open_door" else []
            assert seen == frozenset(Function("opened", j.args) for j in opened)
            total += Fraction(1, len(legal[RANDOM])) * _win_probability(m, m.next_state(state, joint), plan)
    return total


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
@pytest.mark.parametrize("door", [1, 2, 3])
def test_switching_wins_two_thirds(reasoner: str, door: int) -> None:
    m = machine("montyhall.kif", reasoner)
    choose = Term.parse(f"(choose {door})")
    switch = _win_probability(m, m.initial_state(), {"choose": choose, "final": Term.parse("switch")})
    stay = _win_probability(m, m.initial_state(), {"choose": choose, "final": Term.parse("stay")})
    assert (switch, stay) == (Fraction(2, 3), Fraction(1, 3))


def _argument(move: Term) -> Term:
    assert isinstance(move, Function) and move.arity == 1
    return move.args[0]


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_host_never_opens_the_car_or_the_chosen_door(reasoner: str) -> None:
    m = machine("montyhall.kif", reasoner)
    start = m.initial_state()
    for hide in joint_moves(m, start):
        after_hide = m.next_state(start, hide)
        for pick in joint_moves(m, after_hide):
            after_pick = m.next_state(after_hide, pick)
            car = _argument(hide[m.role_index(RANDOM)])
            chosen = _argument(pick[m.role_index(CANDIDATE)])
            opens = {_argument(j) for j in m.legal_moves(after_pick, RANDOM)}
            assert opens == {Term.parse(str(d)) for d in (1, 2, 3)} - {car, chosen}
