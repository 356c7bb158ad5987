"""Which moves a percept reveals, read from the rules themselves (no grounding).

The same question as :mod:`ggp.reasoner.percept_moves` answers from the fast reasoner's ground
network, for reasoners that have none (the clingo oracle): for a ground percept ``P`` of role
``r``, per role, either None (unconstrained) or a set of moves one of which that role played on
every transition on which ``(sees r P)`` holds.

The rules whose head unifies with ``(sees r P)`` are the alternatives (a disjunction); each
rule's body, with the unifier applied, is a conjunction of literals. A positive ``(does Q M)``
with ``Q`` a role constrains ``Q``'s move to match the pattern ``M``; a positive literal of a
derived predicate that depends on ``does`` contributes the condition of its own rules, found
the same way (a predicate in a recursive component, or one met deeper than :data:`MAX_DEPTH`,
constrains nothing); ``or``, ``not``, fluents, static and state-only predicates constrain
nothing; ``(distinct t t)`` never holds. Each pattern is read on its own: variables shared
between literals are not followed.

Per role, a condition holds either a set of ground moves (exactly those are allowed) or
non-ground patterns (each must match). Conjunction intersects sets and filters a set by the
other side's patterns; disjunction unites sets, and a role some alternative leaves free or
constrains only by patterns becomes free. A conjunction that leaves a role no move never holds
and drops out of its disjunction. The answer keeps the sets and turns patterns into None.

Sound by construction: each step only weakens what must hold (a body implies each of its
positive literals; an atom implies one of its rules' bodies; a recursive or too deep atom and
a non-ground pattern are read as true), so pruning candidate joint moves by the answer never
removes one on which the percept could be seen. It is less precise than the ground network:
it does not know which fluents or static facts can hold, nor bind variables across literals.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence

import networkx as nx

from ggp.gdl.dependencies import DependencyGraph, Relation
from ggp.gdl.rules import Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable, sentence_name
from ggp.gdl.unify import substitute_literal, unify
from ggp.reasoner.machine import StateMachine

#: How deep derived move-dependent atoms are followed below a ``sees`` atom.
MAX_DEPTH = 24

#: A role's constraint: a frozenset holds exactly the ground moves allowed (empty: none is);
#: a tuple holds non-ground patterns, each of which the move must match.
Moves = frozenset[Term] | tuple[Term, ...]
#: Per role index, what its move must be; a role absent is unconstrained.
Condition = dict[int, Moves]
#: What a percept reveals: per role in role order, the moves allowed, or None for any.
Revealed = tuple[frozenset[Term] | None, ...]

_DOES: Relation = ("does", 2)
_SEES: Relation = ("sees", 2)


def _matches(move: Term, pattern: Term) -> bool:
    return unify(move, pattern) is not None


def _meet(a: Moves, b: Moves) -> Moves:
    """Both constraints at once."""
    if isinstance(a, frozenset):
        if isinstance(b, frozenset):
            return a & b
        return frozenset(m for m in a if all(_matches(m, p) for p in b))
    if isinstance(b, frozenset):
        return _meet(b, a)
    return a + tuple(p for p in b if p not in a)


def _never_holds(cond: Condition) -> bool:
    return any(isinstance(moves, frozenset) and not moves for moves in cond.values())


def _conjoin(a: Condition, b: Condition) -> Condition:
    if not a:
        return b
    if not b:
        return a
    out = dict(a)
    for role, moves in b.items():
        out[role] = _meet(out[role], moves) if role in out else moves
    return out


def _disjoin(branches: Sequence[Condition], roles: int) -> Condition:
    live = [b for b in branches if not _never_holds(b)]
    if not live:
        return {r: frozenset() for r in range(roles)}
    out: Condition = {}
    for role, moves in live[0].items():
        united = moves
        for branch in live[1:]:
            other = branch.get(role)
            if not isinstance(united, frozenset) or not isinstance(other, frozenset):
                break
            united = united | other
        else:
            if isinstance(united, frozenset):
                out[role] = united
    return out


def _canonical(atom: Constant | Function) -> Constant | Function:
    """``atom`` with its variables renamed by order of occurrence (names no parser can write)."""
    if atom.is_ground:
        return atom
    names: dict[Variable, Term] = {}
    for var in atom.variables():
        names.setdefault(var, Variable(f" q{len(names)}"))
    renamed = atom.substitute(names)
    assert isinstance(renamed, (Constant, Function))
    return renamed


class RuleReveals:
    """The rule-level analysis of one game's percepts (see the module doc), computed on demand."""

    def __init__(self, description: GameDescription, roles: Sequence[Constant]):
        self.roles = tuple(roles)
        self._role_index = {role: i for i, role in enumerate(self.roles)}
        graph = DependencyGraph.build(description.rules)
        self._rules: dict[Relation, list[Rule]] = graph.definitions
        derived: set[Relation] = set()
        if _DOES in graph.graph:
            derived = set(nx.descendants(graph.graph, _DOES))
        self._derived = derived - {_DOES}
        self._recursive = {rel for comp in graph.components() for rel in comp}
        self._memo: dict[Term, Condition] = {}
        self._cuts = 0  # depth guards met so far: a result computed past one is not remembered
        self._lock = threading.Lock()
        self._by_role: dict[Constant, PerceptMoves] = {}

    def percept_moves(self, role: Constant) -> PerceptMoves:
        """The lazily computed mapping of ``role``'s percepts to the moves they reveal."""
        with self._lock:
            found = self._by_role.get(role)
            if found is None:
                found = self._by_role[role] = PerceptMoves(self, role)
            return found

    def reveal(self, role: Constant, percept: Term) -> Revealed:
        """Per role, the moves one of which is played whenever ``role`` sees the ground
        ``percept`` (None: any); all None when no rule can produce the percept."""
        free: Revealed = (None,) * len(self.roles)
        if not percept.is_ground or _SEES not in self._derived or _SEES in self._recursive:
            return free
        try:
            with self._lock:
                branches = self._branches(Function("sees", (role, percept)), 0)
        except RecursionError:  # a term nested too deep for the unifier: nothing known
            return free
        if branches is None:
            return free
        cond = _disjoin(branches, len(self.roles))
        return tuple(moves if isinstance(moves := cond.get(r), frozenset) else None for r in range(len(self.roles)))

    def _branches(self, atom: Constant | Function, depth: int) -> list[Condition] | None:
        """The condition of each rule whose head unifies with ``atom``; None when none does."""
        atom = _canonical(atom)
        branches = []
        for rule in self._rules.get(sentence_name(atom), ()):
            subst = unify(atom, rule.head)
            if subst is not None:
                branches.append(self._body([substitute_literal(lit, subst) for lit in rule.body], depth))
        return branches or None

    def _atom(self, atom: Constant | Function, depth: int) -> Condition:
        """The condition of a derived move-dependent atom."""
        if depth > MAX_DEPTH:
            self._cuts += 1
            return {}
        key = _canonical(atom)
        known = self._memo.get(key)
        if known is not None:
            return known
        cuts = self._cuts
        result = _disjoin(self._branches(key, depth) or [], len(self.roles))
        if cuts == self._cuts:
            self._memo[key] = result
        return result

    def _body(self, body: Sequence[Literal], depth: int) -> Condition:
        cond: Condition = {}
        for literal in body:
            cond = _conjoin(cond, self._literal(literal, depth))
            if _never_holds(cond):
                break
        return cond

    def _literal(self, literal: Literal, depth: int) -> Condition:
        if isinstance(literal, Distinct):
            return {0: frozenset()} if literal.left == literal.right else {}
        if isinstance(literal, (Not, Or)):
            return {}
        relation = sentence_name(literal)
        if relation == _DOES:
            assert isinstance(literal, Function)
            who, move = literal.args
            if isinstance(who, Variable):
                return {}
            index = self._role_index.get(who) if isinstance(who, Constant) else None
            if index is None:  # not a role: no joint move holds this does atom
                return {0: frozenset()}
            return {index: frozenset((move,)) if move.is_ground else (move,)}
        if relation in self._derived and relation not in self._recursive:
            return self._atom(literal, depth + 1)
        return {}


