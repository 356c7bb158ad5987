"""Merging relations that say the same thing.

Unrolling (``all player 'P ...``) and auxiliary relations made in different places leave
relations with the same definition. Two passes, repeated until nothing changes:

- **Equal definitions**: relations whose rules are the same up to the names of their variables
  are one relation; every use of the others reads the first.
- **Equal up to a seat**: relations whose rules are the same but for one constant of a domain
  (a seat ``player0``, ``player1``... or a team), one relation each, become one relation with
  that constant as a first argument: ``some_1`` (player0's hand is not empty) and ``some_2``
  (player1's) become ``(some_1 player0)`` and ``(some_1 player1)``. Where the constant was
  only in negative literals, the domain's relation (``(seat ?d)``) binds the new variable.

The meaning of every kept relation is unchanged, and grounding yields the same atoms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import networkx as nx

from ggp.gdl.rules import KEYWORDS, Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

Group = tuple[str, list[Rule]]

#: The placeholder of the head in a canonical rule, and of a domain constant.
_HEAD = "\u00a7head"
_HOLE = Constant("\u00a7hole")


def merge(groups: list[Group], domains: Mapping[str, Iterable[str]], keep: Iterable[str] = ()) -> list[Group]:
    """``groups`` with relations that say the same thing merged (see the module doc).
    ``domains`` maps a domain relation (``seat``, ``team``) to its constants.

    Relations are decided level by level (a relation after every relation it reads), so one
    pass finds what merging the ones below makes equal; relations on a cycle of several stay as
    they are (one that reads itself is compared with its reads of itself as reads of the head).
    """
    kept = set(keep) | set(KEYWORDS) | set(domains)
    member = {value: domain for domain, values in domains.items() for value in values}
    by_name: dict[str, list[Rule]] = {}
    for _, rs in groups:
        for r in rs:
            by_name.setdefault(r.head.name, []).append(r)
    defined = set(by_name)
    reads = {name: {a.name for r in rs for lit in r.body for a in _atoms(lit)} & defined
             for name, rs in by_name.items()}
    levels = _levels(reads)
    renames: dict[str, str] = {}
    lifted: dict[str, tuple[str, Constant, str, bool]] = {}
    memo: dict[int, frozenset[str]] = {}  # by id: every rule stays alive until the end
    by_level: dict[int, list[str]] = {}
    for n, v in levels.items():
        if v is not None and n not in kept:
            by_level.setdefault(v, []).append(n)
    for level in sorted(by_level):
        names = sorted(by_level[level])
        touched = renames.keys() | lifted.keys()
        current = {n: [_rename_uses(r, renames, lifted) if not touched.isdisjoint(_reads(r, memo)) else r
                       for r in by_name[n]] for n in names}
        found = _equal(current, kept, _canonical)
        renames.update(found)
        rest = {n: rs for n, rs in current.items() if n not in found}
        lifted.update(_up_to_constant(rest, kept, member, _canonical))
    if not renames and not lifted:
        return groups
    out = _rewrite(groups, renames, lifted, memo)
    # a relation lifted over a domain reads it: its facts stay (or come back, when a pass before
    # pruned them as unread)
    lifted_over = {domain for _, _, domain, _ in lifted.values()} - defined
    missing = sorted(d for d in lifted_over if any(a.name == d for _, rs in out for r in rs for lit in r.body
                                                    for a in _atoms(lit)))
    if missing:
        out.append(("the domains merged relations range over",
                    [Rule(Function(d, (Constant(value),))) for d in missing for value in domains[d]]))
    return out


def _levels(reads: Mapping[str, set[str]]) -> dict[str, int | None]:
    """Each relation's depth: 0 when it reads no relation of the rules, else one more than the
    deepest it reads; None for relations on a cycle of several (a relation reading only itself,
    as a chain ``(count_trick ?d 5 ?n)`` from ``(count_trick ?d 4 ?n)``, has a depth)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(reads)
    graph.add_edges_from((d, name) for name, below in reads.items() for d in below)
    dag = nx.condensation(graph)
    depth: dict[int, int] = {}
    for node in nx.topological_sort(dag):
        depth[node] = 1 + max((depth[p] for p in dag.predecessors(node)), default=-1)
    out: dict[str, int | None] = {}
    for node, data in dag.nodes(data=True):
        members = data["members"]
        recursive = len(members) > 1
        for m in members:
            out[m] = None if recursive else depth[node]
    return out


