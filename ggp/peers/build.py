"""Where the third-party systems are built, and building them.

``interop/build.sh OUT`` (in a checkout of the project) compiles the Dresden GameController, UWA's
fork with its agents, and the project's Java programs that drive them (``interop/src``) into
``OUT``: by default ``.peers`` in the project root, or ``$GGP_PEERS``. :func:`find_peers` gives
the built systems as a :class:`Peers` value; with ``build=True`` it runs the script first (which
does nothing when ``OUT`` is up to date).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ggp.errors import GGPError

#: The project's ``interop`` folder (the Java programs and their build script), in a checkout.
INTEROP = Path(__file__).resolve().parents[2] / "interop"


class PeerError(GGPError):
    """A third-party system could not be built, started or read."""


def default_dir() -> Path:
    """``$GGP_PEERS``, else ``.peers`` in the project root: where the systems are built."""
    explicit = os.environ.get("GGP_PEERS")
    return Path(explicit) if explicit else INTEROP.parent / ".peers"


@dataclass(frozen=True)
class Peers:
    """The built systems under ``root`` (see :func:`find_peers`)."""

    root: Path

    @property
    def java(self) -> str:
        """The ``java`` command."""
        return shutil.which("java") or "java"

    @property
    def dresden_classpath(self) -> str:
        """The Dresden GameController's class path."""
        return str(self.root / "dresden")

    @property
    def uwa_classpath(self) -> str:
        """UWA's GameController and agents' class path (its classes and libraries)."""
        return (self.root / "uwa" / "classpath").read_text().strip()

    @property
    def uwa_dir(self) -> Path:
        """UWA's build directory: its runner is started from there (its agents log to ``matches/``)."""
        return self.root / "uwa"

    def prover_trace_command(self) -> list[str]:
        """``java ... ggpinterop.ProverTrace`` on the Dresden GameController's classes."""
        cp = os.pathsep.join([self.dresden_classpath, str(self.root / "interop" / "dresden")])
        return [self.java, "-cp", cp, "ggpinterop.ProverTrace"]

    def agent_command(self) -> list[str]:
        """``java ... ggpinterop.AgentServer`` on UWA's classes."""
        cp = os.pathsep.join([self.uwa_classpath, str(self.root / "interop" / "uwa")])
        return [self.java, "-cp", cp, "ggpinterop.AgentServer"]

    def complete(self) -> bool:
        """True when every part is built."""
        return ((self.root / "dresden" / "tud").is_dir() and (self.root / "uwa" / "classpath").is_file()
                and (self.root / "interop" / "dresden" / "ggpinterop" / "ProverTrace.class").is_file()
                and (self.root / "interop" / "uwa" / "ggpinterop" / "AgentServer.class").is_file())


def build(root: Path | None = None, timeout: float = 900) -> Peers:
    """Run ``interop/build.sh`` into ``root`` (default :func:`default_dir`) and return the result.

    Raises :class:`PeerError` with the script's message when it fails (no ``../shared``, no
    ``javac`` and none could be installed, a compile error).
    """
    root = root or default_dir()
    script = INTEROP / "build.sh"
    if not script.is_file():
        raise PeerError(f"{script} is absent: the third-party systems are built from a checkout of the project")
    try:
        done = subprocess.run(["bash", str(script), str(root)], capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        raise PeerError(f"{script} did not finish within {timeout:g} s") from None
    if done.returncode != 0:
        lines = (done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}").splitlines()
        raise PeerError(f"building the third-party systems failed: {lines[-1]}")
    peers = Peers(root.resolve())
    if not peers.complete():
        raise PeerError(f"building the third-party systems left {root} incomplete")
    return peers


def find_peers(build_if_needed: bool = False, root: Path | None = None) -> Peers:
    """The built systems in ``root`` (default :func:`default_dir`); built first when
    ``build_if_needed`` (a no-op when up to date). Raises :class:`PeerError` when they are not
    there and cannot be built."""
    root = root or default_dir()
    if build_if_needed:
        return build(root)
    peers = Peers(root.resolve())
    if not peers.complete():
        raise PeerError(f"the third-party systems are not built in {root}: run interop/build.sh {root}")
    return peers
