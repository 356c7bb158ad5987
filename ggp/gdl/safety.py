"""Safety of GDL rules: every variable must be bound by a positive literal of its rule.

A variable is *safe* when it occurs in a positive atom of the body other than ``distinct``.
Variables of the head, of negated literals and of ``distinct`` must be safe. ``or`` is read as
the rules it stands for (one per disjunct), so a variable bound in only some disjuncts is unsafe.
A negated ``distinct`` is an equality: it binds a variable on one side when the other side is
bound (that is how clingo reads it, and the normaliser substitutes it away).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal as Kind

from ggp.errors import Location
from ggp.gdl.rules import Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

Atom = Constant | Function


@dataclass(frozen=True)
class Element:
    """One atom or ``distinct`` of a body alternative, with its sign and occurrence number.

    ``occurrence`` numbers the atoms and ``distinct`` literals of a rule body left to right, so
    that two equal atoms of a body stay apart.
    """

    positive: bool
    literal: Atom | Distinct
    occurrence: int

    def __str__(self) -> str:
        return str(self.literal) if self.positive else f"(not {self.literal})"


def _expand(literal: Literal, negated: bool, counter: Iterator[int]) -> list[list[Element]]:
    if isinstance(literal, Not):
        return _expand(literal.literal, not negated, counter)
    if isinstance(literal, Or):
        parts = [_expand(lit, negated, counter) for lit in literal.literals]
        if not negated:
            return [alt for part in parts for alt in part]
        return [list(itertools.chain.from_iterable(combo)) for combo in itertools.product(*parts)]
    return [[Element(not negated, literal, next(counter))]]


def alternatives(body: Iterable[Literal]) -> list[list[Element]]:
    """The body as a disjunction of conjunctions of elements (``or`` and ``not`` pushed inward)."""
    counter = itertools.count()
    result: list[list[Element]] = [[]]
    for literal in body:
        expanded = _expand(literal, False, counter)
        result = [done + alt for done in result for alt in expanded]
    return result


def _vars(term_or_literal: Term | Distinct) -> set[Variable]:
    return set(term_or_literal.variables())


def bound_variables(elements: Iterable[Element], extra: Iterable[Variable] = ()) -> set[Variable]:
    """Variables bound by the positive atoms (and ``extra``), closed under negated ``distinct``."""
    elements = list(elements)
    bound = set(extra)
    for el in elements:
        if el.positive and not isinstance(el.literal, Distinct):
            bound |= _vars(el.literal)
    equalities = [el.literal for el in elements if not el.positive and isinstance(el.literal, Distinct)]
    changed = True
    while changed:
        changed = False
        for eq in equalities:
            assert isinstance(eq, Distinct)
            left, right = _vars(eq.left), _vars(eq.right)
            if left <= bound and not right <= bound or right <= bound and not left <= bound:
                bound |= left | right
                changed = True
    return bound


UnsafeKind = Kind["head", "negation", "distinct"]


@dataclass(frozen=True)
class Unsafe:
    """An unsafe variable: the occurrence (with its location), where it is and in what."""

    variable: Variable
    kind: UnsafeKind
    #: The head, or the element (negated atom or ``distinct``) the variable occurs in.
    where: Atom | Element

    @property
    def location(self) -> Location | None:
        """Where the variable occurs."""
        return self.variable.loc

    def describe(self) -> str:
        """``unsafe variable ?x in (not (p ?x))``."""
        place = f"the head {self.where}" if self.kind == "head" else str(self.where)
        return f"unsafe variable {self.variable} in {place}"


def _first_occurrence(thing: Term | Distinct, variable: Variable) -> Variable:
    for v in thing.variables():
        if v == variable:
            return v
    return variable


def unsafe_variables(rule: Rule, extra_bound: Iterable[Variable] = ()) -> list[Unsafe]:
    """Every unsafe variable of ``rule``, once per (variable, place), in source order.

    ``extra_bound`` are variables taken as bound anyway (by a literal about to be added).
    """
    found: dict[tuple[str, str], Unsafe] = {}
    extra = set(extra_bound)
    for alt in alternatives(rule.body):
        bound = bound_variables(alt, extra)
        for v in rule.head.variables():
            if v not in bound:
                found.setdefault((v.name, "head"), Unsafe(v, "head", rule.head))
        for el in alt:
            if el.positive and not isinstance(el.literal, Distinct):
                continue
            kind: UnsafeKind = "distinct" if isinstance(el.literal, Distinct) else "negation"
            for v in el.literal.variables():
                if v not in bound:
                    key = (v.name, f"{el.occurrence}")
                    found.setdefault(key, Unsafe(_first_occurrence(el.literal, v), kind, el))
    return sorted(found.values(), key=lambda u: (u.location.line, u.location.column) if u.location else (0, 0))


def is_safe(rule: Rule) -> bool:
    """True when every variable of ``rule`` is safe."""
    return not unsafe_variables(rule)
