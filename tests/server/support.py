"""Helpers for tests that talk to players over real loopback sockets."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ggp.protocol.http import HttpError, PeerClosed, read_request, render_response
from ggp.server.service import PlayerService

#: The reasoner the tests use: the ground network as generated Python (no C compile per game).
REASONER = os.environ.get("GGP_TEST_REASONER", "fast")

CAPTURES = ("wire_gb", "wire_mh2", "wire_mh3", "wire_ttt1", "wire_ttt2", "wire_uwa_kriegTTT_vs_hyper")


def capture_rows(path: Path) -> list[dict[str, object]]:
    """The requests of a capture file in the order they were sent (by timestamp)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return sorted(rows, key=lambda r: float(r["t"]))


def capture_bytes(row: dict[str, object], newline: str = "\r\n") -> bytes:
    """A captured request as it went on the wire."""
    headers = row["headers"]
    assert isinstance(headers, list)
    head = str(row["request_line"]) + newline + "".join(str(h) + newline for h in headers) + newline
    return head.encode("latin-1") + str(row["body"]).encode("utf-8")


def exchange(address: tuple[str, int], data: bytes, timeout: float = 10.0) -> bytes:
    """Send raw bytes on a fresh connection and read everything until the server closes."""
    with socket.create_connection(address, timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def split_response(raw: bytes) -> tuple[int, str]:
    """Status code and body text of a raw HTTP response."""
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, body.decode("utf-8")


def post(address: tuple[str, int], body: str, timeout: float = 10.0) -> tuple[int, str]:
    """POST a message body as a game manager does; (status, reply)."""
    data = body.encode("utf-8")
    head = f"POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: {len(data)}\r\n\r\n"
    return split_response(exchange(address, head.encode("latin-1") + data, timeout))


@contextmanager
def serve_process(player: str, seed: int = 1, *extra: str) -> Iterator[str]:
    """A ``ggp serve`` subprocess on a free port; yields its URL."""
    cmd = [sys.executable, "-m", "ggp", "serve", player, "--port", "0", "--seed", str(seed),
           "--reasoner", REASONER, *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on http://"), (line, proc.stderr.read() if proc.stderr else "")
        yield line.split()[-1]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


#: A fault decides, from a message's text, what a fake player does instead of answering.
Fault = Callable[[str], "str | None"]


class FakePlayer:
    """A misbehaving remote player on loopback: a real service plus injected faults.

    ``fault(text)`` returns None (answer normally through ``service``) or an action:
    ``"sleep:S"`` (find the answer, then wait S seconds before sending it), ``"close"`` (close without answering),
    ``"reply:TEXT"`` (answer TEXT), ``"hang"`` (never answer; hold the connection), ``"crash"``
    (close this connection and stop listening for good). Every message text is logged.
    """

    def __init__(self, service: PlayerService, fault: Fault | None = None):
        self.service = service
        self.fault = fault or (lambda text: None)
        self.log: list[str] = []
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}"

    def __enter__(self) -> FakePlayer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _loop(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    conn, _ = self._sock.accept()
                except TimeoutError:
                    continue
                except OSError:
                    break
                threading.Thread(target=self._answer, args=(conn, time.monotonic()), daemon=True).start()
        finally:
            self._sock.close()

    def _answer(self, conn: socket.socket, accepted: float) -> None:
        with conn:
            if self._stop.is_set():
                return
            try:
                request = read_request(conn, accepted + 5.0)
            except (PeerClosed, HttpError, OSError):
                return
            text = request.text
            self.log.append(text)
            action = self.fault(text)
            if action == "close":
                return
            if action == "crash":
                self._stop.set()
                self._sock.close()  # from now on: connection refused
                return
            if action == "hang":
                self._stop.wait(30)
                return
            if action is not None and action.startswith("reply:"):
                body = action[len("reply:"):]
            else:
                try:
                    body = self.service.handle_text(text, accepted).body
                except Exception as exc:  # noqa: BLE001 - report as an HTTP error like the server
                    conn.sendall(render_response(str(exc), 400))
                    return
                if action is not None and action.startswith("sleep:"):
                    time.sleep(float(action[len("sleep:"):]))
            try:
                conn.sendall(render_response(body))
            except OSError:
                pass
