"""Reading and printing GDL: KIF and infix, round trips on the corpus, errors with positions."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggp.errors import GDLSyntaxError, InputError
from ggp.gdl.infix import parse_infix, to_infix
from ggp.gdl.kif import SList, parse_kif, parse_sexprs, parse_term, read_kif, to_term
from ggp.gdl.load import read_game, read_game_file, validate_file
from ggp.gdl.rules import Distinct, GameDescription, Not, Or, Rule, literal_terms
from ggp.gdl.terms import Constant, Function, Term, Variable
from tests.conftest import corpus_files, shared_path

CORPUS = corpus_files("gdl") + corpus_files("gdl2")
#: Corpus files that use names with no infix spelling (``++``, ``see-other-player-cards``, ``?n++``).
NOT_INFIX = {"small_dominion.gdl", "transit.gdl", "unsw_BattleshipsFog.gdl", "unsw_blackjack.gdl"}


def test_corpus_present() -> None:
    shared_path("corpus", "gdl")
    assert len(CORPUS) >= 25


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_kif_round_trip(path: Path) -> None:
    description, problems = read_game_file(path)
    assert not [p for p in problems if p.is_error]
    assert len(description.rules) > 10
    printed = description.to_kif()
    again = parse_kif(printed, "printed")
    assert again == description
    assert again.to_kif() == printed
    assert again.digest() == description.digest()


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_infix_round_trip(path: Path) -> None:
    description, _ = read_game_file(path)
    if path.name in NOT_INFIX:
        with pytest.raises(GDLSyntaxError, match="has no infix spelling"):
            to_infix(description)
        return
    text = to_infix(description)
    assert ":-" in text and "(<=" not in text
    assert parse_infix(text, "printed") == description
    assert read_game(text, "printed")[0] == description  # recognised as infix by the loader


def test_corpus_counts_of_rules() -> None:
    """Independent count: top-level S-expressions in tic-tac-toe equal the rules read."""
    path = shared_path("corpus", "gdl", "ggporg_ticTacToe.kif")
    text = path.read_text()
    description = parse_kif(text)
    assert len(parse_sexprs(text)) == len(description.rules)
    depth = top_level = 0
    for char in re.sub(r";[^\n]*", "", text):
        if char == "(":
            top_level += depth == 0
            depth += 1
        elif char == ")":
            depth -= 1
    assert top_level == len(description.rules) == 47
    assert [str(r) for r in description.roles] == ["xplayer", "oplayer"]


def test_case_insensitive() -> None:
    upper = parse_kif("(ROLE White)\n(<= (LEGAL ?P NOOP) (ROLE ?P) (NOT (TRUE (Done ?P))))\n(<= TERMINAL (True DONE))")
    lower = parse_kif("(role white)\n(<= (legal ?p noop) (role ?p) (not (true (done ?p))))\n(<= terminal (true done))")
    assert upper == lower
    assert upper.to_kif() == lower.to_kif()
    assert parse_term("(CELL ?X 1 B)") == parse_term("(cell ?x 1 b)")
    assert str(parse_term("(Mark ?Row 3)")) == "(mark ?row 3)"
    assert parse_infix("legal(White, mark(aB)) :- true(Cell)") == parse_kif("(<= (legal ?white (mark ab)) (true ?cell))")


def test_comments_anywhere() -> None:
    text = """; a comment (with unbalanced parentheses
(role white) ; after a fact )
(<= (legal white noop) ; inside a rule (
    (true s)) ;; double
; last line without a newline"""
    description = parse_kif(text)
    assert description == parse_kif("(role white) (<= (legal white noop) (true s))")
    assert description.rules[1].loc is not None and description.rules[1].loc.line == 3
    infix = parse_infix("% percent comment\nrole(white) ; semicolon comment\nlegal(white, noop) :- true(s) % end")
    assert infix == description


def test_locations() -> None:
    description = parse_kif("(role white)\n\n  (<= (next (cell ?x))\n      (true (cell ?x)))", "game.kif")
    rule = description.rules[1]
    assert str(rule.loc) == "game.kif:3:3"
    assert str(rule.head.loc) == "game.kif:3:7"
    body = rule.body[0]
    assert isinstance(body, Function) and str(body.loc) == "game.kif:4:7"
    var = body.args[0]
    assert isinstance(var, Function) and isinstance(var.args[0], Variable)
    assert str(var.args[0].loc) == "game.kif:4:19"


@pytest.mark.parametrize("text, line, column, fragment", [
    ("(role white)\n(<= (next t)\n    (true s)", 2, 1, "'(' is never closed"),
    ("(role white)\n(<= (next t) (true s)))", 2, 23, "unmatched ')'"),
    (")", 1, 1, "unmatched ')'"),
    ("(role white) (c", 1, 14, "'(' is never closed"),
    ("(<= (p ?x)\n   ())", 2, 4, "empty list '()' is not a term"),
    ("(<= )", 1, 1, "'<=' needs a head"),
    ("(<= ?x p)", 1, 5, "a rule head cannot be a variable"),
    ("((a) b)", 1, 1, "a list must start with a name"),
    ("(role white)\n?x", 2, 1, "a variable cannot be a rule"),
    ("(<= p (not a b))", 1, 7, "'not' takes one literal, got 2"),
    ("(<= p (distinct a))", 1, 7, "'distinct' takes two terms, got 1"),
    ("(<= p q (or))", 1, 9, "'or' needs arguments"),
    ("(<= (not p) q)", 1, 5, "'not' cannot be a rule head"),
    ("(distinct a b)", 1, 1, "'distinct' cannot stand alone"),
])
def test_kif_syntax_errors(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(GDLSyntaxError) as info:
        parse_kif(text, "bad.kif")
    error = info.value
    assert isinstance(error, InputError) and isinstance(error, ValueError)
    assert error.location is not None
    assert (error.location.file, error.location.line, error.location.column) == ("bad.kif", line, column)
    assert fragment in error.message
    assert "\n" not in str(error)


@pytest.mark.parametrize("text, line, column, fragment", [
    ("role(white)\nlegal(white, noop :- true(s)", 2, 19, "unexpected ':-'; expected ')' or ','"),
    ("p :- a &", 1, 8, "unexpected end of text; expected '(', '~' or a name"),
    ("p :- a ~ b", 1, 8, "unexpected '~'"),
    ("p :- X", 1, 6, "unexpected 'X'"),
    ("role(white) :- #", 1, 16, "unexpected '#'"),
])
def test_infix_syntax_errors(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(GDLSyntaxError) as info:
        parse_infix(text, "bad.gdl")
    error = info.value
    assert error.location is not None
    assert (error.location.line, error.location.column) == (line, column)
    assert fragment in error.message and "\n" not in str(error)


def test_read_kif_collects_every_malformed_rule() -> None:
    description, problems = read_kif("(role a)\n(<= p (not a b))\n(c d)\n(<= (distinct x))\n(e)", "f.kif")
    assert [(p.location.line, p.location.column) for p in problems] == [(2, 7), (4, 5)]
    assert [str(r) for r in description.rules] == ["(role a)", "(c d)", "e"]


def test_unreadable_file_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    missing = tmp_path / "missing.kif"
    assert [p.message.startswith("cannot read file") for p in validate_file(missing)] == [True]
    binary = tmp_path / "binary.kif"
    binary.write_bytes(b"(role \xff\xfe)")
    assert "not UTF-8" in validate_file(binary)[0].message


def test_seed_chapter_17_infix() -> None:
    """Rules quoted from the seed's chapter 17 (Blind Tic-Tac-Toe), spacing as printed there."""
    text = """
    input(white,mark(M,N)) :- index(M) & index (N)
    legal(white,mark(X,Y)) :-
      index(X) &
      index(Y) &
      ~true(tried(white,X,Y))
    ; any new attempt to mark a cell is recorded
    next(tried(W,M,N)) :-
     does(W, mark(M, N))
    next(cell(M,N,x)) :-
      does(white,mark(M,N)) &
      true(cell(M,N,b)) &
      does(black,mark(J,K)) &
      distinct(M,J)
    """
    kif = """
    (<= (input white (mark ?m ?n)) (index ?m) (index ?n))
    (<= (legal white (mark ?x ?y)) (index ?x) (index ?y) (not (true (tried white ?x ?y))))
    (<= (next (tried ?w ?m ?n)) (does ?w (mark ?m ?n)))
    (<= (next (cell ?m ?n x)) (does white (mark ?m ?n)) (true (cell ?m ?n b)) (does black (mark ?j ?k))
        (distinct ?m ?j))
    """
    description = parse_infix(text)
    assert description == parse_kif(kif)
    assert isinstance(description.rules[3].body[3], Distinct)
    assert isinstance(description.rules[1].body[2], Not)


def test_infix_disjunction_and_printing() -> None:
    description = parse_infix("p(X) :- q(X) & (r(X) | ~s(X)) & ~(t(X) | u)")
    rule = description.rules[0]
    assert isinstance(rule.body[1], Or) and isinstance(rule.body[2], Not)
    assert str(rule) == "(<= (p ?x) (q ?x) (or (r ?x) (not (s ?x))) (not (or (t ?x) u)))"
    assert parse_infix(to_infix(description)) == description
    assert parse_kif(description.to_kif()) == description


def test_term_parse_and_repr() -> None:
    term = Term.parse("(cell ?x (pair 1 b) ?y)")
    assert isinstance(term, Function) and term.arity == 3
    assert repr(term) == "Term.parse('(cell ?x (pair 1 b) ?y)')"
    assert eval(repr(term), {"Term": Term}) == term
    assert Term.parse("terminal") == Constant("terminal")
    assert Term.parse("?v") == Variable("v")
    assert Term.parse("(p)") == Constant("p")
    with pytest.raises(GDLSyntaxError):
        Term.parse("a b")
    for bad, message in (("(f", "1:1: unbalanced '('"), ("(f))", "1:4: unbalanced ')'"), ("(f\n ())", "2:2: empty list"),
                         ("((f) a)", "1:1: a list must start with a name"), ("", "expected one term, found 0")):
        with pytest.raises(GDLSyntaxError, match=re.escape(message)):
            Term.parse(bad)
    located = Term.parse("(f a\n   (g ?x))")
    assert isinstance(located, Function) and located.args[1].loc is not None
    assert (located.args[1].loc.line, located.args[1].loc.column) == (2, 4)


def test_a_list_of_one_name_is_that_name_in_rules() -> None:
    """GDL: ``(terminal)`` is the atom ``terminal`` (the GameController's prover reads it otherwise:
    tests/interop/test_prover.py::test_zero_argument_list_is_its_name)."""
    rules = parse_kif("(<= (goal r 0) (not (terminal)))\n(<= (terminal) (true done))").rules
    assert rules[0].body == (Not(Constant("terminal")),) and rules[1].head == Constant("terminal")


# --- property tests -------------------------------------------------------------------------

_FIRST = "abcdefghijklmnopqrstuvwxyz0123456789_-+*/<>=!.:#$%&@^~'\""
_NAME = st.text(alphabet=_FIRST, min_size=1, max_size=1).flatmap(
    lambda first: st.text(alphabet=_FIRST + "?", max_size=6).map(lambda rest: first + rest))
_VARIABLE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=5).map(Variable)


