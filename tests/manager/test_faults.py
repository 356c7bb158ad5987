"""Faulty remote players: the match still ends within its clocks, and the record says what
happened (each substitution with its reason), reports the substitute to the player, and replays."""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable

import pytest

from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.manager.client import LocalPlayer, RemotePlayer
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.replay import replay
from ggp.manager.record import NOT_PLAYED
from ggp.manager.runner import START_RETRY, MatchSettings, run_match
from ggp.players.registry import create_player
from ggp.protocol.messages import Play, PlayII, Stop, StopII, parse_message
from ggp.server import PlayerService
from tests.conftest import RULESHEETS
from tests.server.support import REASONER, FakePlayer

CLOCKS = Clocks(start=2.0, play=0.5, slack=0.25)
BLIND = RULESHEETS / "blind_tictactoe.kif"


def turn_of(text: str) -> tuple[str, int | None]:
    """The verb of a message and its turn (GDL-II) or joint-move count (GDL)."""
    message = parse_message(text)
    if isinstance(message, (PlayII, StopII)):
        return ("stop" if isinstance(message, StopII) else "play"), message.turn
    if isinstance(message, (Play, Stop)):
        return ("stop" if isinstance(message, Stop) else "play"), None
    return type(message).__name__.lower(), None


def at_turn(verb: str, turn: int | None, action: str) -> Callable[[str], str | None]:
    """A fault doing ``action`` on the ``verb`` message of ``turn`` (any turn when None)."""
    def fault(text: str) -> str | None:
        got_verb, got_turn = turn_of(text)
        return action if got_verb == verb and (turn is None or got_turn == turn) else None
    return fault


def service(seed: int = 1) -> PlayerService:
    return PlayerService(create_player("random", rng=random.Random(seed), reasoner=REASONER), reasoner=REASONER)


def play(fake: FakePlayer, path: object = BLIND, seed: int = 3) -> tuple[MatchRecord, float]:
    description = load_game(path)  # type: ignore[arg-type]
    opponent = LocalPlayer("random", create_player("random", rng=random.Random(seed), reasoner=REASONER), REASONER)
    began = time.monotonic()
    record = run_match(description, [RemotePlayer(fake.url), opponent],
                       MatchSettings(CLOCKS, seed=seed, reasoner=REASONER, match_id="fault"))
    return record, time.monotonic() - began


def check_complete(record: MatchRecord, seconds: float, description: GameDescription) -> None:
    assert record.status == "finished" and record.goals
    bound = (CLOCKS.start + CLOCKS.slack) + (len(record.steps) + 1) * (CLOCKS.play + CLOCKS.slack) + 2.0
    assert seconds < bound
    assert replay(record, REASONER).goals == record.goals


def substitutions(record: MatchRecord, role: str = "white") -> dict[int, str]:
    return {step.turn: s.reason for step in record.steps for s in step.substitutions if s.role == role}


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("sleep:1.2", "timeout"),
        ("close", "closed"),
        ("reply:((((", "garbled"),
        ("reply:hello world", "garbled"),
        ("reply:(mark 9 9)", "illegal"),
        ("reply:(mark ?x 1)", "garbled"),
    ],
)
def test_a_bad_answer_at_turn_one_is_replaced(action: str, reason: str) -> None:
    with FakePlayer(service(), at_turn("play", 1, action)) as fake:
        record, seconds = play(fake)
    check_complete(record, seconds, load_game(BLIND))
    assert substitutions(record) == {1: reason}
    substitute = record.steps[1].substitutions[0]
    assert substitute.move == record.steps[1].joint_move[0]
    assert any(reason in line and line.startswith("turn 1: white") for line in record.errors)
    # The player is told the move played for it, not the one it sent.
    told = parse_message(fake.log[3])
    assert isinstance(told, PlayII) and told.turn == 2 and str(told.last_move) == substitute.move
    if action.startswith("reply:"):
        assert substitute.reply == action[len("reply:"):]


