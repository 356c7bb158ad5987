"""The disk cache of built fast machines: what it loads answers as a fresh build does."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest

from ggp import reasoner as reasoners
from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.reasoner import cache, make_machine, warm
from ggp.reasoner.cache import CacheEntry
from ggp.reasoner.domains import (
    DEFAULT_MAX_RULES,
    DEFAULT_MAX_SECONDS,
    GroundingTooLarge,
    GroundingTooSlow,
)
from ggp.reasoner.fast import FastMachine, GroundMachine
from ggp.reasoner.play import joint_moves
from ggp.reasoner.verify import compare_machines
from tests.conftest import ROOT, RULESHEETS, shared_path

GAMES = ["montyhall.kif", "blind_tictactoe.kif", "kuhn.rcy"]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory for one test, keeping the default number of entries."""
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("GGP_CACHE_ENTRIES", raising=False)
    return tmp_path / "cache"


def _entry(description: GameDescription) -> Path:
    entry = CacheEntry.for_game(description.digest())
    assert entry is not None
    return entry.directory


def _no_grounding(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make grounding fail and record which cached values are read."""
    def refuse(self: FastMachine) -> None:
        raise AssertionError("the machine was grounded again")

    monkeypatch.setattr(GroundMachine, "_ground", refuse)
    loaded: list[str] = []
    load = CacheEntry.load_value

    def recorded(self: CacheEntry, name: str) -> object | None:
        loaded.append(name)
        return load(self, name)

    monkeypatch.setattr(CacheEntry, "load_value", recorded)
    return loaded


def _same_answers(first: FastMachine, second: FastMachine, seed: int) -> None:
    """Seeded playouts: legal moves, next states, percepts (also one role's) and goals agree,
    and so do the percept analyses; every joint move of the first few states is tried too."""
    report = compare_machines(first, second, 15, seed=seed, names=("cached", "fresh"))
    assert report.ok, report.describe()
    state = first.initial_state()
    for _ in range(4):
        if first.is_terminal(state):
            break
        for joint in joint_moves(first, state):
            assert first.percepts(state, joint) == second.percepts(second.convert(state), joint)
        state = first.next_state(state, random.Random(seed).choice(list(joint_moves(first, state))))
    for role in first.roles:
        assert first.percept_moves(role) == second.percept_moves(role)


@pytest.mark.parametrize("name", GAMES)
def test_a_machine_from_the_cache_answers_as_a_fresh_build(name: str, cache_dir: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    description = load_game(RULESHEETS / name)
    built = FastMachine(description, cache=True)
    assert not built.from_cache
    built.compile_all()
    files = {p.name for p in _entry(description).iterdir()}
    assert {"interface.pickle", "network.pickle", "main.code", "sees.code"} <= files
    assert {f"percept_moves{r}.pickle" for r in range(len(built.roles))} <= files
    fresh = FastMachine(description)
    loaded_values = _no_grounding(monkeypatch)
    loaded = FastMachine(description, cache=True)
    assert loaded.from_cache
    _same_answers(loaded, fresh, seed=3)
    assert "network" not in loaded_values  # everything came compiled: the network was not needed


def test_a_module_compiled_later_is_added_to_the_entry(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    description = load_game(RULESHEETS / "blind_tictactoe.kif")
    FastMachine(description, cache=True)
    entry = _entry(description)
    assert not (entry / "sees.code").exists()
    second = FastMachine(description, cache=True)  # loaded; percepts need the network then
    assert second.from_cache
    state = second.initial_state()
    joint = next(iter(joint_moves(second, state)))
    seen = second.percepts(state, joint)
    assert (entry / "sees.code").exists()
    _no_grounding(monkeypatch)
    third = FastMachine(description, cache=True)
    assert third.percepts(state, joint) == seen


def test_a_damaged_entry_is_rebuilt(cache_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    description = load_game(RULESHEETS / "montyhall.kif")
    FastMachine(description, cache=True).compile_all()
    entry = _entry(description)
    code = bytearray((entry / "main.code").read_bytes())
    code[len(code) // 2] ^= 0xFF
    (entry / "main.code").write_bytes(bytes(code))
    (entry / "interface.pickle").write_bytes((entry / "interface.pickle").read_bytes()[:40])
    (entry / "sees.code").write_bytes(b"")
    with caplog.at_level("DEBUG", logger="ggp.reasoner.cache"):
        rebuilt = FastMachine(description, cache=True)
    assert not rebuilt.from_cache
    assert "damaged" in caplog.text
    _same_answers(rebuilt, FastMachine(description), seed=5)
    again = FastMachine(description, cache=True)  # the rebuild wrote good files back
    assert again.from_cache
    _same_answers(again, FastMachine(description), seed=6)


def test_a_well_formed_file_with_the_wrong_content_is_ignored(cache_dir: Path) -> None:
    description = load_game(RULESHEETS / "montyhall.kif")
    FastMachine(description, cache=True)
    entry = CacheEntry.for_game(description.digest())
    assert entry is not None
    entry.store_value("interface", {"not": "an interface"})
    entry.store_value("network", [1, 2, 3])
    machine = FastMachine(description, cache=True)
    assert not machine.from_cache
    assert machine.network.roles == machine.roles


def test_a_changed_generator_or_python_does_not_load(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    description = load_game(RULESHEETS / "montyhall.kif")
    FastMachine(description, cache=True)
    assert FastMachine(description, cache=True).from_cache
    key = cache.entry_key(description.digest())
    monkeypatch.setattr(cache, "GENERATOR_VERSION", cache.GENERATOR_VERSION + "-changed")
    monkeypatch.setattr(cache, "_version", None)
    assert cache.entry_key(description.digest()) != key
    assert not FastMachine(description, cache=True).from_cache
    monkeypatch.undo()
    monkeypatch.setenv("GGP_CACHE_DIR", str(cache_dir))
    monkeypatch.setattr(cache, "_version", None)
    assert cache.entry_key(description.digest()) == key
    monkeypatch.setattr(importlib.util, "MAGIC_NUMBER", b"\x00\x01\r\n")
    assert cache.entry_key(description.digest()) != key


def test_the_version_follows_the_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator's version hashes the reasoner's sources: one changed byte changes it."""
    package = Path(cache.__file__).parent
    copy = tmp_path / "ggp"
    (copy / "reasoner").mkdir(parents=True)
    (copy / "gdl").mkdir()
    for path in [*package.glob("*.py"), *package.glob("*.c")]:
        (copy / "reasoner" / path.name).write_bytes(path.read_bytes())
    for name in ("terms.py", "rules.py"):
        (copy / "gdl" / name).write_bytes((package.parent / "gdl" / name).read_bytes())
    monkeypatch.setattr(cache, "_version", None)
    original = cache.generator_version()
    monkeypatch.setattr(cache, "__file__", str(copy / "reasoner" / "cache.py"))
    monkeypatch.setattr(cache, "_version", None)
    assert cache.generator_version() == original
    versions = {original}
    for name in ("codegen.py", "native.c"):  # the Python generator, and the compiled machine's runtime
        source = copy / "reasoner" / name
        source.write_bytes(source.read_bytes() + b"\n")
        monkeypatch.setattr(cache, "_version", None)
        versions.add(cache.generator_version())
    assert len(versions) == 3


def test_no_cache_turns_it_off(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GGP_NO_CACHE", "1")
    description = load_game(RULESHEETS / "montyhall.kif")
    FastMachine(description, cache=True).compile_all()
    assert not FastMachine(description, cache=True).from_cache
    assert not cache_dir.exists()


def test_an_unwritable_cache_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("GGP_CACHE_DIR", str(blocker))
    description = load_game(RULESHEETS / "montyhall.kif")
    machine = FastMachine(description, cache=True)
    machine.compile_all()
    assert not FastMachine(description, cache=True).from_cache


def counted_groundings(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, float]]:
    """The budgets (rules, seconds) of every grounding the fast machine tries from now on."""
    calls: list[tuple[int, float]] = []
    ground = FastMachine._ground

    def counted(self: FastMachine) -> Any:
        calls.append((self.max_rules, self.max_seconds))
        return ground(self)

    monkeypatch.setattr(FastMachine, "_ground", counted)
    return calls


def test_the_too_large_verdict_is_kept(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    description = load_game(shared_path("corpus", "gdl", "ggporg_ticTacToe.kif"))
    with pytest.raises(GroundingTooLarge):
        FastMachine(description, max_rules=50, cache=True)
    calls = counted_groundings(monkeypatch)
    with pytest.raises(GroundingTooLarge, match="exceeds 50 ground rules"):
        FastMachine(description, max_rules=40, cache=True)  # a smaller budget: known too small
    assert calls == []
    assert FastMachine(description, cache=True).ground_rules > 50  # a larger one: tried again
    assert calls == [(DEFAULT_MAX_RULES, DEFAULT_MAX_SECONDS)]


def test_a_verdict_of_the_time_budget_is_not_kept(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # how long grounding takes depends on the machine's load: a game too slow once (here for a
    # budget no grounding meets; the clock is read every 1,024 rules) is tried again
    description = load_game(shared_path("corpus", "gdl", "breakthrough_7x7.gdl"))
    with pytest.raises(GroundingTooSlow, match="takes more than"):
        FastMachine(description, max_seconds=0.0, cache=True)
    calls = counted_groundings(monkeypatch)
    with pytest.raises(GroundingTooSlow):
        FastMachine(description, max_seconds=0.0, cache=True)
    assert calls == [(DEFAULT_MAX_RULES, 0.0)]


def test_old_entries_are_pruned(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "KEPT_ENTRIES", 2)
    games = [load_game(RULESHEETS / name) for name in ("montyhall.kif", "blind_tictactoe.kif", "tictactoe.kif")]
    for description in games:
        FastMachine(description, cache=True)
    entries = sorted(p.name for p in (cache_dir / "reasoner").iterdir())
    assert entries == sorted(_entry(d).name for d in games[1:])


def test_the_entries_kept_can_be_set(cache_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                     caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("GGP_CACHE_ENTRIES", "2")
    games = [load_game(RULESHEETS / name) for name in ("montyhall.kif", "blind_tictactoe.kif", "tictactoe.kif")]
    for description in games:
        FastMachine(description, cache=True)
    assert sorted(p.name for p in (cache_dir / "reasoner").iterdir()) == sorted(_entry(d).name for d in games[1:])
    monkeypatch.setenv("GGP_CACHE_ENTRIES", "many")
    assert cache.kept_entries() == cache.KEPT_ENTRIES
    assert "GGP_CACHE_ENTRIES='many' is not a positive whole number" in caplog.text
    monkeypatch.setenv("GGP_CACHE_ENTRIES", "0")
    assert cache.kept_entries() == cache.KEPT_ENTRIES


def test_entries_past_the_byte_bound_are_pruned(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    games = [load_game(RULESHEETS / name) for name in ("montyhall.kif", "blind_tictactoe.kif", "tictactoe.kif")]
    FastMachine(games[0], cache=True)
    FastMachine(games[1], cache=True)
    first = sum(f.stat().st_size for f in _entry(games[1]).iterdir())
    monkeypatch.setattr(cache, "KEPT_BYTES", first)  # room for the most recent entry only
    FastMachine(games[2], cache=True)
    assert sorted(p.name for p in (cache_dir / "reasoner").iterdir()) == sorted(_entry(d).name for d in games[1:])


def test_make_machine_and_warm_use_the_cache(cache_dir: Path, monkeypatch: pytest.MonkeyPatch, no_compiler: None) -> None:
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    description = load_game(RULESHEETS / "kuhn.rcy")
    machine = warm(description)
    assert isinstance(machine, FastMachine) and not machine.from_cache
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    _no_grounding(monkeypatch)
    again = make_machine(description)
    assert isinstance(again, FastMachine) and again.from_cache and again is not machine


def test_a_compiled_machine_comes_from_the_cache_without_grounding_or_compiling(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch, compiler: None) -> None:
    from ggp.reasoner import native
    from ggp.reasoner.compiled import CompiledMachine

    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    description = load_game(RULESHEETS / "kuhn.rcy")
    machine = warm(description)
    assert isinstance(machine, CompiledMachine) and not machine.from_cache and not machine.code_from_cache
    assert machine.compile_seconds > 0
    fresh = FastMachine(description)
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    _no_grounding(monkeypatch)

    def refuse(*args: object) -> float:
        raise AssertionError("the game was compiled again")

    monkeypatch.setattr(native, "compile_source", refuse)
    again = make_machine(description)
    assert isinstance(again, CompiledMachine) and again.from_cache and again.code_from_cache
    assert again.compile_seconds == machine.compile_seconds
    report = compare_machines(again, fresh, 5, seed=2, names=("cached", "fresh"))
    assert report.ok, report.describe()


def test_a_damaged_library_is_compiled_again(cache_dir: Path, compiler: None) -> None:
    from ggp.reasoner import native
    from ggp.reasoner.compiled import CompiledMachine

    description = load_game(RULESHEETS / "montyhall.kif")
    first = CompiledMachine(description, cache=True)
    library = _entry(description) / f"{first.module_name}.so"
    damaged = library.with_name("damaged")
    damaged.write_bytes(library.read_bytes()[:100])
    damaged.replace(library)  # a new file: the library loaded in this process stays intact
    native._loaded.pop(first.module_name)  # as in a new process
    again = CompiledMachine(description, cache=True)
    assert not again.code_from_cache and again.module_name == first.module_name
    assert len(library.read_bytes()) > 100
    assert compare_machines(again, FastMachine(description), 5, seed=1).ok


_CHILD = """
import json, random, sys
from ggp.gdl.load import load_game
from ggp.reasoner import make_machine
machine = make_machine(load_game(sys.argv[1]))
results = []
for seed in range(5):
    rng = random.Random(seed)
    state, seen = machine.initial_state(), []
    while not machine.is_terminal(state):
        joint = [rng.choice(machine.legal_moves(state, role)) for role in machine.roles]
        seen.append(sorted(str(p) for r in machine.roles for p in machine.role_percepts(state, joint, r)))
        state = machine.next_state(state, joint)
    results.append([seen, {str(r): v for r, v in machine.goals(state).items()}])
print(json.dumps({"from_cache": machine.from_cache, "results": results}))
"""


def test_processes_building_one_entry_at_once_all_succeed(cache_dir: Path) -> None:
    """Three processes build the same game into an empty cache together; a fourth loads it
    and plays exactly as they did."""
    game = str(RULESHEETS / "montyhall.kif")
    env = {**os.environ, "GGP_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)}
    env.pop("GGP_NO_CACHE", None)
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, game], env=env, stdout=subprocess.PIPE, text=True)
                for _ in range(3)]
    outputs = [json.loads(child.communicate(timeout=120)[0]) for child in children]
    assert all(child.returncode == 0 for child in children)
    last = subprocess.run([sys.executable, "-c", _CHILD, game], env=env, capture_output=True, text=True,
                          check=True, timeout=120)
    loaded = json.loads(last.stdout)
    assert loaded["from_cache"]
    assert all(out["results"] == loaded["results"] for out in outputs)
    assert not [p for p in cache_dir.rglob(".*") if p.is_file()]  # no temporary file left behind
