"""The real CardStock engine (``conformance/cardstock``, run under Mono) against the translation.

The engine's random-play statistics of games that are not in ``../shared/reference`` (small games
written here, and ``rulesheets/*.rcy``) must agree with ``ggp recycle stats``'s on the GDL-II
translation, by :func:`translators.recycle.refstats.compare`'s rule (within 3 standard errors of
the difference). The tests skip, saying why, when Mono or the built runner is absent (build it with
``conformance/cardstock/build.sh``). The longer sweeps are marked ``slow``:
``pytest -m slow tests/conformance``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RULESHEETS, shared_path
from translators.recycle import check, parse_recycle_file
from translators.recycle.engine import (Decision, EngineError, EngineMissing, GameEnd, engine_figures, engine_trace,
                                        find_mono, find_runner)
from translators.recycle.playstats import play
from translators.recycle.refstats import compare
from translators.recycle.refstats import engine_figures as translation_figures

#: Two players in turn draw a card or stop (a player who stopped passes); the higher total wins.
#: Decisions per game vary (2 to 14), options per decision are 1 to 2, ties happen.
DRAW = """\
(game
 (setup
  (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)) (COLOR (RED, BLACK)))))
 (do (
   (set (game points VALUE) (((RANK : THREE) 3) ((RANK : TWO) 2) ((RANK : ONE) 1)))
   (shuffle (game iloc STOCK))))
 (stage player
   (end (all player 'P (== ('P sto DONE) 1)))
   (choice (
     ((and (== ((current player) sto DONE) 0) (> (size (game iloc STOCK)) 0))
      (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))
     ((== ((current player) sto DONE) 0) (set ((current player) sto DONE) 1))
     ((== ((current player) sto DONE) 1) (turn pass)))))
 (scoring max (sum ((current player) iloc HAND) using (game points VALUE))))
"""

#: Three players are dealt two cards each and in turn put one face up; the lowest card kept wins.
DISCARD = """\
(game
 (setup
  (create players 3)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX, SEVEN)))))
 (do (
   (set (game points VALUE) (((RANK : SEVEN) 7) ((RANK : SIX) 6) ((RANK : FIVE) 5) ((RANK : FOUR) 4)
                             ((RANK : THREE) 3) ((RANK : TWO) 2) ((RANK : ONE) 1)))
   (shuffle (game iloc STOCK))
   (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player
   (end (all player 'P (== (size ('P iloc HAND)) 1)))
   (choice (
     (any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED)))))))
 (scoring min (sum ((current player) iloc HAND) using (game points VALUE))))
"""


@pytest.fixture(scope="module")
def runner() -> Path:
    """The built runner; skips when it or Mono is absent."""
    try:
        find_mono()
        return find_runner()
    except EngineMissing as exc:
        pytest.skip(str(exc))


def translation_stats(path: Path, games: int, seed: int) -> dict[str, Any]:
    """``ggp recycle stats``'s figures: ``games`` random playouts of the translation of ``path``."""
    from ggp.reasoner import make_machine
    from translators.recycle.translate import compile_game

    game = parse_recycle_file(path)
    assert not [p for p in check(game) if p.is_error]
    translation = compile_game(game)
    machine = make_machine(translation.description, "fast")
    rng = random.Random(seed)
    played = [play(machine, translation.description, rng) for _ in range(games)]
    return translation_figures(played, translation.model.players, game.scoring.order)


def assert_agree(ours: dict[str, Any], engine: dict[str, Any]) -> None:
    verdicts = compare(ours, engine)
    differ = [str(a) for a in verdicts if not a.agree]
    assert not differ, "the translation and the engine differ:\n" + "\n".join(differ)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_runner_says_how_to_build_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDSTOCK_RUNNER", str(tmp_path / "runner.exe"))
    with pytest.raises(EngineMissing, match="conformance/cardstock/build.sh"):
        find_runner()
    with pytest.raises(EngineMissing, match="absent"):
        engine_figures(write(tmp_path, "draw.rcy", DRAW), games=1)


