"""Protocol messages: reading every form real managers send, printing, errors with locations."""

from __future__ import annotations

import pytest

from ggp.gdl.kif import parse_kif
from ggp.gdl.terms import Constant, Term
from ggp.protocol.messages import (
    Abort,
    Info,
    InfoReply,
    Play,
    PlayII,
    Preview,
    ProtocolError,
    Start,
    Stop,
    StopII,
    parse_info_reply,
    parse_message,
    parse_move,
)
from tests.conftest import shared_path
from tests.server.support import CAPTURES, capture_rows

T = Term.parse
RULES = "((role white) (role black) (init (cell 1 1 b)) (<= terminal (true (cell 1 1 x))))"


def test_seed_gdl2_messages_read_and_print_as_in_chapter_17_5() -> None:
    # The worked Blind Tic-Tac-Toe exchange of section 17.5.
    first = parse_message("(play m23 0 nil nil)")
    assert first == PlayII("m23", 0, None, frozenset())
    ok = parse_message("(play m23 1 (mark 1 1) (ok))")
    assert ok == PlayII("m23", 1, T("(mark 1 1)"), frozenset({Constant("ok")}))
    nothing = parse_message("(play m23 2 (mark 2 2) nil)")
    assert nothing == PlayII("m23", 2, T("(mark 2 2)"), frozenset())
    stop = parse_message("(stop m23 3 (mark 3 3) (ok))")
    assert stop == StopII("m23", 3, T("(mark 3 3)"), frozenset({Constant("ok")}))
    for text in ("(play m23 0 nil nil)", "(play m23 1 (mark 1 1) (ok))", "(play m23 2 (mark 2 2) nil)",
                 "(stop m23 3 (mark 3 3) (ok))"):
        assert str(parse_message(text)) == text


def test_start_carries_role_rules_and_clocks() -> None:
    message = parse_message(f"(START m23 WHITE {RULES.upper()} 10 5)")
    assert isinstance(message, Start)
    assert message.match_id == "m23" and message.role == Constant("white")
    assert message.description == parse_kif(RULES[1:-1])
    assert message.description.roles == (Constant("white"), Constant("black"))
    assert (message.start_clock, message.play_clock) == (10.0, 5.0)
    assert str(message) == f"(start m23 white {RULES} 10 5)"
    assert parse_message(str(message)) == message


def test_fractional_clocks_round_trip() -> None:
    message = Start("m1", Constant("white"), parse_kif(RULES[1:-1]), 2.5, 0.25)
    assert "2.5 0.25)" in str(message)
    assert parse_message(str(message)) == message


def test_gdl_joint_moves_case_and_whitespace_insensitive() -> None:
    spaced = parse_message("( PLAY gbtest (( mark 2 2 ) noop ) )")
    upper = parse_message("(PLAY GBTEST ((MARK 2 2) NOOP))")
    assert spaced == upper == Play("gbtest", (T("(mark 2 2)"), Constant("noop")))
    assert str(spaced) == "(play gbtest ((mark 2 2) noop))"
    assert parse_message("(PLAY ttt1 NIL)") == Play("ttt1", None)
    assert parse_message("\n(stop  ttt1\t((MARK 1 3) NOOP))\n") == Stop("ttt1", (T("(mark 1 3)"), Constant("noop")))


def test_old_gdl2_percept_form_needs_the_gdl2_flag() -> None:
    text = "(play m1 ((open_door 1) (does candidate noop)))"
    assert parse_message(text) == Play("m1", (T("(open_door 1)"), T("(does candidate noop)")))
    old = parse_message(text, gdl2=True)
    assert old == PlayII("m1", None, None, frozenset({T("(open_door 1)"), T("(does candidate noop)")}))
    assert parse_message(str(old), gdl2=True) == old
    assert parse_message("(stop m1 nil)", gdl2=True) == StopII("m1", None, None, frozenset())


