"""``ggp recycle stats``: random play of a translation in the CardStock engine's terms, and its
comparison with the engine's figures (``../shared/reference/cardstock-random-play.json``)."""

from __future__ import annotations

import json
import math
import random
import shutil
import statistics
from pathlib import Path
from typing import Any

import pytest

from ggp.cli import main
from tests.conftest import RULESHEETS
from tests.translate.support import CORPUS, REFERENCE
from translators.recycle.playstats import Playout
from translators.recycle.refstats import compare, engine_figures

#: The reference's fields the command must print, with the same names.
FIELDS = ("games_run", "completed", "choices_mean", "choices_std", "options_per_decision_mean",
          "decision_share_by_seat", "win_share_tie_split", "score_mean")


def last_json(out: str) -> dict[str, Any]:
    """The JSON object on the last line of ``out``."""
    data: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return data


def needs_shared() -> None:
    if not (CORPUS.exists() and REFERENCE.exists()):
        pytest.skip(f"needs {CORPUS} and {REFERENCE}")


def test_json_line_has_the_reference_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recycle", "stats", str(RULESHEETS / "kuhn.rcy"), "--games", "12", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "random games (seed 5)" in out.splitlines()[0]
    data = last_json(out)
    assert set(FIELDS) <= set(data)
    assert data["games_run"] == 12 and data["completed"] == 12
    # Kuhn poker: two or three decisions (bet/check, then call/fold or check/bet, then call/fold), two options each.
    assert 2 <= data["choices_min"] <= data["choices_mean"] <= data["choices_max"] <= 3
    assert data["options_per_decision_mean"] == 2.0
    assert math.isclose(sum(data["decision_share_by_seat"]), 1.0)
    assert math.isclose(sum(data["win_share_tie_split"]), 1.0)
    assert math.isclose(sum(data["score_mean"]), 0.0, abs_tol=1e-9)  # chips only change hands
    assert "comparison" not in data


def test_same_seed_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for seed in (7, 7, 8):
        assert main(["recycle", "stats", str(RULESHEETS / "kuhn.rcy"), "-n", "15", "--seed", str(seed), "--json"]) == 0
        out = capsys.readouterr().out
        assert len(out.strip().splitlines()) == 1  # --json: the JSON line only
        runs.append(last_json(out))
    assert runs[0] == runs[1]
    assert runs[0]["win_share_tie_split"] != runs[2]["win_share_tie_split"] or \
        runs[0]["choices_mean"] != runs[2]["choices_mean"]


def test_compare_agrees_with_the_engine_on_agram2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    needs_shared()
    assert main(["recycle", "stats", str(CORPUS / "Agram2.rcy"), "--games", "30", "--seed", "3", "--compare"]) == 0
    out = capsys.readouterr().out
    assert "against the CardStock engine (500 games" in out
    data = last_json(out)
    rows = {row["field"]: row for row in data["comparison"]}
    assert {"choices_mean", "options_per_decision_mean", "decision_share_by_seat[1]", "win_share_tie_split[0]",
            "score_mean[1]", "completed"} <= set(rows)
    assert rows["choices_mean"]["ours"] == rows["choices_mean"]["engine"] == 12.0  # six rounds, one choice each
    assert all(row["agree"] for row in data["comparison"]), [r for r in data["comparison"] if not r["agree"]]


def test_compare_without_an_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "MyOwnKuhn.rcy"
    shutil.copy(RULESHEETS / "kuhn.rcy", game)
    reference = tmp_path / "ref.json"
    reference.write_text(json.dumps({"Other2.rcy": {"games_run": 500}}))
    assert main(["recycle", "stats", str(game), "-n", "3", "--compare", "--reference", str(reference)]) == 0
    captured = capsys.readouterr()
    assert "no entry 'MyOwnKuhn.rcy'" in captured.err and "nothing to compare" in captured.err
    assert last_json(captured.out)["comparison"] is None


def test_unreadable_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recycle", "stats", str(RULESHEETS / "kuhn.rcy"), "--compare", "--reference",
                 str(tmp_path / "absent.json")]) == 1
    assert "cannot read the engine's figures" in capsys.readouterr().err
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"kuhn.rcy": {"games_run": "many"}}))
    assert main(["recycle", "stats", str(RULESHEETS / "kuhn.rcy"), "--compare", "--reference", str(odd)]) == 1
    assert "the entry 'kuhn.rcy' has no integer games_run and completed" in capsys.readouterr().err


@pytest.mark.parametrize("text, where", [
    ("(game (setup (create players 2)", ":1:"),
    ("(game\n (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))\n"
     " (stage player (end (== 1 1)) (choice ((shuffle faro (game iloc STOCK) (game iloc STOCK)))))\n"
     " (scoring max 0))", ":3:"),
])
def test_bad_file_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str) -> None:
    bad = tmp_path / "bad.rcy"
    bad.write_text(text)
    assert main(["recycle", "stats", str(bad), "-n", "2"]) == 1
    captured = capsys.readouterr()
    assert f"{bad}{where}" in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recycle", "stats", str(tmp_path / "absent.rcy")]) == 1
    assert f"{tmp_path / 'absent.rcy'}:1:1: cannot read file" in capsys.readouterr().err


