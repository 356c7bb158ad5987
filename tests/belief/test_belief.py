"""Beliefs on games with known answers: Monty Hall, Blind Tic-Tac-Toe (seed chapter 17), the
Exploding Bomb, and small games written for the purpose."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from ggp.belief import (
    Belief,
    BeliefSettings,
    MoveModel,
    MoveModelError,
    Observation,
    Particle,
    Particles,
    ProposalSettings,
    StepModel,
    advance,
)
from ggp.deadline import Deadline
from ggp.errors import GGPError
from ggp.gdl.load import read_game_file
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner import make_machine
from tests.belief.support import brute_force, corpus_game, game_text, parse, rulesheet
from tests.conftest import shared_path

CANDIDATE, WHITE, AGENT = Constant("candidate"), Constant("white"), Constant("agent")
OK = Constant("ok")

#: Particles from the first step, many of them.
PARTICLES = BeliefSettings(particles=4000, cap=0, max_work=0)
#: Particles from the first step, every explaining move found by drawing from the prior.
DRAWING = BeliefSettings(particles=4000, cap=0, max_work=0, proposal=ProposalSettings(enumerate_up_to=0))


def belief_of(game: GameDescription, role: Constant, seen: Sequence[Observation] = (),
              settings: BeliefSettings = BeliefSettings(), live: bool | None = True,
              model: MoveModel | None = None) -> Belief:
    """A belief of ``role`` after ``seen`` (``live``: the match went on after each step)."""
    belief = Belief(make_machine(game), role, description=game, rng=random.Random(1), settings=settings, model=model)
    for observation in seen:
        belief.update(observation, live)
    return belief


def monty_hall(chosen: int, opened: int, settings: BeliefSettings = BeliefSettings()) -> Belief:
    """The candidate's belief after choosing a door and seeing the host open another."""
    return belief_of(corpus_game("montyhall.gdl"), CANDIDATE, [
        Observation(parse(f"(choose {chosen})"), frozenset({parse(f"(does candidate (choose {chosen}))")})),
        Observation(parse("noop"), frozenset({parse("(does candidate noop)"), parse(f"(open_door {opened})")})),
    ], settings)


@pytest.mark.parametrize("chosen, opened", [(1, 3), (2, 1), (3, 2)])
def test_monty_hall_exact(chosen: int, opened: int) -> None:
    belief = monty_hall(chosen, opened)
    exact = belief.information_set()
    assert belief.exact and exact is not None and exact.size == 2
    other = 6 - chosen - opened
    assert exact.probability(parse(f"(car {chosen})")) == pytest.approx(1 / 3)
    assert belief.probability(parse(f"(car {other})")) == pytest.approx(2 / 3)
    assert belief.probability(parse(f"(car {opened})")) == 0.0
    assert belief.size().exact and belief.size().value == 2


@pytest.mark.parametrize("settings", [PARTICLES, DRAWING], ids=["enumerating", "drawing"])
def test_monty_hall_particles_give_one_third(settings: BeliefSettings) -> None:
    """4,000 particles put the car behind the chosen door with probability 1/3 (+-0.02)."""
    belief = monty_hall(1, 3, settings)
    assert not belief.exact and belief.consistent
    particles = belief.particles()
    assert len(particles) == 4000
    assert abs(particles.probability(parse("(car 1)")) - 1 / 3) < 0.02
    assert not belief.size().exact


def test_a_step_weights_particles_by_the_prior_mass_of_their_explanations() -> None:
    """Seeing the host open door 3 after choosing door 1: a particle with the car behind door 1
    survives with weight 1/2 (the host had two doors), one with the car behind door 2 with
    weight 1 (one door); counted without the weights the survivors say 1/2 (design.md's trap)."""
    game = corpus_game("montyhall.gdl")
    machine = make_machine(game)
    chose = Observation(parse("(choose 1)"), frozenset({parse("(does candidate (choose 1))")}))
    exact = belief_of(game, CANDIDATE, [chose]).information_set()
    assert exact is not None and exact.size == 3
    opened = Observation(parse("noop"), frozenset({parse("(does candidate noop)"), parse("(open_door 3)")}))
    model = StepModel(machine, CANDIDATE, opened)
    before = [p.reweighted(1.0) for p in exact.particles(300, random.Random(2))]
    alive, dead = advance(before, model, random.Random(3))
    assert len(dead) == 100 and len(alive) == 200
    car1 = [p for p in alive if parse("(car 1)") in p.state.fluents]
    assert len(car1) == 100 and {p.weight for p in car1} == {0.5}
    assert {p.weight for p in alive if p not in car1} == {1.0}
    assert Particles(alive).probability(parse("(car 1)")) == pytest.approx(1 / 3)


