"""Recursion checks: negation must be stratified, and recursion must obey GDL's restriction.

Stratification is checked on the relation dependency graph (:mod:`ggp.gdl.dependencies`). A
cycle through ``not`` between relations is then looked for between the rules themselves (an edge
from rule A to rule B when A's head unifies with an atom of B's body): if the rules have such a
cycle too, the negation is genuinely circular (error); if not, as in
``(<= (goal ?r 0) (not (goal ?r 100)))``, each instance depends only on other instances and the
meaning is clear (warning).

The recursion restriction (as ggp-base's validator reads it): in a rule whose head relation is
recursive together with a positive body atom, every argument of that atom is ground, is an
argument of the head, or has all its variables in positive atoms of non-recursive relations.
Breaking it is harmless when no rule of the recursion builds a compound term that is not already
in its body; otherwise the recursion can build ever larger terms. Either way it is a warning, as
clingo and other systems play such rules when they ground finitely (a guard, a state, a negation
stops the recursion); the reasoners then ground them within a budget and fail with an error
naming the recursion (:func:`term_building_recursions`) when they do not.
"""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx

from ggp.errors import Location, Problem
from ggp.gdl.dependencies import DependencyGraph, Relation, body_atoms
from ggp.gdl.rules import Distinct, Rule
from ggp.gdl.safety import alternatives
from ggp.gdl.terms import Constant, Function, Term, sentence_name
from ggp.gdl.unify import rename_apart, unify

Atom = Constant | Function


def _cycle_text(graph: DependencyGraph, cycle: list[Relation]) -> str:
    parts = [graph.label(cycle[0]), f"(not {graph.label(cycle[1])})"] + [graph.label(r) for r in cycle[2:]]
    return " -> ".join(parts)


def _negative_use(graph: DependencyGraph, head: Relation, used: Relation) -> tuple[Rule, Atom] | None:
    for use in graph.uses.get(used, []):
        if use.negative and sentence_name(use.rule.head) == head:
            return use.rule, use.atom
    return None


def _rule_level_negative_cycle(rules: list[Rule], component: set[Relation]) -> tuple[Rule, Atom] | None:
    """A negative body atom on a cycle of rules (heads unifying with body atoms), if any."""
    mine = [r for r in rules if sentence_name(r.head) in component]
    g = nx.DiGraph()
    negative: dict[tuple[int, int], tuple[Rule, Atom]] = {}
    by_head: dict[Relation, list[tuple[int, Term]]] = {}
    for a, other in enumerate(mine):
        by_head.setdefault(sentence_name(other.head), []).append((a, rename_apart(other.head, "\0")))
    for b, rule in enumerate(mine):
        for lit in rule.body:
            for atom, neg in body_atoms(lit):
                rel = sentence_name(atom)
                if rel not in component:
                    continue
                for a, head in by_head.get(rel, ()):
                    if unify(head, atom) is not None:
                        g.add_edge(a, b)
                        if neg:
                            negative.setdefault((a, b), (rule, atom))
    for comp in nx.strongly_connected_components(g):
        for (a, b), found in negative.items():
            if a in comp and b in comp:
                return found
    return None


def negation_problems(rules: list[Rule], graph: DependencyGraph) -> list[Problem]:
    """Recursion through ``not``: an error when rules depend on their own negation, else a warning."""
    out = []
    for cycle in graph.negative_cycles():
        component = next(c for c in graph.components() if cycle[0] in c)
        genuine = _rule_level_negative_cycle(rules, component)
        if genuine is not None:
            rule, atom = genuine
            head, used = sentence_name(rule.head), sentence_name(atom)
            text = _cycle_text(graph, [head] + graph.dependency_path(used, head))
            out.append(Problem(atom.loc or rule.loc or Location(None, 1, 1),
                               f"recursion through 'not': {rule.head.name} depends on (not {atom}), which depends on "
                               f"{rule.head.name} again (cycle {text}); GDL requires negation to be stratified"))
        else:
            text = _cycle_text(graph, cycle)
            found = _negative_use(graph, cycle[0], cycle[1])
            assert found is not None
            rule, atom = found
            out.append(Problem(atom.loc or rule.loc or Location(None, 1, 1),
                               f"'{cycle[0][0]}' depends on (not {atom}) and through it on itself (cycle {text}), "
                               "which GDL forbids between relations; no rule instance depends on its own negation, "
                               "so the meaning is clear", "warning"))
    return out


