"""KIF's two readers: the fast path (a regular expression per line and a stack) gives exactly
what the Lark parse gives, locations included, and hands everything else to it."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggp.collector import BUILD_THRESHOLD
from ggp.errors import GDLSyntaxError
from ggp.gdl import kif
from ggp.gdl.kif import MAX_DEPTH, _read_fast, _read_lark, parse_sexprs, read_kif
from ggp.gdl.sexprs import SExpr, SList
from ggp.gdl.terms import Constant, Variable
from tests.conftest import corpus_files, shared_path

CORPUS = corpus_files("gdl") + corpus_files("gdl2")


def _flat(sexprs: list[SExpr]) -> list[object]:
    """Every item, depth first, with its kind, name, file, line and column (``SList`` leaves its
    location out of equality, so it is compared here explicitly)."""
    out: list[object] = []
    stack = list(reversed(sexprs))
    while stack:
        item = stack.pop()
        assert item.loc is not None
        where = (item.loc.file, item.loc.line, item.loc.column)
        if isinstance(item, SList):
            out.append(("list", len(item.items), *where))
            stack.extend(reversed(item.items))
        else:
            out.append((type(item).__name__, item.name, *where))
    return out


def assert_same_reading(text: str, file: str | None = "f.kif", lowercase: bool = True) -> None:
    """The fast path reads ``text`` (it does not give up) exactly as the Lark parse does."""
    fast = _read_fast(text, file, lowercase)
    assert fast is not None, "the fast path gave up on well-formed text"
    slow = _read_lark(text, file, lowercase)
    assert _flat(fast[0]) == _flat(slow[0]) and fast[1] == slow[1]


def assert_left_to_lark(text: str, message: str) -> None:
    """The fast path gives up on ``text``; the reader then raises the Lark parse's error."""
    assert _read_fast(text, "f.kif", True) is None
    with pytest.raises(GDLSyntaxError, match=message):
        _read_lark(text, "f.kif", True)
    with pytest.raises(GDLSyntaxError, match=message):
        parse_sexprs(text, "f.kif")


def test_every_corpus_file_reads_alike_both_ways() -> None:
    shared_path("corpus", "gdl2")
    assert len(CORPUS) >= 25
    for path in CORPUS:
        text = path.read_text(encoding="utf-8-sig")
        if text.lstrip().startswith((";", "(")):
            assert_same_reading(text, path.name)
            assert_same_reading(text, str(path), lowercase=False)
        else:  # infix: no KIF reader reads it
            assert _read_fast(text, path.name, True) is None
            with pytest.raises(GDLSyntaxError):
                _read_lark(text, path.name, True)


@pytest.mark.parametrize("text", [
    "",
    "; only a comment",
    "; a comment at the end, with no newline\n(role a) ; (role b)",
    "(role a)\r\n(init (cell 1 1 b))\r\n\r\n(<= terminal\r\n    (true done)) ; done\r\n",
    "(role\ta)\t(init\t(p\t?x))\n\t\t(q)",
    "(role a)\f(init p)\r(r)",
    "(Role White)\n(INIT (Cell ?X ?y B))\n(<= (Legal White (MARK ?X)) (TRUE (Cell ?X ?Y b)))",
    "(p ?) (q ?? ?a?b) (<= (r ?x) (s ?x) (not (t ?x)) (distinct ?x a))",
    "(p <= + - 1 -20 a-b a_b é ü\u00e9 x.y a:b \ufeff)",
    "(p)(q)((r))(() ())",
    "   \n\n   (p\n\n a\n  b   )   \n   ",
    "(p ;(q\n r)",
    "x y ?z",
    "(p a)" + " " * 100_000 + "\n(q)\t" + "\t" * 100_000,  # long runs of white space: linear time
])
def test_odd_inputs_read_alike_both_ways(text: str) -> None:
    assert_same_reading(text)
    assert_same_reading(text, None, lowercase=False)


