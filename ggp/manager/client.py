"""Talking to players: the :class:`PlayerClient` interface, over HTTP (:class:`RemotePlayer`)
or in the manager's own process (:class:`LocalPlayer`).

Clients take a typed message and a deadline and return a :class:`Reply`: the answer text, or
why there is none (``timeout``, ``refused``, ``closed``, ``http``, ``error``). They never raise
for a player's failure and never wait past the deadline (remote) or the player's clock (local).
Players in processes of their own are in :mod:`ggp.manager.process`; which client a ``--player``
spec gets is decided in :mod:`ggp.manager.seating`.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TypeVar
from urllib.parse import urlsplit

from ggp.deadline import Deadline
from ggp.errors import GGPError
from ggp.players.base import Player
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


C = TypeVar("C", bound="PlayerClient")


class PlayerClient(ABC):
    """One player as the manager sees it; usable as a context manager (closed on exit).

    A client is not bound to a seat: the ``start`` message names the role, so the same client
    can play one match after another in different seats (:meth:`new_match` in between).
    """

    spec: str

    @abstractmethod
    def send(self, message: Message, deadline: Deadline) -> Reply:
        """Deliver ``message`` and return the answer, by ``deadline``."""

    def new_match(self, rng: random.Random) -> None:
        """Play the next match with a fresh player seeded by ``rng`` (default: nothing to do,
        e.g. a remote player seeds itself)."""

    def close(self) -> None:
        """Release resources (default: none). Closing twice is harmless."""

    def __enter__(self: C) -> C:
        """The client itself."""
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        """Close the client."""
        self.close()


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


def _addresses(host: str, port: int) -> frozenset[str]:
    """The addresses ``host`` resolves to (the name itself, lower-cased, when it does not)."""
    try:
        return frozenset(str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
    except (OSError, UnicodeError):
        return frozenset({host.lower()})


def same_endpoint(url: str, other: str) -> bool:
    """True when two ``http://HOST:PORT`` specs reach the same server (same port, a common
    address: ``localhost`` and ``127.0.0.1`` are one endpoint)."""
    host, port = parse_url(url)
    other_host, other_port = parse_url(other)
    if port != other_port:
        return False
    return host.lower() == other_host.lower() or bool(_addresses(host, port) & _addresses(other_host, other_port))


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
    """A player run in this process, through the same service as ``ggp serve``.

    It shares the manager's interpreter (and its lock) with every other in-process player: for
    programmatic use, debugging (``--in-process``) and players that need the manager's console.
    :meth:`new_match` makes a fresh player with ``factory(rng)`` (default: the player's class
    called with ``rng`` and ``reasoner``).
    """

    def __init__(self, spec: str, player: Player, reasoner: str | None = None,
                 factory: Callable[[random.Random], Player] | None = None):
        self.spec = spec
        self.reasoner = reasoner
        self.factory = factory
        self.service = PlayerService(player, reasoner=reasoner)

    def new_match(self, rng: random.Random) -> None:
        """End any match still running and continue with a fresh player seeded by ``rng``."""
        old = self.service
        old.close()
        player = self.factory(rng) if self.factory else type(old.player)(rng=rng, reasoner=self.reasoner)
        self.service = PlayerService(player, reasoner=self.reasoner, margin=old.margin)

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