def test_a_passed_deadline_still_waits_for_a_survivor() -> None:
    """With the deadline passed, the step stops only once a particle has explained it: here
    nine particles the host's door contradicts and one it does not, in any order (stopping at
    the deadline alone kept none, and the belief lost track of the game under a tight clock)."""
    game = corpus_game("montyhall.gdl")
    machine = make_machine(game)
    chose = Observation(parse("(choose 1)"), frozenset({parse("(does candidate (choose 1))")}))
    exact = belief_of(game, CANDIDATE, [chose]).information_set()
    assert exact is not None
    states = {door: next(p.state for p in exact.particles(30, random.Random(2))
                         if parse(f"(car {door})") in p.state.fluents) for door in (2, 3)}
    opened = Observation(parse("noop"), frozenset({parse("(does candidate noop)"), parse("(open_door 3)")}))
    particles = [Particle(states[3], 1.0)] * 9 + [Particle(states[2], 1.0)]
    for seed in range(10):
        alive, dead = advance(particles, StepModel(machine, CANDIDATE, opened), random.Random(seed), Deadline(0.0))
        assert len(alive) == 1 and parse("(car 2)") in alive[0].state.fluents
        assert all(p.state == states[3] for p in dead)


def test_monty_hall_queries() -> None:
    belief = monty_hall(1, 3)
    assert belief.certain() == {parse(f) for f in ("(chosen 1)", "(closed 1)", "(closed 2)", "(step 3)")}
    assert belief.possible() == belief.certain() | {parse("(car 1)"), parse("(car 2)")}
    assert belief.legal_moves() == (parse("noop"), parse("switch"))
    assert belief.legal_moves(Constant("random")) == (parse("noop"),)
    drawn = belief.particles(3000)
    assert len(drawn) == 3000 and drawn.effective_size() == pytest.approx(3000)
    assert abs(drawn.probability(parse("(car 1)")) - 1 / 3) < 1 / 3000 + 1e-9  # systematic: 1000 of 3000
    marginals = belief.marginals()
    assert marginals.exact and marginals.fluents[parse("(car 2)")] == pytest.approx(2 / 3)
    assert marginals.certain() == belief.certain()


def test_percepts_no_history_explains_leave_an_approximate_belief() -> None:
    """The host cannot open the door the candidate chose: nothing explains it, the belief says
    so (not consistent) and still knows the candidate's moves."""
    game = corpus_game("montyhall.gdl")
    belief = belief_of(game, CANDIDATE, [
        Observation(parse("(choose 1)"), frozenset({parse("(does candidate (choose 1))")})),
        Observation(parse("noop"), frozenset({parse("(does candidate noop)"), parse("(open_door 1)")})),
    ])
    assert not belief.exact and not belief.consistent
    assert belief.last is not None and any("forced" in r for r in belief.last.rejuvenated)
    assert belief.legal_moves() == (parse("noop"), parse("switch"))


def test_unknown_role_is_an_error() -> None:
    with pytest.raises(GGPError, match="not a role"):
        belief_of(corpus_game("montyhall.gdl"), Constant("host"))


# Blind Tic-Tac-Toe, seed chapter 17 exercise 1: white played mark(2,2) then mark(1,3).
EXERCISE_1 = {"a": ((False, True), 8), "b": ((False, False), 1), "c": ((True, False), 8)}


def _white(percepts: tuple[bool, ...]) -> list[Observation]:
    moves = ("(mark 2 2)", "(mark 1 3)")
    return [Observation(parse(m), frozenset({OK} if ok else ())) for m, ok in zip(moves, percepts)]


@pytest.mark.parametrize("part", sorted(EXERCISE_1))
def test_blind_tictactoe_exercise_1(part: str) -> None:
    percepts, size = EXERCISE_1[part]
    game = rulesheet("blind_tictactoe.kif")
    exact = belief_of(game, WHITE, _white(percepts)).information_set()
    assert exact is not None and exact.size == size
    by_brute_force, _ = brute_force(make_machine(game, "oracle"), WHITE, _white(percepts))
    assert {s.fluents for s in exact.states} == set(by_brute_force)
    for state, p in exact.states.items():
        assert p == pytest.approx(by_brute_force[state.fluents])


def test_blind_tictactoe_figure_17_1() -> None:
    """After mark(2,2): with ok, x is certain in the middle and white may try any other cell;
    without, the single possible state has o in the middle."""
    game = rulesheet("blind_tictactoe.kif")
    seen_ok = belief_of(game, WHITE, _white((True,)))
    assert seen_ok.size().value == 9
    assert parse("(cell 2 2 x)") in seen_ok.certain()
    assert parse("(cell 1 1 o)") in seen_ok.possible() and parse("(cell 1 1 o)") not in seen_ok.certain()
    # black tried one of 8 other cells (x 2 coin tosses) or the middle and lost the toss:
    # 17 equally likely histories, 2 of them with black at (1,1)
    assert seen_ok.probability(parse("(cell 1 1 o)")) == pytest.approx(2 / 17)
    assert len(seen_ok.legal_moves()) == 8 and parse("(mark 2 2)") not in seen_ok.legal_moves()
    nil = belief_of(game, WHITE, _white((False,)))
    assert nil.size().value == 1
    assert parse("(cell 2 2 o)") in nil.certain()


