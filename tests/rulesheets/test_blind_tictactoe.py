"""Blind Tic-Tac-Toe (seed chapter 17.3): both syntaxes, the sample match of 17.5, and the
information sets of exercise 1 by brute force, checked against a plain Python simulation."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import pytest

from ggp.gdl.terms import Constant, Term
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.reasoner.play import joint_moves
from tests.rulesheets.support import REASONER_PARAMS, load, machine

WHITE, BLACK = Constant("white"), Constant("black")
OK = Constant("ok")
#: White's moves in exercise 1: mark(2,2), then mark(1,3).
WHITE_MOVES = ((2, 2), (1, 3))

#: Exercise 1: white's percepts in rounds 1 and 2 (True = ok, False = nil) and the number of
#: possible states. 1a is given by the brief. By hand: after nil in round 1 black took (2,2) on
#: the coin, a single state; (1b) nil again means black took (1,3) on the coin: 1 state. (1c)
#: after ok then nil, either black had taken (1,3) in round 1 and then tried any of its 8 other
#: cells, or black tried some cell Y in round 1 and took (1,3) on the coin in round 2; the
#: second family gives the same 8 states as the first (same marks, same tried cells): 8 states.
EXERCISE_1 = {"a": ((False, True), 8), "b": ((False, False), 1), "c": ((True, False), 8)}


def test_infix_and_kif_give_equal_rules() -> None:
    kif, infix = load("blind_tictactoe.kif"), load("blind_tictactoe.gdl")
    assert Counter(kif.rules) == Counter(infix.rules)
    assert len(kif.rules) == 64


def _mark(cell: tuple[int, int]) -> Term:
    return Term.parse(f"(mark {cell[0]} {cell[1]})")


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_sample_match_of_section_17_5(reasoner: str) -> None:
    """The chapter's message trace: both ok, then a coin toss won by white, then a white line."""
    m = machine("blind_tictactoe.kif", reasoner)
    rounds = [
        ((1, 1), (2, 3), "x", {WHITE, BLACK}),
        ((2, 2), (2, 2), "x", {WHITE}),
        ((3, 3), (1, 3), "x", {WHITE, BLACK}),
    ]
    state = m.initial_state()
    for white, black, coin, seeing_ok in rounds:
        assert not m.is_terminal(state)
        joint = (_mark(white), _mark(black), Term.parse(f"(tiebreak {coin})"))
        seen = m.percepts(state, joint)
        assert {r for r, p in seen.items() if OK in p} == seeing_ok
        state = m.next_state(state, joint)
    assert m.is_terminal(state)
    assert m.goals(state) == {WHITE: 100, BLACK: 0}


def _histories(m: StateMachine, rounds: int) -> Iterator[tuple[list[JointMove], list[State]]]:
    """Every joint-move history of ``rounds`` rounds in which white plays WHITE_MOVES."""

    def extend(joints: list[JointMove], states: list[State]) -> Iterator[tuple[list[JointMove], list[State]]]:
        if len(joints) == rounds:
            yield joints, states
            return
        state = states[-1]
        for joint in joint_moves(m, state):
            if joint[0] == _mark(WHITE_MOVES[len(joints)]):
                yield from extend(joints + [joint], states + [m.next_state(state, joint)])

    return extend([], [m.initial_state()])


def _information_set(m: StateMachine, percepts: tuple[bool, ...]) -> set[frozenset[str]]:
    """The distinct end states of the histories whose white percepts are ``percepts``."""
    found = set()
    for joints, states in _histories(m, len(percepts)):
        seen = tuple(OK in m.percepts(s, j)[WHITE] for s, j in zip(states, joints))
        assert all(m.percepts(s, j)[WHITE] <= {OK} for s, j in zip(states, joints))
        if seen == percepts:
            found.add(frozenset(str(f) for f in states[-1].fluents))
    return found


# An independent model of the game from the chapter's English rules, without GDL.

CELLS = [(r, c) for r in (1, 2, 3) for c in (1, 2, 3)]


Cell = tuple[int, int]


def _py_step(board: dict[Cell, str], white: Cell, black: Cell, coin: str) -> tuple[dict[Cell, str], bool]:
    """Play one round; return the new board and whether white's mark took effect (its ok)."""
    after = dict(board)
    white_ok = False
    for mark, mine, theirs in (("x", white, black), ("o", black, white)):
        if board[mine] == "b" and (mine != theirs or coin == mark):
            after[mine] = mark
            white_ok = white_ok or mark == "x"
    return after, white_ok


def _py_information_set(percepts: tuple[bool, ...]) -> set[frozenset[str]]:
    found = set()
    rounds = len(percepts)
    for blacks in itertools.permutations(CELLS, rounds):  # black tries each cell at most once
        for coins in itertools.product("xo", repeat=rounds):
            board = {cell: "b" for cell in CELLS}
            seen = []
            for white, black, coin in zip(WHITE_MOVES, blacks, coins):
                board, ok = _py_step(board, white, black, coin)
                seen.append(ok)
            if tuple(seen) == percepts:
                tried = [f"(tried white {r} {c})" for r, c in WHITE_MOVES[:rounds]]
                tried += [f"(tried black {r} {c})" for r, c in blacks]
                found.add(frozenset([f"(cell {r} {c} {v})" for (r, c), v in board.items()] + tried))
    return found


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
@pytest.mark.parametrize("part", sorted(EXERCISE_1))
def test_exercise_1_information_sets(part: str, reasoner: str) -> None:
    percepts, expected = EXERCISE_1[part]
    by_reasoner = _information_set(machine("blind_tictactoe.kif", reasoner), percepts)
    assert len(by_reasoner) == expected
    assert by_reasoner == _py_information_set(percepts)


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_figure_17_1_after_round_one(reasoner: str) -> None:
    """Figure 17.1: after mark(2,2) and ok, (2,2) holds x in every possible state (nine: black
    tried one of 8 other cells, or (2,2) and lost the toss); after nil, a singleton with o there."""
    m = machine("blind_tictactoe.kif", reasoner)
    with_ok, without = _information_set(m, (True,)), _information_set(m, (False,))
    assert len(with_ok) == 9 and all("(cell 2 2 x)" in s for s in with_ok)
    assert len(without) == 1 and all("(cell 2 2 o)" in s for s in without)
    assert with_ok == _py_information_set((True,)) and without == _py_information_set((False,))
