"""``ggp analyze`` end to end: the files it writes, the report parsed and looked at in a real
browser (headless Chromium's screenshot), usage errors, and an analysis stopped by Ctrl-C and
resumed to the very result of one that ran through."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.analysis.support import GAMES, QUICK_PIMC, SLOW_RANDOM
from tests.conftest import ROOT, ggp


@pytest.fixture
def environ(env: dict[str, str]) -> dict[str, str]:
    """``env`` with the project root on the path (the test players are imported by spec)."""
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


class Page(HTMLParser):
    """What the report holds: its SVG plots, the ids of its rows, and anything it would fetch."""

    def __init__(self) -> None:
        super().__init__()
        self.svgs = 0
        self.ids: set[str] = set()
        self.fetches: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "svg":
            self.svgs += 1
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag in ("script", "link", "img", "iframe") or any(
                k in ("src", "href") and v and not v.startswith("#") for k, v in attrs):
            self.fetches.append(f"{tag} {values}")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def analysis(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], subprocess.CompletedProcess[str]]:
    folder = tmp_path_factory.mktemp("command")
    environ = dict(os.environ, GGP_DATA_DIR=str(folder / "data"), PYTHONPATH=str(ROOT))
    run = ggp(environ, "analyze", str(GAMES / "skill.kif"), "--games", "12", "--order-games", "6", "--order-player",
              QUICK_PIMC, "--rollouts", "4", "--seed", "3", "--playclock", "5", "--out", str(folder / "out"),
              timeout=300)
    summary = json.loads(run.stdout) if run.returncode == 0 else {}
    return folder / "out", summary, run


def test_the_command_writes_every_metric_with_its_interval(analysis: Any) -> None:
    out, summary, run = analysis
    assert run.returncode == 0, run.stderr
    assert summary["analysis"] == str(out / "analysis.json") and summary["matches"] == 12
    result = json.loads((out / "analysis.json").read_text())
    assert result["matches"]["main"] == {"traced": 12, "finished": 12}
    assert result["matches"]["order"] == {"traced": 6, "finished": 6}
    names = [m["name"] for m in result["metrics"]]
    for name in ("fairness", "order", "drama", "decisiveness", "meaningful_moves", "variance", "clarity", "coolness",
                 "stability", "game_length", "decisions_per_player", "action_space", "branching_factor", "state_size",
                 "state_size_growth", "win_rate_by_seat", "score_convergence", "lead_security", "action_diversity",
                 "reward_sparsity"):
        assert name in names
    for m in result["metrics"]:
        assert m["definition"] and m["meaning"] and m["n"] > 0, m
        assert m["ci95"][0] <= m["value"] <= m["ci95"][1], m
    assert summary["metrics"]["game_length"] == 6.0
    assert len(result["plots"]) >= 3 and result["machine"]["cores"] >= 1


def test_the_report_is_one_page_with_plots_and_a_text_per_metric(analysis: Any) -> None:
    out, _, run = analysis
    assert run.returncode == 0, run.stderr
    page = Page()
    page.feed((out / "report.html").read_text())
    result = json.loads((out / "analysis.json").read_text())
    assert page.svgs >= 3 and page.svgs == len(result["plots"])
    assert page.fetches == []  # self-contained: nothing to fetch
    for m in result["metrics"]:
        assert f"metric-{m['name']}" in page.ids
    text = " ".join(page.text)
    for m in result["metrics"]:
        assert m["meaning"] in text
    for key in result["plots"]:
        assert f"plot-{key}" in page.ids


def test_the_report_looks_right_in_a_browser(analysis: Any, tmp_path: Path) -> None:
    out, _, run = analysis
    assert run.returncode == 0, run.stderr
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("needs Debian's chromium (installed by .ci/run)")
    import numpy
    from PIL import Image  # matplotlib's own dependencies

    shot = tmp_path / "report.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}", "--window-size=1200,6000",
                    (out / "report.html").as_uri()], capture_output=True, timeout=120, check=False)
    assert shot.exists(), "chromium took no screenshot"
    image = numpy.asarray(Image.open(shot).convert("RGB")).astype(int)
    assert image.shape == (6000, 1200, 3)
    ink = float((image.sum(axis=2) < 600).mean())
    assert ink > 0.03  # text and plots drawn, not a blank page
    # the plots' blue (#0072B2) bars and lines are on the page, as drawn by the browser
    blue = int((numpy.abs(image - numpy.array([0x00, 0x72, 0xB2])).max(axis=2) < 40).sum())
    assert blue > 5000


def test_usage_errors(environ: dict[str, str], tmp_path: Path) -> None:
    game = str(GAMES / "skill.kif")
    run = ggp(environ, "analyze")
    assert run.returncode == 2 and "give FILE, or --resume DIR" in run.stderr
    run = ggp(environ, "analyze", game, "--resume", str(tmp_path))
    assert run.returncode == 2 and "give neither FILE nor --players" in run.stderr
    run = ggp(environ, "analyze", game, "--games", "0")
    assert run.returncode == 2 and "--games must be 1 or more" in run.stderr
    run = ggp(environ, "analyze", game, "--players", "nobody")
    assert run.returncode == 1 and "nobody" in run.stderr and "Traceback" not in run.stderr
    run = ggp(environ, "analyze", "--resume", str(tmp_path / "nothing"))
    assert run.returncode == 1 and "plan.json: cannot read" in run.stderr
    bad = tmp_path / "bad.kif"
    bad.write_text("(role a)\n(<= (legal a x)\n")
    run = ggp(environ, "analyze", str(bad))
    assert run.returncode == 1 and f"{bad}:2:" in run.stderr and "Traceback" not in run.stderr
    reference = tmp_path / "reference.json"
    reference.write_text('{"skill.kif": ')
    run = ggp(environ, "analyze", game, "--reference", str(reference))
    assert run.returncode == 1 and f"{reference}:1:" in run.stderr and "Traceback" not in run.stderr
    reference.write_text('{"other.rcy": {"players": 2}}')
    run = ggp(environ, "analyze", game, "--reference", str(reference), "--games", "2", "--order-games", "0",
              "--rollouts", "0", "--seed", "1", "--out", str(tmp_path / "out"), "--db", str(tmp_path / "m.sqlite3"))
    assert run.returncode == 0 and "has no figures for skill.kif" in run.stderr, run.stderr
    assert json.loads((tmp_path / "out" / "analysis.json").read_text())["reference"]["comparisons"] == []


def _stored_matches(db: Path) -> int:
    if not db.exists():
        return 0
    from ggp.manager.store import MatchStore

    with MatchStore(db) as store:
        return sum(1 for row in store.rows() if row.status == "finished")


def test_a_stopped_analysis_resumes_to_the_result_of_one_that_ran_through(environ: dict[str, str],
                                                                          tmp_path: Path) -> None:
    game = str(GAMES / "first_wins.kif")
    common = ["--games", "10", "--order-games", "0", "--rollouts", "2", "--seed", "11", "--players", SLOW_RANDOM]
    db = tmp_path / "stopped.sqlite3"
    stopped = tmp_path / "stopped"
    process = subprocess.Popen([sys.executable, "-m", "ggp", "analyze", game, *common, "--out", str(stopped), "--db",
                                str(db)], env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while _stored_matches(db) < 3 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert f"stopped; finish it with: ggp analyze --resume {stopped}" in err
    assert not (stopped / "analysis.json").exists()
    played = _stored_matches(db)
    assert 3 <= played < 10
    resumed = ggp(environ, "analyze", "--resume", str(stopped), timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert _stored_matches(db) == 10  # the matches that ended were kept, not played again
    through = ggp(environ, "analyze", game, *common, "--out", str(tmp_path / "through"), "--db",
                  str(tmp_path / "through.sqlite3"), timeout=300)
    assert through.returncode == 0, through.stderr
    a = json.loads((stopped / "analysis.json").read_text())
    b = json.loads((tmp_path / "through" / "analysis.json").read_text())
    assert a["metrics"] == b["metrics"]
