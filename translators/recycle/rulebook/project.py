"""Projection: a variable that only some literals of a rule share is grounded apart from the rest.

In ``(<= (move_all 0 ?c ?f L) (chose ?p ?s) (setcard ?s ?c) (true (at ?c ?f)))`` the set ``?s``
is read by two literals only, yet grounding the rule joins every set chosen with every card of
it and every place of that card. The literals reading such a *local* variable (not in the head),
one of them not a fact (two such, joined apart from what else narrows them, can make more
instances, not fewer), become a relation of their other variables, defined once and used in
their place::

    (<= (taken ?p ?c) (chose ?p ?s) (setcard ?s ?c))
    (<= (move_all 0 ?c ?f L) (taken ?p ?c) (true (at ?c ?f)))

An existential projection: the rule holds in exactly the same cases. Only where the rule has
variables the literals do not read (else there is no join to spare); the positive literals of
the rule over none but the literals' variables go into the new relation too (they narrow it as
they narrowed the rule) and stay where they were. Never through a literal whose relation
depends on the rule's own (no recursion is made) and never in a recursive rule (a top-down
prover reads it with the bindings its order gives), and the literals must bind every variable
of their negations and ``distinct``. Alike projections share one relation (``proj_N``).

Run on the translator's rules after inlining and merging (the pass that names relations then
reads words off the new ones). Any GDL game's rules can be projected the same way, but the
reasoner does not: on the corpus's tic-tac-toe, connect four and breakthrough the fast and
compiled reasoners ran 1.2 to 2.4 times slower on the projected rules (more atoms to evaluate
at every state, for joins that were small), where the translated card games ran faster
(Stealing Bundles for 4: 12 -> 52 compiled playouts a second).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ggp.gdl.dependencies import DependencyGraph, body_atoms
from ggp.gdl.rules import KEYWORDS, Literal, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable, sentence_name
from translators.recycle.rulebook.inline import substitute

#: The prefix of a projection's relation.
PREFIX = "proj"


def project_rules(rules: Sequence[Rule], keep: Iterable[str] = ()) -> list[Rule]:
    """``rules`` with every projection the module doc describes made (``keep``: relations
    besides GDL's keywords never projected into, as they are read from outside)."""
    return project_groups([rules], keep)[0]


def project_groups(groups: Sequence[Sequence[Rule]], keep: Iterable[str] = ()) -> list[list[Rule]]:
    """:func:`project_rules` over rules kept in groups (a translation's commented groups): each
    new relation's rule comes just before the first rule using it, and is read where the first
    literal it replaces was (a top-down prover reads a body in order)."""
    rules = [r for rs in groups for r in rs]
    deps = DependencyGraph.build(rules)
    recursive = set(deps.component_of())
    facts = {r.head.name for r in rules if not r.body} - {r.head.name for r in rules if r.body}
    taken = {name for name, _ in deps.graph.nodes} | set(keep) | set(KEYWORDS)
    made: dict[tuple[str, ...], str] = {}
    counters = [0]
    out: list[list[Rule]] = []
    for rs in groups:
        new: list[Rule] = []
        for r in rs:
            while sentence_name(r.head) not in recursive:  # a recursive rule stays whole
                found = _projection(r, deps, facts)
                if found is None:
                    break
                cluster, guards, outer = found
                use, fresh = _relation(cluster + guards, outer, made, taken, counters)
                if fresh is not None:
                    new.append(fresh)
                first = next(i for i, lit in enumerate(r.body) if any(lit is c for c in cluster))
                body = [lit for lit in r.body if not any(lit is c for c in cluster)]
                body.insert(first, use)
                r = Rule(r.head, tuple(body), r.loc)
            new.append(r)
        out.append(new)
    return out


def _vars(item: Literal | Term) -> set[Variable]:
    return set(item.variables())


def _projection(r: Rule, deps: DependencyGraph, facts: set[str]) -> tuple[list[Literal], list[Literal], list[Variable]] | None:
    """The literals reading the first variable worth projecting, the positive literals narrowing
    them, and their variables used elsewhere (in order); None when there is none."""
    head_vars = _vars(r.head)
    head = sentence_name(r.head)

    def reads_head(atom: Function | Constant) -> bool:
        return sentence_name(atom) == head or deps.depends_on(sentence_name(atom), head)

    every = head_vars.union(*(_vars(lit) for lit in r.body))
    order = list(dict.fromkeys(v for lit in r.body for v in lit.variables()))
    for var in order:
        if var in head_vars:
            continue
        cluster = [lit for lit in r.body if var in _vars(lit)]
        if sum(not (isinstance(lit, (Function, Constant)) and lit.name in facts) for lit in cluster) != 1:
            continue  # two changing literals joined apart from the rest may make more, not fewer
        if any(reads_head(atom) for lit in cluster for atom, _ in body_atoms(lit)):
            continue
        inner = set().union(*(_vars(lit) for lit in cluster))
        if inner >= every:
            continue  # nothing else to join with
        bound = set().union(*(_vars(lit) for lit in cluster if isinstance(lit, (Function, Constant))))
        if not inner <= bound:
            continue  # a negation or ``distinct`` would be unsafe on its own
        rest = [lit for lit in r.body if not any(lit is c for c in cluster)]
        outside = head_vars.union(*(_vars(lit) for lit in rest))
        guards: list[Literal] = [lit for lit in rest if isinstance(lit, (Function, Constant)) and _vars(lit)
                  and _vars(lit) <= inner and lit.name not in KEYWORDS - {"true", "does"}
                  and not reads_head(lit)]
        outer = [v for v in order if v in inner and v in outside]
        return cluster, guards, outer
    return None


def _relation(body: list[Literal], outer: list[Variable], made: dict[tuple[str, ...], str], taken: set[str],
              counters: list[int]) -> tuple[Function | Constant, Rule | None]:
    """The use of the projection of ``body`` onto ``outer``, and its defining rule when it is
    new (alike bodies, up to their variables' names, share one)."""
    names: dict[Variable, Variable] = {v: Variable(f"x{i}") for i, v in enumerate(outer)}
    for lit in body:
        for v in lit.variables():
            names.setdefault(v, Variable(f"x{len(names)}"))
    renamed = [substitute(lit, dict(names)) for lit in body]  # one pass: new names may be old ones
    key = (str(len(outer)), *(str(lit) for lit in renamed))
    fresh = None
    if key not in made:
        while True:
            counters[0] += 1
            name = f"{PREFIX}_{counters[0]}"
            if name not in taken:
                break
        taken.add(name)
        made[key] = name
        params = tuple(names[v] for v in outer)
        fresh = Rule(Function(name, params) if params else Constant(name), tuple(renamed))
    use: Function | Constant = Function(made[key], tuple(outer)) if outer else Constant(made[key])
    return use, fresh


__all__ = ["PREFIX", "project_groups", "project_rules"]
