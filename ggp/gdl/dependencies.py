"""The dependency graph of a game description: which relation is defined in terms of which.

Nodes are relations ``(name, arity)``; an edge ``q -> p`` means a rule for ``p`` has ``q`` in
its body, marked ``negative`` when ``q`` occurs under ``not``. ``distinct`` adds no edge.
Built on networkx, for the validator and for anyone else who needs to know what depends on what.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import networkx as nx

from ggp.gdl.rules import Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, sentence_name

#: A relation: its name and arity.
Relation = tuple[str, int]

Atom = Constant | Function


def body_atoms(literal: Literal, negative: bool = False) -> Iterator[tuple[Atom, bool]]:
    """Every atomic sentence in a body literal with whether it is under (an odd number of) ``not``."""
    if isinstance(literal, Not):
        yield from body_atoms(literal.literal, not negative)
    elif isinstance(literal, Or):
        for part in literal.literals:
            yield from body_atoms(part, negative)
    elif not isinstance(literal, Distinct):
        yield literal, negative


def relation_label(relation: Relation, ambiguous: bool = False) -> str:
    """How messages name a relation: ``cell``, or ``cell/3`` when the name has several arities."""
    return f"{relation[0]}/{relation[1]}" if ambiguous else relation[0]


@dataclass(frozen=True)
class Use:
    """One occurrence of a relation in a rule body."""

    rule: Rule
    atom: Atom
    negative: bool


@dataclass
class DependencyGraph:
    """The relation dependency graph of a set of rules (a :class:`networkx.DiGraph` inside)."""

    graph: nx.DiGraph = field(default_factory=nx.DiGraph)
    #: Relations with the rules defining them (rule heads), in source order.
    definitions: dict[Relation, list[Rule]] = field(default_factory=dict)
    #: Relations with their uses in rule bodies, in source order.
    uses: dict[Relation, list[Use]] = field(default_factory=dict)

    @classmethod
    def build(cls, rules: Iterable[Rule]) -> DependencyGraph:
        """The graph of ``rules``."""
        self = cls()
        for rule in rules:
            head = sentence_name(rule.head)
            self.graph.add_node(head)
            self.definitions.setdefault(head, []).append(rule)
            for literal in rule.body:
                for atom, negative in body_atoms(literal):
                    rel = sentence_name(atom)
                    self.uses.setdefault(rel, []).append(Use(rule, atom, negative))
                    if self.graph.has_edge(rel, head):
                        self.graph[rel][head]["negative"] |= negative
                    else:
                        self.graph.add_edge(rel, head, negative=negative)
        return self

    def relations_named(self, name: str) -> list[Relation]:
        """Every relation (of any arity) with this name that occurs in the rules."""
        return sorted(r for r in self.graph.nodes if r[0] == name)

    def label(self, relation: Relation) -> str:
        """The relation's name, with its arity when other arities of the name occur."""
        return relation_label(relation, len(self.relations_named(relation[0])) > 1)

    def depends_on(self, relation: Relation, other: Relation) -> bool:
        """True when ``relation`` is defined, directly or not, in terms of ``other``."""
        return (
            relation in self.graph and other in self.graph and relation != other
            and nx.has_path(self.graph, other, relation)
        )

    def dependency_path(self, relation: Relation, other: Relation) -> list[Relation]:
        """The shortest chain ``[relation, ..., other]`` through which ``relation`` depends on ``other``."""
        path: list[Relation] = nx.shortest_path(self.graph, other, relation)
        return path[::-1]

    def describe_path(self, path: list[Relation]) -> str:
        """``legal <- ok <- does``: a dependency chain in words."""
        return " <- ".join(self.label(r) for r in path)

    def components(self) -> list[set[Relation]]:
        """The strongly connected components that contain a cycle (recursive relations)."""
        out = []
        for comp in nx.strongly_connected_components(self.graph):
            node = next(iter(comp))
            if len(comp) > 1 or self.graph.has_edge(node, node):
                out.append(set(comp))
        return out

    def component_of(self) -> dict[Relation, int]:
        """Each recursive relation mapped to the index of its component in :meth:`components`."""
        return {rel: i for i, comp in enumerate(self.components()) for rel in comp}

    def negative_cycles(self) -> list[list[Relation]]:
        """One cycle through a negative edge per offending component, as ``[a, b, ..., a]``.

        The cycle starts at the head of the negative edge: ``[p, q, ..., p]`` reads "p depends on
        (not q), q depends on ..., ... depends on p".
        """
        cycles = []
        for comp in self.components():
            sub = self.graph.subgraph(comp)
            for src, dst, data in sorted(sub.edges(data=True)):
                if data["negative"]:
                    back: list[Relation] = nx.shortest_path(sub, dst, src)
                    cycles.append([dst] + back[::-1])
                    break
        return cycles
