"""Shared test fixtures: where ``../shared`` (corpus, captures, references) lives."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
RULESHEETS = ROOT / "rulesheets"


def shared_path(*parts: str) -> Path:
    """A path under ``../shared``; skips the calling test when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the project's ../shared material), which is absent")
    return path


def corpus_files(folder: str, pattern: str = "*") -> list[Path]:
    """Sorted corpus files for parametrisation (empty when ../shared is absent)."""
    base = SHARED / "corpus" / folder
    return sorted(base.glob(pattern)) if base.exists() else []


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment for ``ggp`` subprocesses: records and the match database under tmp_path."""
    environ = dict(os.environ)
    environ["GGP_DATA_DIR"] = str(tmp_path / "data")
    environ.pop("GGP_MATCH_DB", None)
    return environ


def ggp(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -m ggp ARGS`` with ``env``; its exit code, output and errors."""
    return subprocess.run([sys.executable, "-m", "ggp", *args], env=env, capture_output=True, text=True, check=False,
                          timeout=timeout)


def pytest_configure(config: pytest.Config) -> None:
    """Built fast machines go to a cache of this test session (``$GGP_CACHE_DIR``), not the
    user's, unless one is set already; the child processes of the tests inherit it. The
    session's cache keeps every entry (the default run builds over 200 games)."""
    if "GGP_CACHE_DIR" not in os.environ:
        os.environ["GGP_CACHE_DIR"] = tempfile.mkdtemp(prefix="ggp-test-cache-")
        os.environ.setdefault("GGP_CACHE_ENTRIES", "100000")
        config.stash[_OWN_CACHE] = os.environ["GGP_CACHE_DIR"]


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's cache."""
    own = config.stash.get(_OWN_CACHE, None)
    if own is not None:
        shutil.rmtree(own, ignore_errors=True)
        os.environ.pop("GGP_CACHE_DIR", None)


_OWN_CACHE = pytest.StashKey[str]()
