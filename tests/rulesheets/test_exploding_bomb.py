"""The two Exploding Bomb games of seed chapter 17.7: their full game trees."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ggp.gdl.terms import Constant, Term
from ggp.reasoner.machine import State, StateMachine
from ggp.reasoner.play import joint_moves
from tests.rulesheets.support import REASONER_PARAMS, machine

AGENT, OPPONENT = Constant("agent"), Constant("opponent")
COLOURS = ("red", "blue")

Leaf = tuple[tuple[str, ...], dict[Constant, frozenset[Term]], dict[Constant, int]]


def _leaves(m: StateMachine) -> Iterator[Leaf]:
    """Every path to a terminal state: the non-noop moves, everyone's percepts, the goals."""

    def walk(state: State, moves: tuple[str, ...], seen: dict[Constant, frozenset[Term]]) -> Iterator[Leaf]:
        if m.is_terminal(state):
            yield moves, seen, m.goals(state)
            return
        for joint in joint_moves(m, state):
            percepts = m.percepts(state, joint)
            merged = {r: seen.get(r, frozenset()) | percepts[r] for r in m.roles}
            played = tuple(str(j) for j in joint if str(j) != "noop")
            yield from walk(m.next_state(state, joint), moves + played, merged)

    return walk(m.initial_state(), (), {})


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_figure_17_2_outcomes(reasoner: str) -> None:
    """Asking then cutting right: 90; not asking then cutting right: 100; a wrong cut: 0."""
    leaves = list(_leaves(machine("exploding_bomb.kif", reasoner)))
    assert len(leaves) == 8
    for moves, seen, goals in leaves:
        arm, *asked, cut = moves
        armed = arm[len("(arm "):-1]
        assert asked in ([], ["ask"]) and cut.startswith("(cut ")
        exploded = cut == f"(cut {armed})"
        assert goals == {AGENT: 0 if exploded else (90 if asked else 100)}
        assert seen[AGENT] == (frozenset({Constant(armed)}) if asked else frozenset())


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_telling_game_outcomes(reasoner: str) -> None:
    """The agent arms and may tell; the opponent cuts. Goals follow the opposite_score table."""
    leaves = list(_leaves(machine("exploding_bomb_tell.kif", reasoner)))
    assert len(leaves) == 8
    for moves, seen, goals in leaves:
        arm, *told, cut = moves
        armed = arm[len("(arm "):-1]
        assert told in ([], ["tell"])
        score = 100 if told else 90
        if cut == f"(cut {armed})":
            assert goals == {AGENT: score, OPPONENT: 100 - score}
        else:
            assert goals == {AGENT: 100 - score, OPPONENT: score}
        assert seen[OPPONENT] == (frozenset({Constant(armed)}) if told else frozenset())
        assert seen[AGENT] == frozenset()
