"""The fast reasoner against the clingo oracle and against its own generic paths."""

from __future__ import annotations

import json
import random
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ggp import reasoner as reasoners
from ggp.cli import main
from ggp.errors import ReasonerError
from ggp.gdl import Constant, Term, parse_kif
from ggp.gdl.load import load_game
from ggp.gdl.validate import prepare
from ggp.reasoner import make_machine
from ggp.reasoner.domains import GroundingTooLarge
from ggp.reasoner.fast import FastMachine, GroundMachine
from ggp.reasoner.machine import StateMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import perft, random_playout
from ggp.reasoner.verify import compare_machines
from tests.conftest import RULESHEETS, shared_path

# A game with recursion both in the state part (reach) and in the move-dependent part (nreach),
# negation over a recursive relation, move-dependent percepts and a random role.
RECURSIVE = """
(role mover) (role random)
(node 1) (node 2) (node 3) (node 4)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8)
(init (edge 1 2)) (init (at 1)) (init (step 0))
(<= (legal random (toggle ?x ?y)) (node ?x) (node ?y) (distinct ?x ?y))
(<= (legal mover (go ?y)) (true (at ?x)) (reach ?x ?y) (distinct ?x ?y))
(legal mover stay)
(<= (reach ?x ?x) (node ?x))
(<= (reach ?x ?z) (reach ?x ?y) (true (edge ?y ?z)))
(<= (newedge ?x ?y) (true (edge ?x ?y)) (not (does random (toggle ?x ?y))))
(<= (newedge ?x ?y) (does random (toggle ?x ?y)) (not (true (edge ?x ?y))))
(<= (nreach ?x ?x) (node ?x))
(<= (nreach ?x ?z) (nreach ?x ?y) (newedge ?y ?z))
(<= (next (edge ?x ?y)) (newedge ?x ?y))
(<= (next (at ?y)) (does mover (go ?y)))
(<= (next (at ?x)) (true (at ?x)) (does mover stay))
(<= (next (connected ?y)) (true (at ?x)) (nreach ?x ?y))
(<= (sees mover (oneway ?y)) (true (at ?x)) (nreach ?x ?y) (not (nreach ?y ?x)))
(<= (sees mover (toggled ?x ?y)) (does random (toggle ?x ?y)) (reach 1 ?x))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (true (step 8)))
(<= (goal mover 100) (true (at 4)))
(<= (goal mover 0) (not (true (at 4))))
(goal random 0)
"""


def _rulesheet(name: str) -> object:
    return load_game(RULESHEETS / name)


def test_recursive_game_agrees_with_oracle() -> None:
    description, _ = prepare(parse_kif(RECURSIVE, "recursive.kif"))
    fast = FastMachine(description)
    assert fast.network.recursive, "the test game must exercise recursive components"
    report = compare_machines(fast, OracleMachine(description), 60, seed=3, names=("fast", "oracle"))
    assert report.ok, report.describe()
    assert report.states > 60 * 8


def test_tictactoe_perft_fast() -> None:
    machine = FastMachine(load_game(shared_path("corpus", "gdl", "ggporg_ticTacToe.kif")))
    assert [perft(machine, d) for d in range(1, 7)] == [9, 72, 504, 3024, 15120, 54720]


@pytest.mark.parametrize("name", ["ggporg_ticTacToe.kif", "ggporg_connectFour.kif", "ggporg_breakthroughSmall.kif"])
def test_generated_playout_loop_draws_like_the_generic_one(name: str) -> None:
    machine = FastMachine(load_game(shared_path("corpus", "gdl", name)))
    for seed in range(20):
        fast_state, fast_steps, fast_done = machine.depth_charge(machine.initial_state(), random.Random(seed), 500)
        slow_state, slow_steps, slow_done = StateMachine.depth_charge(
            machine, machine.initial_state(), random.Random(seed), 500)
        assert (fast_state.fluents, fast_steps, fast_done) == (slow_state.fluents, slow_steps, slow_done)


def test_seeded_playouts_are_identical_across_reasoners() -> None:
    description = load_game(shared_path("corpus", "gdl2", "montyhall.gdl"))
    fast, oracle = FastMachine(description), OracleMachine(description)
    for seed in range(10):
        a = random_playout(fast, random.Random(seed))
        b = random_playout(oracle, random.Random(seed))
        assert (a.final.fluents, a.length, a.goals) == (b.final.fluents, b.length, b.goals)


