"""A player server fed real game managers' requests, byte for byte, answers as they expect.

Each capture's requests go to a server on loopback in the order they were sent. ``start`` must
get ``ready``, ``stop`` ``done``, and every ``play`` a move that is legal for the role at that
point, checked independently of the server: by the true state where the manager told every
move (GDL, and GDL-II with ``did`` percepts), by the rules' own logic where it did not.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from ggp.gdl.terms import Constant, Function, Term
from ggp.players.registry import create_player
from ggp.protocol.messages import (
    Play,
    PlayII,
    Start,
    Stop,
    StopII,
    parse_message,
    parse_move,
)
from ggp.reasoner import make_machine
from ggp.server import PlayerServer, PlayerService
from tests.conftest import shared_path
from tests.server.support import (
    CAPTURES,
    REASONER,
    capture_bytes,
    capture_rows,
    exchange,
    serve_process,
    split_response,
)

T = Term.parse


@pytest.fixture(params=["legal", "random"])
def server(request: pytest.FixtureRequest) -> Iterator[PlayerServer]:
    player = create_player(request.param, rng=random.Random(5), reasoner=REASONER)
    with PlayerServer(PlayerService(player, reasoner=REASONER)) as srv:
        yield srv


def _joint_from_did(percepts: frozenset[Term], roles: tuple[Constant, ...]) -> tuple[Term, ...]:
    did = {p.args[0]: p.args[1] for p in percepts if isinstance(p, Function) and p.name == "did"}
    return tuple(did[r] for r in roles)


class Referee:
    """Knows, from the messages alone, which moves are legal for the served role."""

    def __init__(self, start: Start):
        self.start = start
        self.machine = make_machine(start.description, REASONER)
        self.state = self.machine.initial_state()
        self.mine: list[tuple[Term | None, frozenset[Term]]] = []
        self.observed = True

    def update(self, message: object) -> None:
        roles = self.machine.roles
        if isinstance(message, (Play, Stop)) and message.moves is not None:
            self.state = self.machine.next_state(self.state, message.moves)
        elif isinstance(message, (PlayII, StopII)) and message.turn:
            self.mine.append((message.last_move, message.percepts))
            if any(isinstance(p, Function) and p.name == "did" for p in message.percepts):
                self.state = self.machine.next_state(self.state, _joint_from_did(message.percepts, roles))
            else:
                self.observed = False

    def legal(self) -> set[Term]:
        if self.observed:
            return set(self.machine.legal_moves(self.state, self.start.role))
        game = {str(r) for r in self.machine.roles}
        if "candidate" in game:  # Monty Hall: choose a door, then noop, then switch or stay
            return [{T(f"(choose {d})") for d in (1, 2, 3)}, {T("noop")}, {T("switch"), T("noop")}][len(self.mine)]
        # Krieg-TicTacToe: any cell not yet mine and not tried since my last success.
        mine: set[Term | None] = set()
        tried: set[Term | None] = set()
        for move, percepts in self.mine:
            if any(p.name == "yougotit" for p in percepts):
                mine.add(move)
                tried = set()
            else:
                tried.add(move)
        cells = {T(f"(mark {m} {n})") for m in range(1, 5) for n in range(1, 5)}
        return cells - mine - tried


@pytest.mark.parametrize("name", CAPTURES)
def test_server_answers_every_captured_request(server: PlayerServer, name: str) -> None:
    rows = capture_rows(shared_path("protocol-captures", f"{name}.jsonl"))
    referee: Referee | None = None
    for row in rows:
        body = str(row["body"])
        message = parse_message(body, gdl2=referee is not None and referee.start.description.uses_sees)
        if isinstance(message, Start):
            referee = Referee(message)
        elif referee is not None:
            referee.update(message)
        began = time.monotonic()
        status, reply = split_response(exchange(server.address, capture_bytes(row)))
        elapsed = time.monotonic() - began
        assert status == 200, reply
        if isinstance(message, Start):
            assert reply == "ready"
        elif isinstance(message, (Stop, StopII)):
            assert reply == "done"
        else:
            assert referee is not None
            assert parse_move(reply) in referee.legal(), (body, reply)
            assert elapsed < referee.start.play_clock


def test_bare_newline_requests_are_served_too(server: PlayerServer) -> None:
    rows = capture_rows(shared_path("protocol-captures", "wire_ttt1.jsonl"))
    replies = [split_response(exchange(server.address, capture_bytes(row, "\n")))[1] for row in rows]
    assert replies[0] == "ready" and replies[-1] == "done"
    assert all(parse_move(r) for r in replies[1:-1])


def test_ggp_serve_process_plays_a_captured_match() -> None:
    rows = capture_rows(shared_path("protocol-captures", "wire_mh2.jsonl"))
    with serve_process("legal") as url:
        host, port = url.removeprefix("http://").split(":")
        replies = [split_response(exchange((host, int(port)), capture_bytes(row)))[1] for row in rows]
    assert replies == ["ready", "(choose 1)", "noop", "noop", "done"]