def _canonical(rules: list[Rule], hole: Constant | None = None) -> tuple[int, frozenset[str]] | None:
    """The rules of one relation with variables renamed in order of appearance, the head
    replaced (where the rules read their own relation too), and ``hole`` (if given) by a
    placeholder."""
    arity = len(rules[0].head.args) if isinstance(rules[0].head, Function) else 0
    out = []
    for r in rules:
        names: dict[Variable, Variable] = {}

        def term(t: Term) -> Term:
            if isinstance(t, Variable):
                return names.setdefault(t, Variable(f"v{len(names)}"))
            if hole is not None and t == hole:
                return _HOLE
            if isinstance(t, Function):
                return Function(t.name, tuple(term(a) for a in t.args))
            return t

        head = Function(_HEAD, tuple(term(a) for a in r.head.args)) if arity else Constant(_HEAD)
        if any(a.name == r.head.name for lit in r.body for a in _atoms(lit)):
            r = _rename_uses(r, {r.head.name: _HEAD}, {})
        body = [str(_map(lit, term)) for lit in r.body]
        out.append(str(Rule(head, ())) + " :- " + " & ".join(body))
    return arity, frozenset(out)


Canonical = Callable[..., "tuple[int, frozenset[str]] | None"]


def _equal(by_name: dict[str, list[Rule]], kept: set[str], canonical: Canonical) -> dict[str, str]:
    first: dict[tuple[int, frozenset[str]], str] = {}
    renames: dict[str, str] = {}
    for name in sorted(by_name):
        if name in kept:
            continue
        key = canonical(by_name[name])
        if key is None:
            continue
        if key in first:
            renames[name] = first[key]
        else:
            first[key] = name
    return renames


def _up_to_constant(by_name: dict[str, list[Rule]], kept: set[str], member: dict[str, str],
                    canonical: Canonical) -> dict[str, tuple[str, Constant, str, bool]]:
    """Per relation to lift: (the relation it joins, its constant, the domain, whether the
    constant occurs in a positive body literal of every rule)."""
    buckets: dict[tuple[int, frozenset[str], str], list[tuple[str, Constant, bool]]] = {}
    for name in sorted(by_name):
        if name in kept:
            continue
        rules = by_name[name]
        constants = {t for r in rules for t in _constants(r) if t.name in member}
        if len(constants) != 1:
            continue
        (constant,) = constants
        key = canonical(rules, constant)
        if key is None:
            continue
        # a read of the relation itself will carry the constant once lifted
        positive = all(any(constant in _constants_of(lit) or lit.name == name for lit in r.body
                           if isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct))
                       for r in rules)
        buckets.setdefault((key[0], key[1], member[constant.name]), []).append((name, constant, positive))
    lifted: dict[str, tuple[str, Constant, str, bool]] = {}
    for (_, _, domain), found in buckets.items():
        if len(found) < 2 or len({c for _, c, _ in found}) != len(found):
            continue
        target = found[0][0]
        for name, constant, positive in found:
            lifted[name] = (target, constant, domain, positive)
    return lifted


def _rewrite(groups: list[Group], renames: dict[str, str], lifted: dict[str, tuple[str, Constant, str, bool]],
             memo: dict[int, frozenset[str]]) -> list[Group]:
    hole = Variable("d")
    touched = set(renames) | set(lifted)
    out: list[Group] = []
    for comment, rules in groups:
        new: list[Rule] = []
        for r in rules:
            name = r.head.name
            if name in renames:
                continue
            if name in lifted and lifted[name][0] != name:
                continue
            if not touched.isdisjoint(_reads(r, memo)):
                r = _rename_uses(r, renames, lifted)
            if name in lifted:  # after the uses are renamed, as when the rules were compared
                _, constant, domain, positive = lifted[name]
                r = _lift_rule(r, constant, hole, domain, positive)
            new.append(r)
        out.append((comment, new))
    return out


