"""The oracle (one grounded program per state, moves as externals) against plain clingo calls.

The reference here is the most literal reading of the rules there is: for every query, the rules
plus the state's ``true`` facts (and the joint move's ``does`` facts) solved by a fresh clingo
call, and the unique answer set read.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ggp.gdl import Term
from ggp.gdl.load import load_game
from ggp.reasoner.asp import does_facts, facts
from ggp.reasoner.machine import State
from ggp.reasoner.oracle import OracleMachine, solve_once
from ggp.reasoner.play import random_joint_move
from tests.conftest import RULESHEETS, shared_path


def _plain(oracle: OracleMachine, state: State, joint: tuple[Term, ...] | None = None) -> dict[str, set[str]]:
    """Every shown atom of one fresh clingo call, by predicate."""
    program = oracle.program + facts("true", state.fluents, oracle.names)
    if joint is None:
        shows = "#show legal/2. #show terminal/0. #show goal/2.\n"
    else:
        program += does_facts(oracle.roles, joint, oracle.names)
        shows = "#show next/1. #show sees/2.\n"
    found: dict[str, set[str]] = {}
    for symbol in solve_once(program, shows):
        found.setdefault(symbol.name, set()).add(str(oracle.names.to_term(symbol)))
    return found


def _answers(oracle: OracleMachine, state: State, joint: tuple[Term, ...] | None = None) -> dict[str, set[str]]:
    """The same atoms, as the oracle machine answers them."""
    found: dict[str, set[str]] = {}
    if joint is None:
        for role in oracle.roles:
            for move in oracle.legal_moves(state, role):
                found.setdefault("legal", set()).add(f"(legal {role} {move})")
        if oracle.is_terminal(state):
            found["terminal"] = {"terminal"}
        for role, value in oracle.goals(state).items():
            found.setdefault("goal", set()).add(f"(goal {role} {value})")
    else:
        for fluent in oracle.next_state(state, joint).fluents:
            found.setdefault("next", set()).add(f"(next {fluent})")
        for role, seen in oracle.percepts(state, joint).items():
            for percept in seen:
                found.setdefault("sees", set()).add(f"(sees {role} {percept})")
    return found


GAMES = [RULESHEETS / "kuhn.rcy", RULESHEETS / "blind_tictactoe.kif", RULESHEETS / "exploding_bomb.kif"]


@pytest.mark.parametrize("path", GAMES + ["gdl2/montyhall.gdl", pytest.param("gdl2/unsw_blackjack.gdl", marks=pytest.mark.slow),
                                  "gdl2/transit.gdl"],
                         ids=lambda p: Path(p).stem)
def test_oracle_answers_as_plain_clingo_calls(path: Path | str) -> None:
    game = path if isinstance(path, Path) else shared_path("corpus", path)
    oracle = OracleMachine(load_game(game))
    rng = random.Random(11)
    for _ in range(3):
        state = oracle.initial_state()
        for _step in range(60):
            assert _answers(oracle, state) == _plain(oracle, state)
            if oracle.is_terminal(state):
                break
            joint = random_joint_move(oracle, state, rng)
            assert _answers(oracle, state, joint) == _plain(oracle, state, joint)
            state = oracle.next_state(state, joint)


def test_a_joint_move_with_an_illegal_move_is_still_answered() -> None:
    """GDL defines ``next`` for any ``does`` facts; the oracle answers those too."""
    oracle = OracleMachine(load_game(RULESHEETS / "blind_tictactoe.kif"))
    state = oracle.initial_state()
    legal = {role: oracle.legal_moves(state, role) for role in oracle.roles}
    illegal = next((role, Term.parse("(mark 9 9)")) for role in oracle.roles)
    joint = tuple(illegal[1] if role == illegal[0] else legal[role][0] for role in oracle.roles)
    assert illegal[1] not in legal[illegal[0]]
    assert _answers(oracle, state, joint) == _plain(oracle, state, joint)


def test_threads_may_share_an_oracle() -> None:
    """Queries from several threads on the same states (one grounded program each) all agree."""
    from concurrent.futures import ThreadPoolExecutor

    oracle = OracleMachine(load_game(RULESHEETS / "blind_tictactoe.kif"))
    state = oracle.initial_state()
    joints = [tuple(oracle.legal_moves(state, role)[i % len(oracle.legal_moves(state, role))] for role in oracle.roles)
              for i in range(12)]

    def successor(joint: tuple[Term, ...]) -> frozenset[Term]:
        return oracle.next_state(state, joint).fluents

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(successor, joints * 4))
    expected = [_plain(oracle, state, joint)["next"] for joint in joints * 4]
    assert [{f"(next {fluent})" for fluent in result} for result in results] == expected