def _terms() -> st.SearchStrategy[Term]:
    leaves = st.one_of(_NAME.map(Constant), _VARIABLE)
    return st.recursive(leaves, lambda inner: st.builds(
        lambda name, args: Function(name, tuple(args)), _NAME, st.lists(inner, min_size=1, max_size=4)), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_terms())
def test_print_then_parse_is_identity(term: Term) -> None:
    assert parse_term(str(term)) == term
    assert eval(repr(term), {"Term": Term}) == term


@settings(max_examples=300, deadline=None)
@given(_terms(), st.sampled_from([" ", "\n", " ; note\n", "\t"]))
def test_term_reader_agrees_with_the_kif_reader(term: Term, space: str) -> None:
    text = str(term).replace(" ", space)
    assert Term.parse(text) == to_term(parse_sexprs(text)[0])


_LOWER = "abcdefghijklmnopqrstuvwxyz"
_INFIX_NAME = st.builds(str.__add__, st.sampled_from(_LOWER + "0123456789"), st.text(_LOWER + "0123456789_", max_size=5))
_INFIX_VAR = st.builds(str.__add__, st.sampled_from(_LOWER + "_"), st.text(_LOWER + "0123456789_", max_size=4)).map(Variable)


def _infix_terms() -> st.SearchStrategy[Term]:
    leaves = st.one_of(_INFIX_NAME.map(Constant), _INFIX_VAR)
    return st.recursive(leaves, lambda inner: st.builds(
        lambda name, args: Function(name, tuple(args)), _INFIX_NAME, st.lists(inner, min_size=1, max_size=3)),
        max_leaves=8)


