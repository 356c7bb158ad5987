"""GDL rules as an answer-set program for clingo, and clingo symbols back as GDL terms.

GDL names become clingo names unchanged where clingo allows it (``cell``, ``xplayer``, ``12``);
other constants become strings and other function names numbered ``_e`` identifiers, remembered
in an :class:`AspNames` table so that every symbol reads back as the term it came from.
``or`` is expanded into one rule per disjunct and negated ``distinct`` into equality.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

import clingo

from ggp.gdl.rules import Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

_IDENT = re.compile(r"[a-z][A-Za-z0-9_]*\Z")
_NUMBER = re.compile(r"(0|[1-9][0-9]{0,8})\Z")
_VARNAME = re.compile(r"[A-Za-z0-9_]+\Z")


class AspNames:
    """The two-way spelling of GDL names in clingo."""

    def __init__(self) -> None:
        self._to_asp: dict[str, str] = {}
        self._from_asp: dict[str, str] = {}
        self._symbols: dict[Term, clingo.Symbol] = {}

    def function(self, name: str) -> str:
        """The clingo spelling of a function or predicate name."""
        if _IDENT.match(name) and name != "not":
            return name
        spelt = self._to_asp.get(name)
        if spelt is None:
            spelt = f"_e{len(self._to_asp)}"
            self._to_asp[name] = spelt
            self._from_asp[spelt] = name
        return spelt

    def constant(self, name: str) -> str:
        """The clingo spelling of a constant."""
        if _NUMBER.match(name):
            return name
        if _IDENT.match(name) and name != "not":
            return name
        escaped = name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'

    def gdl_name(self, asp_name: str) -> str:
        """The GDL name a clingo function name spells."""
        return self._from_asp.get(asp_name, asp_name)

    def term(self, term: Term, variables: dict[str, str]) -> str:
        """The clingo text of a (possibly non-ground) term."""
        if isinstance(term, Variable):
            spelt = variables.get(term.name)
            if spelt is None:
                base = term.name if _VARNAME.match(term.name) else str(len(variables))
                spelt = f"V_{base}"
                variables[term.name] = spelt
            return spelt
        if isinstance(term, Function):
            return self.function(term.name) + "(" + ",".join(self.term(a, variables) for a in term.args) + ")"
        return self.constant(term.name)

    def atom(self, sentence: Term, variables: dict[str, str]) -> str:
        """The clingo text of a sentence: a 0-ary one is a proposition, spelt as a name."""
        if isinstance(sentence, Constant):
            return self.function(sentence.name)
        return self.term(sentence, variables)

    def ground(self, term: Term) -> str:
        """The clingo text of a ground term."""
        return self.term(term, {})

    def symbol(self, term: Term) -> clingo.Symbol:
        """The clingo symbol of a ground term (remembered: the same fluents and moves come back)."""
        symbol = self._symbols.get(term)
        if symbol is None:
            symbol = self._symbols[term] = clingo.parse_term(self.ground(term))
        return symbol

    def to_term(self, symbol: clingo.Symbol) -> Term:
        """The GDL term a clingo symbol spells."""
        kind = symbol.type
        if kind == clingo.SymbolType.Number:
            return Constant(str(symbol.number))
        if kind == clingo.SymbolType.String:
            return Constant(symbol.string)
        if kind == clingo.SymbolType.Function:
            if not symbol.arguments:
                return Constant(self.gdl_name(symbol.name))
            return Function(self.gdl_name(symbol.name), tuple(self.to_term(a) for a in symbol.arguments))
        raise ValueError(f"symbol {symbol} has no GDL reading")


def _alternatives(literal: Literal, negated: bool) -> list[list[tuple[bool, Literal]]]:
    """DNF of a literal as lists of (positive?, atom-or-distinct) conjunctions."""
    if isinstance(literal, Not):
        return _alternatives(literal.literal, not negated)
    if isinstance(literal, Or):
        parts = [_alternatives(lit, negated) for lit in literal.literals]
        if not negated:
            return [conj for part in parts for conj in part]
        return [list(itertools.chain.from_iterable(combo)) for combo in itertools.product(*parts)]
    return [[(not negated, literal)]]


def _literal_text(positive: bool, literal: Literal, names: AspNames, variables: dict[str, str]) -> str:
    if isinstance(literal, Distinct):
        op = "!=" if positive else "="
        return f"{names.term(literal.left, variables)}{op}{names.term(literal.right, variables)}"
    assert isinstance(literal, (Constant, Function))
    text = names.atom(literal, variables)
    return text if positive else "not " + text


def rule_to_asp(rule: Rule, names: AspNames, head_prefix: str = "") -> list[str]:
    """The clingo rules (several where the body has ``or``) for one GDL rule."""
    per_literal = [_alternatives(lit, False) for lit in rule.body]
    out = []
    for combo in itertools.product(*per_literal):
        variables: dict[str, str] = {}
        head = head_prefix + names.atom(rule.head, variables)
        positives: list[str] = []
        others: list[str] = []
        for conj in combo:
            for positive, lit in conj:
                text = _literal_text(positive, lit, names, variables)
                (positives if positive and not isinstance(lit, Distinct) else others).append(text)
        body = positives + others
        out.append(head + (" :- " + ", ".join(body) if body else "") + ".")
    return out


def description_to_asp(description: GameDescription | Iterable[Rule], names: AspNames) -> str:
    """The whole description as a clingo program."""
    lines: list[str] = []
    for rule in description:
        lines.extend(rule_to_asp(rule, names))
    return "\n".join(lines) + "\n"


def facts(predicate: str, terms: Iterable[Term], names: AspNames) -> str:
    """``predicate(t).`` for each term."""
    return "".join(f"{predicate}({names.ground(t)}).\n" for t in terms)


def does_facts(roles: Sequence[Term], joint: Sequence[Term], names: AspNames) -> str:
    """``does(role, move).`` for each role's move of a joint move."""
    return "".join(f"does({names.ground(r)},{names.ground(m)}).\n" for r, m in zip(roles, joint))
