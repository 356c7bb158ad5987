"""The rules of a GDL program that can fire in a given state; the others need no grounding.

A rule can fire only if every positive ``true`` literal of its body matches a fluent of the
state (``true`` is never derived: GDL puts it in no head), and the predicate of every other
positive atom of its body is a fact's or the head of a rule that can fire. Leaving out the rules
that cannot fire leaves a stratified program's answer set as it is, and saves clingo the
grounding of most rules of a game whose rules are guarded by its control fluents (a card game's
stage position). The test is conservative: an argument that is not ground, or a literal it
cannot read, counts as matching.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import clingo
from clingo import ast
from clingo.ast import ASTType, Sign

Signature = tuple[str, int]
#: A ``true`` literal's question: a fluent's signature, argument positions and their values.
_Ask = tuple[Signature, tuple[int, ...], tuple[clingo.Symbol, ...]]
#: Predicates that are not (only) defined by the rules: ``does`` comes with the query.
_GIVEN = frozenset({("does", 2)})
#: Statements that derive no atom.
_DEFINE_NOTHING = frozenset({ASTType.Program, ASTType.ShowSignature, ASTType.ShowTerm, ASTType.Comment})


@dataclass(frozen=True)
class _Pattern:
    """What a positive ``true`` literal asks of some fluent: its signature and ground arguments."""

    signature: Signature
    positions: tuple[int, ...]
    values: tuple[clingo.Symbol, ...]


@dataclass(frozen=True)
class _Rule:
    """A normal rule's head predicate, the predicates its body needs and its ``true`` patterns."""

    head: Signature
    needs: frozenset[Signature]
    patterns: tuple[_Pattern, ...]


def _ground(term: ast.AST) -> clingo.Symbol | None:
    """The symbol a ground AST term stands for; None if it has variables or operations."""
    if term.ast_type == ASTType.SymbolicTerm:
        return term.symbol  # type: ignore[no-any-return]
    if term.ast_type == ASTType.Function and not term.external:
        arguments = [_ground(a) for a in term.arguments]
        if all(a is not None for a in arguments):
            return clingo.Function(term.name, arguments)  # type: ignore[arg-type]
    return None


def _signature(term: ast.AST) -> Signature | None:
    """The predicate signature of an atom's term, if it is a plain function or constant."""
    if term.ast_type == ASTType.Function and term.name and not term.external:
        return (term.name, len(term.arguments))
    if term.ast_type == ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        return (term.symbol.name, len(term.symbol.arguments))
    return None


def _pattern(fluent: ast.AST) -> _Pattern | None:
    """The pattern of ``true(fluent)``; None when any fluent may match it."""
    signature = _signature(fluent)
    if signature is None:
        return None
    if fluent.ast_type == ASTType.SymbolicTerm:
        return _Pattern(signature, tuple(range(signature[1])), tuple(fluent.symbol.arguments))
    ground = [(i, _ground(a)) for i, a in enumerate(fluent.arguments)]
    positions = tuple(i for i, value in ground if value is not None)
    return _Pattern(signature, positions, tuple(value for _, value in ground if value is not None))


def _read(statement: ast.AST) -> _Rule | None:
    """A normal rule's reading; None for every other statement (always kept)."""
    if statement.ast_type != ASTType.Rule or not statement.body:
        return None
    head = statement.head
    if head.ast_type != ASTType.Literal or head.sign != Sign.NoSign or head.atom.ast_type != ASTType.SymbolicAtom:
        return None
    signature = _signature(head.atom.symbol)
    if signature is None or signature == ("true", 1):
        return None
    needs: set[Signature] = set()
    patterns: list[_Pattern] = []
    for literal in statement.body:
        if (literal.ast_type != ASTType.Literal or literal.sign != Sign.NoSign
                or literal.atom.ast_type != ASTType.SymbolicAtom):
            continue
        term = literal.atom.symbol
        needed = _signature(term)
        if needed == ("true", 1):
            pattern = _pattern(term.arguments[0]) if term.ast_type == ASTType.Function else None
            if pattern is not None:
                patterns.append(pattern)
        elif needed is not None and needed not in _GIVEN:
            needs.add(needed)
    return _Rule(signature, frozenset(needs), tuple(patterns))


