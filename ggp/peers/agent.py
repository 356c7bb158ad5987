"""A UWA agent (HyperPlay and its kin) served as a GGP HTTP player by ``interop``'s AgentServer.

``with AgentProcess(peers, "hyper") as agent:`` starts the server on a free port of the loopback
interface and gives its URL (``agent.url``) to seat in ``ggp match`` or ``ggp tournament``; the
process ends with the block. The agents write their move logs to ``matches/`` under the working
directory given (a temporary one by default).
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType

from ggp.peers.build import PeerError, Peers

#: The agents AgentServer serves.
AGENTS = ("hyper", "ahyperlt", "ophyper", "imprandom", "random", "legal")


class AgentProcess:
    """An AgentServer process serving ``agent`` (see the module doc)."""

    def __init__(self, peers: Peers, agent: str, *, host: str = "127.0.0.1", port: int = 0,
                 workdir: Path | None = None, verbose: bool = False, ready_within: float = 60):
        if agent not in AGENTS:
            raise PeerError(f"unknown UWA agent {agent!r}; choose one of {', '.join(AGENTS)}")
        self.agent = agent
        self._tmp = None if workdir is not None else tempfile.TemporaryDirectory(prefix="ggp-uwa-agent-")
        self.workdir = Path(workdir if workdir is not None else self._tmp.name)  # type: ignore[union-attr]
        self.workdir.mkdir(parents=True, exist_ok=True)
        argv = [*peers.agent_command(), agent, "--host", host, "--port", str(port)] + (["-v"] if verbose else [])
        self.process = subprocess.Popen(argv, cwd=self.workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, errors="replace", start_new_session=True)
        self.errors: list[str] = []
        self._drain = threading.Thread(target=self._read_errors, daemon=True)
        self._drain.start()
        self.url = self._wait_ready(ready_within)

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.errors.append(line.rstrip("\n"))
            del self.errors[:-200]

    def _wait_ready(self, seconds: float) -> str:
        assert self.process.stdout is not None
        result: list[str] = []
        reader = threading.Thread(target=lambda: result.append(self.process.stdout.readline()),  # type: ignore[union-attr]
                                  daemon=True)
        reader.start()
        reader.join(seconds)
        line = result[0].strip() if result else ""
        if not line.startswith("listening on "):
            self.close()
            time.sleep(0.1)
            detail = "; ".join(self.errors[-3:]) or line or f"nothing within {seconds:g} s"
            raise PeerError(f"the UWA agent server ({self.agent}) did not start: {detail}")
        return line.removeprefix("listening on ")

    def close(self) -> None:
        """End the server (idempotent)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait()
        self._drain.join(2)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> AgentProcess:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
