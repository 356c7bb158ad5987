"""Beliefs on games with known answers: Monty Hall, Blind Tic-Tac-Toe (seed chapter 17), the
Exploding Bomb, and small games written for the purpose."""

from __future__ import annotations

import random

import pytest

from ggp.belief import (
    Belief,
    InconsistentObservationError,
    MoveModelError,
    Observation,
    SamplerSettings,
)
from ggp.belief.sampling import DEFAULT_SETTINGS
from ggp.errors import GGPError
from ggp.gdl.terms import Constant
from ggp.reasoner import make_machine
from tests.belief.support import brute_force, corpus_game, game_text, parse, rulesheet

CANDIDATE, WHITE, AGENT = Constant("candidate"), Constant("white"), Constant("agent")
OK = Constant("ok")

#: Sampler settings that force the inverse-sampling estimate and its fallbacks wherever a role
#: has more than one legal move (instead of enumerating the feasible moves).
ESTIMATING = SamplerSettings(enumerate_up_to=0, pinned_up_to=0, patience=2)


def monty_hall(chosen: int, opened: int, settings: SamplerSettings = DEFAULT_SETTINGS) -> Belief:
    """The candidate's belief after choosing a door and seeing the host open another."""
    belief = Belief(corpus_game("montyhall.gdl"), CANDIDATE, settings=settings)
    belief.update(parse(f"(choose {chosen})"), [parse(f"(does candidate (choose {chosen}))")])
    belief.update(parse("noop"), [parse("(does candidate noop)"), parse(f"(open_door {opened})")])
    return belief


@pytest.mark.parametrize("chosen, opened", [(1, 3), (2, 1), (3, 2)])
def test_monty_hall_exact(chosen: int, opened: int) -> None:
    belief = monty_hall(chosen, opened)
    exact = belief.information_set()
    assert exact is not None and exact.size == 2 and len(exact.histories) == 2
    other = 6 - chosen - opened
    assert exact.probability(parse(f"(car {chosen})")) == pytest.approx(1 / 3)
    assert belief.probability(parse(f"(car {other})")) == pytest.approx(2 / 3)
    assert belief.probability(parse(f"(car {opened})")) == 0.0


@pytest.mark.parametrize("settings", [SamplerSettings(), ESTIMATING], ids=["default", "estimating"])
def test_monty_hall_weighted_sampling_gives_one_third(settings: SamplerSettings) -> None:
    """5,000 weighted samples put the car behind the chosen door with probability 1/3 (+-0.02);
    the same particles counted without their weights say 1/2 (design.md's trap)."""
    belief = monty_hall(1, 3, settings)
    sample = belief.sample(5000, random.Random(20240601), method="guided")
    assert len(sample) == 5000
    assert abs(sample.probability(parse("(car 1)")) - 1 / 3) < 0.02
    unweighted = sum(parse("(car 1)") in p.state.fluents for p in sample) / len(sample)
    assert abs(unweighted - 1 / 2) < 0.03


def test_monty_hall_queries() -> None:
    belief = monty_hall(1, 3)
    assert belief.certain() == {parse(f) for f in ("(chosen 1)", "(closed 1)", "(closed 2)", "(step 3)")}
    assert belief.possible() == belief.certain() | {parse("(car 1)"), parse("(car 2)")}
    assert belief.legal_everywhere() == (parse("noop"), parse("switch"))
    assert belief.legal_everywhere(Constant("random")) == (parse("noop"),)


def test_sampling_draws_from_the_exact_set_when_it_is_small() -> None:
    belief = monty_hall(1, 3)
    sample = belief.sample(3000, random.Random(5))
    assert {p.history for p in sample} == {p.history for p in belief.information_set().histories}  # type: ignore[union-attr]
    assert abs(sample.probability(parse("(car 1)")) - 1 / 3) < 0.03
    assert sample.effective_size() == pytest.approx(3000)
    with pytest.raises(ValueError):
        belief.sample(0, random.Random(5))


def test_inconsistent_percepts_name_the_step() -> None:
    belief = Belief(corpus_game("montyhall.gdl"), CANDIDATE)
    belief.update(parse("(choose 1)"), [parse("(does candidate (choose 1))")])
    with pytest.raises(InconsistentObservationError, match="step 2") as caught:
        belief.update(parse("noop"), [parse("(does candidate noop)"), parse("(open_door 1)")])
    assert isinstance(caught.value, GGPError)
    assert caught.value.step == 2 and "percepts" in str(caught.value)
    with pytest.raises(InconsistentObservationError, match="step 2"):
        belief.certain()


