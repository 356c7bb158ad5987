"""The temporal encoding: how rules are stamped with time, what the solver answers, and rules
that break GDL's layering."""

from __future__ import annotations

import pytest

from ggp.belief import Observation
from ggp.errors import ReasonerError
from ggp.gdl.terms import Constant
from ggp.reasoner import make_machine
from ggp.reasoner.asp import AspNames
from ggp.reasoner.temporal import HistorySolver, InconsistentObservationError, at_time, classify, temporal_program
from tests.belief.support import brute_force, corpus_game, game_text, parse, solver_information_set

CANDIDATE, RANDOM = Constant("candidate"), Constant("random")

# Disjunctions, negated disjunctions with distinct, a proposition that is not a clingo name,
# a derived predicate of the state and one of the joint move.
OR_GAME = """
(role watcher) (role random)
(init (count 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(colour red) (colour green) (colour blue)
(<= (legal watcher look) (true (count ?n)))
(<= (legal random (paint ?c)) (colour ?c) (not (true (painted ?c))))
(<= (next (painted ?c)) (or (does random (paint ?c)) (true (painted ?c))))
(<= (next (count ?m)) (true (count ?n)) (succ ?n ?m))
(<= warm-ish (or (true (painted red)) (true (painted green))))
(<= (cool ?c) (does random (paint ?c)) (not (or (distinct ?c blue) warm-ish)))
(<= (sees watcher cool) (cool ?c))
(<= (sees watcher mixed) warm-ish (does random (paint blue)))
(<= terminal (true (count 3)))
(goal watcher 0) (goal random 0)
"""


def test_time_stamping() -> None:
    parts = temporal_program(corpus_game("montyhall.gdl"), AspNames())
    assert "_t_true__@T1@(car(V_d)) :- _t_does__@T@(random,hide_car(V_d))." in parts["transition"]
    assert "_t_legal__@T@(candidate,noop) :- _t_true__@T@(step(2))." in parts["state"]
    assert "_t_next_chosen__@T@(V_d) :- _t_does__@T@(candidate,choose(V_d))." in parts["transition"]
    assert "role(candidate)." in parts["base"] and "_t_true__0(F) :- init(F)." in parts["base"]
    assert "_t_legal__7(candidate,noop) :- _t_true__7(step(2))." in at_time(parts["state"], 7)
    state, transition = classify(corpus_game("montyhall.gdl"))
    assert ("next_chosen", 1) in transition and ("goal", 2) in state and ("role", 1) not in state | transition


OR_CASES: dict[str, list[tuple[str, ...]]] = {"nil": [()], "cool": [("cool",)], "nil-mixed": [(), ("mixed",)], "nil-nil": [(), ()], "cool-nil": [("cool",), ()]}


@pytest.mark.parametrize("case", sorted(OR_CASES))
def test_disjunctions_and_propositions_against_brute_force(case: str) -> None:
    game = game_text(OR_GAME)
    watcher = Constant("watcher")
    observations = [Observation(parse("look"), frozenset(parse(p) for p in seen)) for seen in OR_CASES[case]]
    expected, histories = brute_force(make_machine(game, "oracle"), watcher, observations)
    found, solved = solver_information_set(game, watcher, observations)
    assert solved == histories > 0
    assert found == pytest.approx(expected)


def test_layering_violations_are_reported() -> None:
    bad_legal = OR_GAME + "(<= (legal watcher shout) (does random (paint red)))"
    with pytest.raises(ReasonerError, match="legal/2 depends on does"):
        HistorySolver(game_text(bad_legal), Constant("watcher"))
    bad_init = OR_GAME + "(<= (init (count 1)) (true (count 0)))"
    with pytest.raises(ReasonerError, match="init/1 depends on true"):
        classify(game_text(bad_init))


def test_solver_queries_on_monty_hall() -> None:
    solver = HistorySolver(corpus_game("montyhall.gdl"), CANDIDATE)
    solver.extend(parse("(choose 1)"), [parse("(does candidate (choose 1))")])
    hides = [parse(f"(hide_car {d})") for d in (1, 2, 3)]
    assert solver.feasible((), 0, RANDOM, hides) == tuple(hides)
    solver.extend(parse("noop"), [parse("(does candidate noop)"), parse("(open_door 3)")])
    assert solver.horizon == 2
    assert solver.feasible((), 0, RANDOM, hides) == tuple(hides[:2])
    assert solver.feasible((), 0, RANDOM, hides, limit=1) is None
    assert solver.consistent([(0, RANDOM, hides[1])]) and not solver.consistent([(0, RANDOM, hides[2])])
    assert not solver.consistent([(0, RANDOM, parse("(hide_car 7)"))])
    snap = solver.snapshot([(0, RANDOM, hides[0])], 1, [RANDOM], state=True)
    assert snap is not None and snap.legal[RANDOM] == (parse("(open_door 2)"), parse("(open_door 3)"))
    assert snap.state == frozenset(parse(f) for f in ("(car 1)", "(chosen 1)", "(closed 1)", "(closed 2)", "(closed 3)", "(step 2)"))
    records = solver.histories(10)
    assert records is not None and len(records) == 2 and solver.histories(1) is None
    assert {r.legal_counts[1][RANDOM] for r in records} == {1, 2}


def test_many_steps_grounded_at_once_equal_one_by_one() -> None:
    game = corpus_game("montyhall.gdl")
    steps = [(parse("(choose 1)"), frozenset({parse("(does candidate (choose 1))")})),
             (parse("noop"), frozenset({parse("(does candidate noop)"), parse("(open_door 3)")}))]
    one_by_one = HistorySolver(game, CANDIDATE)
    for move, seen in steps:
        one_by_one.extend(move, seen)
    at_once = HistorySolver(game, CANDIDATE)
    at_once.extend_many(steps)
    assert at_once.horizon == one_by_one.horizon == 2
    first, second = one_by_one.histories(10), at_once.histories(10)
    assert first is not None and second is not None
    assert {r.joints for r in first} == {r.joints for r in second} and len(first) == 2


def test_inconsistent_steps_grounded_at_once_name_the_last_step() -> None:
    solver = HistorySolver(corpus_game("montyhall.gdl"), CANDIDATE)
    steps = [(parse("(choose 1)"), frozenset({parse("(does candidate (choose 1))")})),
             (parse("noop"), frozenset({parse("(does candidate noop)"), parse("(open_door 1)")}))]
    with pytest.raises(InconsistentObservationError, match="step 2"):
        solver.extend_many(steps)
