"""Hostile and unusual input to a player server: an error reply or a dropped connection, and the
server keeps serving. Also one match at a time, ``info``, and a load test."""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from ggp.gdl.load import load_game
from ggp.players.registry import create_player
from ggp.protocol.messages import InfoReply, parse_info_reply, parse_move
from ggp.server import PlayerServer, PlayerService
from tests.conftest import RULESHEETS
from tests.server.support import REASONER, exchange, post, split_response

RULES = "(" + " ".join(str(r) for r in load_game(RULESHEETS / "tictactoe.kif").rules) + ")"


@pytest.fixture
def server() -> Iterator[PlayerServer]:
    player = create_player("random", rng=random.Random(1), reasoner=REASONER)
    with PlayerServer(PlayerService(player, reasoner=REASONER), read_timeout=1.0, max_body=1_000_000) as srv:
        yield srv


def alive(server: PlayerServer) -> InfoReply:
    status, reply = post(server.address, "(info)")
    assert status == 200
    return parse_info_reply(reply)


def raw(server: PlayerServer, data: bytes) -> tuple[int, str] | None:
    """Send raw bytes; the status and body, or None when the server just closed."""
    answer = exchange(server.address, data)
    return split_response(answer) if answer else None


def test_info_names_the_player(server: PlayerServer) -> None:
    assert alive(server) == InfoReply("random", "available")


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (b"POST / HTTP/1.0\r\nContent-Length: 2000000000\r\n\r\n(info)", 413),
        (b"POST / HTTP/1.0\r\n\r\n(info)", 411),
        (b"GET / HTTP/1.0\r\n\r\n", 405),
        (b"HELLO\r\n\r\n", 400),
        (b"POST / HTTP/1.0\r\nContent-Length: 3\r\n\r\n\xff\xfe\xfd", 400),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),
    ],
)
def test_broken_http_gets_an_error_status(server: PlayerServer, data: bytes, status: int) -> None:
    result = raw(server, data)
    assert result is None or result[0] == status
    assert alive(server).status == "available"


def test_a_huge_body_is_refused(server: PlayerServer) -> None:
    body = b"(info " + b"x " * 2_000_000 + b")"
    head = f"POST / HTTP/1.0\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    with socket.create_connection(server.address, timeout=10) as sock:
        try:
            sock.sendall(head + body)
        except OSError:
            pass  # the server may close before taking it all
        try:
            answer = sock.recv(65536)
        except OSError:
            answer = b""
    assert answer == b"" or split_response(answer)[0] == 413
    assert alive(server).status == "available"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("(play m1 nil", "never closed"),
        ("((((((", "never closed"),
        (")", "unmatched"),
        ("(dance)", "unknown message"),
        ("", "found 0"),
        ("(play nosuchmatch nil)", "unknown match nosuchmatch"),
        ("(play m9 0 nil nil)", "no start received"),
        ("(stop m9 ((mark 1 1) noop))", "unknown match m9"),
        (f"(start m1 nobody {RULES} 10 5)", "not a role of the game"),
        ("(start m1 x ((<= ?x y)) 10 5)", "bad rule"),
        ("(" * 5000 + ")" * 5000, "nested deeper than 200"),
    ],
)
def test_bad_messages_get_400_naming_the_problem(server: PlayerServer, body: str, expected: str) -> None:
    status, reply = post(server.address, body)
    assert status == 400 and expected in reply, reply
    assert alive(server).status == "available"


def test_silent_and_half_open_connections_are_dropped(server: PlayerServer) -> None:
    idle = [socket.create_connection(server.address) for _ in range(20)]
    partial = socket.create_connection(server.address)
    partial.sendall(b"POST / HTTP/1.0\r\nContent-Length: 100\r\n\r\n(pla")
    assert alive(server).status == "available"  # served while the others hang
    time.sleep(1.3)
    for sock in idle + [partial]:
        sock.settimeout(2)
        try:
            data = sock.recv(65536)
        except OSError:
            data = b""
        assert data == b"" or split_response(data)[0] == 408
        sock.close()
    assert alive(server).status == "available"