def playout(decisions: int, options: list[int], scores: dict[str, int], ending: str = "end") -> Playout:
    return Playout(steps=decisions, decisions=decisions, options=options, seats=[i % 2 for i in range(decisions)],
                   ending=ending, scores=scores)


def test_figures_and_agreement_by_hand() -> None:
    games = [playout(2, [2, 3], {"player0": 1, "player1": 0}), playout(4, [2, 2, 2, 2], {"player0": 1, "player1": 1}),
             playout(9, [], {}, ending="limit")]
    f = engine_figures(games, 2)
    assert (f["games_run"], f["completed"], f["failures_choice_limit"], f["failures_other"]) == (3, 2, 1, 0)
    assert (f["choices_mean"], f["choices_std"], f["choices_min"], f["choices_max"]) == (3.0, 1.0, 2, 4)
    assert f["options_per_decision_mean"] == 13 / 6
    assert f["win_share_tie_split"] == [0.75, 0.25]
    assert f["decision_share_by_seat"] == [0.5, 0.5]
    assert f["score_mean"] == [1.0, 0.5]
    engine = {"games_run": 500, "completed": 500, "failures_choice_limit": 0, "choices_mean": 3.0,
              "choices_std": 1.0, "options_per_decision_mean": 1.8, "decision_share_by_seat": [0.5, 0.5],
              "win_share_tie_split": [0.75, 0.25], "score_mean": [1.0, 0.5], "score_std": [0.0, 0.5]}
    rows = {a.field: a for a in compare(f, engine)}
    # 1 of 3 games hit the limit against 0 of 500: se = sqrt(1/3 * 2/3 / 3) = 0.272, |diff| = 0.333 < 3 se
    assert rows["failures_choice_limit"].agree and math.isclose(rows["failures_choice_limit"].se, math.sqrt(2 / 27))
    assert rows["choices_mean"].agree and rows["choices_mean"].se > 0
    engine["choices_mean"] = 6.0  # 3 apart with se = hypot(1/sqrt(2), 1/sqrt(500)) = 0.71: over 4 se
    assert not {a.field: a for a in compare(f, engine)}["choices_mean"].agree
    engine["score_mean"] = [0.0, 0.5]  # ours has no spread on seat 0 and only 2 games: se = 0
    assert not {a.field: a for a in compare(f, engine)}["score_mean[0]"].agree
    engine["decision_share_by_seat"] = [0.5, 0.3, 0.2]  # a seat count mismatch is a disagreement
    assert not {a.field: a for a in compare(f, engine)}["decision_share_by_seat[2]"].agree


def test_the_spread_of_a_long_tailed_game_length_is_compared_with_its_kurtosis() -> None:
    """The standard error of ``choices_std`` follows the kurtosis of the decisions per game: a
    game of 13 decisions but for 4 % of games that go on to 40 (a Beggar-my-neighbour played to
    the turn limit) has a sample spread that varies about 4 times more than a normal one's,
    and the normal approximation called 100 such games against the engine's 500 different
    at 5 standard errors. Checked against the spread of the sample std over 2,000 seeded samples."""
    rng = random.Random(5)

    def sample(n: int) -> list[int]:
        return [40 if rng.random() < 0.04 else 13 for _ in range(n)]

    games = [playout(d, [1] * d, {"player0": 0, "player1": 0}) for d in sample(100)]
    f = engine_figures(games, 2)
    k = f["choices_kurtosis"]
    assert k > 10
    stds = [statistics.pstdev(sample(100)) for _ in range(2000)]
    observed = statistics.pstdev(stds)
    sigma = statistics.mean(stds)
    # the sample's kurtosis (10.6 here; 23 for the distribution) gives a standard error within a
    # factor of two of the observed one; the normal approximation's is a quarter of it
    assert 0.5 < sigma * math.sqrt((k - 1) / 400) / observed < 1.2
    assert sigma / math.sqrt(200) < observed / 3
    engine = {"games_run": 500, "completed": 500, "choices_mean": f["choices_mean"],
              "choices_std": f["choices_std"] * 0.72, "options_per_decision_mean": 1.0}
    row = {a.field: a for a in compare(f, engine)}["choices_std"]
    assert row.agree and "kurtosis" in row.test
    light = engine_figures([playout(d, [1] * d, {"player0": 0, "player1": 0}) for d in (2, 4) * 50], 2)
    assert math.isclose({a.field: a for a in compare(light, engine)}["choices_std"].se,
                        math.hypot(1 / math.sqrt(200), engine["choices_std"] / math.sqrt(1000)))
