"""Repairs of slips whose meaning is clear, so that such games load and play as a reference manager plays them.

:func:`normalise` returns the repaired rules and one problem per slip: a warning where the
meaning is clear and the slip was repaired, an error where it is not. Repairs:

* ``(not (distinct s t))`` at the top of a body: the rule is instantiated with the most general
  unifier of ``s`` and ``t`` (dropped if there is none), which is what the author meant.
* An unsafe variable in the first argument of ``legal``, ``sees`` or ``goal``: a game manager asks
  these of each role, so the variable is restricted with ``(role ?v)``.
* An unsafe variable in a head argument that every use of the relation binds: the variable is
  restricted to the values it is used with (a ``REL__demandI`` relation defined from the uses),
  which is how a top-down (Prolog) reference manager reads such a rule.
* An unsafe variable that occurs only in one negated atom: read as "there is no such value", by
  moving the atom into a new relation ``REL__existsN`` of the atom's other variables.
* An unsafe variable of the head inside a term ``(f ... ?v ...)`` of the head, where ``f`` of that
  arity is also a relation of the game given by ground facts alone (``(legal random (deal (lead ?p)))`` beside the facts
  ``(lead player1)``, ``(lead player2)``): read as ranging over that relation, by adding the term
  to the body as a literal (the smallest such term).
* ``base``, ``input`` and ``percept`` declarations with unsafe variables: dropped (they are not
  needed to play; the reasoner then works the domains out itself).

Any other unsafe variable is an error: its rule has no finite meaning (a move, fluent or percept
with a variable nobody binds).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable

from ggp.errors import Location, Problem, Severity
from ggp.gdl.rules import (
    KEYWORDS,
    Distinct,
    GameDescription,
    Literal,
    Not,
    Or,
    Rule,
    literal_terms,
)
from ggp.gdl.safety import (
    Element,
    Unsafe,
    alternatives,
    bound_variables,
    unsafe_variables,
)
from ggp.gdl.terms import Constant, Function, Term, Variable, sentence_name
from ggp.gdl.unify import substitute_rule, unify

Relation = tuple[str, int]

#: Keywords a game manager asks of each role in turn: their first argument is always bound.
ASKED_PER_ROLE = frozenset({"legal", "sees", "goal"})
#: Keywords that only declare domains; a game plays without them.
DECLARATIONS = frozenset({"base", "input", "percept"})

_HEAD_TAILS = {
    "legal": "the moves it allows are not defined",
    "next": "the fluents it makes true are not defined",
    "init": "the initial state is not defined",
    "sees": "the percepts it gives are not defined",
    "goal": "the goal values it gives are not defined",
}

_UNSAFE = "it must appear in a positive literal of the rule body"


def _at(loc: Location | None, fallback: Location | None) -> Location:
    return loc or fallback or Location(None, 1, 1)


def _problem(loc: Location | None, rule: Rule, message: str, severity: Severity) -> Problem:
    return Problem(_at(loc, rule.loc), message, severity)


def _names(description: GameDescription) -> set[str]:
    """Every name in the rules (relations, functions, constants, variables), not to be reused."""
    names: set[str] = set()

    def walk(term: Term) -> None:
        names.add(term.name)
        for arg in term.args if isinstance(term, Function) else ():
            walk(arg)

    for rule in description.rules:
        walk(rule.head)
        for lit in rule.body:
            for term in literal_terms(lit):
                walk(term)
    return names


class _NameSupply:
    def __init__(self, taken: set[str]):
        self.taken = taken

    def fresh(self, base: str) -> str:
        for n in itertools.count(1):
            name = base if n == 1 else f"{base}_{n}"
            if name not in self.taken:
                self.taken.add(name)
                return name
        raise AssertionError("unreachable")


def _equalities(rule: Rule, problems: list[Problem]) -> Rule | None:
    """Substitute away top-level negated ``distinct``; warn about every negated ``distinct``."""
    for lit in rule.body:
        _warn_negated_distinct(lit, rule, problems)
    if not any(isinstance(lit, Not) and isinstance(lit.literal, Distinct) for lit in rule.body):
        return rule
    body: list[Literal] = []
    subst: dict[Variable, Term] | None = {}
    for lit in rule.body:
        if isinstance(lit, Not) and isinstance(lit.literal, Distinct):
            eq = lit.literal
            subst = unify(eq.left, eq.right, subst)
            if subst is None:
                problems.append(_problem(lit.loc, rule, f"{lit} can never hold, so this rule never applies", "warning"))
                return None
        else:
            body.append(lit)
    return substitute_rule(Rule(rule.head, tuple(body), rule.loc), subst or {})


def _warn_negated_distinct(lit: Literal, rule: Rule, problems: list[Problem]) -> None:
    if isinstance(lit, Not) and isinstance(lit.literal, Distinct):
        eq = lit.literal
        problems.append(_problem(lit.loc, rule, f"negated distinct {lit}: GDL does not allow 'not' on 'distinct'; "
                                 f"read as {eq.left} and {eq.right} being equal", "warning"))
    elif isinstance(lit, Not):
        _warn_negated_distinct(lit.literal, rule, problems)
    elif isinstance(lit, Or):
        for part in lit.literals:
            _warn_negated_distinct(part, rule, problems)


class _Demand:
    """Which head arguments of each relation are bound wherever the relation is asked."""

    def __init__(self, rules: list[Rule], names: _NameSupply):
        self.rules = rules
        self.names = names
        self.alts = [alternatives(r.body) for r in rules]
        self.uses: dict[Relation, list[tuple[int, int, Element]]] = defaultdict(list)
        relations = {sentence_name(r.head) for r in rules}
        for ri, alts in enumerate(self.alts):
            for ai, alt in enumerate(alts):
                for el in alt:
                    if not isinstance(el.literal, Distinct):
                        rel = sentence_name(el.literal)
                        relations.add(rel)
                        self.uses[rel].append((ri, ai, el))
        self.positions = self._fixpoint(relations)
        self.dom_names: dict[tuple[Relation, int], str] = {}
        self.pending: list[tuple[Relation, int]] = []

    def _initial(self, rel: Relation) -> set[int]:
        name, arity = rel
        if name in ASKED_PER_ROLE and arity == 2:
            return {0}
        if name in KEYWORDS or rel not in self.uses:
            return set()
        return set(range(arity))

    def _fixpoint(self, relations: Iterable[Relation]) -> dict[Relation, set[int]]:
        demand = {rel: self._initial(rel) for rel in relations}
        changed = True
        while changed:
            changed = False
            for rel, positions in demand.items():
                for ri, ai, el in self.uses.get(rel, ()):
                    if not positions:
                        break
                    bound = self._context_bound(ri, ai, el, demand)
                    args = el.literal.args if isinstance(el.literal, Function) else ()
                    for i in sorted(positions):
                        if not set(args[i].variables()) <= bound:
                            positions.discard(i)
                            changed = True
        return demand

    def _context_bound(self, ri: int, ai: int, el: Element, demand: dict[Relation, set[int]]) -> set[Variable]:
        rule = self.rules[ri]
        head_args = rule.head.args if isinstance(rule.head, Function) else ()
        extra = {v for j in demand.get(sentence_name(rule.head), ()) for v in head_args[j].variables()}
        others = [e for e in self.alts[ri][ai] if e.occurrence != el.occurrence]
        return bound_variables(others, extra)

    def demand_literal(self, rel: Relation, i: int, arg: Term, loc: Location | None) -> Function:
        """The literal restricting head argument ``i`` of ``rel`` to the values it is asked with."""
        if rel[0] in ASKED_PER_ROLE and i == 0:
            return Function("role", (arg,), loc)
        key = (rel, i)
        if key not in self.dom_names:
            self.dom_names[key] = self.names.fresh(f"{rel[0]}__demand{i}")
            self.pending.append(key)
        return Function(self.dom_names[key], (arg,), loc)

    def use_lines(self, rel: Relation) -> str:
        """The lines the relation is used on, for messages."""
        lines = sorted({el.literal.loc.line for _, _, el in self.uses.get(rel, ()) if el.literal.loc})
        text = ", ".join(str(n) for n in lines[:5]) + (", ..." if len(lines) > 5 else "")
        return ("lines " if len(lines) > 1 else "line ") + text

    def demand_rules(self) -> list[Rule]:
        """The rules defining every ``__demand`` relation handed out (and those they need)."""
        out: list[Rule] = []
        while self.pending:
            rel, i = self.pending.pop(0)
            name = self.dom_names[(rel, i)]
            for ri, ai, el in self.uses[rel]:
                rule = self.rules[ri]
                assert isinstance(el.literal, Function)
                arg = el.literal.args[i]
                others = [e for e in self.alts[ri][ai] if e.occurrence != el.occurrence]
                body: list[Literal] = [e.literal for e in others
                                       if e.positive and not isinstance(e.literal, Distinct)]
                need = set(arg.variables()) - bound_variables(others)
                head = rule.head
                head_rel = sentence_name(head)
                for j in sorted(self.positions.get(head_rel, ())):
                    assert isinstance(head, Function)
                    if need & set(head.args[j].variables()):
                        body.insert(0, self.demand_literal(head_rel, j, head.args[j], rule.loc))
                equalities = [e for e in others if not e.positive and isinstance(e.literal, Distinct)]
                bound = bound_variables([Element(True, b, -1) for b in body
                                         if not isinstance(b, (Not, Or, Distinct))] + equalities)
                body += [Not(e.literal, e.literal.loc) for e in equalities if set(e.literal.variables()) <= bound]
                out.append(Rule(Function(name, (arg,), rule.loc), tuple(body), rule.loc))
        return out


def _tables(rules: list[Rule]) -> dict[Relation, str]:
    """The relations (not GDL keywords) defined by ground facts alone, with where their first
    fact is ("line N"), for messages."""
    out: dict[Relation, str] = {}
    ruled: set[Relation] = set()
    for rule in rules:
        rel = sentence_name(rule.head)
        if rule.body or any(True for _ in rule.head.variables()):
            ruled.add(rel)
        elif rel[0] not in KEYWORDS and rel not in out:
            out[rel] = f"line {rule.loc.line}" if rule.loc else "a fact"
    return {rel: where for rel, where in out.items() if rel not in ruled}


def _occurrence_literals(rule: Rule, var: Variable) -> list[int]:
    return [k for k, lit in enumerate(rule.body) if var in set(lit.variables())]


class _Repairer:
    def __init__(self, rules: list[Rule], names: _NameSupply, problems: list[Problem]):
        self.rules = rules
        self._demand: _Demand | None = None
        self.names = names
        self.problems = problems
        self.extra: list[Rule] = []
        self.tables = _tables(rules)

    def _typing_term(self, head: Term, var: Variable) -> Function | None:
        """The smallest proper subterm of ``head`` holding ``var`` that names a table of facts of the game."""
        found: Function | None = None

        def walk(term: Term, top: bool) -> None:
            nonlocal found
            if not isinstance(term, Function) or var not in set(term.variables()):
                return
            for arg in term.args:
                walk(arg, False)
            if found is None and not top and sentence_name(term) in self.tables:
                found = term

        walk(head, True)
        return found

    @property
    def demand(self) -> _Demand:
        """The demand analysis, made when the first unsafe rule needs it (it is costly on big
        rule sets, and safe rule sets never need it)."""
        if self._demand is None:
            self._demand = _Demand(self.rules, self.names)
        return self._demand

    def warn(self, rule: Rule, u: Unsafe, how: str) -> None:
        self.problems.append(_problem(u.location, rule, f"{u.describe()}: {_UNSAFE}; {how}", "warning"))

    def fail(self, rule: Rule, u: Unsafe) -> None:
        tail = _HEAD_TAILS.get(rule.head.name) if u.kind == "head" else None
        message = f"{u.describe()}: {_UNSAFE}" + (f", or {tail}" if tail else "")
        self.problems.append(_problem(u.location, rule, message, "error"))

    def repair(self, rule: Rule) -> Rule:
        unsafe = unsafe_variables(rule)
        if not unsafe:
            return rule
        rel = sentence_name(rule.head)
        head_args = rule.head.args if isinstance(rule.head, Function) else ()
        positions = self.demand.positions.get(rel, set())
        chosen: dict[int, None] = {}
        for u in unsafe:
            if u.kind == "head" and not any(u.variable in set(head_args[i].variables()) for i in chosen):
                for i in sorted(positions):
                    if u.variable in set(head_args[i].variables()):
                        chosen[i] = None
                        break
        added = [self.demand.demand_literal(rel, i, head_args[i], rule.loc) for i in chosen]
        covered = {v for lit in added for v in lit.variables()}
        typed_vars: set[Variable] = set()
        for u in unsafe:
            if u.kind != "head" or u.variable in covered or u.variable in typed_vars:
                continue
            typed = self._typing_term(rule.head, u.variable)
            if typed is not None:
                added.append(typed)
                typed_vars |= set(typed.variables())
                self.warn(rule, u, f"read as ranging over the facts {typed} ({self.tables[sentence_name(typed)]}), "
                          "whose relation the term names")
        repaired = Rule(rule.head, tuple(added) + rule.body, rule.loc)
        exists: dict[int, list[Variable]] = defaultdict(list)
        failed = False
        for u in unsafe:
            if u.variable in typed_vars - covered:
                continue
            if u.variable in covered:
                if any(lit.name == "role" and u.variable in set(lit.variables()) for lit in added):
                    how = f"read as ranging over the roles, since a game manager asks ({rel[0]} ROLE ...) of each role"
                else:
                    how = f"read as taking only the values {rel[0]} is used with ({self.demand.use_lines(rel)})"
                self.warn(rule, u, how)
                continue
            where = _occurrence_literals(repaired, u.variable)
            lit = repaired.body[where[0]] if len(where) == 1 else None
            in_head = u.variable in set(rule.head.variables())
            if (u.kind == "negation" and not in_head and isinstance(lit, Not)
                    and isinstance(lit.literal, (Constant, Function))):
                if u.variable not in exists[where[0]]:
                    exists[where[0]].append(u.variable)
                self.warn(rule, u, f"read as 'there is no {u.variable} such that {lit.literal}'")
            else:
                self.fail(rule, u)
                failed = True
        if failed:
            return rule
        body = list(repaired.body)
        for k, local in exists.items():
            negated = body[k]
            assert isinstance(negated, Not) and isinstance(negated.literal, (Constant, Function))
            atom = negated.literal
            outside = {v for j, lit in enumerate(body) if j != k for v in lit.variables()}
            outside |= set(rule.head.variables())
            shared = tuple(dict.fromkeys(v for v in atom.variables() if v in outside and v not in local))
            name = self.names.fresh(f"{atom.name}__exists")
            aux: Constant | Function = Function(name, shared, atom.loc) if shared else Constant(name, atom.loc)
            self.extra.append(Rule(aux, (atom,), negated.loc))
            body[k] = Not(aux, negated.loc)
        return Rule(repaired.head, tuple(body), rule.loc)


def normalise(description: GameDescription) -> tuple[GameDescription, list[Problem]]:
    """The description with every clear slip repaired, and the problems found on the way.

    Problems are warnings for what was repaired and errors for unsafe variables that cannot be
    given a meaning; when there are errors the returned rules are not fit to play.
    """
    problems: list[Problem] = []
    names = _NameSupply(_names(description))
    rules = [r for r in (_equalities(rule, problems) for rule in description.rules) if r is not None]
    dropped: set[str] = set()
    for rule in rules:
        if rule.head.name in DECLARATIONS:
            for u in unsafe_variables(rule):
                problems.append(_problem(u.location, rule, f"{u.describe()}: {_UNSAFE}; {rule.head.name} "
                                         "declarations are not needed to play, so they are ignored", "warning"))
                dropped.add(rule.head.name)
    rules = [r for r in rules if r.head.name not in dropped]
    repairer = _Repairer(rules, names, problems)
    repaired = [repairer.repair(rule) for rule in rules]
    repaired += (repairer.demand.demand_rules() if repairer._demand is not None else []) + repairer.extra
    return GameDescription(tuple(dict.fromkeys(repaired)), description.source), problems


def drop_relations(description: GameDescription, names: Iterable[str]) -> GameDescription:
    """The description without the rules for the named relations."""
    gone = set(names)
    return GameDescription(tuple(r for r in description.rules if r.head.name not in gone), description.source)
