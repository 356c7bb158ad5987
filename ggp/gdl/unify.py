"""Unification and substitution of GDL terms and literals."""

from __future__ import annotations

from collections.abc import Mapping

from ggp.gdl.rules import Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

Substitution = dict[Variable, Term]


def resolve(term: Term, subst: Mapping[Variable, Term]) -> Term:
    """``term`` with the substitution applied all the way down."""
    if isinstance(term, Variable):
        bound = subst.get(term)
        return term if bound is None else resolve(bound, subst)
    if isinstance(term, Function) and not term.is_ground:
        return Function(term.name, tuple(resolve(a, subst) for a in term.args), term.loc)
    return term


def _occurs(var: Variable, term: Term, subst: Mapping[Variable, Term]) -> bool:
    term = resolve(term, subst)
    return any(v == var for v in term.variables())


def unify(left: Term, right: Term, subst: Substitution | None = None) -> Substitution | None:
    """A most general unifier of the two terms extending ``subst``, or None (with occurs check)."""
    result: Substitution = dict(subst or {})
    stack = [(left, right)]
    while stack:
        a, b = stack.pop()
        a, b = resolve(a, result), resolve(b, result)
        if a == b:
            continue
        if isinstance(a, Variable):
            if _occurs(a, b, result):
                return None
            result[a] = b
        elif isinstance(b, Variable):
            if _occurs(b, a, result):
                return None
            result[b] = a
        elif isinstance(a, Function) and isinstance(b, Function):
            if a.name != b.name or a.arity != b.arity:
                return None
            stack.extend(zip(a.args, b.args))
        else:
            return None
    return result


def substitute_literal(literal: Literal, subst: Mapping[Variable, Term]) -> Literal:
    """A body literal with the substitution applied (locations kept)."""
    if isinstance(literal, Not):
        return Not(substitute_literal(literal.literal, subst), literal.loc)
    if isinstance(literal, Or):
        return Or(tuple(substitute_literal(lit, subst) for lit in literal.literals), literal.loc)
    if isinstance(literal, Distinct):
        return Distinct(resolve(literal.left, subst), resolve(literal.right, subst), literal.loc)
    result = resolve(literal, subst)
    assert isinstance(result, (Constant, Function))
    return result


def substitute_rule(rule: Rule, subst: Mapping[Variable, Term]) -> Rule:
    """A rule with the substitution applied to head and body (locations kept)."""
    head = resolve(rule.head, subst)
    assert isinstance(head, (Constant, Function))
    return Rule(head, tuple(substitute_literal(lit, subst) for lit in rule.body), rule.loc)


def rename_apart(term: Term, tag: str) -> Term:
    """``term`` with every variable renamed by appending ``tag`` (to keep two rules apart)."""
    if isinstance(term, Variable):
        return Variable(term.name + tag, term.loc)
    if isinstance(term, Function) and not term.is_ground:
        return Function(term.name, tuple(rename_apart(a, tag) for a in term.args), term.loc)
    return term
