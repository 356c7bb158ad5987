"""Property tests of the message reader: printing then reading gives the message back, whatever
the case and spacing; any text at all gives a message or a ProtocolError, nothing else."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ggp.gdl.kif import parse_kif
from ggp.gdl.terms import Constant, Function, Term
from ggp.protocol.messages import (
    Abort,
    Info,
    Message,
    Play,
    PlayII,
    Preview,
    ProtocolError,
    Start,
    Stop,
    StopII,
    parse_message,
)

NAMES = st.from_regex(r"[a-z][a-z0-9_.\-]{0,8}", fullmatch=True).filter(lambda n: n != "nil")
NUMBERS = st.integers(0, 200).map(str)
CONSTANTS = st.one_of(NAMES, NUMBERS).map(Constant)


def _compound(children: st.SearchStrategy[Term]) -> st.SearchStrategy[Term]:
    return st.builds(lambda name, args: Function(name, tuple(args)), NAMES, st.lists(children, min_size=1, max_size=3))


TERMS: st.SearchStrategy[Term] = st.recursive(CONSTANTS, _compound, max_leaves=6)
CLOCKS = st.one_of(st.integers(1, 3600).map(float), st.floats(0.05, 1000, allow_nan=False).map(lambda x: round(x, 3)))
PERCEPTS = st.frozensets(TERMS, max_size=4)
RULES = parse_kif("(role white) (role black) (<= (legal ?r noop) (role ?r)) (init (step 1))")

MESSAGES: st.SearchStrategy[Message] = st.one_of(
    st.builds(Start, NAMES, NAMES.map(Constant), st.just(RULES), CLOCKS, CLOCKS),
    st.builds(Play, NAMES, st.one_of(st.none(), st.lists(TERMS, min_size=1, max_size=4).map(tuple))),
    st.builds(Stop, NAMES, st.one_of(st.none(), st.lists(TERMS, min_size=1, max_size=4).map(tuple))),
    st.builds(PlayII, NAMES, st.integers(0, 500), st.one_of(st.none(), TERMS), PERCEPTS),
    st.builds(StopII, NAMES, st.integers(0, 500), st.one_of(st.none(), TERMS), PERCEPTS),
    st.builds(Abort, NAMES),
    st.just(Info()),
    st.builds(Preview, st.just(RULES), CLOCKS),
)


def _disguise(text: str, flips: list[bool], spaces: list[str]) -> str:
    """Upper-case some letters and add white space around parentheses."""
    out = []
    for i, ch in enumerate(text):
        if ch.isalpha() and flips[i % len(flips)]:
            ch = ch.upper()
        if ch in "()":
            pad = spaces[i % len(spaces)]
            ch = pad + ch + pad
        out.append(ch)
    return "".join(out)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MESSAGES, st.lists(st.booleans(), min_size=1, max_size=7),
       st.lists(st.sampled_from(["", " ", "\n", "\t ", "\r\n"]), min_size=1, max_size=5))
def test_print_then_read_is_identity(message: Message, flips: list[bool], spaces: list[str]) -> None:
    text = str(message)
    assert parse_message(text) == message
    assert parse_message(_disguise(text, flips, spaces)) == message


@settings(max_examples=100, deadline=None)
@given(st.builds(PlayII, NAMES, st.none(), st.none(), PERCEPTS.filter(bool)))
def test_old_percept_form_round_trips(message: PlayII) -> None:
    assert parse_message(str(message), gdl2=True) == message


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_a_message_or_a_protocol_error(text: str) -> None:
    try:
        message = parse_message(text)
    except ProtocolError as exc:
        assert exc.location is not None
        assert str(exc)
    else:
        assert parse_message(str(message)) == message


ALPHABET = "()?; \n\tabcdeilnoprstfy0123456789-."


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=120))
def test_near_messages_never_crash_the_reader(text: str) -> None:
    for candidate in (text, "(play m1 " + text + ")", "(start m1 a (" + text + ") 1 1)"):
        for gdl2 in (False, True):
            try:
                message = parse_message(candidate, gdl2=gdl2)
            except ProtocolError:
                continue
            assert parse_message(str(message), gdl2=gdl2) == message


def test_disguise_really_changes_the_text() -> None:
    text = str(PlayII("m1", 1, Constant("noop"), frozenset({Constant("ok")})))
    disguised = _disguise(text, [True], [" "])
    assert disguised != text and re.sub(r"\s+", "", disguised.lower()) == re.sub(r"\s+", "", text)
