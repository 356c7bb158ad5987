"""The player server: HTTP on a TCP port in front of a :class:`~ggp.server.service.PlayerService`.

One thread per connection (at most ``max_connections`` at once; more are closed at once), one
request per connection, the answer written and the connection closed, as game managers expect.
Whatever arrives, the server keeps serving: a request that breaks HTTP framing or is not a
protocol message gets an error status with a one-line explanation; a connection that sends
nothing, too much or too slowly is answered with an error or dropped.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from typing import Protocol

from ggp.protocol.http import (
    MAX_BODY_BYTES,
    HttpError,
    PeerClosed,
    read_request,
    render_response,
)
from ggp.protocol.messages import ProtocolError
from ggp.server.service import Answer, SafetyMargin

log = logging.getLogger(__name__)

#: Seconds a client has to deliver a whole request once connected.
READ_TIMEOUT = 10.0
#: Seconds allowed for writing an answer.
WRITE_TIMEOUT = 5.0


class Service(Protocol):
    """What the server answers through: a :class:`~ggp.server.service.PlayerService` (one match
    at a time) or :class:`~ggp.server.sessions.MatchSessions` (several)."""

    margin: SafetyMargin

    def handle_text(self, text: str, received_at: float | None = None) -> Answer:
        """Answer one message text."""


class PlayerServer:
    """Serve ``service`` on ``host``:``port`` (port 0 picks a free one; see :attr:`address`)."""

    def __init__(self, service: Service, host: str = "127.0.0.1", port: int = 0,
                 read_timeout: float = READ_TIMEOUT, max_body: int = MAX_BODY_BYTES,
                 max_connections: int = 128):
        self.service = service
        self.read_timeout = read_timeout
        self.max_body = max_body
        self._slots = threading.BoundedSemaphore(max_connections)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.create_server((host, port), family=family, backlog=1024)
        self._socket.settimeout(0.2)
        self.requests = 0
        self.dropped = 0

    @property
    def address(self) -> tuple[str, int]:
        """The (host, port) the server listens on."""
        host, port = self._socket.getsockname()[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        """``http://host:port``, the spec a game manager uses to reach this player."""
        host, port = self.address
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    def serve_forever(self) -> None:
        """Accept connections until :meth:`shutdown` (or Ctrl-C in the calling thread)."""
        try:
            while not self._stopping.is_set():
                try:
                    conn, _ = self._socket.accept()
                except TimeoutError:
                    continue
                except OSError:
                    if self._stopping.is_set():
                        break
                    raise
                accepted_at = time.monotonic()
                if not self._slots.acquire(blocking=False):
                    self.dropped += 1
                    _close(conn)
                    continue
                worker = threading.Thread(target=self._serve_connection, args=(conn, accepted_at),
                                          name="ggp-connection", daemon=True)
                worker.start()
        finally:
            self._socket.close()

    def start(self) -> PlayerServer:
        """Serve in a background thread; returns self."""
        self._thread = threading.Thread(target=self.serve_forever, name="ggp-server", daemon=True)
        self._thread.start()
        return self

    def shutdown(self) -> None:
        """Stop accepting connections and wait for the accept loop to end."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> PlayerServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def _serve_connection(self, conn: socket.socket, accepted_at: float) -> None:
        try:
            self._exchange(conn, accepted_at)
        except OSError as exc:  # the peer went away while we answered
            log.info("connection dropped: %s", exc)
        except Exception:  # a bug must not take the server down
            log.exception("internal error while answering a request")
        finally:
            _close(conn)
            self._slots.release()

    def _exchange(self, conn: socket.socket, accepted_at: float) -> None:
        try:
            request = read_request(conn, accepted_at + self.read_timeout, self.max_body)
        except PeerClosed:
            self.dropped += 1
            return
        except HttpError as exc:
            log.info("bad request: %s", exc.message)
            self._send(conn, render_response(exc.message, exc.status), unread=True)
            return
        self.requests += 1
        if request.method == "OPTIONS":
            self._send(conn, render_response(""))
            return
        if request.method != "POST":
            self._send(conn, render_response(f"use POST, not {request.method[:20]}", 405))
            return
        try:
            answer = self.service.handle_text(request.text, accepted_at)
        except ProtocolError as exc:
            log.info("rejected message: %s", exc)
            self._send(conn, render_response(str(exc), 400))
            return
        except Exception as exc:
            log.exception("internal error")
            self._send(conn, render_response(f"internal error: {type(exc).__name__}", 500))
            return
        self._send(conn, render_response(answer.body))
        self._learn(answer)

    def _learn(self, answer: Answer) -> None:
        if answer.deadline is not None:
            decided = min(answer.deadline.at, answer.ready_at)
            self.service.margin.record(time.monotonic() - decided)

    def _send(self, conn: socket.socket, data: bytes, unread: bool = False) -> None:
        conn.settimeout(WRITE_TIMEOUT)
        conn.sendall(data)
        if unread:
            # Unread input would make close() send a reset that can destroy the answer in flight:
            # signal the end, then drain briefly so the peer can read what we wrote.
            conn.shutdown(socket.SHUT_WR)
            conn.settimeout(0.2)
            deadline = time.monotonic() + 0.5
            try:
                while time.monotonic() < deadline and conn.recv(65536):
                    pass
            except OSError:
                pass


def _close(conn: socket.socket) -> None:
    try:
        conn.close()
    except OSError:  # pragma: no cover - closing a socket rarely fails
        pass
