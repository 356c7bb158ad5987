"""A match under a third-party game manager, and its log read for faults.

Both managers are the GameController's command-line runner: the Dresden one seats remote players
(GGP HTTP servers such as ``ggp serve`` or ``interop/agent.sh``), UWA's its own local agents
(``-hyper``, ``-random`` ...; its remote player is unfinished). Either plays the ``random`` role
itself. :func:`run_match` starts the runner, waits for it (killing it past a time limit) and
reads its log: the steps, the goals (``Game over! results: ...``) and every line that reports a
fault: a move substituted (a time-out, an illegal move, no move), an exception, a player that
found no legal move. A match that ends with ``Game over`` and no such line played cleanly.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ggp.peers.build import PeerError, Peers

#: The managers :func:`run_match` runs.
MANAGERS = ("dresden", "uwa")
#: UWA's local agents, by the runner's option names (``-hyper N`` ...).
UWA_AGENTS = ("hyper", "ahyper", "ahyperlt", "imprandom", "ophyper", "random", "legal", "mcs")
RUNNER = "tud.gamecontroller.game.javaprover.GameControllerCLIRunner"

_STEP = re.compile(r"\bstep:(\d+)")
_GAME_OVER = re.compile(r"Game over! results:([-+\d ]*)")
_FAULT = re.compile(r"SEVERE|Exception|\btimed out\b|Illegal move|no legal move|Key already contained|"
                    r"no successor state|has no legal move")
_STACK = re.compile(r"^\s+at |^\s+\.\.\. \d+ more")


@dataclass(frozen=True)
class Seat:
    """A player of a GameController match: a remote GGP player (Dresden) or a UWA agent."""

    agent: str
    host: str = "127.0.0.1"
    port: int = 0
    name: str = ""

    @classmethod
    def remote(cls, url: str, name: str = "player") -> Seat:
        """The remote player at ``url`` (``http://HOST:PORT``)."""
        match = re.fullmatch(r"http://([^:/]+):(\d+)/?", url)
        if match is None:
            raise PeerError(f"expected http://HOST:PORT, got {url!r}")
        return cls("remote", match.group(1), int(match.group(2)), name)

    def arguments(self, index: int) -> list[str]:
        """The runner's arguments seating this player in role ``index`` (from 1, ``random`` left out)."""
        if self.agent == "remote":
            return ["-remote", str(index), self.name or f"player{index}", self.host, str(self.port), "2"]
        return [f"-{self.agent}", str(index)]


@dataclass
class GCMatch:
    """What a GameController's run of a match showed."""

    manager: str
    log: str
    returncode: int | None
    steps: int = 0
    #: The goals in the order of the ``role`` facts (``random`` included), when the game ended.
    goals: list[int] | None = None
    #: Every log line that reports a fault (consecutive repeats once), with the exception lines.
    faults: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """True when the manager printed ``Game over``."""
        return self.goals is not None

    @property
    def clean(self) -> bool:
        """True when the match ended with ``Game over`` and no fault."""
        return self.finished and not self.faults

    def describe(self) -> str:
        """One line: the outcome and the first faults."""
        head = f"{self.manager}: " + (f"Game over after {self.steps} steps, goals {self.goals}" if self.finished
                                      else f"no Game over (stopped at step {self.steps}, exit status {self.returncode})")
        if not self.faults:
            return head + ", no fault"
        return head + f", {len(self.faults)} fault lines, e.g. " + " | ".join(self.faults[:3])


def read_log(manager: str, log: str, returncode: int | None = 0) -> GCMatch:
    """Read a GameController's output (see the module doc)."""
    result = GCMatch(manager, log, returncode)
    last = ""
    for line in log.splitlines():
        if _STACK.search(line):
            continue
        step = _STEP.search(line)
        if step:
            result.steps = max(result.steps, int(step.group(1)))
        over = _GAME_OVER.search(line)
        if over:
            result.goals = [int(v) for v in over.group(1).split()]
        if _FAULT.search(line):
            text = re.sub(r"^(SEVERE|INFO|WARNING)\(\d\d:\d\d:\d\d\.\d+\): ", "", line.strip())
            text = re.sub(r"^SEVERE: ", "", text)
            if text != last:
                result.faults.append(text)
            last = text
    return result


def command(peers: Peers, manager: str, game: Path, seats: Sequence[Seat], match_id: str,
            start_clock: int, play_clock: int) -> tuple[list[str], Path | None]:
    """The runner's command line and working directory."""
    if manager not in MANAGERS:
        raise PeerError(f"unknown manager {manager!r}; choose one of {', '.join(MANAGERS)}")
    args = [match_id, str(Path(game).resolve()), str(start_clock), str(play_clock), "2"]
    for index, seat in enumerate(seats, 1):
        if manager == "uwa" and seat.agent == "remote":
            raise PeerError("UWA's runner cannot seat remote players (its remote player is unfinished): use dresden")
        if manager == "dresden" and seat.agent not in ("remote", "random", "legal"):
            raise PeerError(f"the Dresden runner has no agent {seat.agent!r}: use uwa")
        if manager == "uwa" and seat.agent not in ("remote", *UWA_AGENTS):
            raise PeerError(f"UWA's runner has no agent {seat.agent!r}; choose one of {', '.join(UWA_AGENTS)}")
        args += seat.arguments(index)
    if manager == "dresden":
        return [peers.java, "-cp", peers.dresden_classpath, RUNNER, *args], None
    (peers.uwa_dir / "matches").mkdir(exist_ok=True)
    return [peers.java, "-cp", peers.uwa_classpath, RUNNER, *args], peers.uwa_dir


def run_match(peers: Peers, manager: str, game: Path, seats: Sequence[Seat], *, match_id: str = "m1",
              start_clock: int = 10, play_clock: int = 10, time_limit: float = 1800) -> GCMatch:
    """Play ``game`` (a KIF file) under ``manager`` with ``seats`` (one per role other than
    ``random``, in the order of the role facts) and read the log (see the module doc).

    A runner still going after ``time_limit`` seconds is killed; the result then has no goals and
    a fault saying so. Raises :class:`PeerError` for a seat the manager cannot have.
    """
    argv, cwd = command(peers, manager, game, seats, match_id, start_clock, play_clock)
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace", start_new_session=True)
    try:
        output, _ = process.communicate(timeout=time_limit)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        result = read_log(manager, output, None)
        result.faults.append(f"the manager did not finish within {time_limit:g} s")
        return result
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    return read_log(manager, output, process.returncode)
