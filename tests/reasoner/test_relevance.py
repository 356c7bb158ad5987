"""The rules that can fire in a state: leaving the others out keeps every answer set as it is.

The reference is clingo on the whole program with the state's ``true`` facts (and a joint move's
``does`` facts).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import clingo
import pytest

from ggp.gdl.load import load_game
from ggp.reasoner.asp import does_facts, facts
from ggp.reasoner.oracle import OracleMachine, ParsedProgram, solve_once
from ggp.reasoner.play import random_joint_move
from ggp.reasoner.relevance import Relevance
from ggp.reasoner.verify import compare_machines
from tests.conftest import shared_path

SHOWS = "#show legal/2. #show terminal/0. #show goal/2. #show next/1. #show sees/2.\n"


def _kept(program: str, fluents: str) -> set[str]:
    """The statements of ``program`` that can fire when the ``fluents`` (clingo terms) are true."""
    relevance = Relevance(ParsedProgram(program).statements)
    return {str(s) for s in relevance.relevant(clingo.parse_term(f) for f in fluents.split())}


def test_a_rule_whose_true_literal_matches_no_fluent_is_left_out() -> None:
    program = "a :- true(step(1)).\nb :- true(step(2)).\nc(X) :- true(cell(X,x)).\nd(X) :- true(cell(X,o)).\n"
    kept = _kept(program, "step(1) cell(3,x)")
    assert "a :- true(step(1))." in kept
    assert "c(X) :- true(cell(X,x))." in kept
    assert not any(s.startswith(("b :-", "d(X) :-")) for s in kept)


def test_a_rule_needing_a_predicate_no_rule_can_derive_is_left_out() -> None:
    program = "p :- true(on).\nq :- p.\nr :- q, s.\nt :- not p.\nu :- undefined.\n"
    assert _kept(program, "off") == {"#program base.", "t :- not p."}
    assert _kept(program, "on") == {"#program base.", "p :- true(on).", "q :- p.", "t :- not p."}


def test_negative_and_non_ground_literals_are_kept() -> None:
    program = ("a :- not true(step(9)).\nb(X) :- true(X).\nc :- true(f(g(Y),Y)).\n"
               "d :- true(f(Z)), Z > 3.\nfact(1).\ne :- fact(1).\n")
    kept = _kept(program, "f(1)")
    assert kept == {"#program base.", "a :- not true(step(9)).", "b(X) :- true(X).", "d :- true(f(Z)); Z > 3.",
                    "fact(1).", "e :- fact(1)."}


def test_recursion_fires_when_its_base_case_can() -> None:
    program = "path(X,Y) :- true(edge(X,Y)).\npath(X,Z) :- path(X,Y), true(edge(Y,Z)).\nlong :- path(a,c).\n"
    assert len(_kept(program, "edge(a,b) edge(b,c)")) == 4
    assert _kept(program, "node(a)") == {"#program base."}


def _rules(statements: Sequence[str]) -> int:
    """How many of the statements (clingo text) are rules with a body."""
    return sum(1 for s in statements if " :- " in s)


@pytest.mark.parametrize("game", ["recycle/KuhnPoker2.rcy", pytest.param("recycle/Agram2.rcy", marks=pytest.mark.slow),
                                  "gdl2/montyhall.gdl"])
def test_the_rules_that_can_fire_have_the_whole_programs_answer_set(game: str) -> None:
    """Along seeded random playouts, the program cut to the state's relevant rules has the answer set of the whole
    program, before and after a joint move, and the cut leaves out more than a tenth of the rules."""
    oracle = OracleMachine(load_game(shared_path("corpus", game)))
    rng = random.Random(5)
    kept_fraction = []
    for _ in range(2):
        state = oracle.initial_state()
        while True:
            statements = oracle.relevant(state.fluents)
            relevant = "\n".join(statements) + "\n"
            kept_fraction.append(_rules(statements) / _rules([str(s) for s in oracle.rules.statements]))
            true = facts("true", state.fluents, oracle.names)
            assert set(solve_once(relevant + true, SHOWS)) == set(solve_once(oracle.program + true, SHOWS))
            if oracle.is_terminal(state):
                break
            joint = random_joint_move(oracle, state, rng)
            does = does_facts(oracle.roles, joint, oracle.names)
            assert (set(solve_once(relevant + true + does, SHOWS))
                    == set(solve_once(oracle.program + true + does, SHOWS)))
            state = oracle.next_state(state, joint)
    assert sum(kept_fraction) / len(kept_fraction) < 0.9


@pytest.mark.parametrize("game", [pytest.param("recycle/Hearts4.rcy", marks=pytest.mark.slow), "recycle/Comet2.rcy"])
def test_the_oracle_with_the_cut_answers_as_without(game: str) -> None:
    """Every query of every state of seeded playouts: the oracle grounding the rules that can fire
    and the oracle grounding the whole program answer alike."""
    description = load_game(shared_path("corpus", game))
    report = compare_machines(OracleMachine(description), OracleMachine(description, cut=False), 1, 3,
                              ("cut", "whole"), max_steps=40)
    assert report.ok, report.describe()
    assert report.states > 30


@pytest.mark.parametrize("definition", ["a ; b :- c.", "#external b.", "true(on) :- c."])
def test_a_definition_it_cannot_read_keeps_every_rule(definition: str) -> None:
    program = f"c.\n{definition}\nd :- b.\ne :- true(on).\n"
    assert _kept(program, "off") == {str(s) for s in ParsedProgram(program).statements}