def test_missing_percept_and_illegal_move_are_inconsistent() -> None:
    game = corpus_game("montyhall.gdl")
    with pytest.raises(InconsistentObservationError, match="step 1.*explains these percepts"):
        Belief(game, CANDIDATE, [Observation(parse("(choose 1)"))])
    with pytest.raises(InconsistentObservationError, match="step 1: candidate played switch.*move"):
        Belief(game, CANDIDATE, [Observation(parse("switch"), frozenset({parse("(does candidate switch)")}))])


def test_unknown_role_is_an_error() -> None:
    with pytest.raises(GGPError, match="not a role"):
        Belief(corpus_game("montyhall.gdl"), Constant("host"))


# Blind Tic-Tac-Toe, seed chapter 17 exercise 1: white played mark(2,2) then mark(1,3).
EXERCISE_1 = {"a": ((False, True), 8), "b": ((False, False), 1), "c": ((True, False), 8)}


def _white(percepts: tuple[bool, ...]) -> list[Observation]:
    moves = ("(mark 2 2)", "(mark 1 3)")
    return [Observation(parse(m), frozenset({OK} if ok else ())) for m, ok in zip(moves, percepts)]


@pytest.mark.parametrize("part", sorted(EXERCISE_1))
def test_blind_tictactoe_exercise_1(part: str) -> None:
    percepts, size = EXERCISE_1[part]
    game = rulesheet("blind_tictactoe.kif")
    exact = Belief(game, WHITE, _white(percepts)).information_set()
    assert exact is not None and exact.size == size
    by_brute_force, histories = brute_force(make_machine(game, "oracle"), WHITE, _white(percepts))
    assert {s.fluents for s in exact.states} == set(by_brute_force)
    assert len(exact.histories) == histories
    for state, p in exact.states.items():
        assert p == pytest.approx(by_brute_force[state.fluents])


def test_blind_tictactoe_figure_17_1() -> None:
    """After mark(2,2): with ok, x is certain in the middle and white may try any other cell;
    without, the single possible state has o in the middle."""
    game = rulesheet("blind_tictactoe.kif")
    seen_ok = Belief(game, WHITE, _white((True,)))
    assert seen_ok.information_set().size == 9  # type: ignore[union-attr]
    assert parse("(cell 2 2 x)") in seen_ok.certain()
    assert parse("(cell 1 1 o)") in seen_ok.possible() and parse("(cell 1 1 o)") not in seen_ok.certain()
    # black tried one of 8 other cells (x 2 coin tosses) or the middle and lost the toss:
    # 17 equally likely histories, 2 of them with black at (1,1)
    assert seen_ok.probability(parse("(cell 1 1 o)")) == pytest.approx(2 / 17)
    assert len(seen_ok.legal_everywhere()) == 8 and parse("(mark 2 2)") not in seen_ok.legal_everywhere()
    nil = Belief(game, WHITE, _white((False,)))
    assert nil.information_set().size == 1  # type: ignore[union-attr]
    assert parse("(cell 2 2 o)") in nil.certain()


def test_legal_everywhere_within_a_budget() -> None:
    """Cut off at once, the cautious search still answers for the first history it met: in a
    game where a role knows its legal moves, the exact answer."""
    game = rulesheet("blind_tictactoe.kif")
    belief = Belief(game, WHITE, _white((True,)))
    exact = belief.legal_everywhere()
    assert belief.legal_everywhere(budget=0.0) == exact
    assert belief.legal_everywhere() == exact  # the solver is still usable after a cut-off
    belief.update(parse("(mark 1 1)"), [parse("ok")])
    assert len(belief.legal_everywhere(budget=0.0)) == 7


def test_exploding_bomb_asking_reveals_the_wire() -> None:
    game = rulesheet("exploding_bomb.kif")
    silent = Belief(game, AGENT, [Observation(parse("noop")), Observation(parse("noop"))])
    assert silent.probability(parse("(armed red)")) == pytest.approx(0.5)
    assert silent.legal_everywhere() == (parse("(cut blue)"), parse("(cut red)"))
    asked = Belief(game, AGENT, [Observation(parse("noop")), Observation(parse("ask"), frozenset({parse("red")}))])
    assert parse("(armed red)") in asked.certain() and asked.probability(parse("(armed blue)")) == 0.0


