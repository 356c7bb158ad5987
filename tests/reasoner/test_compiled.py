"""The compiled reasoner against the clingo oracle, the fast reasoner and the generic loops.

The default run checks a small set of games against the oracle; ``pytest -m slow`` checks
every playable corpus game and every rulesheet (``test_every_game_against_the_oracle``).
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ggp import reasoner as reasoners
from ggp.cli import main
from ggp.errors import ReasonerError
from ggp.gdl import Term, parse_kif
from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.gdl.validate import prepare
from ggp.reasoner import ccode, make_machine, native
from ggp.reasoner import compiled as compiled_module
from ggp.reasoner.compiled import BitState, CompiledMachine, draws_directly
from ggp.reasoner.fast import FastMachine
from ggp.reasoner.machine import StateMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import perft, random_joint_move, random_playout, random_playouts
from ggp.reasoner.verify import compare_machines, cross_check
from tests.conftest import RULESHEETS, SHARED, shared_path

pytestmark = pytest.mark.usefixtures("compiler")

# A small default set: recursion, percepts, random, simultaneous moves, a translated card game.
QUICK = ["gdl/ggporg_ticTacToe.kif", "gdl2/montyhall.gdl", "gdl2/kriegTTT_4x4.gdl", "gdl2/kuleuven_ii_meier.gdl",
         "gdl/ggporg_connectFour.kif"]
# Every corpus game that grounds (the others are played by the oracle: see test_corpus.py).
EVERY = sorted(
    [f"gdl/{p.name}" for p in (SHARED / "corpus" / "gdl").glob("*") if p.suffix in (".kif", ".gdl")]
    + [f"gdl2/{p.name}" for p in (SHARED / "corpus" / "gdl2").glob("*") if p.suffix in (".kif", ".gdl")]
)
TOO_LARGE = {"gdl2/small_dominion.gdl", "gdl2/unsw_twogenerals.gdl"}
HEAVY = {"gdl/ggporg_kalaha_2009.kif", "gdl2/unsw_BattleshipsFog.gdl", "gdl2/unsw_blackjack.gdl", "gdl2/mastermind.gdl",
         "agram.rcy", "euchre.rcy", "santase.rcy"}
RULESHEET_FILES = sorted(p.name for p in RULESHEETS.iterdir() if p.suffix in (".kif", ".gdl", ".rcy"))


def _game(name: str) -> GameDescription:
    if name.startswith(("gdl/", "gdl2/")):
        return load_game(shared_path("corpus", *name.split("/")))
    return load_game(RULESHEETS / name)


def _compiled(description: GameDescription) -> CompiledMachine:
    machine = make_machine(description, "compiled")
    assert isinstance(machine, CompiledMachine)
    return machine


def _recursive() -> GameDescription:
    from tests.reasoner.test_fast import RECURSIVE

    return prepare(parse_kif(RECURSIVE, "recursive.kif"))[0]


@pytest.mark.parametrize("name", QUICK + ["kuhn.rcy"])
def test_agrees_with_the_oracle(name: str) -> None:
    report = cross_check(_game(name), 20, seed=7, reasoner="compiled")
    assert report.ok, report.describe()
    assert report.names == ("compiled", "oracle")


def test_recursion_in_state_and_moves_agrees_with_the_oracle() -> None:
    description = _recursive()
    machine = CompiledMachine(description)
    assert machine.network.recursive
    report = compare_machines(machine, OracleMachine(description), 60, seed=3, names=("compiled", "oracle"))
    assert report.ok, report.describe()


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in EVERY if n not in TOO_LARGE] + RULESHEET_FILES)
def test_every_game_against_the_oracle(name: str) -> None:
    count = 5 if name in HEAVY else 30  # the oracle takes seconds per state on these
    report = cross_check(_game(name), count, seed=11, reasoner="compiled", max_seconds=300)
    assert report.ok, report.describe()


@pytest.mark.parametrize("name", ["agram.rcy", pytest.param("euchre.rcy", marks=pytest.mark.slow),
                                  pytest.param("santase.rcy", marks=pytest.mark.slow)])
def test_translated_card_games_agree_with_the_fast_reasoner(name: str) -> None:
    """Large networks: every query of seeded playouts, against the fast reasoner (the oracle is
    slow there; the fast reasoner is checked against it in test_corpus.py and tests/translate)."""
    description = _game(name)
    report = compare_machines(make_machine(description, "compiled"), make_machine(description, "fast"), 3, seed=5,
                              names=("compiled", "fast"))
    assert report.ok, report.describe()


@pytest.mark.parametrize("name, depths", [
    ("gdl/ggporg_ticTacToe.kif", [9, 72, 504, 3024, 15120, 54720]),
    ("gdl2/montyhall.gdl", 5), ("gdl2/kriegTTT_4x4.gdl", 3), ("gdl/ggporg_breakthroughSmall.kif", 3),
])
def test_perft_counts_equal_the_fast_reasoners(name: str, depths: list[int] | int) -> None:
    description = _game(name)
    compiled, fast = make_machine(description, "compiled"), make_machine(description, "fast")
    expected = depths if isinstance(depths, list) else [perft(fast, d) for d in range(1, depths + 1)]
    assert [perft(compiled, d) for d in range(1, len(expected) + 1)] == expected
    assert perft(compiled, 0) == 1
    state = compiled.next_state(compiled.initial_state(), random_joint_move(compiled, compiled.initial_state(),
                                                                            random.Random(1)))
    assert perft(compiled, 2, state) == StateMachine.perft(compiled, state, 2) == perft(fast, 2, fast.convert(state))


def test_perft_command() -> None:
    path = str(shared_path("corpus", "gdl", "ggporg_ticTacToe.kif"))
    assert main(["perft", path, "--depth", "4", "--reasoner", "compiled"]) == 0


class _Counting(random.Random):
    """A generator of a subclass: the compiled playout calls its ``randrange`` (no direct draws)."""

    calls = 0

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        _Counting.calls += 1
        return super().randrange(*args)


@pytest.mark.parametrize("name", ["gdl/ggporg_ticTacToe.kif", "gdl/ggporg_connectFour.kif", "gdl2/montyhall.gdl",
                                  "gdl2/kriegTTT_4x4.gdl", "kuhn.rcy"])
def test_seeded_playouts_make_the_same_moves_as_the_fast_reasoner(name: str) -> None:
    """The native loop draws as the generic one: same final state, length and generator state,
    whether it draws on the generator's own state or through its ``randrange``."""
    description = _game(name)
    compiled, fast = _compiled(description), make_machine(description, "fast")
    assert draws_directly(compiled._native)
    for seed in range(15):
        ours, theirs, generic, counted = (random.Random(seed), random.Random(seed), random.Random(seed),
                                          _Counting(seed))
        a, a_steps, a_done = compiled.depth_charge(compiled.initial_state(), ours, 300)
        b, b_steps, b_done = fast.depth_charge(fast.initial_state(), theirs, 300)
        c, c_steps, c_done = StateMachine.depth_charge(compiled, compiled.initial_state(), generic, 300)
        d, d_steps, d_done = compiled.depth_charge(compiled.initial_state(), counted, 300)
        assert (a.fluents, a_steps, a_done) == (b.fluents, b_steps, b_done) == (c.fluents, c_steps, c_done) \
            == (d.fluents, d_steps, d_done)
        assert ours.getstate() == theirs.getstate() == generic.getstate() == counted.getstate()
    assert _Counting.calls > 0