def test_thousands_of_rapid_connections(server: PlayerServer) -> None:
    def hammer(n: int) -> None:
        for i in range(n):
            sock = socket.create_connection(server.address, timeout=5)
            if i % 3 == 0:
                sock.sendall(b"POST / HTTP/1.0\r\nContent-Length: 5000\r\n\r\n")
            sock.close()

    threads = [threading.Thread(target=hammer, args=(500,)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert alive(server).status == "available"


def _start(server: PlayerServer, match_id: str, role: str = "x", clocks: str = "5 1") -> str:
    return post(server.address, f"(start {match_id} {role} {RULES} {clocks})")[1]


def test_one_match_at_a_time(server: PlayerServer) -> None:
    assert _start(server, "m1") == "ready"
    assert alive(server).status == "busy"
    assert _start(server, "m2") == "busy"
    assert _start(server, "m1") == "ready"  # a repeated start is harmless
    move = post(server.address, "(play m1 nil)")[1]
    assert parse_move(move).name == "mark"
    assert post(server.address, "(play m2 nil)")[0] == 400
    assert post(server.address, "(abort m1)") == (200, "aborted")
    assert alive(server).status == "available"
    assert post(server.address, "(play m1 nil)") == (400, "match m1 is already over")
    assert _start(server, "m2") == "ready"
    assert post(server.address, "(stop m2 nil)") == (200, "done")
    assert post(server.address, "(stop m2 nil)") == (200, "done")  # a repeated stop is harmless
    assert post(server.address, "(abort m7)") == (200, "aborted")
    assert post(server.address, "(preview (role a) 10)") == (200, "ready")


def test_a_wrong_joint_move_is_rejected_but_the_match_goes_on(server: PlayerServer) -> None:
    assert _start(server, "m1") == "ready"
    post(server.address, "(play m1 nil)")
    status, reply = post(server.address, "(play m1 ((mark 1 1)))")
    assert status == 400 and "has 1 moves; the game has 2 roles" in reply
    status, reply = post(server.address, "(play m1 ((mark 1 1) noop))")
    assert status == 200 and reply == "noop"


def test_a_repeated_turn_gets_the_same_answer(server: PlayerServer) -> None:
    assert _start(server, "m1") == "ready"
    first = post(server.address, "(play m1 0 nil nil)")[1]
    assert all(post(server.address, "(play m1 0 nil nil)")[1] == first for _ in range(5))


def test_a_dead_manager_does_not_block_the_server_forever() -> None:
    service = PlayerService(create_player("legal", reasoner=REASONER), reasoner=REASONER, stale_grace=0.2)
    with PlayerServer(service) as srv:
        assert _start(srv, "old", clocks="0.1 0.1") == "ready"
        assert _start(srv, "new") == "busy"
        time.sleep(0.5)  # more than twice the clock plus the grace: "old" was abandoned
        assert alive(srv).status == "available"
        assert _start(srv, "new") == "ready"


def test_load_two_thousand_requests(server: PlayerServer) -> None:
    # 1,600 info requests from 8 clients while 400 requests play 40 ten-message matches.
    def infos(n: int) -> int:
        return sum(alive(server).name == "random" for _ in range(n))

    def matches(n: int) -> int:
        ok = 0
        for k in range(n):
            assert _start(server, f"load{k}") in ("ready", "busy")
            for turn in range(8):
                status, _ = post(server.address, f"(play load{k} {turn} nil nil)")
                ok += status == 200
            ok += post(server.address, f"(stop load{k} 8 nil nil)") == (200, "done")
        return ok

    with ThreadPoolExecutor(9) as pool:
        info_counts = [pool.submit(infos, 200) for _ in range(8)]
        played = pool.submit(matches, 40)
        assert sum(f.result() for f in info_counts) == 1600
        assert played.result() == 40 * 9