def test_step_limit_stops_a_playout() -> None:
    machine = FastMachine(load_game(shared_path("corpus", "gdl", "ggporg_connectFour.kif")))
    result = random_playout(machine, random.Random(1), max_steps=3)
    assert (result.length, result.finished) == (3, False)


def test_states_convert_between_machines() -> None:
    description = load_game(shared_path("corpus", "gdl2", "montyhall.gdl"))
    fast, oracle = FastMachine(description), OracleMachine(description)
    state = oracle.next_state(oracle.initial_state(), (Term.parse("(choose 2)"), Term.parse("(hide_car 1)")))
    packed = fast.convert(state)
    assert packed.fluents == state.fluents
    assert fast.legal_moves(packed, Constant("random")) == oracle.legal_moves(state, Constant("random"))
    assert packed == fast.state_from_fluents(sorted(state.fluents, key=str))
    assert hash(packed) == hash(fast.state_from_fluents(state.fluents))


def test_unreachable_fluents_and_moves_are_refused() -> None:
    machine = FastMachine(load_game(shared_path("corpus", "gdl2", "montyhall.gdl")))
    with pytest.raises(ReasonerError, match="can never hold"):
        machine.state_from_fluents([Term.parse("(car 7)")])
    with pytest.raises(ReasonerError, match="can never be legal"):
        machine.next_state(machine.initial_state(), (Term.parse("(choose 9)"), Term.parse("(hide_car 1)")))
    with pytest.raises(ReasonerError, match="needs 2 moves"):
        machine.next_state(machine.initial_state(), (Term.parse("(choose 1)"),))


def test_grounding_budget_and_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    description = load_game(shared_path("corpus", "gdl", "ggporg_ticTacToe.kif"))
    with pytest.raises(GroundingTooLarge, match="exceeds 50 ground rules"):
        FastMachine(description, max_rules=50)

    def too_large(*args: object, **kwargs: object) -> None:
        raise GroundingTooLarge("too large for the test")

    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())  # nothing built earlier in the process
    monkeypatch.setattr(reasoners, "_TOO_LARGE", {})  # nor the verdict left for later tests
    monkeypatch.setattr(GroundMachine, "__init__", too_large)  # the fast and the compiled machine
    assert isinstance(make_machine(description), OracleMachine)


