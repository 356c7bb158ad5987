"""The project's arrows run one way: the core never imports a translator, no module imports
itself through others (type-only imports included), the translator's passes import only earlier
passes, and game languages plug in through registered loaders."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from ggp.errors import Location, Problem
from ggp.gdl import loaders
from ggp.gdl.kif import read_kif
from ggp.gdl.load import load_game, read_game_file
from ggp.gdl.rules import GameDescription
from tests.conftest import ROOT, RULESHEETS, shared_path


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (functions and type-only blocks too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_the_core_never_imports_a_translator() -> None:
    offenders = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "ggp").rglob("*.py"))
                 if "cli" not in path.relative_to(ROOT / "ggp").parts[:1]
                 and any(m == "translators" or m.startswith("translators.") for m in _imports(path))]
    assert offenders == []


def test_no_import_circles() -> None:
    lint = shared_path("tools", "lint", "import_circles.py")
    run = subprocess.run([sys.executable, str(lint), str(ROOT)], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == []


#: The translator's passes in the order data flows through them: a package may import only
#: the packages before it (the driver, ``translate.py``, composes them all).
PASSES = ("syntax", "rulebook", "symbols", "ir", "analysis", "emit")


def test_the_translator_passes_import_only_earlier_passes() -> None:
    package = ROOT / "translators" / "recycle"
    backwards = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        if len(parts) < 2 or parts[0] not in PASSES:
            continue
        here = PASSES.index(parts[0])
        for module in _imports(path):
            names = module.split(".")
            if names[:2] == ["translators", "recycle"] and len(names) > 2 and names[2] in PASSES \
                    and PASSES.index(names[2]) > here:
                backwards.append(f"{path.relative_to(ROOT)} imports {module}")
    assert backwards == []


def test_rcy_files_load_through_the_declared_entry_point() -> None:
    loader = loaders.loader_for(Path("game.rcy"))
    assert loader is not None and loader.__module__.startswith("translators.")
    assert ".rcy" in loaders.suffixes()
    assert loaders.loader_for(Path("game.kif")) is None
    assert load_game(RULESHEETS / "kuhn.rcy").roles  # translated on the fly


def test_a_registered_loader_reads_its_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loaders, "_registered", dict(loaders._registered))

    def load_upper(path: Path) -> tuple[GameDescription, list[Problem]]:
        text = path.read_text(encoding="utf-8")
        if "bad" in text:
            return GameDescription((), str(path)), [Problem(Location(str(path), 2, 3), "bad line")]
        return read_kif(text.replace("|", "\n"), str(path))

    loaders.register("up", load_upper)
    game = tmp_path / "tiny.UP"
    game.write_text("(role a)|(init p)|(<= (legal a x) (true p))|(<= (goal a 100) (true p))|(<= terminal (true q))",
                    encoding="utf-8")
    description, problems = read_game_file(game)
    assert problems == [] and [str(r) for r in description.roles] == ["a"]
    broken = tmp_path / "broken.up"
    broken.write_text("bad", encoding="utf-8")
    assert [str(p) for p in read_game_file(broken)[1]] == [f"{broken}:2:3: bad line"]
