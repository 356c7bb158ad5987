"""HTTP framing on real socket pairs: exact Content-Length, any header case, deadlines, limits."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from ggp.protocol.http import (
    HttpError,
    PeerClosed,
    parse_request_head,
    read_request,
    read_response,
    render_request,
    render_response,
)


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    a, b = socket.socketpair()
    yield a, b
    a.close()
    b.close()


def soon(seconds: float = 2.0) -> float:
    return time.monotonic() + seconds


def test_dresden_request_without_host_header(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    body = "(PLAY ttt1 NIL)"
    client.sendall(("POST / HTTP/1.0\r\nAccept: text/delim\r\nSender: Gamecontroller\r\nReceiver: 127.0.0.1\r\n"
                    f"Content-type: text/acl\r\nContent-length: {len(body)}\r\n\r\n{body}").encode())
    request = read_request(server, soon())
    assert (request.method, request.target, request.version) == ("POST", "/", "HTTP/1.0")
    assert request.text == body
    assert request.header("CONTENT-TYPE") == "text/acl"
    assert request.header("host") is None


def test_reads_exactly_content_length_bytes(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    client.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\n(info)(junk after the body")
    assert read_request(server, soon()).body == b"(info)"


def test_body_arriving_in_pieces(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    data = b"POST / HTTP/1.0\r\nContent-Length: 10\r\n\r\n(abort m1)"

    def dribble() -> None:
        for i in range(0, len(data), 7):
            client.sendall(data[i:i + 7])
            time.sleep(0.01)

    thread = threading.Thread(target=dribble)
    thread.start()
    assert read_request(server, soon()).text == "(abort m1)"
    thread.join()


def test_bare_newlines_are_accepted(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    client.sendall(b"POST / HTTP/1.0\nContent-Length: 6\n\n(info)")
    assert read_request(server, soon()).text == "(info)"


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (b"POST / HTTP/1.0\r\n\r\n", 411),
        (b"POST / HTTP/1.0\r\nContent-Length: 99999999999\r\n\r\n", 413),
        (b"POST / HTTP/1.0\r\nContent-Length: -3\r\n\r\n", 400),
        (b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        (b"POST / HTTP/2.0\r\nContent-Length: 0\r\n\r\n", 400),
        (b"POST /\r\n\r\n", 400),
        (b"POST / HTTP/1.0\r\nno colon here\r\n\r\n", 400),
        (b"POST / HTTP/1.0\r\n" + b"X-Long: " + b"a" * 20000, 431),
    ],
)
def test_framing_errors_carry_a_status(pair: tuple[socket.socket, socket.socket], data: bytes, status: int) -> None:
    client, server = pair
    client.sendall(data)
    client.shutdown(socket.SHUT_WR)
    with pytest.raises(HttpError) as info:
        read_request(server, soon())
    assert info.value.status == status


def test_body_limit(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    client.sendall(b"POST / HTTP/1.0\r\nContent-Length: 101\r\n\r\n")
    with pytest.raises(HttpError) as info:
        read_request(server, soon(), max_body=100)
    assert info.value.status == 413


def test_silence_after_part_of_the_body(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    client.sendall(b"POST / HTTP/1.0\r\nContent-Length: 50\r\n\r\n(info)")
    with pytest.raises(HttpError) as info:
        read_request(server, soon(0.2))
    assert info.value.status == 408


def test_closed_in_the_middle_of_the_body(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    client.sendall(b"POST / HTTP/1.0\r\nContent-Length: 10\r\n\r\n(inf")
    client.shutdown(socket.SHUT_WR)
    with pytest.raises(HttpError, match="closed after 4 of 10"):
        read_request(server, soon())


def test_peer_closed_before_sending(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    client.shutdown(socket.SHUT_WR)
    with pytest.raises(PeerClosed):
        read_request(server, soon())


def test_not_utf8() -> None:
    a, b = socket.socketpair()
    with a, b:
        a.sendall(b"POST / HTTP/1.0\r\nContent-Length: 2\r\n\r\n\xff\xfe")
        request = read_request(b, soon())
        with pytest.raises(HttpError, match="not UTF-8"):
            _ = request.text


def test_request_head_parts() -> None:
    method, target, version, headers = parse_request_head(b"post / HTTP/1.1\r\ncontent-LENGTH: 4\r\nX: a:b")
    assert (method, target, version) == ("POST", "/", "HTTP/1.1")
    assert headers == (("content-LENGTH", "4"), ("X", "a:b"))


def test_request_and_response_round_trip(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    client.sendall(render_request("(play m1 nil)", "127.0.0.1", 9147))
    request = read_request(server, soon())
    assert request.text == "(play m1 nil)" and request.header("content-type") == "text/acl"
    server.sendall(render_response("(mark 1 1)"))
    response = read_response(client, soon(), 1000)
    assert (response.status, response.text) == (200, "(mark 1 1)")


def test_response_without_length_is_read_to_the_close(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    server.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/acl\r\n\r\nready")
    server.shutdown(socket.SHUT_WR)
    assert read_response(client, soon(), 1000).text == "ready"


def test_response_size_limit(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    server.sendall(b"HTTP/1.0 200 OK\r\n\r\n" + b"x" * 5000)
    server.shutdown(socket.SHUT_WR)
    with pytest.raises(HttpError) as info:
        read_response(client, soon(), 1000)
    assert info.value.status == 413


def test_unicode_body_length_counts_bytes(pair: tuple[socket.socket, socket.socket]) -> None:
    client, server = pair
    server.sendall(render_response("(say héllo)"))
    assert read_response(client, soon(), 1000).text == "(say héllo)"