def _atoms(terms: st.SearchStrategy[Term], names: st.SearchStrategy[str]) -> st.SearchStrategy[Constant | Function]:
    keywordless = names.filter(lambda n: n not in ("not", "or", "distinct", "<="))
    return st.one_of(keywordless.map(Constant), st.builds(
        lambda name, args: Function(name, tuple(args)), keywordless, st.lists(terms, min_size=1, max_size=3)))


def _literals(terms: st.SearchStrategy[Term], names: st.SearchStrategy[str], min_or: int) -> st.SearchStrategy[object]:
    atoms = _atoms(terms, names)
    base = st.one_of(atoms, st.builds(Distinct, terms, terms))
    return st.recursive(base, lambda inner: st.one_of(
        st.builds(Not, inner), st.builds(lambda ls: Or(tuple(ls)), st.lists(inner, min_size=min_or, max_size=3))),
        max_leaves=4)


def _descriptions(terms: st.SearchStrategy[Term], names: st.SearchStrategy[str],
                  min_or: int = 1) -> st.SearchStrategy[GameDescription]:
    rule = st.builds(lambda head, body: Rule(head, tuple(body)), _atoms(terms, names),
                     st.lists(_literals(terms, names, min_or), max_size=4))
    return st.lists(rule, max_size=4).map(lambda rules: GameDescription(tuple(rules)))