def test_one_fast_machine_per_game_and_process(monkeypatch: pytest.MonkeyPatch, no_compiler: None) -> None:
    """Threads asking for the same game at once get the one machine, built once."""
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    built = []
    build = FastMachine.__init__

    def counted(self: FastMachine, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        build(self, *args, **kwargs)

    monkeypatch.setattr(FastMachine, "__init__", counted)
    description = load_game(RULESHEETS / "tictactoe.kif")
    with ThreadPoolExecutor(4) as pool:
        machines = list(pool.map(lambda kind: make_machine(description, kind), ["auto", "fast"] * 4))
    assert len(built) == 1 and all(m is built[0] for m in machines)
    assert make_machine(description, "oracle") is not built[0]
    other = load_game(RULESHEETS / "blind_tictactoe.kif")
    assert make_machine(other) is not built[0] and len(built) == 2


def test_a_game_too_large_is_tried_once_by_threads_asking_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """The threads that waited for a failed build fall back to the oracle without trying again."""
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    monkeypatch.setattr(reasoners, "_TOO_LARGE", {})
    tries = []

    def too_large(self: FastMachine, *args: Any, **kwargs: Any) -> None:
        tries.append(self)
        time.sleep(0.2)
        raise GroundingTooLarge("too large for the test")

    monkeypatch.setattr(GroundMachine, "__init__", too_large)
    description = load_game(RULESHEETS / "tictactoe.kif")
    with ThreadPoolExecutor(4) as pool:
        machines = list(pool.map(lambda _: make_machine(description), range(4)))
    assert len(tries) == 1 and all(isinstance(m, OracleMachine) for m in machines)


def test_a_disagreement_is_reported_with_state_query_and_answers() -> None:
    good = load_game(shared_path("corpus", "gdl", "ggporg_ticTacToe.kif"))
    text = good.to_kif().replace("(<= (goal xplayer 100) (line x))", "(<= (goal xplayer 90) (line x))")
    assert text != good.to_kif()
    bad = parse_kif(text)
    report = compare_machines(FastMachine(good), FastMachine(bad), 200, seed=1, names=("good", "bad"))
    assert not report.ok
    assert report.disagreement is not None
    assert report.disagreement.query == "goals"
    assert "xplayer: 100" in report.disagreement.first and "xplayer: 90" in report.disagreement.second
    described = report.describe()
    assert "state: (cell" in described and "good: " in described and "bad: " in described


def test_playout_command_same_seed_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(RULESHEETS / "montyhall.kif")
    results = []
    for reasoner in ("fast", "oracle"):
        assert main(["playout", path, "--count", "30", "--seed", "5", "--reasoner", reasoner]) == 0
        results.append(json.loads(capsys.readouterr().out))
    for report in results:
        assert set(report) == {"playouts", "mean_length", "playouts_per_second", "mean_goals"}
        assert report["playouts"] == 30
    assert results[0]["mean_goals"] == results[1]["mean_goals"]
    assert results[0]["mean_length"] == results[1]["mean_length"]


def test_verify_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(RULESHEETS / "blind_tictactoe.kif"), "--count", "5", "--seed", "2",
                 "--reasoner", "fast"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: fast and oracle agree on 5 playouts")


def test_verify_command_grounding_budget(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    """A game past the fast reasoner's grounding budget cannot be checked against the oracle, and
    says so (without the GameController to check it against instead: see tests/interop); the
    budget is an option (Cribbage2 needs 23 s)."""
    monkeypatch.setenv("GGP_PEERS", str(tmp_path / "no-peers"))
    game = str(shared_path("corpus", "gdl", "ggporg_breakthrough.kif"))
    assert main(["verify", game, "--count", "1", "--grounding-seconds", "0.01", "--reasoner", "fast"]) == 1
    err = capsys.readouterr().err
    assert "takes more than 0.01 s to ground" in err and "--against gamecontroller" in err
    assert main(["verify", game, "--count", "1", "--grounding-seconds", "60", "--reasoner", "fast"]) == 0
    assert capsys.readouterr().out.startswith("ok: fast and oracle agree on 1 playouts")
    assert main(["verify", game, "--grounding-seconds", "0"]) == 2


@pytest.mark.parametrize("name", ["recursive", "montyhall.kif", "blind_tictactoe.kif"])
def test_functions_written_as_generators_agree_with_the_oracle(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the frame limit at 0 every per-call function is a generator (as on large games)."""
    from ggp.reasoner import codegen

    monkeypatch.setattr(codegen, "FRAME_LIMIT", 0)
    description = prepare(parse_kif(RECURSIVE, "recursive.kif"))[0] if name == "recursive" \
        else load_game(RULESHEETS / name)
    machine = FastMachine(description)
    assert {"analyze_loop", "goals_loop", "step_loop"} <= set(machine.module("main"))
    report = compare_machines(machine, OracleMachine(description), 30, seed=5, names=("fast", "oracle"))
    assert report.ok, report.describe()
    assert "step_sees_loop" in machine.module("sees")


def test_generators_serve_threads_calling_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from ggp.reasoner import codegen

    description = load_game(RULESHEETS / "blind_tictactoe.kif")
    plain = FastMachine(description)
    monkeypatch.setattr(codegen, "FRAME_LIMIT", 0)
    pooled = FastMachine(description)

    def play(seed: int) -> list[tuple[frozenset[Term], dict[Constant, frozenset[Term]], bool]]:
        rng, trace = random.Random(seed), []
        state, twin = pooled.initial_state(), plain.initial_state()
        while not plain.is_terminal(twin):
            joint = tuple(rng.choice(plain.legal_moves(twin, role)) for role in plain.roles)
            assert pooled.legal_moves(state, plain.roles[0]) == plain.legal_moves(twin, plain.roles[0])
            trace.append((state.fluents, pooled.percepts(state, joint), pooled.is_terminal(state)))
            assert trace[-1] == (twin.fluents, plain.percepts(twin, joint), False)
            state, twin = pooled.next_state(state, joint), plain.next_state(twin, joint)
        return trace

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(play, range(40)))


def test_a_generator_that_raised_is_not_used_again() -> None:
    from ggp.reasoner.fast import _entry

    made = []

    def halve_loop() -> Any:
        made.append(1)
        out = None
        while True:
            (x,) = yield out
            out = 10 // x

    call = _entry({"halve_loop": halve_loop}, "halve")
    assert call(5) == 2 and call(2) == 5 and len(made) == 1
    with pytest.raises(ZeroDivisionError):
        call(0)
    assert call(1) == 10 and len(made) == 2
