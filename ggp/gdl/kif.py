"""Reading KIF, the prefix syntax of GDL and of the GGP protocol.

Three layers: :func:`parse_sexprs` reads raw S-expressions (:class:`SList`, constants and
variables, with locations); :func:`to_term` reads a term from one; :func:`parse_kif` reads a whole
game description. Names are lower-cased, as real game managers send them in any case.

The grammar is ``kif.lark``. Well-formed text is read by a fast path (:func:`_read_fast`): the
grammar's terminals as one regular expression per line and a stack, building the same values
with the same locations as the Lark parse, three times as fast (1.1 MB: 3.8 s, then 1.1 s; see
``benchmarks/kif_read.py``). Anything it does not expect goes to the Lark parse, for its precise
errors. There Lark's LALR parser calls the builder as it reduces, so no parse tree is made, and a
lexer of ours matches the grammar's terminals with one regular expression (more than twice as
fast as building a tree and transforming it).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.common import LexerConf
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer, PatternStr

from ggp.collector import rare_collections
from ggp.errors import GDLSyntaxError, Location, Problem
from ggp.gdl.parenthesised import parenthesised_name_problems
from ggp.gdl.rules import Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.gdl.sexprs import SExpr as SExpr
from ggp.gdl.sexprs import SList as SList
from ggp.gdl.terms import Constant, Function, Term, Variable, read_term

# SExpr and SList are re-exported ("as"): they were defined here, and are still read from here.

#: Lists nested deeper than this are refused (terms are read and printed recursively).
MAX_DEPTH = 400


class _Reading(threading.local):
    """The file being read, whether names are lower-cased, and whether a list of one item was
    read (one per thread)."""

    file: str | None = None
    lowercase: bool = True
    one_item_list: bool = False


_READING = _Reading()


def _may_span_lines(regexp: str) -> bool:
    """Whether a terminal's regular expression may match a newline (as Lark decides it)."""
    return "\n" in regexp or "\\n" in regexp or "\\s" in regexp or "[^" in regexp or ("(?s" in regexp and "." in regexp)


class _Lexer(Lexer):
    """The grammar's terminals as one regular expression: what Lark's basic lexer does, with
    far less work per token, and the nesting depth counted on the way (the grammar's ``LPAR``
    and ``RPAR``): lists deeper than :data:`MAX_DEPTH` are a :class:`GDLSyntaxError`.

    Lark passes this lexer the whole text (its first custom-lexer interface).
    """

    def __init__(self, conf: LexerConf):
        terminals = sorted(conf.terminals, key=lambda t: (-t.priority, -t.pattern.max_width,
                                                          -len(t.pattern.value), t.name))
        self.pattern = re.compile("|".join(f"(?P<t{i}>{t.pattern.to_regexp()})" for i, t in enumerate(terminals)))
        self.types = {f"t{i}": t.name for i, t in enumerate(terminals)}
        self.ignore = frozenset(conf.ignore)
        self.multiline = frozenset(t.name for t in terminals if _may_span_lines(t.pattern.to_regexp()))
        self.allowed = {t.name for t in terminals} - self.ignore

    def lex(self, text: str) -> Iterator[Token]:  # type: ignore[override]  # Lark's text-only interface
        """The tokens of ``text`` with 1-based lines and columns; raises ``UnexpectedCharacters``."""
        types, ignore, multiline = self.types, self.ignore, self.multiline
        line, line_start, pos, depth = 1, 0, 0, 0
        for match in self.pattern.finditer(text):
            start = match.start()
            if start != pos:
                break
            kind = types[match.lastgroup or ""]
            value = match.group()
            pos = match.end()
            if kind not in ignore:
                if kind == "LPAR":
                    depth += 1
                    if depth > MAX_DEPTH:
                        where = Location(_READING.file, line, start - line_start + 1)
                        raise GDLSyntaxError("lists are nested too deeply to read", where)
                elif kind == "RPAR":
                    depth -= 1
                yield Token(kind, value, start, line, start - line_start + 1)
            if kind in multiline and "\n" in value:
                line += value.count("\n")
                line_start = start + value.rindex("\n") + 1
        if pos < len(text):
            raise UnexpectedCharacters(  # type: ignore[no-untyped-call]
                text, pos, line, pos - line_start + 1, allowed=self.allowed)


