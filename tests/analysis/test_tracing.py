"""Tracing a match: turns and their options measured on the game's machine, cards detected in
a translated card game, options compared on common random numbers, records that do not fit."""

from __future__ import annotations

import random

import pytest

from ggp.analysis.tracing import AnalysisError, Moves, option_standings, seat_roles, trace_match
from ggp.gdl.load import load_game
from ggp.reasoner import make_machine
from ggp.reasoner.machine import StateMachine, random_joint_move
from tests.analysis.support import GAMES
from tests.conftest import RULESHEETS


def random_match(machine: StateMachine, seed: int) -> Moves:
    """A uniformly random match of ``machine`` as a record's moves."""
    rng = random.Random(seed)
    state, joints = machine.initial_state(), []
    while not machine.is_terminal(state):
        joint = random_joint_move(machine, state, rng)
        joints.append(tuple(str(m) for m in joint))
        state = machine.next_state(state, joint)
    goals = {str(r): float(v) for r, v in machine.goals(state).items()}
    return Moves(f"m{seed}", "finished", tuple(str(r) for r in machine.roles), {}, tuple(joints), goals)


def test_a_card_game_shows_what_each_player_cannot_see() -> None:
    machine = make_machine(load_game(RULESHEETS / "kuhn.rcy"))
    for seed in range(5):
        trace = trace_match(random_match(machine, seed), "main", machine, 0, "s")
        assert trace.cards == 3
        assert trace.turns and trace.finished
        for t in trace.turns:
            # a player sees its own card, not the other's nor the one left in the stock
            assert t.hidden == round(2 / 3, 4) and t.hand == 1  # traces keep 4 decimals
            assert t.options == 2 and t.branching == 2 and not t.values


def test_a_game_without_cards_has_no_card_figures() -> None:
    machine = make_machine(load_game(RULESHEETS / "tictactoe.kif"))
    trace = trace_match(random_match(machine, 1), "main", machine, 2, "s")
    assert trace.cards is None and all(t.hidden is None for t in trace.turns)
    first = trace.turns[0]
    assert first.options == 9 and first.branching == 9 and len(first.values) == 9
    assert [t.seat for t in trace.turns] == [i % 2 for i in range(len(trace.turns))]  # noop turns are not turns
    assert len(trace.sizes) == trace.steps + 1


def test_options_that_cannot_change_the_outcome_get_equal_values() -> None:
    machine = make_machine(load_game(GAMES / "coin_flip.kif"))
    state = machine.initial_state()
    legal = machine.all_legal_moves(state)
    table = option_standings(machine, state, legal, 0, seat_roles(machine), 10, "seed")
    assert len(table) == 4 and all(row == table[0] for row in table)
    assert sum(table[0]) == pytest.approx(1.0)  # one of the two wins each playout


def test_a_record_of_another_game_is_refused_with_its_step() -> None:
    machine = make_machine(load_game(GAMES / "skill.kif"))
    moves = Moves("bad", "finished", ("left", "right"), {}, (("(pick 1)", "noop"), ("noop", "(pick 9)")), {})
    with pytest.raises(AnalysisError, match=r"match bad, step 2: right played \(pick 9\), which is not legal"):
        trace_match(moves, "main", machine, 0, "s")
    with pytest.raises(AnalysisError, match="roles"):
        trace_match(Moves("bad", "finished", ("x", "o"), {}, (), {}), "main", machine, 0, "s")