@settings(max_examples=100, deadline=None)
@given(_descriptions(_terms(), _NAME))
def test_kif_rules_round_trip(description: GameDescription) -> None:
    assert parse_kif(description.to_kif()) == description


# The infix syntax writes a disjunction with at least two disjuncts: (a | b).
@settings(max_examples=100, deadline=None)
@given(_descriptions(_infix_terms(), _INFIX_NAME, min_or=2))
def test_infix_rules_round_trip(description: GameDescription) -> None:
    assert parse_infix(to_infix(description)) == description


def test_mangled_corpus_text_never_crashes() -> None:
    """Seeded random damage to real files: always problems with positions, never another exception."""
    path = shared_path("corpus", "gdl2", "montyhall.gdl")
    text = path.read_text()
    rng = random.Random(2024)
    for _ in range(150):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(chars))
            action = rng.randrange(3)
            if action == 0:
                del chars[i]
            elif action == 1:
                chars.insert(i, rng.choice("()?; \n\"x"))
            else:
                chars[i] = rng.choice("()?; ")
        damaged = "".join(chars)
        description, problems = read_game(damaged, "damaged.gdl")
        from ggp.gdl.validate import validate

        problems += validate(description, complete=not problems)
        for problem in problems:
            assert problem.location.line >= 1 and problem.location.column >= 1
            assert "\n" not in problem.message