def _compound_subterms(term: Term) -> Iterator[Function]:
    if isinstance(term, Function):
        yield term
        for arg in term.args:
            yield from _compound_subterms(arg)


def _builds_terms(rule: Rule) -> Function | None:
    """A non-ground compound term of the head that no positive body atom contains, if any."""
    contained: set[Term] = set()
    for alt in alternatives(rule.body):
        for el in alt:
            if el.positive and not isinstance(el.literal, Distinct):
                contained.update(_compound_subterms(el.literal))
    args = rule.head.args if isinstance(rule.head, Function) else ()
    for arg in args:
        for sub in _compound_subterms(arg):
            if not sub.is_ground and sub not in contained:
                return sub
    return None


def _builders(rules: list[Rule], component: dict[Relation, int]) -> dict[int, tuple[Rule, Function]]:
    """Per recursive component, a rule of it that builds a new compound term, and that term."""
    builders: dict[int, tuple[Rule, Function]] = {}
    for rule in rules:
        comp = component.get(sentence_name(rule.head))
        built = _builds_terms(rule) if comp is not None else None
        if comp is not None and built is not None:
            builders.setdefault(comp, (rule, built))
    return builders


def term_building_recursions(rules: list[Rule]) -> list[tuple[Rule, Function]]:
    """The recursions that may build ever larger terms: one rule of each, with the term it builds.

    Grounding such rules may not end; reasoners ground them within a budget.
    """
    graph = DependencyGraph.build(rules)
    return list(_builders(rules, graph.component_of()).values())


def recursion_problems(rules: list[Rule], graph: DependencyGraph) -> list[Problem]:
    """Breaches of GDL's recursion restriction (warnings)."""
    out = []
    component = graph.component_of()
    recursive = set(component)
    builders = _builders(rules, component)
    seen: set[tuple[int, int, int]] = set()
    for rule in rules:
        head_rel = sentence_name(rule.head)
        comp = component.get(head_rel)
        if comp is None:
            continue
        head_args = rule.head.args if isinstance(rule.head, Function) else ()
        for alt in alternatives(rule.body):
            positives = [el for el in alt if el.positive and not isinstance(el.literal, Distinct)]
            outside = {v for el in positives if sentence_name(el.literal) not in recursive  # type: ignore[arg-type]
                       for v in el.literal.variables()}
            for el in positives:
                atom = el.literal
                assert isinstance(atom, (Constant, Function))
                if component.get(sentence_name(atom)) != comp or not isinstance(atom, Function):
                    continue
                for i, arg in enumerate(atom.args):
                    if arg.is_ground or arg in head_args or set(arg.variables()) <= outside:
                        continue
                    key = (id(rule), el.occurrence, i)
                    if key in seen:
                        continue
                    seen.add(key)
                    builder = builders.get(comp)
                    base = (f"recursion restriction: {arg} in the recursive literal {atom} must be ground, an "
                            "argument of the head, or appear in a positive literal of a non-recursive relation")
                    if builder is None:
                        why = "; harmless here, as the recursion builds no new terms"
                    else:
                        why = (f"; the recursion builds ever larger terms such as {builder[1]}: the game plays "
                               "if they stay finitely many (the reasoners stop with an error if not)")
                    out.append(Problem(arg.loc or atom.loc or Location(None, 1, 1), base + why, "warning"))
    return out
