"""The numbered relations no word names, folded into one relation per reader.

After :func:`~translators.recycle.rulebook.names.word_names`, a relation the game's words do
not name keeps its number: a part factored out of a long body (``part_12``), the negation of
a compound condition (``not_4``), a seat met while resolving control (``next_seat_3``). This
pass gives each such relation the name of the relation that reads it (its *owner*: the head of
the first rule that reads it) and of what it is, and tells the members apart by a first
argument: ``part_12``, ``part_14`` and ``part_17``, read first by ``stoset``, become
``(stoset_part 1)``, ``(stoset_part 2)`` and ``(stoset_part 3)``; ``(not_4 ?c)``, read by
``legal``, becomes ``(legal_not 1 ?c)``; the words after a number stay (``wadd_61_x``,
read first by ``fails``, is one of ``(fails_wadd_x K ?seat ?x)``). Members are numbered in the order
they are first defined. An owner itself folded lends its new name (``(npc_some_part 2)``), and
the links of a chain (``slot_4_n3`` read by ``slot_4_n4``) join the fold of the link above.

The ground program is the same up to the names of its atoms. Members are folded together only
when they have the same arity and depend alike on ``does`` and on the state (so no analysis of
relations sees a static or state-only relation become a move-dependent one), and a folded
relation that would be recursive (relation by relation) where its members were not is not
folded: its members keep their numbered names. The same rules always give the same names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from ggp.gdl.dependencies import body_atoms
from ggp.gdl.rules import KEYWORDS, Rule
from ggp.gdl.terms import Constant, Function, Term
from translators.recycle.rulebook.names import NUMBERED, is_numbered
from translators.recycle.rulebook.steps import map_atoms

Group = tuple[str, list[Rule]]
#: A folded relation: its name, and each member's number in it.
Fold = tuple[str, dict[str, int]]


def fold_by_owner(groups: list[Group], keep: Iterable[str] = ()) -> list[Group]:
    """``groups`` with the numbered relations folded by owner (see the module doc); the
    relations in ``keep`` are never folded."""
    rules = [r for _, rs in groups for r in rs]
    order: dict[str, int] = {}
    arity: dict[str, int] = {}
    reads: dict[str, set[str]] = {}
    owner: dict[str, str] = {}
    defs: dict[str, list[Rule]] = {}
    for r in rules:
        head = r.head.name
        defs.setdefault(head, []).append(r)
        order.setdefault(head, len(order))
        arity.setdefault(head, len(r.head.args) if isinstance(r.head, Function) else 0)
        below = reads.setdefault(head, set())
        for lit in r.body:
            for atom, _ in body_atoms(lit):
                below.add(atom.name)
                owner.setdefault(atom.name, head)
    kept = set(keep) | set(KEYWORDS)
    candidates = [n for n in sorted(order, key=order.__getitem__)
                  if n not in kept and is_numbered(n) and NUMBERED.match(n) and n in owner]
    graph = nx.DiGraph()
    graph.add_nodes_from(reads)
    graph.add_edges_from((h, b) for h, below in reads.items() for b in below)
    recursive = _recursive(graph)
    kind = _kinds(graph)
    blocked: set[str] = set()
    while True:
        folds = _folds(candidates, arity, owner, kind, blocked, set(order))
        bad = _newly_recursive(graph, folds, recursive, kind, defs)
        if not bad:
            break
        blocked |= bad
    mapping = {member: (name, number) for name, members in folds.values() for member, number in members.items()}
    if not mapping:
        return groups
    names = frozenset(mapping)
    return [(comment, [_rewrite(r, mapping, names) for r in rs]) for comment, rs in groups]


def _folds(candidates: list[str], arity: Mapping[str, int], owner: Mapping[str, str],
           kind: Mapping[str, tuple[bool, bool]], blocked: set[str], taken: set[str]) -> dict[str, Fold]:
    """Per folded relation's name, the fold (its members numbered from 1)."""
    final: dict[str, str] = {}
    folds: dict[tuple[str, int, tuple[bool, bool]], Fold] = {}
    used = set(taken)
    candidate_set = set(candidates)
    for rel in candidates:
        path: list[str] = []  # rel, its owner, the owner's owner... up to a name known
        top = rel
        while top not in final and top in candidate_set and top not in blocked and top not in path:
            path.append(top)
            top = owner[top]
        up: str | None = final.get(top, top if not is_numbered(top) else None)
        for link in reversed(path):
            if up is None:
                break
            what = _what(link)
            # a chain (``slot_4_n3`` read by ``slot_4_n4``) joins the fold of the link above it
            base = up if _what(owner[link]) == what and owner[link] in final else f"{up}_{what}"
            if len(base) > 48 or is_numbered(base):
                break
            key = (base, arity[link], kind[link])
            fold = folds.get(key)
            if fold is None:
                if base in used:
                    break  # another arity or kind, or a relation of the game, has the name
                used.add(base)
                fold = folds[key] = (base, {})
            fold[1][link] = len(fold[1]) + 1
            final[link] = up = base
    return {name: fold for (name, _, _), fold in folds.items()}


