"""The rules of a GDL program that can fire in a given state; the others need no grounding.

A rule can fire only if every positive ``true`` literal of its body matches a fluent of the
state (``true`` is never derived: GDL puts it in no head), and every other positive atom of its
body matches a fact or the head of a rule that can fire. Atoms are compared by their ground
arguments: ``at_step(b1_11)`` does not match a head ``at_step(b1_4)``, and matches ``at_step(X)``.
Leaving out the rules that cannot fire leaves a stratified program's answer set as it is (every
atom of it is a fact or the head of a rule whose body holds), and saves clingo the grounding of
most rules of a game whose rules are guarded by its control fluents (a card game's stage
position). The test is conservative: an argument that is not ground, or a literal it cannot
read, counts as matching.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import clingo
from clingo import ast
from clingo.ast import ASTType, Sign

#: A predicate's name and arity.
Signature = tuple[str, int]
#: What is known of an atom (or fluent): its signature, the positions of its ground arguments
#: and their values.
Pattern = tuple[Signature, tuple[int, ...], tuple[clingo.Symbol, ...]]
_TRUE: Signature = ("true", 1)
#: Predicates that are not (only) defined by the rules: ``does`` comes with the query.
_GIVEN = frozenset({("does", 2)})
#: Statements that derive no atom.
_DEFINE_NOTHING = frozenset({ASTType.Program, ASTType.ShowSignature, ASTType.ShowTerm, ASTType.Comment})


@dataclass(frozen=True)
class _Rule:
    """A normal rule's head, the atoms its body needs and what its ``true`` literals ask."""

    head: Pattern
    needs: frozenset[Pattern]
    asks: tuple[Pattern, ...]


def _ground(term: ast.AST) -> clingo.Symbol | None:
    """The symbol a ground AST term stands for; None if it has variables or operations."""
    if term.ast_type == ASTType.SymbolicTerm:
        return term.symbol  # type: ignore[no-any-return]
    if term.ast_type == ASTType.Function and not term.external:
        arguments = [_ground(a) for a in term.arguments]
        if all(a is not None for a in arguments):
            return clingo.Function(term.name, arguments)  # type: ignore[arg-type]
    return None


def _pattern(term: ast.AST) -> Pattern | None:
    """What an atom's (or fluent's) term says of the atoms it matches; None if it is no plain
    function or constant (any atom may match it)."""
    if term.ast_type == ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Function:
        arguments = tuple(term.symbol.arguments)
        return ((term.symbol.name, len(arguments)), tuple(range(len(arguments))), arguments)
    if term.ast_type != ASTType.Function or not term.name or term.external:
        return None
    ground = [(i, _ground(a)) for i, a in enumerate(term.arguments)]
    return ((term.name, len(ground)), tuple(i for i, value in ground if value is not None),
            tuple(value for _, value in ground if value is not None))


def _compatible(first: Pattern, second: Pattern) -> bool:
    """Whether some atom may match both patterns (they agree wherever both are ground)."""
    if first[0] != second[0]:
        return False
    where = dict(zip(first[1], first[2]))
    return all(where.get(position, value) == value for position, value in zip(second[1], second[2]))


def _plain_head(statement: ast.AST) -> Pattern | None:
    """The pattern of a rule's head if it is a plain positive atom, else None."""
    head = statement.head
    if head.ast_type != ASTType.Literal or head.sign != Sign.NoSign or head.atom.ast_type != ASTType.SymbolicAtom:
        return None
    return _pattern(head.atom.symbol)


def _read(statement: ast.AST) -> _Rule | None:
    """A normal rule's reading; None for every other statement (always kept)."""
    if statement.ast_type != ASTType.Rule or not statement.body:
        return None
    head = _plain_head(statement)
    if head is None or head[0] == _TRUE:
        return None
    needs: set[Pattern] = set()
    asks: list[Pattern] = []
    for literal in statement.body:
        if (literal.ast_type != ASTType.Literal or literal.sign != Sign.NoSign
                or literal.atom.ast_type != ASTType.SymbolicAtom):
            continue
        term = literal.atom.symbol
        needed = _pattern(term)
        if needed is None or needed[0] in _GIVEN:
            continue
        if needed[0] == _TRUE:
            fluent = _pattern(term.arguments[0]) if term.ast_type == ASTType.Function else None
            if fluent is not None:
                asks.append(fluent)
        else:
            needs.add(needed)
    return _Rule(head, frozenset(needs), tuple(asks))


def _is_constraint(statement: ast.AST) -> bool:
    """Whether the statement is an integrity constraint (it derives nothing)."""
    return (statement.ast_type == ASTType.Rule and statement.head.ast_type == ASTType.Literal
            and statement.head.atom.ast_type == ASTType.BooleanConstant and not statement.head.atom.value)