def test_updates_one_step_at_a_time_equal_a_belief_built_at_once() -> None:
    game = corpus_game("kriegTTT_4x4.gdl")
    x = Constant("xplayer")
    seen = [
        Observation(parse("(mark 1 2)"), frozenset({parse("(yougotit 1 2)")})),
        Observation(parse("(mark 1 3)"), frozenset({parse("(mark 1 3)")})),
    ]
    growing = Belief(game, x)
    sizes = []
    for observation in seen:
        growing.update(observation.move, observation.percepts)
        sizes.append(growing.information_set().size)  # type: ignore[union-attr]
    at_once = Belief(game, x, seen)
    assert growing.steps == at_once.steps == 2 and growing.observations == at_once.observations
    assert growing.information_set() == at_once.information_set()
    assert sizes[0] == 15  # o marked any cell but (1 2) (a double hit would have failed x)
    # x failed on (1 3): o held it since step 1 (15 histories of weight 1/16 * 1/15), or o
    # aimed at it too in step 2 (a double hit: 14 histories of the same weight)
    assert parse("(cell 1 3 oplayer)") in growing.possible() - growing.certain()
    assert growing.probability(parse("(cell 1 3 oplayer)")) == pytest.approx(15 / 29)


# A game where an opponent picks a, b or c and the observer only learns whether it was c.
PICK = """
(role observer) (role opponent)
(init (phase 1))
(<= (legal observer wait) (true (phase 1)))
(<= (legal opponent (pick ?x)) (true (phase 1)) (letter ?x))
(letter a) (letter b) (letter c)
(<= (next (picked ?x)) (does opponent (pick ?x)))
(<= (next (phase 2)) (true (phase 1)))
(<= (sees observer notc) (does opponent (pick ?x)) (distinct ?x c))
(<= terminal (true (phase 2)))
(goal observer 0) (goal opponent 0)
"""


def test_move_model_weights_the_opponent() -> None:
    def model(role: Constant, state: object, legal: tuple) -> list[float]:  # type: ignore[type-arg]
        return [{"a": 3.0, "b": 1.0, "c": 4.0}[m.args[0].name] for m in legal]

    game = game_text(PICK)
    seen = [Observation(parse("wait"), frozenset({parse("notc")}))]
    observer = Constant("observer")
    assert Belief(game, observer, seen).probability(parse("(picked a)")) == pytest.approx(0.5)
    modelled = Belief(game, observer, seen, model=model)
    assert modelled.probability(parse("(picked a)")) == pytest.approx(0.75)
    sample = modelled.sample(4000, random.Random(3), method="guided")
    assert abs(sample.probability(parse("(picked a)")) - 0.75) < 0.03


def test_broken_move_model_is_reported() -> None:
    game = game_text(PICK)
    broken = Belief(game, Constant("observer"), [Observation(parse("wait"))], model=lambda role, state, legal: [1.0])
    with pytest.raises(MoveModelError, match="3 legal moves"):
        broken.information_set()


COUNTER = """
(role solo)
(init (count 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(<= (legal solo (add ?n)) (succ ?n ?m) (true (count 0)))
(<= (legal solo (add ?n)) (succ ?n ?m) (true (count 1)))
(<= (legal solo wait) (true (count ?n)))
(<= (next (count ?m)) (does solo wait) (true (count ?m)))
(<= (next (count 1)) (does solo (add ?n)))
(<= (sees solo (count ?m)) (does solo wait) (true (count ?m)))
(<= terminal (true (count 3)))
(goal solo 0)
"""


@pytest.mark.parametrize("machine", [False, True], ids=["solver", "machine"])
def test_a_one_role_game_has_a_single_history(machine: bool) -> None:
    game = game_text(COUNTER)
    solo = Constant("solo")
    seen = [Observation(parse("(add 2)")), Observation(parse("wait"), frozenset({parse("(count 1)")})), Observation(parse("(add 0)"))]
    belief = Belief(game, solo, seen, machine=make_machine(game, "oracle") if machine else None)
    assert belief.information_set().size == 1  # type: ignore[union-attr]
    sample = belief.sample(3, random.Random(1), method="guided")
    assert {p.state.fluents for p in sample} == {frozenset({parse("(count 1)")})}
    assert sample[0].history == tuple((o.move,) for o in seen)
