"""The units of a bridged game's returns: a translated card game's score, read from its rules."""

from __future__ import annotations

import pytest

from tests.spiel.support import bridged

from ggp.errors import GGPError  # noqa: E402
from ggp.gdl.load import load_game  # noqa: E402
from ggp.gdl.terms import Constant  # noqa: E402
from ggp.reasoner import make_machine  # noqa: E402
from ggp.spiel.units import returns_rules, scored  # noqa: E402
from tests.conftest import RULESHEETS  # noqa: E402


def test_score_replaces_the_goals() -> None:
    description = bridged("kuhn.rcy").description
    rules, units = returns_rules(description)
    assert units == "score" and scored(description) == rules
    assert [str(r) for r in rules.rules if r.head.name == "goal"] == ["(<= (goal ?r ?n) (score ?r ?n))"]
    machine, plain = make_machine(rules), make_machine(description)
    state = machine.initial_state()
    while not machine.is_terminal(state):
        joint = tuple(moves[-1] for moves in machine.all_legal_moves(state))
        state = machine.next_state(state, joint)
    chips = machine.goals(state)
    assert sum(chips.values()) == 0 and set(chips.values()) <= {-2, -1, 1, 2}
    goals = plain.goals(plain.convert(state))
    winner = max(chips, key=chips.__getitem__)
    assert goals[winner] == 100 and goals[Constant("player1" if winner == Constant("player0") else "player0")] == 0


def test_games_without_a_score_return_goals() -> None:
    description = load_game(RULESHEETS / "montyhall.kif")
    assert scored(description) is None
    assert returns_rules(description) == (description, "goals")
    assert returns_rules(description, "goals") == (description, "goals")
    with pytest.raises(GGPError, match="no \\(score ROLE N\\)"):
        returns_rules(description, "score")
    with pytest.raises(GGPError, match="returns must be one of"):
        returns_rules(description, "chips")