class _Index:
    """Patterns by signature and by ground argument, to find those compatible with another."""

    def __init__(self, patterns: Iterable[tuple[int, Pattern]]):
        self._by_signature: dict[Signature, list[tuple[int, Pattern]]] = {}
        self._by_value: dict[tuple[Signature, int, clingo.Symbol], list[tuple[int, Pattern]]] = {}
        self._open: dict[tuple[Signature, int], list[tuple[int, Pattern]]] = {}
        for key, pattern in patterns:
            signature, positions, values = pattern
            self._by_signature.setdefault(signature, []).append((key, pattern))
            ground = dict(zip(positions, values))
            for position in range(signature[1]):
                if position in ground:
                    self._by_value.setdefault((signature, position, ground[position]), []).append((key, pattern))
                else:
                    self._open.setdefault((signature, position), []).append((key, pattern))

    def compatible(self, pattern: Pattern) -> list[int]:
        """The keys of the patterns compatible with ``pattern``."""
        signature, positions, values = pattern
        if positions:
            candidates = (self._by_value.get((signature, positions[0], values[0]), [])
                          + self._open.get((signature, positions[0]), []))
        else:
            candidates = self._by_signature.get(signature, [])
        return [key for key, other in candidates if _compatible(pattern, other)]


class Relevance:
    """A program's statements, and those of them that can fire in a state."""

    def __init__(self, statements: Sequence[ast.AST]):
        self.statements = tuple(statements)
        rules = [_read(s) for s in self.statements]
        facts: list[Pattern] = []
        #: Whether some statement may define atoms in a way this module does not read (a
        #: disjunctive head, an ``#external``, a rule for ``true``...): then every rule is kept.
        self._opaque = False
        for statement, rule in zip(self.statements, rules):
            if rule is not None or statement.ast_type in _DEFINE_NOTHING or _is_constraint(statement):
                continue
            fact = _plain_head(statement) if statement.ast_type == ASTType.Rule and not statement.body else None
            if fact is None or fact[0] == _TRUE:
                self._opaque = True
            else:
                facts.append(fact)
        self._always = [rule is None for rule in rules]
        self._setup_needs(rules, facts)
        positions: dict[Signature, set[tuple[int, ...]]] = {}
        for rule in rules:
            for signature, where, _ in rule.asks if rule is not None else ():
                positions.setdefault(signature, set()).add(where)
        self._positions = positions
        self._fluent_asks: dict[clingo.Symbol, tuple[Pattern, ...]] = {}
        #: The rules that may fire, with what their ``true`` literals ask of the state.
        self._candidates = [(index, rule.asks) for index, rule in enumerate(rules)
                            if rule is not None and self._missing[index] >= 0]

    def _setup_needs(self, rules: list[_Rule | None], facts: list[Pattern]) -> None:
        """Number the body atoms the facts do not answer, with the rules each of them waits
        for, and count each rule's; a rule needing an atom nothing defines counts -1."""
        fact_index = _Index(enumerate(facts))
        head_index = _Index((index, rule.head) for index, rule in enumerate(rules) if rule is not None)
        ids: dict[Pattern, int | None] = {}  # None: a fact answers it
        producers: list[list[int]] = []
        #: For each rule, the needs its head may answer; for each need, the rules waiting for it.
        self._head_answers: list[list[int]] = [[] for _ in rules]
        self._users: list[list[int]] = []
        self._missing: list[int] = []
        for index, rule in enumerate(rules):
            pending: set[int] = set()
            possible = rule is not None
            for need in rule.needs if rule is not None else ():
                if need not in ids:
                    if fact_index.compatible(need):
                        ids[need] = None
                    else:
                        ids[need] = len(producers)
                        producers.append(head_index.compatible(need))
                        self._users.append([])
                        for producer in producers[-1]:
                            self._head_answers[producer].append(len(producers) - 1)
                need_id = ids[need]
                if need_id is not None:
                    possible = possible and bool(producers[need_id])
                    pending.add(need_id)
            self._missing.append(len(pending) if possible else -1)
            for need_id in pending if possible else ():
                self._users[need_id].append(index)

    def _asks(self, fluent: clingo.Symbol) -> tuple[Pattern, ...]:
        """What ``true`` literals a fluent answers (remembered: states share most fluents)."""
        asks = self._fluent_asks.get(fluent)
        if asks is None:
            asks = ()
            if fluent.type == clingo.SymbolType.Function:
                arguments = fluent.arguments
                signature = (fluent.name, len(arguments))
                asks = tuple((signature, where, tuple(arguments[i] for i in where))
                             for where in self._positions.get(signature, ()))
            self._fluent_asks[fluent] = asks
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
        fires = list(self._always)
        answered = bytearray(len(self._users))
        while ready:
            index = ready.pop()
            fires[index] = True
            for need in self._head_answers[index]:
                if answered[need]:
                    continue
                answered[need] = 1
                for user in self._users[need]:
                    if missing[user] > 0:
                        missing[user] -= 1
                        if missing[user] == 0:
                            ready.append(user)
        return [s for s, keep in zip(self.statements, fires) if keep]