def test_syntax_error_names_file_line_and_column(runner: Path, tmp_path: Path) -> None:
    text = DRAW.replace("(turn pass)", "(turn pas)")
    line = next(n for n, s in enumerate(text.splitlines(), 1) if "(turn pas)" in s)
    column = text.splitlines()[line - 1].index("pas)") + 1
    bad = write(tmp_path, "bad.rcy", text)
    with pytest.raises(EngineError, match=rf"bad\.rcy:{line}:{column}: mismatched input 'p' expecting 'pass'"):
        engine_figures(bad, games=1)


def test_trace_is_consistent_and_seeded(runner: Path, tmp_path: Path) -> None:
    draw = write(tmp_path, "draw.rcy", DRAW)
    trace = engine_trace(draw, games=5, seed=11)
    assert len(trace.ends) == 5 and trace.figures["games_run"] == 5
    for end in trace.ends:
        decisions = [e for e in trace.game(end.game) if isinstance(e, Decision)]
        assert end.ending == "completed" and end.choices == len(decisions)
        assert [d.index for d in decisions] == list(range(len(decisions)))
        # Seats alternate; a seat that stopped has one option (pass), else draw (while cards are left) and stop.
        assert [d.seat for d in decisions] == [i % 2 for i in range(len(decisions))]
        for d in decisions:
            assert 0 <= d.chosen < d.count and 1 <= d.count <= 2
            assert d.options[-1] in ("P:passing", f"S:p{d.seat} DONE 1")
        assert len(end.scores) == 2 and end.winners and all(end.scores[w] == max(end.scores) for w in end.winners)
        assert isinstance(end, GameEnd) and end.scoring_direction == "max"
    assert engine_trace(draw, games=5, seed=11) == trace
    assert engine_trace(draw, games=5, seed=12) != trace
    assert engine_figures(draw, games=5, seed=11) == trace.figures


def test_engine_reproduces_its_reference_figures(runner: Path) -> None:
    # Agram2 is in the reference (500 games, seeded as the runner seeds by default): the build agrees.
    path = shared_path("corpus", "recycle", "Agram2.rcy")
    reference = json.loads(shared_path("reference", "cardstock-random-play.json").read_text(encoding="utf-8"))
    figures = engine_figures(path, games=100)
    assert figures["completed"] == 100 and figures["choices_mean"] == 12
    assert_agree(figures, reference["Agram2.rcy"])


def test_draw_game_engine_and_translation_agree(runner: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "draw.rcy", DRAW)
    assert_agree(translation_stats(path, games=50, seed=5), engine_figures(path, games=2000))


@pytest.mark.slow
def test_discard_game_engine_and_translation_agree(runner: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "discard.rcy", DISCARD)
    engine = engine_figures(path, games=2000)
    assert engine["scoring_direction"] == "min" and engine["players"] == 3
    assert_agree(translation_stats(path, games=200, seed=6), engine)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in RULESHEETS.glob("*.rcy")))
def test_rulesheet_engine_and_translation_agree(runner: Path, name: str) -> None:
    path = RULESHEETS / name
    try:
        engine = engine_figures(path, games=1000)
    except EngineError as exc:
        if "no viable alternative" in str(exc) or "extraneous input" in str(exc) or "mismatched input" in str(exc):
            pytest.skip(f"the engine's grammar (RECYCLE v0.5.10) rejects {name}: {exc}")
        raise
    assert_agree(translation_stats(path, games=150, seed=7), engine)


def test_stats_command_compares_with_the_live_engine(runner: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from ggp.cli import main

    path = write(tmp_path, "draw.rcy", DRAW)
    assert main(["recycle", "stats", str(path), "--games", "15", "--engine", "--engine-games", "300", "--json", "-q",
                 "--reasoner", "fast"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["games_run"] == 15
    assert {c["field"] for c in data["comparison"]} >= {"choices_mean", "options_per_decision_mean", "score_mean[1]"}


def test_stats_command_without_the_runner_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from ggp.cli import main

    monkeypatch.setenv("CARDSTOCK_RUNNER", str(tmp_path / "runner.exe"))
    assert main(["recycle", "stats", str(write(tmp_path, "draw.rcy", DRAW)), "--games", "2", "--engine", "-q"]) == 1
    assert "conformance/cardstock/build.sh" in capsys.readouterr().err