def test_the_move_sequences_are_the_same() -> None:
    """Step by step, the joint moves a seed gives with either machine."""
    description = _game("gdl2/kriegTTT_4x4.gdl")
    compiled, fast = make_machine(description, "compiled"), make_machine(description, "fast")
    for seed in range(10):
        moves = []
        for machine in (compiled, fast):
            rng, state, seen = random.Random(seed), machine.initial_state(), []
            while not machine.is_terminal(state):
                joint = random_joint_move(machine, state, rng)
                seen.append(joint)
                state = machine.next_state(state, joint)
            moves.append(seen)
        assert moves[0] == moves[1] and moves[0]


def test_playout_totals_equal_single_playouts() -> None:
    description = _game("gdl2/kuleuven_ii_meier.gdl")
    compiled, fast = make_machine(description, "compiled"), make_machine(description, "fast")
    totals = random_playouts(compiled, random.Random(4), 200)
    assert totals == random_playouts(fast, random.Random(4), 200)
    rng = random.Random(4)
    singles = [random_playout(fast, rng) for _ in range(200)]
    assert totals.steps == sum(p.length for p in singles)
    for role in compiled.roles:
        assert totals.goal_sums.get(role, 0) == sum(p.goals.get(role, 0) for p in singles)
    stopped = random_playouts(compiled, random.Random(4), 20, max_steps=2)
    assert stopped.unfinished == 20 and stopped.steps == 40


