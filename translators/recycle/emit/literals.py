"""Rule bodies as lists of literals: what they bind, substitution, and the two markers of a
body that can never hold (:data:`FALSE`) and of a condition that always holds (:data:`ALWAYS`)."""

from __future__ import annotations

from collections.abc import Sequence

from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Constant, Function, Term, Variable

#: A literal that never holds (for an empty table or a comparison that cannot be true).
FALSE: Literal = Distinct(Constant("a"), Constant("a"))


def positive_vars(lits: Sequence[Literal]) -> set[Variable]:
    """Variables bound by the positive atoms of a body."""
    out: set[Variable] = set()
    for lit in lits:
        if isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct):
            out.update(lit.variables())
    return out


def lit_vars(lits: Sequence[Literal]) -> set[Variable]:
    """Every variable of a body."""
    out: set[Variable] = set()
    for lit in lits:
        out.update(lit.variables())
    return out


def substitute(lits: list[Literal], var: Variable, value: Term) -> list[Literal]:
    """The body with one variable replaced."""
    binding = {var: value}
    out: list[Literal] = []
    for lit in lits:
        if isinstance(lit, Not):
            out.append(Not(lit.literal.substitute(binding)))  # type: ignore[arg-type, union-attr]
        elif isinstance(lit, Distinct):
            out.append(Distinct(lit.left.substitute(binding), lit.right.substitute(binding)))
        else:
            out.append(lit.substitute(binding))  # type: ignore[arg-type, union-attr]
    return out


class _Always(Constant):
    """Marker for an auxiliary relation that always holds (never emitted)."""


ALWAYS = _Always("true_marker")


def clean(lits: list[Literal]) -> list[Literal]:
    if FALSE in lits:
        return [FALSE]
    out: list[Literal] = []
    for lit in lits:
        if lit is ALWAYS or lit in out:
            continue
        out.append(lit)
    return out


__all__ = ["ALWAYS", "FALSE", "clean", "lit_vars", "positive_vars", "substitute"]
