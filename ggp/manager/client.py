"""Talking to players: over HTTP (:class:`RemotePlayer`) or in-process (:class:`LocalPlayer`).

Both take a typed message and a deadline and return a :class:`Reply`: the answer text, or why
there is none (``timeout``, ``refused``, ``closed``, ``http``, ``error``). They never raise for
a player's failure and never wait past the deadline (remote) or the player's clock (local).
"""

from __future__ import annotations

import random
import socket
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from urllib.parse import urlsplit

from ggp.errors import GGPError
from ggp.players.base import Player
from ggp.players.deadline import Deadline
from ggp.protocol.http import HttpError, PeerClosed, read_response, render_request
from ggp.protocol.messages import Message, ProtocolError
from ggp.server.service import PlayerService

#: Largest answer accepted from a player, in bytes (a move or ``ready`` is tiny).
MAX_REPLY_BYTES = 1024 * 1024

TIMEOUT = "timeout"
REFUSED = "refused"
CLOSED = "closed"
HTTP = "http"
ERROR = "error"


class PlayerSpecError(GGPError, ValueError):
    """A ``--player`` spec that is neither a player name nor ``http://host:port``."""


@dataclass(frozen=True)
class Reply:
    """A player's answer (``text``) or the reason there is none (``failure``, ``detail``)."""

    text: str | None
    seconds: float
    failure: str | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        """True when an answer arrived."""
        return self.text is not None


class PlayerClient(ABC):
    """One seat's player as the manager sees it."""

    spec: str

    @abstractmethod
    def send(self, message: Message, deadline: Deadline) -> Reply:
        """Deliver ``message`` and return the answer, by ``deadline``."""

    def close(self) -> None:
        """Release resources (default: none)."""


def parse_url(url: str) -> tuple[str, int]:
    """``(host, port)`` of ``http://host:port``; raises :class:`PlayerSpecError`."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme != "http" or not parts.hostname or port is None or parts.path not in ("", "/"):
        raise PlayerSpecError(f"a remote player is http://HOST:PORT, not {url!r}")
    return parts.hostname, port


class RemotePlayer(PlayerClient):
    """A player behind a GGP HTTP server, one connection per message."""

    def __init__(self, url: str):
        self.spec = url
        self.host, self.port = parse_url(url)
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()

    def close(self) -> None:
        """Cut every connection still waiting for an answer (their sends return at once)."""
        with self._lock:
            for sock in self._open:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def send(self, message: Message, deadline: Deadline) -> Reply:
        """POST ``message``; the answer or a failure reason, never after ``deadline``."""
        began = time.monotonic()

        def failed(kind: str, detail: str) -> Reply:
            return Reply(None, time.monotonic() - began, kind, detail)

        remaining = deadline.remaining()
        if remaining <= 0:
            return failed(TIMEOUT, "no time left to send")
        try:
            sock = socket.create_connection((self.host, self.port), timeout=remaining)
        except TimeoutError:
            return failed(TIMEOUT, "no connection within the clock")
        except ConnectionRefusedError:
            return failed(REFUSED, "connection refused")
        except OSError as exc:
            return failed(REFUSED, f"cannot connect: {exc.strerror or exc}")
        with self._lock:
            self._open.add(sock)
        try:
            sock.settimeout(max(0.001, deadline.remaining()))
            sock.sendall(render_request(str(message), self.host, self.port))
            response = read_response(sock, deadline.at, MAX_REPLY_BYTES)
            text = response.text
        except PeerClosed:
            return failed(CLOSED, "connection closed without an answer")
        except HttpError as exc:
            if exc.status == 408:
                return failed(TIMEOUT, "no answer within the clock")
            return failed(HTTP, f"unreadable answer: {exc.message}")
        except TimeoutError:
            return failed(TIMEOUT, "no answer within the clock")
        except OSError as exc:
            return failed(CLOSED, f"connection lost: {exc.strerror or exc}")
        finally:
            with self._lock:
                self._open.discard(sock)
            sock.close()
        if response.status != 200:
            return failed(HTTP, f"HTTP {response.status}: {text.strip()[:200]}")
        return Reply(text.strip(), time.monotonic() - began)


class LocalPlayer(PlayerClient):
    """A registered player run in this process, through the same service as ``ggp serve``."""

    def __init__(self, spec: str, player: Player, reasoner: str | None = None):
        self.spec = spec
        self.service = PlayerService(player, reasoner=reasoner)

    def send(self, message: Message, deadline: Deadline) -> Reply:
        """Hand ``message`` to the service; its answer (the service keeps its own clock)."""
        began = time.monotonic()
        try:
            answer = self.service.handle(message, began)
        except ProtocolError as exc:
            return Reply(None, time.monotonic() - began, HTTP, f"rejected: {exc}")
        except Exception as exc:  # noqa: BLE001 - the player crashed: the match goes on without it
            return Reply(None, time.monotonic() - began, ERROR, f"{type(exc).__name__}: {exc}")
        return Reply(answer.body, time.monotonic() - began)

    def close(self) -> None:
        """End the player's match, if the manager did not (an interrupted match)."""
        self.service.close()


def make_client(spec: str, rng: random.Random, reasoner: str | None = None) -> PlayerClient:
    """A client for ``spec``: ``http://host:port`` (remote) or a registered player (in-process)."""
    from ggp.players.registry import create_player

    if spec.startswith(("http://", "https://")):
        return RemotePlayer(spec)
    return LocalPlayer(spec, create_player(spec, rng=rng, reasoner=reasoner), reasoner)
