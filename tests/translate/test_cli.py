"""The commands and the ``.rcy`` loader: ``ggp translate``, ``ggp validate FILE.rcy``, loading
RECYCLE files anywhere a game file is read, with the translation cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ggp.cli import main
from ggp.gdl.kif import parse_kif
from ggp.gdl.load import load_game, read_game_file
from tests.conftest import RULESHEETS
from tests.translate.support import BLIND_PICK
from translators.recycle import parse_recycle
from translators.recycle.translate import compile_game
from translators.recycle.translation_error import TranslationError

KUHN = RULESHEETS / "kuhn.rcy"


def test_translate_writes_kif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "kuhn.kif"
    assert main(["translate", str(KUHN), "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("; GDL-II translation of kuhn.rcy")
    assert "; line " in text
    description = parse_kif(text)
    assert [str(r) for r in description.roles] == ["player0", "player1", "random"]
    assert "roles player0 player1 random" in capsys.readouterr().err


def test_translate_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["translate", str(KUHN)]) == 0
    assert "(role player0)" in capsys.readouterr().out


def test_translate_reports_unsupported_constructs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "faro.rcy"
    bad.write_text(KUHN.read_text().replace("(shuffle (game iloc STOCK))",
                                            "(shuffle faro (game iloc STOCK) (game iloc STOCK))"))
    assert main(["translate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "shuffle faro" in err


def test_translation_error_has_the_position() -> None:
    text = KUHN.read_text().replace("(shuffle (game iloc STOCK))", "(shuffle faro (game iloc STOCK) (game iloc STOCK))")
    line = next(i for i, l in enumerate(text.splitlines(), start=1) if "faro" in l)
    with pytest.raises(TranslationError) as info:
        compile_game(parse_recycle(text, "faro.rcy"))
    assert info.value.location is not None and info.value.location.line == line
    assert str(info.value).startswith(f"faro.rcy:{line}:")


def test_validate_translates_rcy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(KUHN), str(RULESHEETS / "agram.rcy")]) == 0


def test_loader_caches_translations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path / "cache"))
    first = load_game(KUHN)
    cached = list((tmp_path / "cache" / "recycle").glob("*.kif"))
    assert len(cached) == 1
    second = load_game(KUHN)
    assert first.digest() == second.digest()
    assert [str(r) for r in second.roles] == ["player0", "player1", "random"]


def test_cache_key_follows_the_translator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key digests the translator's own sources: a copy of them gives the same digest, one
    changed byte (or file) another; a changed translator does not reuse older translations."""
    from translators.recycle import loader

    package = Path(loader.__file__).parent
    copy = tmp_path / "recycle"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert loader.source_digest(copy) == loader.translator_version()
    module = copy / "analysis" / "ranges.py"
    module.write_bytes(module.read_bytes() + b"\n")
    edited = loader.source_digest(copy)
    assert edited != loader.translator_version()
    (copy / "grammar_extra.lark").write_text("")
    assert loader.source_digest(copy) not in (edited, loader.translator_version())

    data = KUHN.read_bytes()
    before = loader.cache_key(data)
    monkeypatch.setattr(loader, "translator_version", lambda: edited)
    assert loader.cache_key(data) != before


def test_cache_failure_is_not_fatal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("GGP_CACHE_DIR", str(blocker))
    description, problems = read_game_file(KUHN)
    assert problems == [] and description.roles


def test_loader_reports_recycle_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path / "cache"))
    bad = tmp_path / "bad.rcy"
    bad.write_text(KUHN.read_text().replace("(stage player", "(stge player", 1))
    _, problems = read_game_file(bad)
    assert problems and problems[0].location.file == str(bad)


def test_playout_command_accepts_rcy(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["playout", str(KUHN), "--count", "5"]) == 0
    assert '"playouts": 5' in capsys.readouterr().out


def test_choice_over_hidden_cards_is_warned_at_its_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The legal moves of such a choice tell the chooser where cards are; every way of
    translating the file says so at the RECYCLE position (a cached translation too)."""
    monkeypatch.setenv("GGP_CACHE_DIR", str(tmp_path / "cache"))
    game = tmp_path / "blindpick.rcy"
    game.write_text(BLIND_PICK)
    number, line = next((n, text) for n, text in enumerate(BLIND_PICK.splitlines(), 1) if "(any" in text)
    where = f"{game}:{number}:{line.index('(any') + 1}: warning: the options of this choice name the cards of (game hloc stock)"
    assert main(["translate", str(game), "-o", str(tmp_path / "out.kif")]) == 0
    assert where in capsys.readouterr().err
    assert main(["validate", str(game)]) == 0
    assert where in capsys.readouterr().out
    for _ in range(2):  # translated, then from the cache
        description, problems = read_game_file(game)
        assert description.roles and [str(p) for p in problems if str(p).startswith(where)]
    # over the chooser's own hand, or a pile everyone sees, it is not warned about; nor over a
    # pile everyone but its owner sees (oloc), filled card by card: its cards are named by place
    for source, warned in (("((current player) iloc HAND)", False), ("(game vloc STOCK)", False),
                           ("((current player) oloc HAND)", False)):
        text = BLIND_PICK.replace("(any (game hloc STOCK) 'C", f"(any {source} 'C")
        assert bool(compile_game(parse_recycle(text, "own.rcy")).warnings) == warned, source
