"""Checks on GDL and GDL-II keywords: arities, where they may appear, what they may depend on.

* ``true`` and ``does`` are given by the game manager: a rule or fact for them is ignored (as
  the reference manager ignores it), with a warning.
* ``role`` is declared by facts only; ``init`` may not depend on the state or on moves.
* ``legal``, ``goal`` and ``terminal`` are asked of a state alone, so they may not depend on
  ``does`` (nor on ``next`` or ``sees``, which are computed from a joint move). ``sees`` may.
* ``base``, ``input`` and ``percept`` declare domains; they may not depend on the state either.
* Goal values are integers; GDL's range is 0 to 100, and a value outside it plays as written.
* Every game needs roles, a ``terminal`` rule, ``legal`` rules for each role and ``goal`` rules
  for each role but ``random``; a game that uses ``random`` as a role must declare it.
"""

from __future__ import annotations

from collections.abc import Iterator

from ggp.errors import Location, Problem
from ggp.gdl.dependencies import DependencyGraph, Relation, body_atoms
from ggp.gdl.rules import (
    KEYWORDS,
    RANDOM,
    Distinct,
    GameDescription,
    Literal,
    Not,
    Or,
    Rule,
)
from ggp.gdl.terms import Constant, Function, Term, integer_value, sentence_name

#: The number of arguments of each keyword.
ARITY = {
    "role": 1, "init": 1, "true": 1, "does": 2, "next": 1, "legal": 2, "goal": 2, "terminal": 0,
    "sees": 2, "percept": 2, "base": 1, "input": 2,
}
#: Relations the game manager supplies; a rule may not define them.
INPUTS = frozenset({"true", "does"})
#: Relations that only exist on a transition (a state plus a joint move).
TRANSITION = ("does", "next", "sees")
#: Relations asked of a state alone.
STATE_QUERIES = ("legal", "goal", "terminal")
#: Keywords that declare domains.
DECLARATIONS = ("base", "input", "percept")
#: Keywords whose first argument is a role.
ROLE_FIRST = ("legal", "goal", "sees", "does", "input", "percept")

_WORD = {0: "no arguments", 1: "one argument", 2: "two arguments"}


def _loc(term: Term | Rule, fallback: Location | None = None) -> Location:
    return term.loc or fallback or Location(None, 1, 1)


def _sentences(description: GameDescription) -> Iterator[tuple[Rule, Constant | Function, bool]]:
    """Every atomic sentence with its rule and whether it is the head."""
    for rule in description.rules:
        yield rule, rule.head, True
        for lit in rule.body:
            for atom, _ in body_atoms(lit):
                yield rule, atom, False


def arity_problems(description: GameDescription) -> list[Problem]:
    """A keyword used with the wrong number of arguments."""
    out = []
    for rule, atom, _ in _sentences(description):
        expected = ARITY.get(atom.name)
        arity = atom.arity if isinstance(atom, Function) else 0
        if expected is not None and arity != expected:
            out.append(Problem(_loc(atom, rule.loc), f"'{atom.name}' takes {_WORD[expected]}, not {arity}: {atom}"))
    return out


def placement_problems(description: GameDescription) -> list[Problem]:
    """``true``/``does`` defined by rules, ``role`` with a body, ``init`` in a body."""
    out = []
    previous: Rule | None = None
    for rule in description.rules:
        head = rule.head
        if head.name in INPUTS:
            hint = ""
            if rule.is_fact and not head.is_ground and previous is not None and previous.body:
                hint = "; a misplaced ')' may have closed the rule above too early"
            what = "the state" if head.name == "true" else "the moves"
            out.append(Problem(_loc(head, rule.loc), f"'{head.name}' cannot be defined by a rule or fact: {head} "
                               f"is ignored, as game managers ignore it (they supply {what}){hint}", "warning"))
        elif head.name == "role" and not rule.is_fact:
            out.append(Problem(_loc(head, rule.loc), f"roles must be declared by facts, not by a rule: {rule}"))
        for lit in rule.body:
            for atom, _ in body_atoms(lit):
                if atom.name == "init":
                    out.append(Problem(_loc(atom, rule.loc), f"'init' in a rule body: {atom}: GDL allows 'init' only "
                                       "in rule heads; read as the initial state", "warning"))
        previous = rule
    return out