def test_nesting_up_to_the_limit_is_read_fast_and_deeper_is_left_to_lark() -> None:
    assert_same_reading("(p " * MAX_DEPTH + ")" * MAX_DEPTH)
    assert_same_reading("\n".join(["(a"] * MAX_DEPTH) + ")" * MAX_DEPTH + "\n(b)")
    deep = "(p " * MAX_DEPTH + ")" * MAX_DEPTH
    assert_left_to_lark("\n (" + deep + ")", "nested too deeply")
    with pytest.raises(GDLSyntaxError) as info:
        parse_sexprs("\n (" + deep + ")", "deep.kif")
    assert str(info.value.location) == f"deep.kif:2:{3 * MAX_DEPTH}"


@pytest.mark.parametrize("text, message", [
    ("(role a))", "unmatched '\\)'"),
    ("(role a)\n(init (p)", "'\\(' is never closed"),
    (")", "unmatched"),
    ("(role a\u000b)", "unexpected '\\\\x0b'"),  # white space to Python, not to the grammar
    ("(role\u00a0a)", "unexpected '\\\\xa0'"),
    ("(role a)\u2028(role b)", "unexpected"),
])
def test_what_the_fast_path_does_not_expect_is_left_to_lark(text: str, message: str) -> None:
    assert_left_to_lark(text, message)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="()?;aZé- \t\r\n\f\v\xa0\ufeff", max_size=60))
def test_random_text_is_read_fast_exactly_when_lark_reads_it(text: str) -> None:
    try:
        slow = _read_lark(text, "f.kif", True)
    except GDLSyntaxError:
        assert _read_fast(text, "f.kif", True) is None
    else:
        fast = _read_fast(text, "f.kif", True)
        assert fast is not None and _flat(fast[0]) == _flat(slow[0]) and fast[1] == slow[1]


def test_a_byte_order_mark_opens_a_file_only() -> None:
    text = "\ufeff(role a)\n(p \ufeffb)"
    assert _flat(parse_sexprs(text, "f.kif")) == _flat(_read_lark(text.removeprefix("\ufeff"), "f.kif", True)[0])
    assert [str(s) for s in parse_sexprs(text)] == ["(role a)", "(p \ufeffb)"]


def test_fast_path_values_are_the_project_types() -> None:
    [sexpr] = parse_sexprs("(p A ?X)", "f.kif", lowercase=False)
    assert isinstance(sexpr, SList) and sexpr.loc is not None and (sexpr.loc.line, sexpr.loc.column) == (1, 1)
    assert sexpr.items == (Constant("p"), Constant("A"), Variable("X"))
    assert [(i.loc.line, i.loc.column) for i in sexpr.items if i.loc] == [(1, 2), (1, 4), (1, 6)]


def test_one_item_lists_are_noticed_either_way() -> None:
    assert _read_fast("(p (q)) r", None, True) == ([SList((Constant("p"), SList((Constant("q"),)))), Constant("r")],
                                                   True)
    assert _read_fast("(p q) (r s)", None, True) == ([SList((Constant("p"), Constant("q"))),
                                                      SList((Constant("r"), Constant("s")))], False)
    assert _read_lark("(p (q)) r", None, True)[1] and not _read_lark("(p q)", None, True)[1]


def test_the_garbage_collector_runs_rarely_while_reading_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # reading builds some 400,000 acyclic objects for 1 MB of KIF: the collections they set off
    # at Python's threshold took a third of the time (ggp.collector.rare_collections)
    usual = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    original = kif._read_fast

    def spy(*args: Any) -> Any:
        seen.append(gc.get_threshold())
        return original(*args)

    monkeypatch.setattr(kif, "_read_fast", spy)
    read_kif("(role a) (init p)")
    assert seen and seen[0][0] >= BUILD_THRESHOLD > usual[0]
    assert gc.get_threshold() == usual
    with pytest.raises(GDLSyntaxError):
        parse_sexprs("(role a")
    assert gc.get_threshold() == usual