def test_exploding_bomb_asking_reveals_the_wire() -> None:
    game = rulesheet("exploding_bomb.kif")
    silent = belief_of(game, AGENT, [Observation(parse("noop")), Observation(parse("noop"))])
    assert silent.probability(parse("(armed red)")) == pytest.approx(0.5)
    assert silent.legal_moves() == (parse("(cut blue)"), parse("(cut red)"))
    asked = belief_of(game, AGENT, [Observation(parse("noop")), Observation(parse("ask"), frozenset({parse("red")}))])
    assert parse("(armed red)") in asked.certain() and asked.probability(parse("(armed blue)")) == 0.0


def test_krieg_tictactoe_double_hit() -> None:
    game = corpus_game("kriegTTT_4x4.gdl")
    x = Constant("xplayer")
    belief = belief_of(game, x, [Observation(parse("(mark 1 2)"), frozenset({parse("(yougotit 1 2)")}))])
    assert belief.size().value == 15  # o marked any cell but (1 2) (a double hit would have failed x)
    belief.update(Observation(parse("(mark 1 3)"), frozenset({parse("(mark 1 3)")})))
    # x failed on (1 3): o held it since step 1 (15 histories of weight 1/16 * 1/15), or o
    # aimed at it too in step 2 (a double hit: 14 histories of the same weight)
    assert parse("(cell 1 3 oplayer)") in belief.possible() - belief.certain()
    assert belief.probability(parse("(cell 1 3 oplayer)")) == pytest.approx(15 / 29)


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


def _model(role: Constant, state: object, legal: tuple[Term, ...]) -> list[float]:
    return [{"a": 3.0, "b": 1.0, "c": 4.0}[m.args[0].name] for m in legal]  # type: ignore[attr-defined]


def test_move_model_weights_the_opponent() -> None:
    game = game_text(PICK)
    seen = [Observation(parse("wait"), frozenset({parse("notc")}))]
    observer = Constant("observer")
    assert belief_of(game, observer, seen, live=False).probability(parse("(picked a)")) == pytest.approx(0.5)
    modelled = belief_of(game, observer, seen, live=False, model=_model)
    assert modelled.probability(parse("(picked a)")) == pytest.approx(0.75)
    sampled = belief_of(game, observer, seen, PARTICLES, live=False, model=_model)
    assert abs(sampled.probability(parse("(picked a)")) - 0.75) < 0.03


def test_broken_move_model_is_reported() -> None:
    with pytest.raises(MoveModelError, match="3 legal moves"):
        belief_of(game_text(PICK), Constant("observer"), [Observation(parse("wait"), None)], live=False,
                  model=lambda role, state, legal: [1.0])


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


@pytest.mark.parametrize("settings", [BeliefSettings(), PARTICLES], ids=["exact", "particles"])
def test_a_one_role_game_has_a_single_history(settings: BeliefSettings) -> None:
    game = game_text(COUNTER)
    seen = [Observation(parse("(add 2)")), Observation(parse("wait"), frozenset({parse("(count 1)")})),
            Observation(parse("(add 0)"))]
    belief = belief_of(game, Constant("solo"), seen, settings)
    assert set(belief.distribution()) == {belief.state}
    assert belief.state.fluents == {parse("(count 1)")}
    assert {p.history for p in belief.particles(5)} == {tuple((o.move,) for o in seen)}


def test_unreported_steps_are_taken_as_anything() -> None:
    """A step whose move and percepts were not reported: every own move and percept is possible."""
    game = rulesheet("blind_tictactoe.kif")
    belief = belief_of(game, WHITE, [Observation(None, None)])
    assert belief.size().value == 9 * 8 + 9 * 2  # white and black on different cells, or a clash and a coin toss
    assert parse("(cell 2 2 x)") in belief.possible() and parse("(cell 2 2 x)") not in belief.certain()


def test_told_joint_moves_give_the_true_state() -> None:
    game, _ = read_game_file(shared_path("corpus", "gdl", "ggporg_ticTacToe.kif"))
    machine = make_machine(game)
    belief = Belief(machine, Constant("xplayer"), rng=random.Random(1))
    state = machine.initial_state()
    for joint in [(parse("(mark 1 1)"), parse("noop")), (parse("noop"), parse("(mark 2 2)"))]:
        belief.update(Observation(joint[0], None, joint))
        state = machine.next_state(state, joint)
    assert belief.exact and belief.distribution() == {state: 1.0}
