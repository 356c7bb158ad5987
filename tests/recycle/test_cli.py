"""The commands: ``ggp recycle tree``, ``ggp recycle print`` and ``ggp validate FILE.rcy``."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp.cli import main
from tests.conftest import RULESHEETS
from tests.recycle.support import CORPUS
from translators.recycle import parse_recycle, parse_recycle_file

AGRAM = RULESHEETS / "agram.rcy"


def test_tree_outline(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recycle", "tree", str(AGRAM)]) == 0
    lines = capsys.readouterr().out.splitlines()
    source = AGRAM.read_text().splitlines()
    game_line = source.index("(game") + 1
    assert lines[0] == f"Game  @{game_line}:1"
    assert lines[1:3] == ["  declarations:", f"    - Declare  @{game_line + 1}:2"]
    assert f"      var: Var(name='NUMP', kind='int')  @{game_line + 1}:13" in lines


def test_tree_repr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recycle", "tree", "--format", "repr", str(AGRAM)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Game(declarations=(Declare(value=IntLit(value=4)")


def test_print_gives_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recycle", "print", str(AGRAM)]) == 0
    assert parse_recycle(capsys.readouterr().out) == parse_recycle_file(AGRAM)


def test_syntax_error_is_one_line_and_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.rcy"
    bad.write_text(AGRAM.read_text().replace("(stage player", "(stge player", 1))
    assert main(["recycle", "tree", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{bad}:" in err and "did you mean `stage`?" in err
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{bad}:") and out.count("\n") == 1


def test_validate_clean_files(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in sorted(RULESHEETS.glob("*.rcy"))]
    assert len(files) == 5
    assert main(["validate", *files]) == 0
    assert capsys.readouterr().out == ""


def test_validate_reports_warnings_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = AGRAM.read_text()
    warned = tmp_path / "warned.rcy"
    warned.write_text(text + "\n)\n")
    assert main(["validate", str(warned)]) == 0
    assert capsys.readouterr().out.startswith(f"{warned}:")
    broken = tmp_path / "broken.rcy"
    broken.write_text(text.replace("(top ('P iloc HAND))", "(top ('Q iloc HAND))"))
    assert main(["validate", str(broken)]) == 1
    assert "'Q is not declared" in capsys.readouterr().out


@pytest.mark.skipif(not CORPUS, reason="needs ../shared/corpus/recycle (absent)")
def test_validate_corpus_file_with_trailing_text(capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS[0].parent / "StealingBundles2.rcy"
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out == (f"{path}:91:54: warning: text after the end of the game is "
                                       "ignored (as the engine does): `)`\n")
