"""The infix syntax of GDL (``head :- a & ~b``, capitalised variables), read and printed.

Names are lower-cased as in KIF, so both syntaxes give equal rules for the same game.
"""

from __future__ import annotations

import re
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput

from ggp.errors import GDLSyntaxError, Location
from ggp.gdl.kif import describe_parse_error, to_literal
from ggp.gdl.rules import Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

_PARSER = Lark.open(str(Path(__file__).with_name("infix.lark")), parser="lalr", lexer="basic")

_NAME = re.compile(r"[a-z0-9][A-Za-z0-9_]*\Z")
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class _ToRules(Transformer[Token, GameDescription]):
    def __init__(self, file: str | None):
        super().__init__()
        self.file = file

    def _loc(self, token: Token) -> Location:
        return Location(self.file, token.line or 1, token.column or 1)

    def start(self, rules: list[Rule]) -> GameDescription:
        return GameDescription(tuple(rules), self.file)

    def rule(self, items: list[object]) -> Rule:
        head = items[0]
        assert isinstance(head, (Constant, Function))
        body = items[1] if len(items) > 1 else ()
        assert isinstance(body, tuple)
        return Rule(head, body, head.loc)

    def body(self, literals: list[Term | Literal]) -> tuple[Literal, ...]:
        return tuple(lit if isinstance(lit, (Not, Or, Distinct)) else to_literal(lit) for lit in literals)

    @v_args(inline=True)
    def negation(self, literal: Term | Literal) -> Not:
        inner = literal if isinstance(literal, (Not, Or, Distinct)) else to_literal(literal)
        return Not(inner, getattr(inner, "loc", None))

    def disjunction(self, literals: list[Term | Literal]) -> Or:
        parts = tuple(lit if isinstance(lit, (Not, Or, Distinct)) else to_literal(lit) for lit in literals)
        return Or(parts, parts[0].loc)

    def compound(self, items: list[object]) -> Term:
        name = items[0]
        assert isinstance(name, Token)
        loc = self._loc(name)
        args = tuple(a for a in items[1:] if isinstance(a, Term))
        if not args:
            return Constant(str(name).lower(), loc)
        return Function(str(name).lower(), args, loc)

    @v_args(inline=True)
    def variable(self, token: Token) -> Variable:
        return Variable(str(token).lower(), self._loc(token))


def parse_infix(text: str, source: str | None = None) -> GameDescription:
    """Parse a game description written in infix syntax."""
    text = text.removeprefix("\ufeff")
    try:
        tree = _PARSER.parse(text)
    except UnexpectedInput as exc:
        loc = Location(source, max(exc.line, 1), max(exc.column, 1))
        raise GDLSyntaxError(describe_parse_error(_PARSER, exc), loc) from None
    try:
        result = _ToRules(source).transform(tree)
    except Exception as exc:  # lark wraps errors raised in callbacks
        inner = getattr(exc, "orig_exc", exc)
        if isinstance(inner, GDLSyntaxError):
            raise inner from None
        raise
    assert isinstance(result, GameDescription)
    return result


def _term(term: Term) -> str:
    if isinstance(term, Variable):
        if not _VARIABLE.match(term.name):
            raise GDLSyntaxError(f"variable {term} has no infix spelling", term.loc, str(term))
        return term.name[:1].upper() + term.name[1:]
    if not _NAME.match(term.name):
        raise GDLSyntaxError(f"name {term.name!r} has no infix spelling", term.loc, term.name)
    if isinstance(term, Function):
        return term.name + "(" + ",".join(_term(a) for a in term.args) + ")"
    return term.name


def _literal(literal: Literal) -> str:
    if isinstance(literal, Not):
        return "~" + _literal(literal.literal)
    if isinstance(literal, Or):
        return "(" + " | ".join(_literal(lit) for lit in literal.literals) + ")"
    if isinstance(literal, Distinct):
        return f"distinct({_term(literal.left)},{_term(literal.right)})"
    return _term(literal)


def rule_to_infix(rule: Rule) -> str:
    """One rule in infix syntax."""
    if not rule.body:
        return _term(rule.head)
    return _term(rule.head) + " :-\n    " + " &\n    ".join(_literal(lit) for lit in rule.body)


def to_infix(description: GameDescription) -> str:
    """A whole description in infix syntax, which :func:`parse_infix` reads back equal."""
    return "".join(rule_to_infix(rule) + "\n" for rule in description.rules)