def _terms_inside(term: Term) -> Iterator[Term]:
    if isinstance(term, Function):
        for arg in term.args:
            yield arg
            yield from _terms_inside(arg)


def nested_keyword_problems(description: GameDescription) -> list[Problem]:
    """A keyword used as a function symbol inside a term, e.g. ``(sees ?r (does ?p ?m))``."""
    out = []
    for rule, atom, _ in _sentences(description):
        for term in _terms_inside(atom):
            if isinstance(term, Function) and term.name in KEYWORDS:
                out.append(Problem(_loc(term, rule.loc), f"keyword '{term.name}' used inside a term: {term} in {atom} "
                                   "is read as a plain term, not as a sentence", "warning"))
    for rule in description.rules:
        for lit in rule.body:
            for el in _distincts(lit):
                for term in (el.left, el.right):
                    if isinstance(term, Function) and term.name in KEYWORDS:
                        out.append(Problem(_loc(term, rule.loc), f"keyword '{term.name}' used inside a term: {term} "
                                           f"in {el} is read as a plain term, not as a sentence", "warning"))
    return out


def _distincts(lit: Literal) -> Iterator[Distinct]:
    if isinstance(lit, Distinct):
        yield lit
    elif isinstance(lit, Not):
        yield from _distincts(lit.literal)
    elif isinstance(lit, Or):
        for part in lit.literals:
            yield from _distincts(part)


def _first_use_location(graph: DependencyGraph, path: list[Relation]) -> Location | None:
    """Where the first step of a dependency path is written: the use of path[1] in a rule for path[0]."""
    head, used = path[0], path[1]
    for use in graph.uses.get(used, []):
        if sentence_name(use.rule.head) == head:
            return use.atom.loc or use.rule.loc
    return None


def _relations(graph: DependencyGraph, names: tuple[str, ...]) -> list[Relation]:
    return [rel for name in names for rel in graph.relations_named(name)]


def dependency_problems(graph: DependencyGraph) -> list[Problem]:
    """Keywords that depend on what they may not: ``does`` reaching ``legal``, ``true`` reaching ``init``..."""
    out = []
    rules: list[tuple[tuple[str, ...], tuple[str, ...], str, str]] = [
        (STATE_QUERIES, TRANSITION, "error", "it is asked of a state alone, before any move is chosen"),
        (("init",), ("true",) + TRANSITION + STATE_QUERIES, "error", "the initial state cannot depend on a state or moves"),
        (DECLARATIONS, ("true",) + TRANSITION, "warning",
         "declarations cannot depend on a state or moves, so they are ignored"),
    ]
    for heads, forbidden, severity, why in rules:
        for rel in _relations(graph, heads):
            for bad in _relations(graph, forbidden):
                if graph.depends_on(rel, bad):
                    path = graph.dependency_path(rel, bad)
                    loc = _first_use_location(graph, path)
                    out.append(Problem(loc or Location(None, 1, 1),
                                       f"'{rel[0]}' depends on '{bad[0]}' ({graph.describe_path(path)}): {why}",
                                       "warning" if severity == "warning" else "error"))
                    break
    return out


def state_dependent_declarations(graph: DependencyGraph) -> set[str]:
    """The declaration keywords (``base``...) that depend on the state or moves, to be ignored."""
    return {rel[0] for rel in _relations(graph, DECLARATIONS)
            if any(graph.depends_on(rel, bad) for bad in _relations(graph, ("true",) + TRANSITION))}


