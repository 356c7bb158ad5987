"""Body order for top-down provers: no left recursion, and binders before negations.

clingo grounds bottom-up and ignores the order of a body; the GameController's prover (and so
HyperPlay) evaluates a body left to right and does not table calls in progress, so a recursive
literal reached with an argument unbound, as in ``(<= (pot_range ?y) (pot_range ?x) (succ ?x ?y)
(distinct ?x 1))``, calls itself for ever. This pass moves, in every rule whose first positive
literal reads a relation of its own recursive component, the positive literals of other
relations first (in their order), so that they bind the recursive call's arguments:
``(<= (pot_range ?y) (succ ?x ?y) (pot_range ?x) (distinct ?x 1))``. A chain whose call names another constant position of the
head (``(sum_hand 2 ?n) <= (sum_hand 1 ?m) ...``) is left as written: the call cannot reach its
own rule. A rule whose body is its head, ``(<= (plus ?x ?y ?z) (plus ?x ?y ?z))`` (what merging
a table defined by ``plus`` into ``plus`` leaves), says nothing and is dropped: the prover would
call it for ever. The meaning of the rules is unchanged.
"""

from __future__ import annotations

import networkx as nx

from ggp.gdl.dependencies import body_atoms
from ggp.gdl.rules import Distinct, Literal, Rule, literal_variables
from ggp.gdl.terms import Constant, Function, Variable

Group = tuple[str, list[Rule]]


def no_left_recursion(groups: list[Group]) -> list[Group]:
    """``groups`` with the bodies of recursive rules reordered (see the module doc)."""
    graph = nx.DiGraph()
    for _, rules in groups:
        for r in rules:
            graph.add_node(r.head.name)
            for lit in r.body:
                for name in _names(lit):
                    graph.add_edge(r.head.name, name)
    component: dict[str, int] = {}
    for index, members in enumerate(nx.strongly_connected_components(graph)):
        if len(members) > 1 or any(graph.has_edge(m, m) for m in members):
            for m in members:
                component[m] = index
    if not component:
        return groups
    out: list[Group] = []
    for comment, rules in groups:
        out.append((comment, [_reordered(r, component) for r in rules if r.body != (r.head,)]))
    return out


def binders_first(groups: list[Group]) -> list[Group]:
    """``groups`` with each negation and ``distinct`` moved after the positive literals that
    bind its variables (where it came before one): a top-down prover evaluates ``(not (true (str
    game trump ?s)))`` with ``?s`` unbound as "no trump at all", clingo as "not this one"."""
    return [(comment, [_bound_first(r) for r in rules]) for comment, rules in groups]


def _bound_first(r: Rule) -> Rule:
    body: list[Literal] = []
    waiting: list[Literal] = []
    bound: set[Variable] = set()
    for lit in r.body:
        if not _positive(lit):
            (body if set(literal_variables(lit)) <= bound else waiting).append(lit)
            continue
        body.append(lit)
        bound |= set(literal_variables(lit))
        ready = [w for w in waiting if set(literal_variables(w)) <= bound]
        body += ready
        waiting = [w for w in waiting if w not in ready]
    new = tuple(body + waiting)
    return r if new == r.body else Rule(r.head, new, r.loc)


def _reordered(r: Rule, component: dict[str, int]) -> Rule:
    own = component.get(r.head.name)
    if own is None:
        return r

    def recursive(lit: Literal) -> bool:
        return any(component.get(name) == own for name in _names(lit))

    positives = [lit for lit in r.body if _positive(lit)]
    if not positives or not recursive(positives[0]) or _indexed(r.head, positives[0]):
        return r  # no left recursion: a literal of another relation is called first
    first = [lit for lit in r.body if _positive(lit) and not recursive(lit)]
    rest = [lit for lit in r.body if not (_positive(lit) and not recursive(lit))]
    body = tuple(first + rest)
    return r if body == r.body else Rule(r.head, body, r.loc)


def _indexed(head: Function | Constant, lit: Literal) -> bool:
    """Whether ``lit`` calls the head's relation at another constant of one argument (a chain
    ``(sum_hand 2 ?n) <= (sum_hand 1 ?m) ...``: the call cannot match its own rule)."""
    if not (isinstance(lit, Function) and isinstance(head, Function) and lit.name == head.name):
        return False
    return any(isinstance(a, Constant) and isinstance(b, Constant) and a != b for a, b in zip(head.args, lit.args))


def _positive(lit: Literal) -> bool:
    return isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct)


def _names(lit: Literal) -> list[str]:
    """The relations a literal reads (``true`` and ``does`` are the state and the moves)."""
    return [atom.name for atom, _ in body_atoms(lit) if atom.name not in ("true", "does")]


__all__ = ["binders_first", "no_left_recursion"]
