"""Remote players under parallel load, over real loopback sockets and real ``ggp match``
processes: one server is never in two roles of a match, a busy player is retried or the match
is recorded as not played (never as a result), ``ggp serve --matches N`` plays N matches at
once without crossing them, and a tournament with workers never sends one endpoint more
matches than it accepts."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ggp.gdl.load import load_game
from ggp.manager.batch import endpoint_capacity
from ggp.manager.clocks import Clocks
from ggp.manager.record import FINISHED, NOT_PLAYED, MatchRecord, read_record
from ggp.manager.replay import replay
from ggp.manager.tournament import play_tournament
from ggp.players.registry import create_player
from ggp.protocol.messages import Info, InfoReply, Start, parse_info_reply
from ggp.server import MatchSessions, PlayerServer, PlayerService
from ggp.server.service import Answer
from tests.conftest import RULESHEETS, ggp
from tests.server.support import REASONER, post, serve_process

TICTACTOE = RULESHEETS / "tictactoe.kif"
MATCHES = 8


def start_matches(env: dict[str, str], url: str, count: int, startclock: float) -> list[subprocess.Popen[str]]:
    """``count`` ``ggp match`` processes at once, ``url`` playing x against a local random o."""
    return [subprocess.Popen(
        [sys.executable, "-m", "ggp", "match", str(TICTACTOE), "--player", url, "--player", "random",
         "--startclock", str(startclock), "--playclock", "1", "--seed", str(i), "--reasoner", REASONER],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(count)]


def finish(procs: list[subprocess.Popen[str]]) -> list[MatchRecord]:
    records = []
    for proc in procs:
        out, err = proc.communicate(timeout=180)
        assert proc.returncode in (0, 1), err
        records.append(read_record(json.loads(out)["record"]))
    return records


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


def test_matches_beyond_what_a_server_accepts_are_not_played_never_scored(env: dict[str, str]) -> None:
    # The start clock is too short for the queue to drain: some matches find the server busy
    # all along. They are recorded as not played, with the reason; the others are whole.
    with serve_process("random", 1) as url:
        records = finish(start_matches(env, url, MATCHES, startclock=0.6))
    statuses = [r.status for r in records]
    assert set(statuses) <= {FINISHED, NOT_PLAYED} and FINISHED in statuses and NOT_PLAYED in statuses
    for record in records:
        if record.status == FINISHED:
            played_by_the_server(record)
        else:
            assert record.steps == [] and record.goals == {}
            # busy, or (on a loaded machine) no answer at all before the start clock ran out
            [(phase, role, reason)] = [(e.phase, e.role, e.reason) for e in record.events]
            assert (phase, role) == ("start", "x") and reason in ("busy", "timeout")
            assert record.errors[-1].startswith(f"not played: x ({records[0].players['x']}): {reason}")


def test_a_busy_server_is_retried_within_the_start_clock(env: dict[str, str]) -> None:
    with serve_process("random", 1) as url:
        records = finish(start_matches(env, url, MATCHES, startclock=20))
    for record in records:
        played_by_the_server(record)


def test_serve_plays_several_matches_at_once_without_crossing_them(env: dict[str, str]) -> None:
    with serve_process("random", 1, "--matches", str(MATCHES)) as url:
        assert endpoint_capacity(url) == MATCHES
        records = finish(start_matches(env, url, MATCHES, startclock=5))
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
