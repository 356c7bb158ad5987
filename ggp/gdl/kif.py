"""Reading KIF, the prefix syntax of GDL and of the GGP protocol.

Three layers: :func:`parse_sexprs` reads raw S-expressions (:class:`SList`, constants and
variables, with locations); :func:`to_term` reads a term from one; :func:`parse_kif` reads a whole
game description. Names are lower-cased, as real game managers send them in any case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from ggp.errors import GDLSyntaxError, Location, Problem
from ggp.gdl.rules import Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

_PARSER = Lark.open(
    str(Path(__file__).with_name("kif.lark")), parser="lalr", lexer="basic", maybe_placeholders=False
)


@dataclass(frozen=True)
class SList:
    """A parenthesised list of S-expressions, as read (not yet a term)."""

    items: tuple[SExpr, ...]
    loc: Location | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "(" + " ".join(str(i) for i in self.items) + ")"


SExpr = Union[Constant, Variable, SList]


class _ToSExpr(Transformer[Token, list[SExpr]]):
    def __init__(self, file: str | None, lowercase: bool):
        super().__init__()
        self.file = file
        self.lowercase = lowercase

    def _loc(self, token: Token) -> Location:
        return Location(self.file, token.line or 1, token.column or 1)

    def start(self, items: list[SExpr]) -> list[SExpr]:
        return items

    @v_args(inline=True)
    def name(self, token: Token) -> Constant:
        text = str(token)
        return Constant(text.lower() if self.lowercase else text, self._loc(token))

    @v_args(inline=True)
    def variable(self, token: Token) -> Variable:
        text = str(token)[1:]
        return Variable(text.lower() if self.lowercase else text, self._loc(token))

    def list(self, items: list[object]) -> SList:
        lpar = items[0]
        assert isinstance(lpar, Token)
        inner = [i for i in items[1:-1] if isinstance(i, (Constant, Variable, SList))]
        return SList(tuple(inner), self._loc(lpar))


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
    text = text.removeprefix("\ufeff")
    try:
        tree = _PARSER.parse(text)
    except UnexpectedInput as exc:
        better = _paren_problem(text, file)
        if better is not None:
            raise better from None
        loc = Location(file, exc.line if exc.line > 0 else 1, exc.column if exc.column > 0 else 1)
        raise GDLSyntaxError(describe_parse_error(_PARSER, exc), loc) from None
    try:
        result = _ToSExpr(file, lowercase).transform(tree)
    except RecursionError:
        raise GDLSyntaxError("lists are nested too deeply to read", Location(file, 1, 1)) from None
    assert isinstance(result, list)
    return result


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
    return Function(head.name, tuple(to_term(i) for i in items[1:]), sexpr.loc)


def parse_term(text: str, lowercase: bool = True) -> Term:
    """Exactly one KIF term from ``text``."""
    items = parse_sexprs(text, lowercase=lowercase)
    if len(items) != 1:
        raise GDLSyntaxError(f"expected one term, found {len(items)}", Location(None, 1, 1), text)
    return to_term(items[0])


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

    Slips whose meaning is clear are repaired and reported as warnings (see :func:`to_rule`).

    A lexical error (unbalanced parentheses) still raises :class:`GDLSyntaxError`, since
    nothing after it can be trusted.
    """
    rules: list[Rule] = []
    problems: list[Problem] = []
    for sexpr in parse_sexprs(text, source):
        try:
            rules.append(to_rule(sexpr, problems))
        except GDLSyntaxError as exc:
            problems.append(exc.as_problem())
    return GameDescription(tuple(rules), source), problems


def parse_kif(text: str, source: str | None = None) -> GameDescription:
    """Parse a KIF game description; raises on the first malformed rule (warnings pass)."""
    description, problems = read_kif(text, source)
    errors = [p for p in problems if p.is_error]
    if errors:
        raise GDLSyntaxError(errors[0].message, errors[0].location)
    return description