def _what(name: str) -> str | None:
    """What a numbered relation is: its prefix and the words after its number (``wadd`` and
    ``digit`` for ``wadd_132_digit``; ``slot`` for ``slot_124_n5``)."""
    match = NUMBERED.match(name)
    if match is None:
        return None
    return "_".join([match["prefix"], *(w for w in match["rest"].split("_") if w and not is_numbered(w))])


def _recursive(graph: nx.DiGraph) -> set[str]:
    """The relations on a cycle."""
    found: set[str] = set()
    for members in nx.strongly_connected_components(graph):
        if len(members) > 1 or any(graph.has_edge(m, m) for m in members):
            found |= members
    return found


def _kinds(graph: nx.DiGraph) -> dict[str, tuple[bool, bool]]:
    """Per relation, whether it depends on the moves (``does``) and on the state (``true``)."""
    dag = nx.condensation(graph)
    flags: dict[int, tuple[bool, bool]] = {}
    for node in reversed(list(nx.topological_sort(dag))):
        members = dag.nodes[node]["members"]
        does, true = "does" in members, "true" in members
        for below in dag.successors(node):
            does, true = does or flags[below][0], true or flags[below][1]
        flags[node] = (does, true)
    return {name: flags[node] for name, node in dag.graph["mapping"].items()}


def _newly_recursive(graph: nx.DiGraph, folds: Mapping[str, Fold], recursive: set[str],
                     kind: Mapping[str, tuple[bool, bool]], defs: Mapping[str, list[Rule]]) -> set[str]:
    """The members of folded relations that would be on a cycle where none of them was, but
    for a chain: a folded relation whose members read each other (and nothing that reads
    them), positively, and not the moves, at arguments the recursion restriction allows."""
    into = {member: name for name, members in folds.values() for member in members}
    if not into:
        return set()
    folded = nx.DiGraph()
    folded.add_nodes_from(into.get(n, n) for n in graph.nodes)
    folded.add_edges_from((into.get(a, a), into.get(b, b)) for a, b in graph.edges)
    alone = {next(iter(c)) for c in nx.strongly_connected_components(folded) if len(c) == 1}
    now = _recursive(folded)
    bad: set[str] = set()
    for name, members in folds.values():
        if name not in now or all(m in recursive for m in members):
            continue
        first = next(iter(members))
        chain = name in alone and not kind[first][0] and not any(m in recursive for m in members)
        if not (chain and all(_chain_rule(r, members, recursive) for m in members for r in defs[m])):
            bad |= set(members)
    return bad


def _chain_rule(r: Rule, members: Mapping[str, int], recursive: set[str]) -> bool:
    """Whether a rule reads the members of its fold only positively, each argument of such a
    read ground, an argument of the head, or bound by a positive literal of another relation
    that is not recursive."""
    head_args = set(r.head.args) if isinstance(r.head, Function) else set()
    bound: set[str] = set()
    calls: list[Function | Constant] = []
    for lit in r.body:
        for atom, negative in body_atoms(lit):
            if atom.name in members:
                if negative:
                    return False
                calls.append(atom)
            elif not negative and atom.name not in recursive and isinstance(atom, Function):
                bound |= {v.name for v in atom.variables()}
    for call in calls:
        for arg in call.args if isinstance(call, Function) else ():
            if arg.is_ground or arg in head_args:
                continue
            if not {v.name for v in arg.variables()} <= bound:
                return False
    return True


def _rewrite(r: Rule, mapping: Mapping[str, tuple[str, int]], names: frozenset[str]) -> Rule:
    def atom(a: Function | Constant) -> Function | Constant:
        found = mapping.get(a.name)
        if found is None:
            return a
        args: tuple[Term, ...] = a.args if isinstance(a, Function) else ()
        return Function(found[0], (Constant(str(found[1])), *args))

    return map_atoms(r, atom, names)


__all__ = ["fold_by_owner"]