class _Builder(Transformer[Token, Any]):
    """Builds the S-expressions as the parser reduces: no parse tree is made."""

    def start(self, items: list[list[SExpr]]) -> list[SExpr]:
        return items[0]

    def no_items(self, _: list[Any]) -> list[SExpr]:
        return []

    def add_list(self, items: tuple[list[SExpr], SList]) -> list[SExpr]:
        items[0].append(items[1])
        return items[0]

    def add_name(self, items: tuple[list[SExpr], Token]) -> list[SExpr]:
        sexprs, token = items
        reading = _READING
        text = token.lower() if reading.lowercase else str(token)
        sexprs.append(Constant(text, Location(reading.file, token.line or 1, token.column or 1)))
        return sexprs

    def add_variable(self, items: tuple[list[SExpr], Token]) -> list[SExpr]:
        sexprs, token = items
        reading = _READING
        text = token[1:].lower() if reading.lowercase else str(token)[1:]
        sexprs.append(Variable(text, Location(reading.file, token.line or 1, token.column or 1)))
        return sexprs

    def list(self, items: tuple[Token, list[SExpr], Token]) -> SList:
        lpar, inner = items[0], items[1]
        if len(inner) == 1:
            _READING.one_item_list = True
        return SList(tuple(inner), Location(_READING.file, lpar.line or 1, lpar.column or 1))


_PARSER = Lark.open(
    str(Path(__file__).with_name("kif.lark")), parser="lalr", lexer=_Lexer, maybe_placeholders=False,
    transformer=_Builder(),
)


def _fast_pattern(parser: Lark) -> re.Pattern[str] | None:
    """The grammar's terminals as one regular expression for :func:`_read_fast`, on a line: white
    space (none, or a run), then ``(``, ``)``, a name, a variable, a comment, any other character,
    or the end of the line; the first four as groups 1 to 4, any other character as group 5. The
    end is an alternative so that white space before it is never given back to match as "any
    other character" (and never tried again from each of its positions: a long run would take
    quadratic time). None when the grammar has other terminals (the Lark parse then reads
    everything)."""
    regexps = {t.name: t.pattern.to_regexp() for t in parser.terminals}
    if (set(regexps) != {"WS", "LPAR", "RPAR", "NAME", "VARIABLE", "COMMENT"}
            or set(parser.ignore_tokens) != {"WS", "COMMENT"}
            or any(re.compile(r).groups for r in regexps.values())):
        return None
    return re.compile(f"(?:{regexps['WS']})?(?:({regexps['LPAR']})|({regexps['RPAR']})|({regexps['NAME']})"
                      f"|({regexps['VARIABLE']})|(?:{regexps['COMMENT']})|(.)|\\Z)")


_FAST = _fast_pattern(_PARSER)


def _read_fast(text: str, file: str | None, lowercase: bool) -> tuple[list[SExpr], bool] | None:
    """The S-expressions of well-formed ``text`` exactly as the Lark parse builds them (values
    and locations), and whether some list holds one item; None at anything else (a character
    no terminal matches, unbalanced parentheses, lists nested deeper than :data:`MAX_DEPTH`),
    for the Lark parse to report precisely.

    A regular expression per line and a stack: no token but white space holds a newline (names
    and variables exclude white space, comments end at the line's end), so each line is read
    apart, and the line number and the match's position give each item its location.
    """
    if _FAST is None:
        return None
    finditer = _FAST.finditer
    stack: list[tuple[list[SExpr], Location]] = []
    items: list[SExpr] = []
    one_item_list = False
    for line, row in enumerate(text.split("\n"), 1):
        for match in finditer(row):
            kind = match.lastindex
            if kind == 3:  # a name
                name = match.group(3)
                items.append(Constant(name.lower() if lowercase else name, Location(file, line, match.start(3) + 1)))
            elif kind == 1:  # (
                stack.append((items, Location(file, line, match.start(1) + 1)))
                if len(stack) > MAX_DEPTH:
                    return None
                items = []
            elif kind == 2:  # )
                if not stack:
                    return None
                outer, where = stack.pop()
                if len(items) == 1:
                    one_item_list = True
                outer.append(SList(tuple(items), where))
                items = outer
            elif kind == 4:  # a variable
                name = match.group(4)[1:]
                items.append(Variable(name.lower() if lowercase else name, Location(file, line, match.start(4) + 1)))
            elif kind == 5:  # a character no terminal matches
                return None
    if stack:
        return None
    return items, one_item_list


def _paren_problem(text: str, file: str | None) -> GDLSyntaxError | None:
    """A precise message for unbalanced parentheses, which Lark reports poorly."""
    stack: list[Location] = []
    line, col = 1, 1
    in_comment = False
    for ch in text:
        if in_comment:
            if ch == "\n":
                in_comment = False
        elif ch == ";":
            in_comment = True
        elif ch == "(":
            stack.append(Location(file, line, col))
        elif ch == ")":
            if not stack:
                return GDLSyntaxError("unmatched ')'", Location(file, line, col), ")")
            stack.pop()
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    if stack:
        return GDLSyntaxError("'(' is never closed", stack[-1], "(")
    return None


