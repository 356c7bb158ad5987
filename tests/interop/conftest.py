"""Fixtures for the interoperability tests: the built third-party systems, translated rulesheets."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ggp.peers.build import PeerError, Peers, build
from tests.conftest import RULESHEETS, shared_path


@pytest.fixture(scope="session")
def peers() -> Peers:
    """The Dresden and UWA GameControllers and the interop programs, built (once) into ``.peers``
    or ``$GGP_PEERS``. Skips only when Java cannot be had; any other build failure fails."""
    shared_path("tools", "peers", "build.sh")
    try:
        return build()
    except PeerError as exc:
        if shutil.which("javac") is None:
            pytest.skip(f"needs a JDK (Debian: default-jdk-headless), which could not be installed: {exc}")
        raise


@pytest.fixture(scope="session")
def translations(tmp_path_factory: pytest.TempPathFactory) -> Translations:
    """Rulesheets translated to KIF files with ``ggp translate``, once per session."""
    return Translations(tmp_path_factory.mktemp("translated"))


class Translations:
    """``translations["kuhn"]``: ``rulesheets/kuhn.rcy`` translated by ``ggp translate`` to a KIF file."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.done: dict[str, Path] = {}

    def __getitem__(self, name: str) -> Path:
        if name not in self.done:
            out = self.folder / f"{name}.kif"
            done = subprocess.run([sys.executable, "-m", "ggp", "translate", str(RULESHEETS / f"{name}.rcy"), "-o", str(out)],
                                  capture_output=True, text=True, timeout=600, check=False)
            assert done.returncode == 0, done.stderr
            self.done[name] = out
        return self.done[name]
