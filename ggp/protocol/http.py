"""HTTP framing for the GGP protocol: reading and writing requests and responses on sockets.

Only what game managers and players use: one ``POST`` per message over a fresh connection,
HTTP/1.0 or 1.1, a body of exactly ``Content-Length`` bytes, header names in any case, no
``Host`` header required, the connection closed after the answer. Nothing here knows what the
body means (that is :mod:`ggp.protocol.messages`). Every read has a deadline, a
:func:`time.monotonic` value, and a size limit, so a silent or hostile peer cannot hold a
thread or memory for long.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass

from ggp.protocol.messages import ProtocolError

#: Largest request or response head (request line and headers) accepted, in bytes.
MAX_HEAD_BYTES = 16 * 1024
#: Default largest body accepted by a player server (big game descriptions fit easily).
MAX_BODY_BYTES = 8 * 1024 * 1024

_REASONS = {200: "OK", 400: "Bad Request", 405: "Method Not Allowed", 408: "Request Timeout",
            411: "Length Required", 413: "Payload Too Large", 431: "Request Header Fields Too Large",
            500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable"}


class HttpError(ProtocolError):
    """A request or response that breaks HTTP framing; ``status`` is the code to answer with."""

    def __init__(self, status: int, message: str):
        self.status = status
        super().__init__(message)


class PeerClosed(HttpError):
    """The peer closed the connection before sending anything."""

    def __init__(self) -> None:
        super().__init__(400, "the connection closed before a request arrived")


@dataclass(frozen=True)
class HttpRequest:
    """A parsed request: method, target, version, headers as sent, and the raw body."""

    method: str
    target: str
    version: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """The value of header ``name`` (any case), or None."""
        return _header(self.headers, name)

    @property
    def text(self) -> str:
        """The body as text; raises :class:`HttpError` when it is not UTF-8."""
        return _decode(self.body)


@dataclass(frozen=True)
class HttpResponse:
    """A parsed response: status code, headers and body."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes

    @property
    def text(self) -> str:
        """The body as text; raises :class:`HttpError` when it is not UTF-8."""
        return _decode(self.body)


def _decode(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HttpError(400, f"the body is not UTF-8 text (byte {exc.start})") from None


def _header(headers: tuple[tuple[str, str], ...], name: str) -> str | None:
    wanted = name.lower()
    for key, value in headers:
        if key.lower() == wanted:
            return value
    return None


class SocketReader:
    """Buffered reads from a socket that give up at ``deadline`` (a monotonic time)."""

    def __init__(self, sock: socket.socket, deadline: float):
        self.sock = sock
        self.deadline = deadline
        self.buffer = b""
        self.closed = False

    def _fill(self) -> bool:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise HttpError(408, "timed out reading from the connection")
        self.sock.settimeout(remaining)
        try:
            chunk = self.sock.recv(65536)
        except TimeoutError:
            raise HttpError(408, "timed out reading from the connection") from None
        if not chunk:
            self.closed = True
            return False
        self.buffer += chunk
        return True

    def read_head(self, limit: int = MAX_HEAD_BYTES) -> bytes | None:
        """Bytes up to the blank line ending the head; None if the peer closed without data."""
        while True:
            end = _head_end(self.buffer)
            if end is not None:
                head, self.buffer = self.buffer[:end[0]], self.buffer[end[1]:]
                return head
            if len(self.buffer) > limit:
                raise HttpError(431, f"the request head exceeds {limit} bytes")
            if not self._fill():
                if not self.buffer.strip():
                    return None
                raise HttpError(400, "the connection closed in the middle of the head")

    def read_exactly(self, count: int) -> bytes:
        """Exactly ``count`` bytes; raises :class:`HttpError` when the peer stops short."""
        while len(self.buffer) < count:
            if not self._fill():
                raise HttpError(400, f"the connection closed after {len(self.buffer)} of {count} body bytes")
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def read_to_close(self, limit: int) -> bytes:
        """Everything until the peer closes; raises :class:`HttpError` beyond ``limit`` bytes."""
        while len(self.buffer) <= limit and self._fill():
            pass
        if len(self.buffer) > limit:
            raise HttpError(413, f"the body exceeds {limit} bytes")
        data, self.buffer = self.buffer, b""
        return data


def _head_end(buffer: bytes) -> tuple[int, int] | None:
    """Where the head ends and the body starts (CRLF or bare LF line ends)."""
    crlf = buffer.find(b"\r\n\r\n")
    lf = buffer.find(b"\n\n")
    candidates = [(i, i + 4) for i in (crlf,) if i >= 0] + [(i, i + 2) for i in (lf,) if i >= 0]
    return min(candidates) if candidates else None


def _split_head(head: bytes) -> tuple[str, tuple[tuple[str, str], ...]]:
    try:
        text = head.decode("latin-1")
    except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
        raise HttpError(400, "unreadable head") from None
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)  # tolerate stray blank lines before the request line
    if not lines:
        raise HttpError(400, "empty request")
    headers = []
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name.strip() or " " in name.strip():
            raise HttpError(400, f"malformed header line {line[:80]!r}")
        headers.append((name.strip(), value.strip()))
    return lines[0], tuple(headers)


