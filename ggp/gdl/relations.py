"""Consistency of names: one arity per relation and per function symbol, no relation used undefined.

A name used with two arities is legal in clingo (they are two relations) but is usually a slip,
so it is a warning; so is a relation that is used in a body but defined by no rule (it is never
true). Keywords are checked by :mod:`ggp.gdl.keywords`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ggp.errors import Location, Problem
from ggp.gdl.dependencies import DependencyGraph, body_atoms
from ggp.gdl.rules import KEYWORDS, Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.gdl.terms import Function, Term, sentence_name

_ARGS = {0: "no arguments", 1: "1 argument"}
#: Relations some game managers read though GDL does not define them (the Dresden
#: GameController's ``sees_xml``, for its match viewer): never reported as unused.
EXTENSIONS = frozenset({"sees_xml"})


def _args(n: int) -> str:
    return _ARGS.get(n, f"{n} arguments")


def _subterms(term: Term) -> Iterator[Function]:
    if isinstance(term, Function):
        yield term
        for arg in term.args:
            yield from _subterms(arg)


def _literal_terms(lit: Literal) -> Iterator[Term]:
    if isinstance(lit, Not):
        yield from _literal_terms(lit.literal)
    elif isinstance(lit, Or):
        for part in lit.literals:
            yield from _literal_terms(part)
    elif isinstance(lit, Distinct):
        yield lit.left
        yield lit.right
    elif isinstance(lit, Function):
        yield from lit.args


def _rule_terms(rule: Rule) -> Iterator[Term]:
    if isinstance(rule.head, Function):
        yield from rule.head.args
    for lit in rule.body:
        yield from _literal_terms(lit)


def arity_consistency_problems(description: GameDescription) -> list[Problem]:
    """A relation, or a function symbol, used with different numbers of arguments."""
    out = []
    relations: dict[str, tuple[int, Location | None]] = {}
    functions: dict[str, tuple[int, Location | None]] = {}
    reported: set[tuple[str, str]] = set()

    def see(kind: str, table: dict[str, tuple[int, Location | None]], name: str, arity: int,
            loc: Location | None, term: Term) -> None:
        first = table.setdefault(name, (arity, loc))
        if first[0] != arity and (kind, name) not in reported:
            reported.add((kind, name))
            where = f" (line {first[1].line})" if first[1] else ""
            out.append(Problem(loc or Location(description.source, 1, 1),
                               f"{kind} '{name}' is used with {_args(arity)} in {term} but with "
                               f"{_args(first[0])} elsewhere{where}", "warning"))

    for rule in description.rules:
        atoms = [rule.head] + [atom for lit in rule.body for atom, _ in body_atoms(lit)]
        for atom in atoms:
            if atom.name not in KEYWORDS:
                see("relation", relations, atom.name, sentence_name(atom)[1], atom.loc or rule.loc, atom)
        for term in _rule_terms(rule):
            for fn in _subterms(term):
                see("function", functions, fn.name, fn.arity, fn.loc or rule.loc, fn)
    return out


def undefined_relation_problems(graph: DependencyGraph) -> list[Problem]:
    """A relation used in a rule body that no rule defines (so it is never true)."""
    out = []
    for rel, uses in graph.uses.items():
        if rel[0] in KEYWORDS or rel in graph.definitions:
            continue
        use = uses[0]
        out.append(Problem(use.atom.loc or use.rule.loc or Location(None, 1, 1),
                           f"no rule defines {rel[0]} with {_args(rel[1])}, so {use.atom} is never true",
                           "warning"))
    return out


def misspelt_relation_problems(graph: DependencyGraph) -> list[Problem]:
    """A relation defined but never used whose name is close to one that is used: a likely typo."""
    out = []
    used = sorted({rel[0] for rel in graph.uses if rel[0] not in KEYWORDS})
    for rel, rules in graph.definitions.items():
        if rel[0] in KEYWORDS or rel in graph.uses:
            continue
        close = difflib.get_close_matches(rel[0], [u for u in used if u != rel[0]], n=1, cutoff=0.85)
        if close:
            rule = rules[0]
            out.append(Problem(rule.head.loc or rule.loc or Location(None, 1, 1),
                               f"relation '{rel[0]}' is defined but never used: is it a misspelling of "
                               f"'{close[0]}'?", "warning"))
    return out


def unused_relation_problems(graph: DependencyGraph) -> list[Problem]:
    """A relation defined by rules with a body that nothing uses: its rules have no effect (a
    relation that is close to a used name is reported as a likely misspelling instead)."""
    out = []
    used = sorted({rel[0] for rel in graph.uses if rel[0] not in KEYWORDS})
    for rel, rules in graph.definitions.items():
        if rel[0] in KEYWORDS or rel[0] in EXTENSIONS or rel in graph.uses or not any(r.body for r in rules):
            continue
        if difflib.get_close_matches(rel[0], [u for u in used if u != rel[0]], n=1, cutoff=0.85):
            continue  # misspelt_relation_problems
        rule = rules[0]
        out.append(Problem(rule.head.loc or rule.loc or Location(None, 1, 1),
                           f"relation '{rel[0]}' is defined but never used: its rules have no effect", "warning"))
    return out


def name_problems(description: GameDescription, graph: DependencyGraph, complete: bool = True) -> list[Problem]:
    """Every arity and (when the rules are ``complete``) undefined-relation problem of ``description``."""
    problems = (arity_consistency_problems(description) + misspelt_relation_problems(graph)
                + unused_relation_problems(graph))
    return problems + undefined_relation_problems(graph) if complete else problems
