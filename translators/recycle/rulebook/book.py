"""Collecting the generated rules in commented groups, without duplicates.

Each group of rules carries a comment tying it to the RECYCLE line it comes from
(``; line 52: (move 'AC (top ((current player) vloc TRICK)))``). The book prints as KIF with
those comments, and gives the plain :class:`~ggp.gdl.rules.GameDescription`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ggp.gdl.rules import Distinct, GameDescription, Rule
from translators.recycle.syntax.nodes import Node


def describe(node: Any, width: int = 100) -> str:
    """A one-line RECYCLE rendering of a node, for comments."""
    from translators.recycle.syntax.printer import print_recycle

    try:
        text = " ".join(print_recycle(node).split())
    except (TypeError, AttributeError):  # a synthetic or IR node the printer does not know
        text = type(node).__name__
    return text if len(text) <= width else text[: width - 3] + "..."


#: At most this many rules in one translation (a guard against constructs whose expansion
#: explodes: the translation stops with a clear error instead of eating the memory).
RULE_BUDGET = 600_000


#: Variables holding a resolved control value (one value per step): they do not tie parts of
#: a body together.
_FUNCTIONAL = ("seat_", "next_", "team_", "nextteam_")


class RuleBook:
    """Rules in groups, each group with a comment; aux relation names; line map."""

    def __init__(self) -> None:
        self.groups: list[tuple[str, list[Rule]]] = []
        self.seen: set[Rule] = set()
        self.counters: dict[str, int] = {}
        self.memo: dict[Any, Any] = {}
        self.lines: dict[str, int] = {}
        #: The RECYCLE construct each named relation comes from (for its readable name).
        self.nodes: dict[str, Node] = {}
        self._current: list[Rule] | None = None
        self.count = 0
        #: The RECYCLE node (and comment) of the innermost group with a node, for errors.
        self.where: tuple[Any, str] | None = None
        #: The game's root node: errors outside every group point at it.
        self.root: Any = None

    @contextmanager
    def group(self, comment: str, node: Node | None = None) -> Iterator[None]:
        """Rules added inside go in one group, printed after ``comment`` (and the node's line)."""
        if node is not None and getattr(node, "line", None):
            comment = f"line {node.line}: {comment}"
        outer, outer_where = self._current, self.where
        rules: list[Rule] = []
        self.groups.append((comment, rules))
        self._current = rules
        if node is not None:
            self.where = (node, comment)
        try:
            yield
        finally:
            self._current, self.where = outer, outer_where

    def over_budget(self, what: str, size: int, budget: int) -> None:
        """Raise a :class:`~.translation_error.TranslationError` naming the RECYCLE construct
        being translated when ``size`` exceeds ``budget``."""
        if size <= budget:
            return
        from translators.recycle.translation_error import TranslationError

        node, comment = self.where if self.where is not None else (self.root, "")
        construct = f" while translating {comment.split(': ', 1)[-1]}" if comment else ""
        raise TranslationError(node, f"the translation is too large{construct}: {what} ({size} > {budget}); "
                                     "simplify this construct or narrow its values")

    def add(self, rule: Rule) -> None:
        """Add a rule (ignored when an equal rule is already in, or when its body has a literal
        that never holds, ``(distinct a a)``).

        Parts of the body that share no variable with the head or with the rest (a guard next to
        the action it guards) become auxiliary propositions, so grounding the rule does not
        multiply their instances together.
        """
        if any(isinstance(lit, Distinct) and lit.left == lit.right and not any(lit.left.variables())
               for lit in rule.body):
            return  # a body that can never hold (an operation with no result, a division by 0)
        if len(rule.body) >= 3:
            rule = self.factor(rule)
        if rule in self.seen:
            return
        self.seen.add(rule)
        self.count += 1
        if self.count > RULE_BUDGET:
            self.over_budget("rules", self.count, RULE_BUDGET)
        if self._current is None:
            self.groups.append(("", [rule]))
        else:
            self._current.append(rule)

    def factor(self, rule: Rule) -> Rule:
        """The rule with independent parts of its body moved into auxiliary propositions."""
        from ggp.gdl.terms import Constant, Function

        def links(lit: Any) -> set[str]:
            return {v.name for v in lit.variables() if not v.name.startswith(_FUNCTIONAL)}

        body = list(rule.body)
        head_vars = links(rule.head)
        groups: list[tuple[set[str], list[Any]]] = []
        for lit in body:
            names = links(lit)
            merged = (set(names), [lit])
            rest = []
            for group in groups:
                if group[0] & merged[0]:
                    merged = (group[0] | merged[0], group[1] + merged[1])
                else:
                    rest.append(group)
            groups = rest + [merged]
        if len(groups) < 2:
            return rule
        binders: dict[str, Any] = {}
        for lit in body:
            if isinstance(lit, Function) and lit.name in ("rseat", "rnext", "rtseat", "rtnext") and lit.args:
                arg = lit.args[-1]
                if getattr(arg, "name", "").startswith(_FUNCTIONAL) and arg.__class__.__name__ == "Variable":
                    binders.setdefault(arg.name, lit)
        new_body: list[Any] = []
        for names, lits in groups:
            if names & head_vars or not names or len(lits) < 2:
                new_body += lits
                continue
            used = {v.name for lit in lits for v in lit.variables() if v.name.startswith(_FUNCTIONAL)}
            if any(u not in binders for u in used):
                new_body += lits
                continue
            lits = [binders[u] for u in sorted(used) if binders[u] not in lits] + lits
            key = ("factor", tuple(lits))
            atom = self.memo.get(key)
            if atom is None:
                atom = Constant(self.name("part"))
                self.memo[key] = atom
                part = Rule(atom, tuple(lits))
                self.seen.add(part)
                (self._current if self._current is not None else self.groups[-1][1]).append(part)
            new_body.append(atom)
        order = {id(lit): i for i, lit in enumerate(body)}
        new_body.sort(key=lambda lit: order.get(id(lit), -1))
        return Rule(rule.head, tuple(new_body), rule.loc)

    def name(self, prefix: str, node: Node | None = None) -> str:
        """A fresh relation name ``prefix_N``; remembers the RECYCLE line it comes from."""
        n = self.counters.get(prefix, 0) + 1
        self.counters[prefix] = n
        text = f"{prefix}_{n}"
        if node is not None and getattr(node, "line", None):
            self.lines[text] = node.line
        if isinstance(node, Node):
            self.nodes[text] = node
        return text

    def prune(self, keep: frozenset[str] = frozenset()) -> int:
        """Drop the rules of relations nothing uses (neither a GDL keyword, nor in ``keep``, nor
        in the body of a kept rule): dead code costs grounding time and validator warnings.
        Returns how many rules were dropped."""
        from collections import Counter

        from ggp.gdl.dependencies import body_atoms
        from ggp.gdl.rules import KEYWORDS

        def atoms(r: Rule) -> list[str]:
            return [atom.name for lit in r.body for atom, _ in body_atoms(lit)]

        every = [r for _, rules in self.groups for r in rules]
        uses = Counter(name for r in every for name in atoms(r))
        by_head: dict[str, list[Rule]] = {}
        for r in every:
            by_head.setdefault(r.head.name, []).append(r)
        gone: set[int] = set()
        todo = [h for h in by_head if h not in KEYWORDS and h not in keep and not uses[h]]
        while todo:
            head = todo.pop()
            for r in by_head.pop(head, []):
                gone.add(id(r))
                for name in atoms(r):
                    uses[name] -= 1
                    if not uses[name] and name in by_head and name not in KEYWORDS and name not in keep:
                        todo.append(name)
        if gone:
            self.groups = [(comment, [r for r in rules if id(r) not in gone]) for comment, rules in self.groups]
            self.seen = {r for r in self.seen if id(r) not in gone}
        return len(gone)

    def rules(self) -> list[Rule]:
        """Every rule, in order."""
        return [r for _, rules in self.groups for r in rules]

    def description(self, source: str | None) -> GameDescription:
        """The rules as a game description."""
        return GameDescription(tuple(self.rules()), source)

    def kif(self, header: str = "") -> str:
        """The rules as KIF text with comments."""
        out: list[str] = []
        if header:
            out += [f"; {line}" if line else ";" for line in header.splitlines()]
            out.append("")
        for comment, rules in self.groups:
            if not rules:
                continue
            if comment:
                out.append(f"; {comment}")
            out += [str(rule) for rule in rules]
            out.append("")
        return "\n".join(out)


__all__ = ["RULE_BUDGET", "RuleBook", "describe"]
