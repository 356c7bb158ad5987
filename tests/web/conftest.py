"""Fixtures of the web tests: a browser, recorded matches, a running ``ggp view``."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RULESHEETS, ggp
from tests.web.browser import Served, browser

pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="needs the web extra: pip install -e '.[web]'")

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the session (skips when absent)."""
    yield from browser()


@pytest.fixture(scope="session")
def store(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A data directory with recorded matches: Kuhn poker (seed 3), tic-tac-toe and a game whose
    names are HTML. ``ids`` maps each game to its match id."""
    root = tmp_path_factory.mktemp("store")
    env = dict(os.environ, GGP_DATA_DIR=str(root / "data"))
    env.pop("GGP_MATCH_DB", None)
    ids = {}
    games = {"kuhn": (RULESHEETS / "kuhn.rcy", 2), "tictactoe": (RULESHEETS / "tictactoe.kif", 2),
             "xss": (HERE / "xss.kif", 1)}
    for name, (path, players) in games.items():
        local = root / path.name
        shutil.copy(path, local)
        done = ggp(env, "match", str(local), *(["--player", "random"] * players), "--seed", "3", "--in-process",
                   "--match-id", f"{name}.test")
        assert done.returncode == 0, done.stderr
        ids[name] = f"{name}.test"
        assert json.loads(done.stdout)["errors"] == []
    return {"env": env, "db": root / "data" / "matches.sqlite3", "ids": ids, "root": root}


@pytest.fixture(scope="session")
def viewer(store: dict[str, Any]) -> Iterator[Served]:
    """``ggp view`` on a free loopback port, over the recorded matches."""
    served = Served(["view", "--db", str(store["db"]), "--port", "0"], store["env"], r"serving (http://[\d.:]+)")
    try:
        yield served
    finally:
        served.stop()