def _role_facts(description: GameDescription) -> dict[Term, Rule]:
    facts: dict[Term, Rule] = {}
    for rule in description.rules:
        head = rule.head
        if head.name == "role" and isinstance(head, Function) and head.arity == 1 and rule.is_fact:
            facts.setdefault(head.args[0], rule)
    return facts


def role_problems(description: GameDescription) -> list[Problem]:
    """Duplicate roles, an undeclared ``random``, keywords about roles that are not declared."""
    out = []
    roles = _role_facts(description)
    for rule in description.rules:
        head = rule.head
        if (head.name == "role" and isinstance(head, Function) and head.arity == 1 and rule.is_fact
                and roles[head.args[0]] is not rule):
            out.append(Problem(_loc(head, rule.loc), f"role {head.args[0]} is declared twice", "warning"))
    reported: set[tuple[str, str]] = set()
    for rule, atom, _ in _sentences(description):
        if atom.name not in ROLE_FIRST or not isinstance(atom, Function) or atom.arity != ARITY[atom.name]:
            continue
        who = atom.args[0]
        if not isinstance(who, Constant) or who in roles or (atom.name, who.name) in reported:
            continue
        reported.add((atom.name, who.name))
        if who == RANDOM and atom.name in ("does", "legal", "sees"):
            out.append(Problem(_loc(atom, rule.loc), f"{atom} uses the role random, which is not declared: "
                               "GDL-II requires (role random) in games that use it"))
        else:
            out.append(Problem(_loc(atom, rule.loc), f"{atom}: {who} is not a declared role", "warning"))
    return out


def missing_problems(description: GameDescription) -> list[Problem]:
    """What every game needs: roles, a ``terminal`` rule, ``legal`` and ``goal`` rules for each role."""
    out = []
    start = Location(description.source, 1, 1)
    roles = _role_facts(description)
    if not roles:
        out.append(Problem(start, "no roles: a game needs at least one (role NAME) fact"))
    if not any(r.head.name == "terminal" and not isinstance(r.head, Function) for r in description.rules):
        out.append(Problem(start, "no 'terminal' rule: the game would never end"))
    for keyword, why in (("legal", "it could never move"), ("goal", "it would have no result")):
        heads = [r.head for r in description.rules if r.head.name == keyword and isinstance(r.head, Function)]
        for role, fact in roles.items():
            if keyword == "goal" and role == RANDOM:
                continue
            if not any(h.args[0] == role or not h.args[0].is_ground for h in heads):
                out.append(Problem(_loc(fact.head, fact.loc), f"role {role} has no '{keyword}' rule: {why}"))
    return out


def goal_value_problems(description: GameDescription) -> list[Problem]:
    """Goal values written as constants: an error when not an integer, a warning outside 0-100."""
    out = []
    for rule in description.rules:
        head = rule.head
        if head.name != "goal" or not isinstance(head, Function) or head.arity != 2:
            continue
        value = head.args[1]
        if isinstance(value, Function):
            out.append(Problem(_loc(value, rule.loc), f"goal value {value} in {head} is not an integer, so the goal "
                               "is undefined (game managers read goal values as integers)"))
        elif isinstance(value, Constant):
            number = integer_value(value)
            if number is None:
                out.append(Problem(_loc(value, rule.loc), f"goal value {value} in {head} is not an integer, so the "
                                   "goal is undefined (game managers read goal values as integers)"))
            elif not 0 <= number <= 100:
                out.append(Problem(_loc(value, rule.loc), f"goal value {value} in {head} is outside GDL's range 0 to "
                                   "100; it is played as written", "warning"))
    return out


def keyword_problems(description: GameDescription, graph: DependencyGraph, complete: bool = True) -> list[Problem]:
    """Every keyword problem of ``description`` (without :func:`missing_problems` unless ``complete``)."""
    problems = (arity_problems(description) + placement_problems(description) + nested_keyword_problems(description)
                + dependency_problems(graph) + role_problems(description) + goal_value_problems(description))
    return problems + missing_problems(description) if complete else problems