def test_a_player_that_crashes_mid_match() -> None:
    with FakePlayer(service(), at_turn("play", 2, "crash")) as fake:
        record, seconds = play(fake)
    check_complete(record, seconds, load_game(BLIND))
    reasons = substitutions(record)
    # Connections already queued when it died are reset ("closed"); then nobody listens.
    assert reasons[2] == "closed" and set(reasons) == set(range(2, len(record.steps)))
    assert set(reasons.values()) <= {"closed", "refused"} and reasons[len(record.steps) - 1] == "refused"
    assert [(e.phase, e.reason) for e in record.events] == [("stop", "refused")]


def test_a_player_that_never_answers_stop() -> None:
    with FakePlayer(service(), at_turn("stop", None, "hang")) as fake:
        record, seconds = play(fake)
    check_complete(record, seconds, load_game(BLIND))
    assert substitutions(record) == {}
    assert [(e.phase, e.reason) for e in record.events] == [("stop", "timeout")]


def test_a_player_that_is_never_there_means_no_match() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again before the match: nobody listens
    description = load_game(BLIND)
    opponent = LocalPlayer("random", create_player("random", rng=random.Random(2), reasoner=REASONER), REASONER)
    began = time.monotonic()
    record = run_match(description, [RemotePlayer(f"http://127.0.0.1:{port}"), opponent],
                       MatchSettings(CLOCKS, seed=2, reasoner=REASONER))
    seconds = time.monotonic() - began
    # Asked again and again within the start clock, then recorded as not played: no result.
    assert record.status == NOT_PLAYED and record.steps == [] and record.goals == {}
    assert CLOCKS.start + CLOCKS.slack - 2 * START_RETRY <= seconds < CLOCKS.start + CLOCKS.slack + 2.0
    assert [(e.phase, e.role, e.reason) for e in record.events] == [("start", "white", "refused")]
    assert record.errors[-1].startswith("not played: white (http://127.0.0.1:")
    assert "tries)" in record.errors[-1]


def test_a_busy_player_is_asked_again_within_the_start_clock() -> None:
    starts: list[str] = []

    def busy_twice(text: str) -> str | None:
        if text.startswith("(start"):
            starts.append(text)
            return "reply:busy" if len(starts) <= 2 else None
        return None

    with FakePlayer(service(), busy_twice) as fake:
        record, seconds = play(fake)
    check_complete(record, seconds, load_game(BLIND))
    assert len(starts) == 3 and record.events == [] and record.errors == []
    assert not substitutions(record)
    assert [text.split()[0] for text in fake.log[:3]] == ["(start"] * 3


def test_a_start_answered_too_late_means_no_match() -> None:
    with FakePlayer(service(), lambda text: "sleep:2.5" if text.startswith("(start") else None) as fake:
        record, seconds = play(fake, RULESHEETS / "tictactoe.kif")
    assert record.status == NOT_PLAYED and not record.steps and not record.goals
    assert [(e.phase, e.reason) for e in record.events] == [("start", "timeout")]
    assert seconds < CLOCKS.start + CLOCKS.slack + 2.0
    # It may have started late: it is told the match is off.
    assert [text.split()[0] for text in fake.log] == ["(start", "(abort"]


def test_gdl_joint_moves_report_the_substitute() -> None:
    # Tic-tac-toe has no sees: plain GDL messages; the next joint move shows the substitute.
    path = RULESHEETS / "tictactoe.kif"
    with FakePlayer(service(), lambda text: "reply:(mark 0 0)" if text.startswith("(play fault nil)") else None) as fake:
        record, seconds = play(fake, path)
    check_complete(record, seconds, load_game(path))
    assert record.events == []
    assert substitutions(record, "x") == {0: "illegal"}
    told = parse_message(fake.log[2])
    assert isinstance(told, Play) and told.moves is not None
    assert [str(m) for m in told.moves] == record.steps[0].joint_move