def test_dresden_percepts_with_trailing_space_and_empty_list() -> None:
    message = parse_message("(PLAY mh2 1 (CHOOSE 2) ((DOES CANDIDATE (CHOOSE 2)) ))")
    assert message == PlayII("mh2", 1, T("(choose 2)"), frozenset({T("(does candidate (choose 2))")}))
    assert parse_message("(PLAY k 3 NOOP ())") == PlayII("k", 3, Constant("noop"), frozenset())


def test_percepts_are_a_set() -> None:
    a = parse_message("(play m 1 noop ((car 3) (did x noop) (car 3)))")
    b = parse_message("(play m 1 noop ((did x noop) (car 3)))")
    assert a == b


def test_other_messages() -> None:
    assert parse_message("(ABORT m1)") == Abort("m1")
    assert parse_message("( info )") == Info()
    preview = parse_message(f"(preview {RULES} 30)")
    assert preview == Preview(parse_kif(RULES[1:-1]), 30.0)
    for message in (Abort("m1"), Info(), preview):
        assert parse_message(str(message)) == message


@pytest.mark.parametrize("name", CAPTURES)
def test_every_captured_request_parses_and_prints_back(name: str) -> None:
    rows = capture_rows(shared_path("protocol-captures", f"{name}.jsonl"))
    for row in rows:
        body = str(row["body"])
        message = parse_message(body, gdl2="START" in body and "SEES" in body.upper())
        assert parse_message(str(message)) == parse_message(str(message))
        if isinstance(message, Start):
            assert message.role in message.description.roles


@pytest.mark.parametrize(
    ("text", "expected", "line", "column"),
    [
        ("(play m1", "never closed", 1, 1),
        ("(play m1))", "unmatched ')'", 1, 10),
        ("(dance m1)", "unknown message 'dance'", 1, 2),
        ("(play m1 0 nil)", "'play' takes 2 or 4 arguments, got 3", 1, 1),
        ("(start m1 white ((role white)) ten 5)", "start clock", 1, 32),
        ("(start m1 white ((role white)) 10 -5)", "play clock", 1, 35),
        ("(play m1 x nil nil)", "the turn (a whole number)", 1, 10),
        ("(play m1 1 ?m nil)", "the variable ?m", 1, 12),
        ("(play m1 1 (mark ?x 1) nil)", "ground term", 1, 12),
        ("(play m1 1 noop ok)", "percepts (a list or nil)", 1, 17),
        ("(play (m1) nil)", "the match id (a name)", 1, 7),
        ("(start m1 white role 10 5)", "game rules (a list)", 1, 17),
        ("(start m1 white ((<= ?x (true a))) 10 5)", "bad rule", 1, 22),
        ("play m1 nil", "expected one message, found 3", 1, 1),
        ("", "expected one message, found 0", 1, 1),
        ("(info) (info)", "found 2", 1, 1),
        ("((play) m1)", "expected a message", 1, 1),
        ("(play m1 (" + "(a " * 300 + ")" * 301, "nested deeper than 200", 1, 605),
    ],
)
def test_errors_say_what_and_where(text: str, expected: str, line: int, column: int) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_message(text)
    assert expected in str(info.value)
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (line, column)
    assert isinstance(info.value, ValueError)


def test_role_must_be_a_name() -> None:
    with pytest.raises(ProtocolError, match="the role"):
        parse_message("(start m1 (white) ((role white)) 10 5)")


def test_replies() -> None:
    assert parse_move(" (MARK 1 1)\n") == T("(mark 1 1)")
    assert parse_move("noop") == Constant("noop")
    for bad in ("", "(mark 1 1) (mark 2 2)", "()", "?x", "(mark ?x 1)", "((mark) 1)", "(mark 1"):
        with pytest.raises(ProtocolError):
            parse_move(bad)
    info = InfoReply("legal", "available")
    assert str(info) == "((name legal) (status available))"
    assert parse_info_reply(str(info)) == info
    assert parse_info_reply("((status busy) (species alien) (name Bob))") == InfoReply("bob", "busy")
    assert parse_info_reply("available") == InfoReply(None, "available")
    with pytest.raises(ProtocolError):
        parse_info_reply("((name x))")