def test_pathologically_deep_nesting_is_a_syntax_error_not_a_crash() -> None:
    from ggp.errors import GDLSyntaxError
    from ggp.gdl.kif import parse_sexprs

    with pytest.raises(GDLSyntaxError, match="nested too deeply"):
        parse_sexprs("(" * 20000 + ")" * 20000, "deep.kif")


def test_nesting_up_to_the_limit_is_read() -> None:
    from ggp.gdl.kif import MAX_DEPTH

    deep = "(p " * MAX_DEPTH + ")" * MAX_DEPTH
    assert len(parse_sexprs(deep)) == 1
    with pytest.raises(GDLSyntaxError, match="nested too deeply") as info:
        parse_sexprs("\n (" + deep + ")", "deep.kif")
    assert str(info.value.location) == f"deep.kif:2:{3 * MAX_DEPTH}"  # its last "(p "


def _reference_read(text: str) -> list[object]:
    """An independent reader: characters one by one, items as (kind, text, line, column) and
    lists as ("list", items, line, column)."""
    stack: list[tuple[list[object], int, int]] = [([], 1, 1)]
    line, column, i = 1, 1, 0
    while i < len(text):
        ch = text[i]
        if ch == ";":
            while i < len(text) and text[i] != "\n":
                i, column = i + 1, column + 1
            continue
        if ch in " \t\r\f\n":
            line, column = (line + 1, 1) if ch == "\n" else (line, column + 1)
            i += 1
        elif ch == "(":
            stack.append(([], line, column))
            i, column = i + 1, column + 1
        elif ch == ")":
            items, at_line, at_column = stack.pop()
            stack[-1][0].append(("list", items, at_line, at_column))
            i, column = i + 1, column + 1
        else:
            j = i
            while j < len(text) and text[j] not in " \t\r\f\n();":
                j += 1
            word = text[i:j].lower()
            stack[-1][0].append(("variable", word[1:], line, column) if word[0] == "?" else ("name", word, line, column))
            column, i = column + j - i, j
    return stack[0][0]


def _as_reference(sexpr: object) -> object:
    if isinstance(sexpr, SList):
        assert sexpr.loc is not None
        return ("list", [_as_reference(i) for i in sexpr.items], sexpr.loc.line, sexpr.loc.column)
    assert isinstance(sexpr, (Constant, Variable)) and sexpr.loc is not None
    return ("variable" if isinstance(sexpr, Variable) else "name", sexpr.name, sexpr.loc.line, sexpr.loc.column)


@pytest.mark.parametrize("path", [p for p in CORPUS if p.read_text().lstrip().startswith((";", "("))]
                         + sorted(Path(__file__).parents[2].joinpath("rulesheets").glob("*.kif")),
                         ids=lambda p: p.name)
def test_items_and_locations_match_a_reference_reader(path: Path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    assert [_as_reference(s) for s in parse_sexprs(text, path.name)] == _reference_read(text)


def test_threads_read_with_their_own_file_and_case() -> None:
    """The reader's settings (file name, lower-casing) belong to the thread that reads."""
    from concurrent.futures import ThreadPoolExecutor

    text = "(Role White)\n" * 300

    def read(n: int) -> set[tuple[str | None, str]]:
        items = parse_sexprs(text, f"f{n}.kif", lowercase=n % 2 == 0)
        return {(c.loc.file if c.loc else None, c.name) for s in items if isinstance(s, SList)
                for c in s.items if isinstance(c, Constant)}

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(read, range(16)))
    for n, found in enumerate(results):
        assert found == ({(f"f{n}.kif", "role"), (f"f{n}.kif", "white")} if n % 2 == 0
                         else {(f"f{n}.kif", "Role"), (f"f{n}.kif", "White")})


def test_the_terms_of_a_literal_through_not_and_or_and_both_sides_of_distinct() -> None:
    [rule] = parse_kif("(<= p (not (q ?x)) (or r (distinct ?x (f a))))").rules
    assert [str(t) for lit in rule.body for t in literal_terms(lit)] == ["(q ?x)", "r", "?x", "(f a)"]
