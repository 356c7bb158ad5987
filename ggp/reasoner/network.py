"""The propositional network of a ground game: inputs, gates and outputs, simplified and layered.

Inputs are the ``true`` atoms (one per fluent of the reachable domain, numbered as the bits of a
state) and the ``does`` atoms (one per role and move). Every other atom is an OR of AND-gates
(its ground rules). Outputs are ``legal``, ``terminal``, ``goal``, ``next`` and ``sees``. Atoms
are split into those that depend on the state only and those that depend on the joint move.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term, sort_key
from ggp.reasoner.machine import goal_value

if TYPE_CHECKING:
    from ggp.reasoner.grounding import GroundProgram

#: The atom id standing for "always true" (clingo's atom ids start at 1).
TRUE = 0

Body = tuple[tuple[int, ...], tuple[int, ...]]
"""A rule body: positive atom ids, negative atom ids."""


@dataclass
class Network:
    """A simplified ground game, ready for code generation."""

    roles: tuple[Constant, ...]
    fluents: tuple[Term, ...]
    moves: tuple[tuple[Term, ...], ...]
    init: bytes
    bodies: dict[int, list[Body]]
    fluent_of: dict[int, int]
    move_of: dict[int, tuple[int, int]]
    legal: list[list[tuple[int, int]]]
    terminal: int | None
    goals: list[list[tuple[int, int]]]
    next: dict[int, int]
    sees: list[list[tuple[Term, int]]]
    move_dependent: set[int] = field(default_factory=set)
    order: dict[int, int] = field(default_factory=dict)
    recursive: list[list[int]] = field(default_factory=list)

    @property
    def gate_count(self) -> int:
        """Number of AND-gates (rule bodies) left after simplification."""
        return sum(len(b) for b in self.bodies.values())


def _simplify(rules: list[tuple[int, tuple[int, ...]]], inputs: set[int]) -> dict[int, list[Body]]:
    """Propagate facts and impossible atoms through the rules until nothing changes."""
    bodies: dict[int, set[Body]] = defaultdict(set)
    for head, body in rules:
        bodies[head].add((tuple(sorted({l for l in body if l > 0})), tuple(sorted({-l for l in body if l < 0}))))
    readers: dict[int, set[int]] = defaultdict(set)
    for head, rule_set in bodies.items():
        for pos, neg in rule_set:
            for atom in pos + neg:
                readers[atom].add(head)
    true_atoms: set[int] = set()
    pending = set(bodies)
    while pending:
        head = pending.pop()
        if head not in bodies:
            continue
        kept: set[Body] = set()
        for pos, neg in bodies[head]:
            if any(n in true_atoms for n in neg):
                continue
            if any(p not in inputs and p not in bodies and p not in true_atoms for p in pos):
                continue
            kept.add((tuple(p for p in pos if p not in true_atoms), tuple(n for n in neg if n in inputs or n in bodies)))
        if any(not p and not n for p, n in kept):
            true_atoms.add(head)
            del bodies[head]
        elif not kept:
            del bodies[head]
        elif kept != bodies[head]:
            bodies[head] = kept
            continue
        else:
            continue
        pending.update(readers[head])
    result = {h: sorted(b) for h, b in bodies.items()}
    for atom in true_atoms:
        result[atom] = [((), ())]
    return result


def _ref(atom: int, bodies: dict[int, list[Body]], inputs: set[int]) -> int | None:
    """The atom itself, ``TRUE`` when it is a fact, ``None`` when it can never hold."""
    if atom in inputs:
        return atom
    rules = bodies.get(atom)
    if not rules:
        return None
    if rules == [((), ())]:
        return TRUE
    return atom


def build_network(description: GameDescription, program: GroundProgram) -> Network:
    """The network of a ground program (``description`` gives the role order)."""
    interface = program.interface
    fluent_atoms: dict[Term, int] = {}
    move_atoms: dict[tuple[Term, Term], int] = {}
    for atom in program.choices:
        name, args = interface.get(atom, ("", ()))
        if name == "true":
            fluent_atoms[args[0]] = atom
        elif name == "does":
            move_atoms[(args[0], args[1])] = atom
    inputs = set(fluent_atoms.values()) | set(move_atoms.values())
    bodies = _simplify(program.rules, inputs)
    fact_true = {atom for atom, rules in bodies.items() if rules == [((), ())]}

    facts = list(program.facts) + [interface[a] for a in fact_true if a in interface]
    declared = [r for (n, args) in facts if n == "role" for r in args]
    roles = tuple(r for r in description.roles if r in declared)
    if not roles:
        raise ReasonerError("the game declares no roles")
    role_index: dict[Term, int] = {r: i for i, r in enumerate(roles)}

    fluents = tuple(sorted(fluent_atoms, key=sort_key))
    fluent_index = {f: i for i, f in enumerate(fluents)}
    per_role: list[list[Term]] = [[] for _ in roles]
    for role, move in move_atoms:
        if role in role_index:
            per_role[role_index[role]].append(move)
    moves = tuple(tuple(sorted(ms, key=sort_key)) for ms in per_role)
    move_index = [{m: i for i, m in enumerate(ms)} for ms in moves]

    init_bits = bytearray(len(fluents))
    for name, args in facts:
        if name == "init":
            if args[0] not in fluent_index:
                raise ReasonerError(f"initial fluent {args[0]} is outside the reachable domain")
            init_bits[fluent_index[args[0]]] = 1
    for atom, (name, args) in interface.items():
        if name == "init" and atom in bodies and atom not in fact_true:
            raise ReasonerError(f"(init {args[0]}) depends on the state or the moves")

    net = Network(
        roles=roles, fluents=fluents, moves=moves, init=bytes(init_bits), bodies=bodies,
        fluent_of={a: fluent_index[f] for f, a in fluent_atoms.items()},
        move_of={a: (role_index[r], move_index[role_index[r]][m]) for (r, m), a in move_atoms.items() if r in role_index},
        legal=[[] for _ in roles], terminal=None, goals=[[] for _ in roles], next={}, sees=[[] for _ in roles],
    )
    outputs = [(atom, name, args) for atom, (name, args) in interface.items()]
    outputs += [(TRUE, name, args) for name, args in program.facts]
    for atom, name, args in outputs:
        ref = atom if atom == TRUE else _ref(atom, bodies, inputs)
        if ref is None:
            continue
        if name == "legal":
            r = role_index.get(args[0])
            if r is not None:
                net.legal[r].append((move_index[r][args[1]], ref))
        elif name == "terminal":
            net.terminal = ref
        elif name == "goal":
            r = role_index.get(args[0])
            if r is not None:
                net.goals[r].append((goal_value(args[0], args[1]), ref))
        elif name == "next":
            if args[0] not in fluent_index:
                raise ReasonerError(f"(next {args[0]}) is outside the reachable domain")
            net.next[fluent_index[args[0]]] = ref
        elif name == "sees":
            r = role_index.get(args[0])
            if r is not None:
                net.sees[r].append((args[1], ref))
    for lst in net.legal:
        lst.sort()
    for goals in net.goals:
        goals.sort()
    for seen in net.sees:
        seen.sort(key=lambda item: sort_key(item[0]))
    _layer(net, inputs)
    return net


def _layer(net: Network, inputs: set[int]) -> None:
    """Order derived atoms topologically, find recursion, and mark move-dependent atoms."""
    import networkx as nx  # here, not at the top: a machine loaded from the cache never needs it

    graph = nx.DiGraph()
    graph.add_nodes_from(net.bodies)
    negative_edges = set()
    for head, rules in net.bodies.items():
        for pos, neg in rules:
            for p in pos:
                if p not in inputs:
                    graph.add_edge(p, head)
            for n in neg:
                if n not in inputs:
                    graph.add_edge(n, head)
                    negative_edges.add((n, head))
    condensed = nx.condensation(graph)
    members = condensed.graph["mapping"]
    for position, component in enumerate(nx.topological_sort(condensed)):
        atoms = sorted(condensed.nodes[component]["members"])
        for atom in atoms:
            net.order[atom] = position
        if len(atoms) > 1 or graph.has_edge(atoms[0], atoms[0]):
            for n, h in negative_edges:
                if members[n] == component and members[h] == component:
                    raise ReasonerError("the ground rules recurse through negation (not stratified)")
            net.recursive.append(atoms)
    does_atoms = set(net.move_of)
    for atom in sorted(net.bodies, key=net.order.__getitem__):
        for pos, neg in net.bodies[atom]:
            if any(x in does_atoms or x in net.move_dependent for x in pos + neg):
                net.move_dependent.add(atom)
                break
    for lit_atom in [a for lst in net.legal for _, a in lst] + [a for g in net.goals for _, a in g] + [net.terminal]:
        if lit_atom in net.move_dependent or lit_atom in does_atoms:
            raise ReasonerError("legal, terminal or goal depends on the moves (does)")
