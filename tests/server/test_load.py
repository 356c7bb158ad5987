"""Remote players under parallel load, over real loopback sockets to real ``ggp serve``
processes (and ``ggp match`` for the refusal): one server is never in two roles of a match, a busy player is retried or the match
is recorded as not played (never as a result), ``ggp serve --matches N`` plays N matches at
once without crossing them, and a tournament with workers never sends one endpoint more
matches than it accepts."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ggp.gdl.load import load_game
from ggp.manager.batch import endpoint_capacity
from ggp.manager.client import LocalPlayer, RemotePlayer
from ggp.manager.clocks import Clocks
from ggp.manager.record import FINISHED, NOT_PLAYED, MatchRecord
from ggp.manager.replay import replay
from ggp.manager.runner import MatchSettings, run_match
from ggp.manager.tournament import play_tournament
from ggp.players.registry import create_player
from ggp.protocol.messages import Info, InfoReply, Start, parse_info_reply
from ggp.server import MatchSessions, PlayerServer, PlayerService
from ggp.server.service import Answer
from tests.conftest import RULESHEETS, ggp
from tests.server.support import REASONER, post, serve_process

TICTACTOE = RULESHEETS / "tictactoe.kif"
MATCHES = 8


def play_at_once(url: str, count: int, startclock: float) -> list[MatchRecord]:
    """``count`` managers at once (threads of this process), each hosting a match in which
    ``url`` plays x against an in-process random o, over real loopback connections."""
    description = load_game(TICTACTOE)

    def one(i: int) -> MatchRecord:
        opponent = LocalPlayer("random", create_player("random", rng=random.Random(i), reasoner=REASONER), REASONER)
        return run_match(description, [RemotePlayer(url), opponent],
                         MatchSettings(Clocks(startclock, 1, 0.5), seed=i, reasoner=REASONER))

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, range(count)))


def played_by_the_server(record: MatchRecord) -> None:
    """Every move of x came from the server, legal, and the record replays to its goals."""
    assert record.status == FINISHED and record.errors == [] and record.events == []
    assert all(not step.substitutions and step.answers["x"].failure is None for step in record.steps)
    assert replay(record, REASONER).goals == record.goals


def test_one_server_in_two_roles_is_refused(env: dict[str, str]) -> None:
    with serve_process("random", 1) as url:
        result = ggp(env, "match", str(TICTACTOE), "--player", url, "--player", url.replace("127.0.0.1", "localhost"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "is given for two roles (x and o)" in result.stderr and "PLAY names no role" in result.stderr
    assert ggp(env, "matches", "list").stdout == ""  # nothing was played or recorded


def test_matches_beyond_what_a_server_accepts_are_retried_or_not_played() -> None:
    # Eight matches at once want the server's one session: a match whose START finds it busy
    # asks again until its start clock runs out. Each match is then either played whole by the
    # server (nothing crossed, nothing substituted) or recorded as not played, with the reason:
    # never a result with substituted moves.
    with serve_process("random", 1) as url:
        records = play_at_once(url, MATCHES, startclock=2)
    assert sum(r.status == FINISHED for r in records) >= 2  # one right away, others after retries
    for record in records:
        if record.status == FINISHED:
            played_by_the_server(record)
        else:
            assert record.status == NOT_PLAYED and record.steps == [] and record.goals == {}
            # busy, or (on a loaded machine) no answer at all before the start clock ran out
            [(phase, role, reason)] = [(e.phase, e.role, e.reason) for e in record.events]
            assert (phase, role) == ("start", "x") and reason in ("busy", "timeout")
            assert record.errors[-1].startswith(f"not played: x ({url}): {reason}")


def test_serve_plays_several_matches_at_once_without_crossing_them() -> None:
    with serve_process("random", 1, "--matches", str(MATCHES)) as url:
        assert endpoint_capacity(url) == MATCHES
        records = play_at_once(url, MATCHES, startclock=5)
    for record in records:
        played_by_the_server(record)


def test_sessions_route_by_match_id() -> None:
    description = load_game(TICTACTOE)
    sessions = MatchSessions(lambda i: create_player("legal", rng=random.Random(i), reasoner=REASONER), 2,
                             reasoner=REASONER)
    x, o = description.roles
    assert parse_info_reply(sessions.handle(Info()).body) == InfoReply("legal", "available", 2)
    assert sessions.handle(Start("m1", x, description, 5, 1)).body == "ready"
    assert sessions.handle(Start("m2", o, description, 5, 1)).body == "ready"
    assert sessions.handle(Start("m3", x, description, 5, 1)).body == "busy"
    assert sessions.handle(Start("m1", x, description, 5, 1)).body == "ready"  # a repeated start
    assert parse_info_reply(sessions.handle(Info()).body).status == "busy"
    assert sessions.handle_text("(play m1 nil)").body == "(mark 1 1)"  # x's first legal move
    assert sessions.handle_text("(play m2 nil)").body == "noop"  # o waits
    assert sessions.handle_text("(abort m1)").body == "aborted"
    assert sessions.handle(Start("m3", x, description, 5, 1)).body == "ready"  # m1's service is free
    assert sessions.handle_text("(stop m2 nil)").body == "done"
    assert sessions.handle_text("(stop m2 nil)").body == "done"  # a repeated stop
    sessions.close()


class CountingService(PlayerService):
    """A player service that counts the STARTs it had to answer ``busy``."""

    busy_answers = 0

    def handle_text(self, text: str, received_at: float | None = None) -> Answer:
        answer = super().handle_text(text, received_at)
        if text.startswith("(start") and answer.body == "busy":
            CountingService.busy_answers += 1
        return answer


@pytest.fixture
def counting_server() -> Iterator[str]:
    CountingService.busy_answers = 0
    service = CountingService(create_player("random", rng=random.Random(1), reasoner=REASONER), reasoner=REASONER)
    with PlayerServer(service) as server:
        yield server.url


def test_a_tournament_with_workers_respects_an_endpoints_capacity(counting_server: str, tmp_path: Path) -> None:
    result = play_tournament(load_game(TICTACTOE), [counting_server, "random"], 6, Clocks(5, 1, 0.5), 3, REASONER,
                             workers=2, db=tmp_path / "matches.db")
    assert result.matches == 6 and result.not_played == 0 and not result.errors, result.errors
    assert CountingService.busy_answers == 0  # never two matches at once for a server of one
    assert threading.active_count() < 50
    assert post(tuple_of(counting_server), "(info)")[0] == 200


def tuple_of(url: str) -> tuple[str, int]:
    host, port = url.rsplit("//", 1)[1].rsplit(":", 1)
    return host, int(port)
