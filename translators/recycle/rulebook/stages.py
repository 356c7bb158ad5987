"""One relation per stage for the resolved control values.

The control rules speak of ``(rseat STAGE SEAT)`` (and ``rnext``, ``rtseat``, ``rtnext``,
``rqueue``, ``hasrqueue``). With one relation for every stage, a condition that reads one
stage's seat and decides another stage's seat looks, relation by relation, like a relation
depending on itself through ``not``: the rules are stratified instance by instance, but
validators (and the grounder's dependency analysis) see a cycle. Splitting the relations by
stage, ``(rseat_s4 SEAT)``, removes the false cycles: a rule written for every stage (a
variable stage) is instantiated for each stage.
"""

from __future__ import annotations

from ggp.gdl.rules import Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

#: The control relations whose first argument is a stage.
STAGED = frozenset({"rseat", "rnext", "rtseat", "rtnext", "rqueue", "hasrqueue"})


def stages_of(rules: list[Rule]) -> list[str]:
    """The stages the staged relations are used with."""
    return sorted({atom.args[0].name for r in rules for atom in _atoms(r) if isinstance(atom.args[0], Constant)})


def split_by_stage(rules: list[Rule], stages: list[str]) -> list[Rule]:
    """The rules with every staged relation split into one relation per stage (a rule over a
    variable stage instantiated for each of ``stages``)."""
    out: list[Rule] = []
    for r in rules:
        atoms = _atoms(r)
        if not atoms:
            out.append(r)
            continue
        free = sorted({atom.args[0] for atom in atoms if isinstance(atom.args[0], Variable)},
                      key=lambda v: v.name)
        if not free:
            out.append(_rename(r))
            continue
        if len(free) > 1:
            raise ValueError(f"a control rule over two stage variables: {r}")
        for stage in stages:
            out.append(_rename(_subst(r, {free[0]: Constant(stage)})))
    return out


def drop_undefined(groups: list[list[Rule]]) -> list[list[Rule]]:
    """Without the rules that need a relation no rule defines (such as instances of a rule over a
    variable stage for a stage it does not apply to, or a table of a kind the game has none of),
    and without ``not`` of such relations (always true); to a fixed point."""
    from collections import Counter

    given = {"true", "does"}

    def names(r: Rule, positive: bool) -> list[str]:
        lits = [b for b in r.body if not isinstance(b, Not)] if positive else \
            [b.literal for b in r.body if isinstance(b, Not)]
        return [x.name for x in lits
                if isinstance(x, (Constant, Function)) and not isinstance(x, Distinct) and x.name not in given]

    heads = Counter(r.head.name for rules in groups for r in rules)
    users: dict[str, list[Rule]] = {}
    for rules in groups:
        for r in rules:
            for n in names(r, True):
                users.setdefault(n, []).append(r)
    gone: set[int] = set()
    todo = [n for n in users if not heads[n]]
    while todo:
        for r in users.pop(todo.pop(), []):
            if id(r) in gone:
                continue
            gone.add(id(r))
            heads[r.head.name] -= 1
            if not heads[r.head.name] and r.head.name in users:
                todo.append(r.head.name)
    out = []
    for rules in groups:
        kept = []
        for r in rules:
            if id(r) in gone:
                continue
            if any(not heads[n] for n in names(r, False)):
                body = tuple(b for b in r.body if not (isinstance(b, Not) and isinstance(b.literal, (Constant, Function))
                                                       and b.literal.name not in given and not heads[b.literal.name]))
                r = Rule(r.head, body, r.loc)
            kept.append(r)
        out.append(kept)
    return out


def _atoms(r: Rule) -> list[Function]:
    found: list[Function] = []
    todo: list[Literal] = [r.head, *r.body]
    while todo:
        lit = todo.pop()
        if isinstance(lit, Function):
            if lit.name in STAGED and lit.args:
                found.append(lit)
        elif isinstance(lit, Not):
            todo.append(lit.literal)
        elif isinstance(lit, Or):
            todo.extend(lit.literals)
    found.reverse()  # in the order of the rule
    return found


def _subst(r: Rule, binding: dict[Variable, Term]) -> Rule:
    def lit(x: Literal) -> Literal:
        if isinstance(x, Not):
            return Not(lit(x.literal), x.loc)
        if isinstance(x, Or):
            return Or(tuple(lit(p) for p in x.literals), x.loc)
        if isinstance(x, Distinct):
            return Distinct(x.left.substitute(binding), x.right.substitute(binding), x.loc)
        return x.substitute(binding)  # type: ignore[return-value]

    head = r.head.substitute(binding)
    assert isinstance(head, (Constant, Function))
    return Rule(head, tuple(lit(b) for b in r.body), r.loc)


def _rename(r: Rule) -> Rule:
    def atom(x: Literal) -> Literal:
        if isinstance(x, Not):
            return Not(atom(x.literal), x.loc)
        if isinstance(x, Or):
            return Or(tuple(atom(p) for p in x.literals), x.loc)
        if isinstance(x, Function) and x.name in STAGED and x.args and isinstance(x.args[0], Constant):
            name = f"{x.name}_{x.args[0].name}"
            return Function(name, x.args[1:], x.loc) if len(x.args) > 1 else Constant(name, x.loc)
        return x

    head = atom(r.head)
    assert isinstance(head, (Constant, Function))
    return Rule(head, tuple(atom(b) for b in r.body), r.loc)


__all__ = ["STAGED", "drop_undefined", "split_by_stage", "stages_of"]