def test_playout_command_same_numbers_as_the_fast_reasoner(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(RULESHEETS / "montyhall.kif")
    results = []
    for reasoner in ("compiled", "fast"):
        assert main(["playout", path, "--count", "40", "--seed", "5", "--reasoner", reasoner]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0]["mean_goals"] == results[1]["mean_goals"]
    assert results[0]["mean_length"] == results[1]["mean_length"]


def test_batches_answer_as_single_queries() -> None:
    description = _game("agram.rcy")
    compiled = make_machine(description, "compiled")
    rng, state = random.Random(3), compiled.initial_state()
    role = compiled.roles[0]
    for _ in range(25):
        joints = [random_joint_move(compiled, state, rng) for _ in range(6)]
        seen = compiled.role_percepts(state, joints[0], role)
        singles = [compiled.role_percepts(state, j, role) == seen for j in joints]
        assert compiled.role_percepts_match(state, joints, role, seen) == singles
        assert StateMachine.role_percepts_match(compiled, state, joints, role, seen) == singles
        assert compiled.next_states(state, joints) == [compiled.next_state(state, j) for j in joints]
        never = seen | {Term.parse("(no such percept)")}
        assert compiled.role_percepts_match(state, joints, role, never) == [False] * 6
        state = compiled.next_state(state, joints[0])
        if compiled.is_terminal(state):
            break


@pytest.mark.parametrize("name", ["gdl2/kriegTTT_4x4.gdl", "kuhn.rcy"])
def test_every_role_s_percepts_as_one_transition_agree_with_the_oracle(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``SHARED_SEES_BYTES`` of C the roles' percepts are one transition (``s_trans``), each
    role's read from its offset: forced here on small games, every query (each role's
    percepts, all of them at once, batches) against the oracle."""
    monkeypatch.setattr(ccode, "SHARED_SEES_BYTES", 0)
    description = _game(name)
    machine = CompiledMachine(description)
    source = ccode.generate_c(machine.network)
    assert "#define SEES_SHARED 1" in source and "s_trans" in source and "r1_trans" not in source
    report = compare_machines(machine, OracleMachine(description), 15, seed=2, names=("compiled", "oracle"))
    assert report.ok, report.describe()
    rng, state = random.Random(4), machine.initial_state()
    while not machine.is_terminal(state):
        joints = [random_joint_move(machine, state, rng) for _ in range(5)]
        for role in machine.roles:
            seen = machine.role_percepts(state, joints[0], role)
            assert seen == machine.percepts(state, joints[0])[role]
            singles = [machine.role_percepts(state, j, role) == seen for j in joints]
            assert machine.role_percepts_match(state, joints, role, seen) == singles
        state = machine.next_state(state, joints[0])


def test_states_convert_and_bad_input_is_refused() -> None:
    description = _game("gdl2/montyhall.gdl")
    compiled, oracle = _compiled(description), OracleMachine(description)
    state = oracle.next_state(oracle.initial_state(), (Term.parse("(choose 2)"), Term.parse("(hide_car 1)")))
    packed = compiled.convert(state)
    assert isinstance(packed, BitState) and packed.fluents == state.fluents
    assert packed == compiled.state_from_fluents(sorted(state.fluents, key=str))
    assert compiled.legal_moves(packed, compiled.roles[0]) == oracle.legal_moves(state, oracle.roles[0])
    with pytest.raises(ReasonerError, match="can never hold"):
        compiled.state_from_fluents([Term.parse("(car 7)")])
    with pytest.raises(ReasonerError, match="can never be legal"):
        compiled.next_state(compiled.initial_state(), (Term.parse("(choose 9)"), Term.parse("(hide_car 1)")))
    with pytest.raises(ReasonerError, match="needs 2 moves"):
        compiled.next_state(compiled.initial_state(), (Term.parse("(choose 1)"),))
    module = compiled._native
    bits = compiled.initial_state().bits  # type: ignore[attr-defined]
    calls: list[Callable[[], object]] = [
        lambda: module.step(bits, (0,)), lambda: module.step(bits, (0, 99)), lambda: module.step(b"x", (0, 0)),
        lambda: module.analyze(b""), lambda: module.role_sees(7, bits, (0, 0))]
    for call in calls:
        with pytest.raises(ValueError):
            call()


def test_threads_share_one_machine() -> None:
    description = _game("gdl2/kriegTTT_4x4.gdl")
    compiled = make_machine(description, "compiled")

    def playouts(seed: int) -> tuple[object, ...]:
        rng = _Counting(seed) if seed % 2 else random.Random(seed)  # half of them call back into Python
        return tuple(compiled.depth_charge(compiled.initial_state(), rng, 300)[0].fluents for _ in range(30))

    alone = [playouts(seed) for seed in range(8)]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(playouts, range(8))) == alone


def test_auto_picks_the_compiled_machine() -> None:
    machine = make_machine(_game("gdl2/montyhall.gdl"))
    assert isinstance(machine, CompiledMachine)
    assert machine.compile_seconds > 0 and machine.source_bytes > 0


def test_auto_with_a_budget_plays_fast_while_the_game_compiles(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # a player's start clock: a game not compiled before is compiled in the background, the
    # fast reasoner plays when the compiler is not done in time, and the next match finds the
    # compiled machine; both play the same seeded playouts
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    monkeypatch.setattr(reasoners, "_PENDING", {})
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path))
    gate = threading.Event()
    compile_source = native.compile_source

    def held(*args: object, **kwargs: object) -> float:
        assert gate.wait(60)
        return compile_source(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(compiled_module, "compile_source", held)
    description = _game("gdl2/montyhall.gdl")
    first = make_machine(description, budget=0.2)
    assert isinstance(first, FastMachine) and not isinstance(first, CompiledMachine)
    gate.set()
    later = reasoners.compiled_later(description).result(timeout=120)
    assert isinstance(later, CompiledMachine)
    assert make_machine(description, budget=0.0) is later
    played = [random_playout(m, random.Random(seed)) for seed in range(5) for m in (first, later)]
    assert [(p.final.fluents, p.length, p.goals) for p in played[::2]] == \
        [(p.final.fluents, p.length, p.goals) for p in played[1::2]]


def test_auto_with_a_budget_waits_for_a_compiler_done_in_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    monkeypatch.setattr(reasoners, "_PENDING", {})
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path))
    assert isinstance(make_machine(_game("gdl2/montyhall.gdl"), budget=300), CompiledMachine)


def test_a_compiler_failure_falls_back_to_the_fast_reasoner(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    monkeypatch.setattr(reasoners, "_NOT_COMPILED", {})
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    monkeypatch.setattr(native, "_problem", [None])  # the compiler was there when checked
    with caplog.at_level(logging.WARNING, logger="ggp.reasoner"):
        machine = make_machine(_game("gdl2/guessSix.gdl"))
    assert isinstance(machine, FastMachine)
    assert any("cannot compile the game" in r.getMessage() for r in caplog.records)
    with pytest.raises(ReasonerError, match="cannot compile the game"):
        make_machine(_game("gdl2/guessSix.gdl"), "compiled")


def test_a_compiler_past_its_memory_limit_fails_and_the_fast_reasoner_plays(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    # gcc grew past 8 GB on a four-player Blackjack's C: the compiler's address space is capped
    # (half the machine's memory); a cap too small for even a small game shows the failure
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    monkeypatch.setattr(reasoners, "_NOT_COMPILED", {})
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "memory_limit", lambda: 16 * 2**20)
    with caplog.at_level(logging.WARNING, logger="ggp.reasoner"):
        machine = make_machine(_game("gdl2/guessSix.gdl"))
    assert isinstance(machine, FastMachine)
    assert any("its memory is limited to 16 MiB" in r.getMessage() for r in caplog.records), \
        [r.getMessage() for r in caplog.records]
    assert native.memory_limit is not None
    monkeypatch.undo()
    limit = native.memory_limit()
    assert limit is None or 2**28 < limit < 2**50
