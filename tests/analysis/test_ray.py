"""``ggp analyze --ray``: matches played on a local Ray cluster measure what one process does."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp.analysis.compute import all_metrics
from ggp.analysis.plan import AnalysisPlan
from ggp.analysis.run import run_analysis
from ggp.gdl.load import load_game
from tests.conftest import RULESHEETS


def metrics(folder: Path, ray: str | None) -> dict[str, float | None]:
    """The metrics of 12 seeded Kuhn matches with 2 rollouts per option."""
    path = RULESHEETS / "kuhn.rcy"
    description = load_game(path)
    plan = AnalysisPlan(str(path), description.to_kif(), description.source, description.digest(), 4, 12,
                        ["random"], None, 0, 2, [30.0, 5.0, 1.0], db=str(folder / "matches.sqlite3"))
    outcome = run_analysis(plan, folder, workers=1 if ray is None else 2, ray=ray)
    assert outcome.dataset is not None and outcome.problems == []
    return {m.name: m.estimate.value for m in all_metrics(outcome.dataset)}


def test_ray_measures_what_one_process_measures(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the optional extra ggp[ray] is not installed")
    alone = metrics(tmp_path / "alone", None)
    on_ray = metrics(tmp_path / "ray", "auto")
    assert alone and metrics(tmp_path / "ray", "auto") == alone