def _fact(statement: ast.AST) -> Signature | None:
    """The predicate of a fact (a rule without body and with a plain atom as head), else None."""
    if statement.ast_type != ASTType.Rule or statement.body:
        return None
    head = statement.head
    if head.ast_type != ASTType.Literal or head.sign != Sign.NoSign or head.atom.ast_type != ASTType.SymbolicAtom:
        return None
    return _signature(head.atom.symbol)


def _is_constraint(statement: ast.AST) -> bool:
    """Whether the statement is an integrity constraint (it derives nothing)."""
    return (statement.ast_type == ASTType.Rule and statement.head.ast_type == ASTType.Literal
            and statement.head.atom.ast_type == ASTType.BooleanConstant and not statement.head.atom.value)


class Relevance:
    """A program's statements, and those of them that can fire in a state."""

    def __init__(self, statements: Sequence[ast.AST]):
        self.statements = tuple(statements)
        rules = [_read(s) for s in self.statements]
        self._rules = rules
        self._facts: set[Signature] = set()
        #: Whether some statement may define atoms in a way this module does not read (a
        #: disjunctive head, an ``#external``, a rule for ``true``...): then every rule is kept.
        self._opaque = False
        for statement, rule in zip(self.statements, rules):
            if rule is not None or statement.ast_type in _DEFINE_NOTHING or _is_constraint(statement):
                continue
            signature = _fact(statement)
            if signature is None or signature == ("true", 1):
                self._opaque = True
            else:
                self._facts.add(signature)
        defined = self._facts | {r.head for r in rules if r is not None}
        #: Rule indices waiting for each predicate (a predicate that nothing defines is kept
        #: out: a rule needing it cannot fire, and never waits).
        self._waiting: dict[Signature, list[int]] = {}
        self._missing: list[int] = []
        for index, rule in enumerate(rules):
            needs = rule.needs if rule is not None else frozenset()
            pending = needs - self._facts
            self._missing.append(len(pending) if needs <= defined else -1)
            for signature in pending:
                self._waiting.setdefault(signature, []).append(index)
        self._positions: dict[Signature, set[tuple[int, ...]]] = {}
        for rule in rules:
            for pattern in rule.patterns if rule is not None else ():
                self._positions.setdefault(pattern.signature, set()).add(pattern.positions)
        #: The rules that may fire, with what their ``true`` literals ask of the state.
        self._answers: dict[clingo.Symbol, tuple[_Ask, ...]] = {}
        self._candidates = [(index, tuple((p.signature, p.positions, p.values) for p in rule.patterns))
                            for index, rule in enumerate(rules) if rule is not None and self._missing[index] >= 0]

    def _asks(self, fluent: clingo.Symbol) -> tuple[_Ask, ...]:
        """What ``true`` literals a fluent answers (remembered: states share most fluents)."""
        asks = self._answers.get(fluent)
        if asks is None:
            asks = ()
            if fluent.type == clingo.SymbolType.Function:
                arguments = fluent.arguments
                signature = (fluent.name, len(arguments))
                asks = tuple((signature, positions, tuple(arguments[i] for i in positions))
                             for positions in self._positions.get(signature, ()))
            self._answers[fluent] = asks
        return asks

    def relevant(self, fluents: Iterable[clingo.Symbol]) -> list[ast.AST]:
        """The statements that can fire when exactly ``fluents`` are true, in program order."""
        if self._opaque:
            return list(self.statements)
        present = {ask for fluent in fluents for ask in self._asks(fluent)}
        missing = list(self._missing)
        ready: list[int] = []
        for index, asks in self._candidates:
            if not present.issuperset(asks):
                missing[index] = -1
            elif missing[index] == 0:
                ready.append(index)
        fires = [rule is None for rule in self._rules]
        derived: set[Signature] = set(self._facts)
        while ready:
            index = ready.pop()
            fires[index] = True
            head = self._rules[index].head  # type: ignore[union-attr]
            if head in derived:
                continue
            derived.add(head)
            for waiting in self._waiting.get(head, ()):
                if missing[waiting] > 0:
                    missing[waiting] -= 1
                    if missing[waiting] == 0:
                        ready.append(waiting)
        return [s for s, keep in zip(self.statements, fires) if keep]