def _terminal_words(parser: Lark, name: str) -> str:
    if name == "$END":
        return "the end of the text"
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if isinstance(pattern, PatternStr):
        return repr(pattern.value)
    return {"NAME": "a name", "VARIABLE": "a variable"}.get(name, name.lower())


def describe_parse_error(parser: Lark, exc: UnexpectedInput) -> str:
    """A one-line account of a Lark parse error: what was found and what could have come instead."""
    expected: set[str] | frozenset[str] | None
    if isinstance(exc, UnexpectedToken):
        found = "end of text" if exc.token.type == "$END" else repr(str(exc.token))
        expected = exc.accepts or exc.expected
    elif isinstance(exc, UnexpectedCharacters):
        found, expected = repr(exc.char), exc.allowed
    else:
        found, expected = "end of text", getattr(exc, "expected", None)
    words = sorted({_terminal_words(parser, name) for name in expected or ()})
    if not words:
        return f"unexpected {found}"
    return f"unexpected {found}; expected " + (" or ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " or " + words[-1])


def parse_sexprs(text: str, file: str | None = None, lowercase: bool = True) -> list[SExpr]:
    """Every top-level S-expression in ``text``; raises :class:`GDLSyntaxError`."""
    return _read_sexprs(text, file, lowercase)[0]


def _read_sexprs(text: str, file: str | None, lowercase: bool) -> tuple[list[SExpr], bool]:
    """:func:`parse_sexprs`, and whether some list holds one item (such as ``(terminal)``): by
    :func:`_read_fast`, or by the Lark parse when that meets anything it does not expect."""
    text = text.removeprefix("\ufeff")
    with rare_collections():
        fast = _read_fast(text, file, lowercase)
        if fast is not None:
            return fast
        return _read_lark(text, file, lowercase)


def _read_lark(text: str, file: str | None, lowercase: bool) -> tuple[list[SExpr], bool]:
    """:func:`_read_sexprs` by the Lark parse, with its precise errors."""
    reading = _READING
    saved = reading.file, reading.lowercase, reading.one_item_list
    reading.file, reading.lowercase, reading.one_item_list = file, lowercase, False
    try:
        result = _PARSER.parse(text)
        one_item_list = reading.one_item_list
    except UnexpectedInput as exc:
        better = _paren_problem(text, file)
        if better is not None:
            raise better from None
        loc = Location(file, exc.line if exc.line > 0 else 1, exc.column if exc.column > 0 else 1)
        raise GDLSyntaxError(describe_parse_error(_PARSER, exc), loc) from None
    finally:
        reading.file, reading.lowercase, reading.one_item_list = saved
    assert isinstance(result, list)
    return result, one_item_list


def to_term(sexpr: SExpr) -> Term:
    """The term an S-expression denotes: ``(name a b)`` is a compound term, ``(name)`` a constant."""
    if not isinstance(sexpr, SList):
        return sexpr
    items = sexpr.items
    if not items:
        raise GDLSyntaxError("empty list '()' is not a term", sexpr.loc, "()")
    head = items[0]
    if not isinstance(head, Constant):
        raise GDLSyntaxError(f"a list must start with a name, not {head}", sexpr.loc, str(sexpr))
    if len(items) == 1:
        return Constant(head.name, sexpr.loc)
    return Function(head.name, tuple([to_term(i) if isinstance(i, SList) else i for i in items[1:]]), sexpr.loc)


def parse_term(text: str, lowercase: bool = True) -> Term:
    """Exactly one KIF term from ``text`` (see :func:`ggp.gdl.terms.read_term`)."""
    return read_term(text, lowercase)


def to_literal(term: Term) -> Literal:
    """A body literal: ``not``, ``or`` and ``distinct`` get their GDL meaning."""
    if isinstance(term, Variable):
        raise GDLSyntaxError(f"a variable cannot be a literal: {term}", term.loc, str(term))
    if isinstance(term, Function):
        if term.name == "not":
            if term.arity != 1:
                raise GDLSyntaxError(f"'not' takes one literal, got {term.arity}: {term}", term.loc, str(term))
            return Not(to_literal(term.args[0]), term.loc)
        if term.name == "or":
            return Or(tuple(to_literal(a) for a in term.args), term.loc)
        if term.name == "distinct":
            if term.arity != 2:
                raise GDLSyntaxError(f"'distinct' takes two terms, got {term.arity}: {term}", term.loc, str(term))
            return Distinct(term.args[0], term.args[1], term.loc)
    elif isinstance(term, Constant) and term.name in ("not", "or", "distinct"):
        raise GDLSyntaxError(f"'{term.name}' needs arguments", term.loc, str(term))
    assert isinstance(term, (Constant, Function))
    return term


def _repair_body(items: list[Term], warnings: list[Problem]) -> list[Term]:
    """Read a bare ``not`` followed by a literal as ``(not literal)``, as its author meant."""
    out: list[Term] = []
    i = 0
    while i < len(items):
        item = items[i]
        if isinstance(item, Constant) and item.name == "not" and i + 1 < len(items):
            target = items[i + 1]
            warnings.append(Problem(item.loc or Location(None, 1, 1),
                                    f"bare 'not' before {target}: read as (not {target})", "warning"))
            out.append(Function("not", (target,), item.loc))
            i += 2
            continue
        out.append(item)
        i += 1
    return out


def _repair_sentence(term: Term, warnings: list[Problem]) -> Term:
    """Read ``(true a b ...)`` (too many arguments) as ``(true (a b ...))``, with a warning."""
    if not isinstance(term, Function):
        return term
    if term.name in ("not", "or"):
        return Function(term.name, tuple(_repair_sentence(a, warnings) for a in term.args), term.loc)
    if term.name in ("true", "next", "init") and term.arity > 1 and isinstance(term.args[0], Constant):
        inner = Function(term.args[0].name, term.args[1:], term.args[0].loc)
        warnings.append(Problem(term.loc or Location(None, 1, 1),
                                f"'{term.name}' takes one argument: {term} read as ({term.name} {inner})",
                                "warning"))
        return Function(term.name, (inner,), term.loc)
    return term


def to_rule(sexpr: SExpr, warnings: list[Problem] | None = None) -> Rule:
    """A rule or fact from one top-level S-expression.

    With a ``warnings`` list, two common slips in published games are read as meant and
    reported there: a bare ``not`` before a literal, and ``true`` with several arguments.
    """
    term = to_term(sexpr)
    if isinstance(term, Variable):
        raise GDLSyntaxError(f"a variable cannot be a rule: {term}", term.loc, str(term))
    if isinstance(term, Function) and term.name == "<=":
        head = term.args[0]
        if isinstance(head, Variable):
            raise GDLSyntaxError(f"a rule head cannot be a variable: {head}", head.loc, str(head))
        assert isinstance(head, (Constant, Function))
        if head.name in ("not", "or", "distinct", "<="):
            raise GDLSyntaxError(f"'{head.name}' cannot be a rule head: {head}", head.loc, str(head))
        body = list(term.args[1:])
        if warnings is not None:
            repaired = _repair_sentence(head, warnings)
            assert isinstance(repaired, (Constant, Function))
            head = repaired
            body = [_repair_sentence(b, warnings) for b in _repair_body(body, warnings)]
        return Rule(head, tuple(to_literal(a) for a in body), term.loc)
    if isinstance(term, Constant) and term.name == "<=":
        raise GDLSyntaxError("'<=' needs a head", term.loc, "<=")
    if term.name in ("not", "or", "distinct"):
        raise GDLSyntaxError(f"'{term.name}' cannot stand alone as a fact: {term}", term.loc, str(term))
    if warnings is not None:
        term = _repair_sentence(term, warnings)
    assert isinstance(term, (Constant, Function))
    return Rule(term, (), term.loc)


def read_kif(text: str, source: str | None = None) -> tuple[GameDescription, list[Problem]]:
    """Parse a description, collecting a problem per malformed rule instead of stopping.

    Slips whose meaning is clear are repaired and reported as warnings (see :func:`to_rule`); a
    name alone in parentheses that other GDL systems read otherwise is reported as a warning too
    (:mod:`ggp.gdl.parenthesised`).

    A lexical error (unbalanced parentheses) still raises :class:`GDLSyntaxError`, since
    nothing after it can be trusted.
    """
    rules: list[Rule] = []
    problems: list[Problem] = []
    with rare_collections():
        sexprs, one_item_list = _read_sexprs(text, source, True)
        for sexpr in sexprs:
            try:
                rules.append(to_rule(sexpr, problems))
            except GDLSyntaxError as exc:
                problems.append(exc.as_problem())
        if one_item_list:
            problems += parenthesised_name_problems(sexprs)
    return GameDescription(tuple(rules), source), problems


def parse_kif(text: str, source: str | None = None) -> GameDescription:
    """Parse a KIF game description; raises on the first malformed rule (warnings pass)."""
    description, problems = read_kif(text, source)
    errors = [p for p in problems if p.is_error]
    if errors:
        raise GDLSyntaxError(errors[0].message, errors[0].location)
    return description