class PerceptMoves(Mapping[Term, Revealed]):
    """One role's percepts and the moves they reveal, each computed on its first lookup and kept.

    Every ground term is a key (a percept no rule produces reveals nothing: all None); other
    keys are missing. Iteration and ``len`` cover only the percepts looked up so far.
    """

    def __init__(self, reveals: RuleReveals, role: Constant):
        self._reveals = reveals
        self._role = role
        self._known: dict[Term, Revealed] = {}

    def __getitem__(self, percept: Term) -> Revealed:
        if not isinstance(percept, Term) or not percept.is_ground:
            raise KeyError(percept)
        found = self._known.get(percept)
        if found is None:
            found = self._known[percept] = self._reveals.reveal(self._role, percept)
        return found

    def __iter__(self) -> Iterator[Term]:
        return iter(list(self._known))

    def __len__(self) -> int:
        return len(self._known)

    def __repr__(self) -> str:
        return f"<PerceptMoves of {self._role}: {len(self._known)} looked up>"


_MACHINES: weakref.WeakKeyDictionary[StateMachine, RuleReveals] = weakref.WeakKeyDictionary()
_MACHINES_LOCK = threading.Lock()


def rule_reveals(machine: StateMachine) -> RuleReveals:
    """The analysis of ``machine``'s rules and roles, made once per machine."""
    with _MACHINES_LOCK:
        found = _MACHINES.get(machine)
        if found is None:
            found = _MACHINES[machine] = RuleReveals(machine.description, machine.roles)
        return found
