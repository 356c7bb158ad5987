"""The reasoner's tests keep the disk cache of built machines in a directory of their own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache directory for the whole test session."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def isolated_cache(session_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``$GGP_CACHE_DIR`` points at the session's directory, never at the user's data."""
    monkeypatch.setenv("GGP_CACHE_DIR", str(session_cache))
    monkeypatch.delenv("GGP_NO_CACHE", raising=False)
    yield


@pytest.fixture
def compiler() -> None:
    """Skips the test when the compiled reasoner cannot be built here (no C compiler)."""
    from ggp.reasoner import compiled_unavailable

    problem = compiled_unavailable()
    if problem is not None:
        pytest.skip(f"the compiled reasoner is unavailable: {problem}")


@pytest.fixture
def no_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process behaves as on a machine without a C compiler."""
    from ggp import reasoner
    from ggp.reasoner import native

    monkeypatch.setattr(native, "_problem", ["no C compiler found: 'cc' is not a program here (set $CC to a C compiler)"])
    monkeypatch.setattr(reasoner, "_WARNED", set())
