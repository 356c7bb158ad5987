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
import threading
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


#: The kinds of fault :func:`read_log` tells apart.
FAULT_KINDS = ("timeout", "exception", "no move", "illegal", "other")


@dataclass(frozen=True)
class Fault:
    """One fault in a GameController's log: its kind (see :data:`FAULT_KINDS`), the player (as the
    log names it, e.g. ``local(hyper)``; empty when none), the step, and the log line."""

    kind: str
    player: str
    step: int
    line: str

    def __str__(self) -> str:
        who = f" {self.player}" if self.player else ""
        return f"step {self.step}{who}: {self.kind}: {self.line}"


@dataclass
class GCMatch:
    """What a GameController's run of a match showed."""

    manager: str
    log: str
    returncode: int | None
    steps: int = 0
    #: The goals in the order of the ``role`` facts (``random`` included), when the game ended.
    goals: list[int] | None = None
    #: Every fault of the log, in order: a time-out, an exception, a player that chose no move
    #: (``Illegal move "null"`` with neither before it), an illegal move, anything else.
    faults: list[Fault] = field(default_factory=list)

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
        return head + f", {len(self.faults)} faults: " + " | ".join(map(str, self.faults[:4]))


_TIMEOUT = re.compile(r"player (.+?) timed out")
_EXCEPTION = re.compile(r"exception from player (.+?): (.*)")
_ILLEGAL = re.compile(r'Illegal move "(.*)" from (.+?) in step (\d+)')


def read_log(manager: str, log: str, returncode: int | None = 0) -> GCMatch:
    """Read a GameController's output (see the module doc)."""
    result = GCMatch(manager, log, returncode)
    seen: set[str] = set()
    explained: set[str] = set()  # players whose time-out or exception this step explains an illegal move
    for line in log.splitlines():
        if _STACK.search(line):
            continue
        step = _STEP.search(line)
        if step:
            result.steps = max(result.steps, int(step.group(1)))
            explained.clear()
        over = _GAME_OVER.search(line)
        if over:
            result.goals = [int(v) for v in over.group(1).split()]
        if not _FAULT.search(line):
            continue
        text = re.sub(r"^(SEVERE|INFO|WARNING)(\(\d\d:\d\d:\d\d\.\d+\))?: ", "", line.strip())
        if text in seen and _ILLEGAL.search(text):
            continue  # the runner logs each illegal move twice
        seen.add(text)
        if (found := _TIMEOUT.search(text)) is not None:
            explained.add(found.group(1))
            result.faults.append(Fault("timeout", found.group(1), result.steps, text))
        elif (found := _EXCEPTION.search(text)) is not None:
            explained.add(found.group(1))
            result.faults.append(Fault("exception", found.group(1), result.steps, text))
        elif (found := _ILLEGAL.search(text)) is not None:
            if found.group(2) not in explained:
                kind = "no move" if found.group(1) == "null" else "illegal"
                result.faults.append(Fault(kind, found.group(2), int(found.group(3)), text))
        elif not text.startswith("java.") and not text.startswith("Caused by"):
            result.faults.append(Fault("other", "", result.steps, text))
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
              start_clock: int = 10, play_clock: int = 10, time_limit: float = 1800,
              stop_on_fault: bool = False) -> GCMatch:
    """Play ``game`` (a KIF file) under ``manager`` with ``seats`` (one per role other than
    ``random``, in the order of the role facts) and read the log (see the module doc).

    A runner still going after ``time_limit`` seconds is killed; the result then has no goals and
    a fault saying so. With ``stop_on_fault`` the runner is killed at the first time-out,
    exception or other fault (an illegal move alone does not stop it). Raises
    :class:`PeerError` for a seat the manager cannot have.
    """
    argv, cwd = command(peers, manager, game, seats, match_id, start_clock, play_clock)
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace", start_new_session=True)
    lines: list[str] = []
    stopped = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if stop_on_fault and _FAULT.search(line) and not _ILLEGAL.search(line) and not stopped.is_set():
                stopped.set()
                _kill(process)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        process.wait(timeout=time_limit)
    except subprocess.TimeoutExpired:
        _kill(process)
        process.wait()
        reader.join(10)
        result = read_log(manager, "".join(lines), None)
        result.faults.append(Fault("timeout", "", result.steps, f"the manager did not finish within {time_limit:g} s"))
        return result
    except BaseException:
        _kill(process)
        process.wait()
        raise
    reader.join(10)
    return read_log(manager, "".join(lines), process.returncode)


def _kill(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