def parse_request_head(head: bytes) -> tuple[str, str, str, tuple[tuple[str, str], ...]]:
    """Method, target, version and headers of a request head; raises :class:`HttpError`."""
    first, headers = _split_head(head)
    parts = first.split()
    if len(parts) != 3:
        raise HttpError(400, f"malformed request line {first[:80]!r}")
    method, target, version = parts
    if version not in ("HTTP/1.0", "HTTP/1.1"):
        raise HttpError(400, f"unsupported HTTP version {version[:20]!r}")
    return method.upper(), target, version, headers


def _content_length(headers: tuple[tuple[str, str], ...], limit: int) -> int | None:
    if _header(headers, "transfer-encoding") not in (None, "identity"):
        raise HttpError(501, "chunked or encoded bodies are not supported; send Content-Length")
    raw = _header(headers, "content-length")
    if raw is None:
        return None
    if not raw.isdigit():
        raise HttpError(400, f"bad Content-Length {raw[:40]!r}")
    length = int(raw)
    if length > limit:
        raise HttpError(413, f"the body of {length} bytes exceeds the limit of {limit}")
    return length


def read_request(sock: socket.socket, deadline: float, max_body: int = MAX_BODY_BYTES) -> HttpRequest:
    """Read one request from ``sock`` before ``deadline``; raises :class:`HttpError`.

    Raises :class:`PeerClosed` when the connection closes before any byte arrives.
    """
    reader = SocketReader(sock, deadline)
    head = reader.read_head()
    if head is None:
        raise PeerClosed()
    method, target, version, headers = parse_request_head(head)
    if method == "POST":
        length = _content_length(headers, max_body)
        if length is None:
            raise HttpError(411, "a POST needs a Content-Length header")
        body = reader.read_exactly(length)
    else:
        body = b""
    return HttpRequest(method, target, version, headers, body)


def render_response(body: str, status: int = 200) -> bytes:
    """An HTTP/1.0 response (``text/acl``, closed after sending) with CORS headers as ggp-base's."""
    data = body.encode("utf-8")
    head = (
        f"HTTP/1.0 {status} {_REASONS.get(status, 'Error')}\r\n"
        "Content-Type: text/acl\r\n"
        f"Content-Length: {len(data)}\r\n"
        "Access-Control-Allow-Origin: *\r\n"
        "Access-Control-Allow-Methods: POST, GET, OPTIONS\r\n"
        "Access-Control-Allow-Headers: Content-Type\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode("latin-1") + data


def render_request(body: str, host: str, port: int, sender: str = "ggp") -> bytes:
    """A manager's ``POST /`` request as real managers send it (HTTP/1.0, ``text/acl``)."""
    data = body.encode("utf-8")
    head = (
        "POST / HTTP/1.0\r\n"
        "Accept: text/delim\r\n"
        f"Host: {host}:{port}\r\n"
        f"Sender: {sender}\r\n"
        f"Receiver: {host}:{port}\r\n"
        "Content-Type: text/acl\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    )
    return head.encode("latin-1") + data


def read_response(sock: socket.socket, deadline: float, max_body: int) -> HttpResponse:
    """Read a response before ``deadline``: ``Content-Length`` bytes, or up to the close."""
    reader = SocketReader(sock, deadline)
    head = reader.read_head()
    if head is None:
        raise PeerClosed()
    first, headers = _split_head(head)
    parts = first.split(None, 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise HttpError(400, f"malformed status line {first[:80]!r}")
    length = _content_length(headers, max_body)
    body = reader.read_to_close(max_body) if length is None else reader.read_exactly(length)
    return HttpResponse(int(parts[1]), headers, body)
