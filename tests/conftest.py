"""Shared test fixtures: where ``../shared`` (corpus, captures, references) lives."""

from __future__ import annotations

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
