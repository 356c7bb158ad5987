"""GDL rules: literals, rules and whole game descriptions (immutable values).

A :class:`Rule` is ``head <= body``; a body is a tuple of literals, each an atomic sentence (a
:class:`~ggp.gdl.terms.Constant` or :class:`~ggp.gdl.terms.Function`), a :class:`Not`, an
:class:`Or` or a :class:`Distinct`. ``str`` prints KIF that parses back to an equal value.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Union

from ggp.errors import Location
from ggp.gdl.terms import Constant, Function, Term, Variable

#: The words with a fixed meaning in GDL and GDL-II.
KEYWORDS = frozenset(
    {"role", "init", "true", "does", "next", "legal", "goal", "terminal", "distinct",
     "base", "input", "sees", "percept"}
)

#: The name of GDL-II's predefined chance role.
RANDOM = Constant("random")


@dataclass(frozen=True)
class Not:
    """Negation as failure: ``(not literal)``."""

    literal: Literal
    loc: Location | None = field(default=None, compare=False, repr=False)

    def variables(self) -> Iterator[Variable]:
        """Variable occurrences inside the negated literal."""
        return literal_variables(self.literal)

    def __str__(self) -> str:
        return f"(not {self.literal})"


@dataclass(frozen=True)
class Or:
    """Disjunction ``(or l1 ... ln)``."""

    literals: tuple[Literal, ...]
    loc: Location | None = field(default=None, compare=False, repr=False)

    def variables(self) -> Iterator[Variable]:
        """Variable occurrences in every disjunct."""
        for lit in self.literals:
            yield from literal_variables(lit)

    def __str__(self) -> str:
        return "(or " + " ".join(str(lit) for lit in self.literals) + ")"


@dataclass(frozen=True)
class Distinct:
    """``(distinct a b)``: the two terms are not identical."""

    left: Term
    right: Term
    loc: Location | None = field(default=None, compare=False, repr=False)

    def variables(self) -> Iterator[Variable]:
        """Variable occurrences in both terms."""
        yield from self.left.variables()
        yield from self.right.variables()

    def __str__(self) -> str:
        return f"(distinct {self.left} {self.right})"


Literal = Union[Constant, Function, Not, Or, Distinct]


def literal_variables(literal: Literal) -> Iterator[Variable]:
    """Every variable occurrence in a literal, left to right."""
    return literal.variables()


def literal_terms(literal: Literal) -> Iterator[Term]:
    """The terms a literal is made of: its atoms (through ``not`` and ``or``) and the two sides
    of each ``distinct``."""
    if isinstance(literal, Not):
        yield from literal_terms(literal.literal)
    elif isinstance(literal, Or):
        for part in literal.literals:
            yield from literal_terms(part)
    elif isinstance(literal, Distinct):
        yield literal.left
        yield literal.right
    else:
        yield literal


def literal_loc(literal: Literal) -> Location | None:
    """Where a literal was read from, if known."""
    return literal.loc


@dataclass(frozen=True)
class Rule:
    """``(<= head body...)``; a fact when the body is empty."""

    head: Constant | Function
    body: tuple[Literal, ...] = ()
    loc: Location | None = field(default=None, compare=False, repr=False)

    @property
    def is_fact(self) -> bool:
        """True for a rule with an empty body."""
        return not self.body

    def variables(self) -> Iterator[Variable]:
        """Variable occurrences in head and body."""
        yield from self.head.variables()
        for lit in self.body:
            yield from literal_variables(lit)

    def __str__(self) -> str:
        if not self.body:
            return str(self.head)
        return "(<= " + str(self.head) + "".join(" " + str(lit) for lit in self.body) + ")"


@dataclass(frozen=True)
class GameDescription:
    """The rules of a game, in source order, and the file they came from."""

    rules: tuple[Rule, ...]
    source: str | None = field(default=None, compare=False)

    @property
    def roles(self) -> tuple[Constant, ...]:
        """The roles declared by ``(role r)`` facts, in order, without repetition."""
        seen: dict[Term, None] = {}
        for rule in self.rules:
            head = rule.head
            if rule.is_fact and isinstance(head, Function) and head.name == "role" and head.arity == 1:
                seen.setdefault(head.args[0], None)
        return tuple(r for r in seen if isinstance(r, Constant))

    @property
    def has_random(self) -> bool:
        """True when ``random`` is a role."""
        return RANDOM in self.roles

    @property
    def uses_sees(self) -> bool:
        """True for GDL-II descriptions that define ``sees``."""
        return any(rule.head.name == "sees" for rule in self.rules)

    def relations(self) -> set[tuple[str, int]]:
        """The ``(name, arity)`` of every rule head."""
        return {(r.head.name, r.head.arity) for r in self.rules}

    def to_kif(self) -> str:
        """The rules as KIF text, one rule per line."""
        return "".join(str(rule) + "\n" for rule in self.rules)

    def digest(self) -> str:
        """SHA-256 of the printed KIF: equal rules give equal digests."""
        return hashlib.sha256(self.to_kif().encode()).hexdigest()

    def __add__(self, other: GameDescription) -> GameDescription:
        return GameDescription(self.rules + other.rules, self.source)

    def __len__(self) -> int:
        return len(self.rules)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)