def _reads(r: Rule, memo: dict[int, frozenset[str]]) -> frozenset[str]:
    """The relations a rule's body reads (remembered in ``memo`` by the rule's id)."""
    found = memo.get(id(r))
    if found is None:
        found = memo[id(r)] = frozenset(a.name for lit in r.body for a in _atoms(lit))
    return found


def _lift_rule(r: Rule, constant: Constant, var: Variable, domain: str, positive: bool) -> Rule:
    """``r`` with ``constant`` made the new first argument ``var`` of its head."""
    used = {v.name for lit in r.body for v in lit.variables()} | {v.name for v in r.head.variables()}
    while var.name in used:
        var = Variable(var.name + "d")

    def term(t: Term) -> Term:
        if t == constant:
            return var
        if isinstance(t, Function):
            return Function(t.name, tuple(term(a) for a in t.args))
        return t

    head = Function(r.head.name, (var, *(term(a) for a in r.head.args)))
    body = [_map(lit, term) for lit in r.body]
    if not positive:
        body.insert(0, Function(domain, (var,)))
    return Rule(head, tuple(body), r.loc)


def _rename_uses(r: Rule, renames: dict[str, str], lifted: dict[str, tuple[str, Constant, str, bool]]) -> Rule:
    def atom(a: Function | Constant) -> Function | Constant:
        if a.name in renames:
            a = Function(renames[a.name], a.args) if isinstance(a, Function) else Constant(renames[a.name])
        if a.name in lifted:
            target, constant, _, _ = lifted[a.name]
            return Function(target, (constant, *a.args))
        return a

    def literal(lit: Literal) -> Literal:
        if isinstance(lit, Not):
            return Not(literal(lit.literal))
        if isinstance(lit, Or):
            return Or(tuple(literal(p) for p in lit.literals))
        if isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct):
            return atom(lit)
        return lit

    body = tuple(literal(lit) for lit in r.body)
    return r if body == r.body else Rule(r.head, body, r.loc)


def _atoms(lit: Literal) -> list[Function | Constant]:
    if isinstance(lit, Not):
        return _atoms(lit.literal)
    if isinstance(lit, Or):
        return [a for p in lit.literals for a in _atoms(p)]
    if isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct):
        return [lit]
    return []


def _map(lit: Literal, term: Callable[[Term], Term]) -> Literal:
    """``lit`` with ``term`` applied to every argument of its atoms (and distinct's sides)."""
    if isinstance(lit, Not):
        return Not(_map(lit.literal, term))
    if isinstance(lit, Or):
        return Or(tuple(_map(p, term) for p in lit.literals))
    if isinstance(lit, Distinct):
        return Distinct(term(lit.left), term(lit.right))
    if isinstance(lit, Function):
        return Function(lit.name, tuple(term(x) for x in lit.args))
    return lit


def _constants(r: Rule) -> set[Constant]:
    found = _constants_of(r.head)
    for lit in r.body:
        found |= _constants_of(lit)
    return found


def _constants_of(item: object) -> set[Constant]:
    if isinstance(item, Not):
        return _constants_of(item.literal)
    if isinstance(item, Or):
        return {c for p in item.literals for c in _constants_of(p)}
    if isinstance(item, Distinct):
        return _constants_of(item.left) | _constants_of(item.right)
    if isinstance(item, Function):
        return {c for a in item.args for c in _term_constants(a)}
    return set()


def _term_constants(t: Term) -> set[Constant]:
    if isinstance(t, Constant):
        return {t}
    if isinstance(t, Function):
        return {c for a in t.args for c in _term_constants(a)}
    return set()


__all__ = ["merge"]
