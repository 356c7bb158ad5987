"""Small GDL-II games through the bridge against their trees counted by hand."""

from __future__ import annotations

from typing import Any

import pytest

from tests.spiel.support import bridged, pyspiel, tree_figures

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402

from ggp.gdl.load import read_game  # noqa: E402
from ggp.spiel import load  # noqa: E402
from ggp.spiel.exploitability import measure_table  # noqa: E402

#: A step nobody chooses in, a hidden bit for p0, then matching pennies played simultaneously.
PENNIES = """
(role p0) (role p1) (role random)
(side heads) (side tails)
(succ 0 1) (succ 1 2) (succ 2 3)
(init (phase 0))
(<= (next (phase ?n)) (true (phase ?m)) (succ ?m ?n))
(<= (legal ?r noop) (role ?r) (true (phase 0)))
(<= (legal random (bit 0)) (true (phase 1)))
(<= (legal random (bit 1)) (true (phase 1)))
(<= (legal p0 noop) (true (phase 1)))
(<= (legal p1 noop) (true (phase 1)))
(<= (sees p0 (bit ?b)) (does random (bit ?b)))
(<= (legal p0 (pick ?x)) (true (phase 2)) (side ?x))
(<= (legal p1 (pick ?x)) (true (phase 2)) (side ?x))
(<= (legal random noop) (true (phase 2)))
(<= (next (picked ?r ?x)) (does ?r (pick ?x)))
(<= (next (bit ?b)) (does random (bit ?b)))
(<= (next (bit ?b)) (true (bit ?b)))
(<= terminal (true (phase 3)))
(<= match (true (picked p0 ?x)) (true (picked p1 ?x)))
(<= (goal p0 100) match)
(<= (goal p0 0) (not match))
(<= (goal p1 0) match)
(<= (goal p1 100) (not match))
"""


def pennies() -> Any:
    description, problems = read_game(PENNIES, "pennies.kif")
    assert not problems
    return load(description)


def test_pennies_tree_by_hand() -> None:
    game = pennies()
    figures = tree_figures(game)
    # the first step is played at once; then chance (2), p0 (2 per bit), p1 (2 per bit and pick)
    assert figures["histories"] == 1 + 2 + 4 + 8
    assert figures["kinds"] == {"chance": 1, "decision": 6, "terminal": 8}
    # p0 knows its bit; p1 knows neither the bit nor p0's pick of the same step
    assert figures["information_states"] == [2, 1]
    assert figures["returns"] == {(100.0, 0.0): 4, (0.0, 100.0): 4}
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.max_game_length() == 2 and game.summary.max_gdl_steps == 3


def test_pennies_exploitability_by_hand() -> None:
    game = pennies()
    uniform = policy_lib.UniformRandomPolicy(game)
    assert exploitability.exploitability(game, uniform) == pytest.approx(0.0)  # the equilibrium
    # both always pick heads: p0 gets 100 already, p1 gains 100 by picking tails
    heads: dict[str, dict[int, float]] = {}
    for state in _decisions(game):
        heads[state.information_state_string()] = {state.legal_actions()[0]: 1.0, state.legal_actions()[1]: 0.0}
    nash_conv, gains, values = measure_table(game, heads)
    assert nash_conv == pytest.approx(100.0)
    assert gains == pytest.approx((0.0, 100.0)) and values == pytest.approx((100.0, 0.0))


def _decisions(game: Any) -> list[Any]:
    out, stack = [], [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            out.append(state)
        stack.extend(state.child(a) for a in state.legal_actions())
    return out


def test_monty_hall_tree_by_hand() -> None:
    game = bridged("montyhall.kif")
    figures = tree_figures(game)
    # chance hides the car (3); the candidate chooses (3 x 3); chance opens a door where it has a
    # choice (the candidate chose the car: 3 cases x 2 doors), else the step is played at once;
    # the candidate stays or switches (12 x 2)
    assert figures["kinds"] == {"chance": 1 + 3, "decision": 3 + 12, "terminal": 24}
    assert figures["histories"] == 43
    # before the choice it knows nothing; after: its door and the opened one (3 x 2)
    assert figures["information_states"] == [1 + 6]
    # staying wins in the 6 histories where the chosen door hid the car, switching in the other 6
    assert figures["returns"] == {(100.0,): 12, (0.0,): 12}
    assert game.units == "goals" and game.num_players() == 1
    uniform = policy_lib.UniformRandomPolicy(game)
    # a best response switches: it wins 2/3; the uniform policy wins 1/2
    table = {s.information_state_string(): uniform.action_probabilities(s) for s in _decisions(game)}
    nash_conv, gains, values = measure_table(game, table)
    assert values == pytest.approx((50.0,)) and nash_conv == pytest.approx(200 / 3 - 50)


#: A GDL game without sees: two players take one or two from a pile of four; the last to take wins.
PILE = """
(role first) (role second)
(init (pile 4)) (init (control first))
(amount 1) (amount 2)
(minus 4 1 3) (minus 4 2 2) (minus 3 1 2) (minus 3 2 1) (minus 2 1 1) (minus 2 2 0) (minus 1 1 0)
(other first second) (other second first)
(<= (legal ?r (take ?a)) (true (control ?r)) (true (pile ?n)) (minus ?n ?a ?m))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (pile ?m)) (does ?r (take ?a)) (true (pile ?n)) (minus ?n ?a ?m))
(<= (next (control ?o)) (true (control ?r)) (other ?r ?o))
(<= (next (last ?r)) (does ?r (take ?a)))
(<= terminal (true (pile 0)))
(<= (goal ?r 100) (true (last ?r)))
(<= (goal ?r 0) (role ?r) (not (true (last ?r))))
"""


def test_pile_without_sees_is_perfect_recall_of_every_move() -> None:
    description, problems = read_game(PILE, "pile.kif")
    assert not problems and not description.uses_sees
    game = load(description)
    figures = tree_figures(game)
    # from 4: the mover takes 1 or 2; a pile of 1 leaves one legal move, played at once
    assert figures["kinds"] == {"decision": 4, "terminal": 5}
    assert figures["information_states"] == [2, 2]  # every move is seen: one state per decision
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # first takes one
    assert state.current_player() == 1
    assert state.information_state_string(1) == state.information_state_string(0).replace("first", "second", 1) \
        + " | legal: (take 1) (take 2)"
    assert "(take 1) noop" in state.information_state_string(0)
    tensor = state.information_state_tensor(1)
    assert sum(tensor) == 2 + 2  # step 0: both roles' moves; legal: two moves
    assert "step 1 | (take 1) noop | legal: (take 1) (take 2)" in state.observation_string(1)
