"""The assembled expression compiler, and facts about the program the passes share.

``translate(game)`` gives a :class:`~ggp.gdl.rules.GameDescription`; ``compile_game(game)``
the full :class:`Translation` (KIF text with comments, line map, step points, warnings);
``translate_file(path)`` reads, translates and returns the :class:`Translation`.

Passes: static model (:mod:`.model`), lowering to the IR (:mod:`.lower`), where cards can be
(:mod:`.places`), integer ranges (:mod:`.ranges`), batches (:mod:`.batches`), control
(:mod:`.control`), then the rules: effects (:mod:`.effects`), card fluents
(:mod:`.cardstate`), choices, storage, percepts (:mod:`.percepts`), goals (:mod:`.goals`).
``docs/translation.md`` describes the scheme.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ggp.errors import Problem
from ggp.gdl.rules import GameDescription, Literal
from ggp.gdl.terms import Constant, Term, Variable
from translators.recycle.analysis.places import CardDomains, concrete
from translators.recycle.analysis.ranges import Ranges
from translators.recycle.emit.arith import FALSE, Interval
from translators.recycle.emit.cardsets import CardSetMixin
from translators.recycle.emit.cardstate import order_classes
from translators.recycle.emit.effects import EffectEmitter
from translators.recycle.emit.expressions import Ctl, Val
from translators.recycle.emit.groups import GroupMixin
from translators.recycle.emit.pointmaps import PointMapMixin
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import static_elements
from translators.recycle.ir.nodes import Env, Fixed, deref
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.symbols.vocabulary import (
    c,
    does,
    f,
    true,
)
from translators.recycle.syntax.nodes import (
    CardAt,
    CardLocation,
    Node,
    Random,
)
from translators.recycle.translation_error import TranslationError

RANDOM = Constant("random")


class Compiler(GroupMixin, CardSetMixin, PointMapMixin):
    """The expression compiler with every part mixed in."""

    ranges: Ranges
    emitter: EffectEmitter
    batch_of: dict[int, str]

    def __init__(self, model: GameModel, book: RuleBook, program: ir.Program, domains: CardDomains,
                 ordered: set[Location], heapy: set[Location], linked: set[Location]):
        super().__init__(model, book, program)
        self.domains = domains
        self.ordered = ordered
        self.heapy = heapy
        self.linked = linked
        self.chance_uses = {}
        self.current_guards = []
        self.batch_of = {}

    def interval(self, node: Any, env: Env) -> Interval:
        return self.ranges.of(node, env)

    def moved_card(self, node: ir.MovedCard, ctl: Ctl) -> Val:
        effect = self.program.effects[node.effect]
        home = self.batch_of.get(node.effect)
        if ctl.batch is not None and home == ctl.batch:
            return self.card(effect.card, effect.env, ctl)  # type: ignore[attr-defined]
        if ctl.batch is None:
            raise TranslationError(node, "the card moved by an earlier action is read outside a step")
        relation = next(m.relation for m in self.emitter.moves if m.effect.id == node.effect)
        v = self.fresh("c")
        fluent = f("moved", c(f"e{node.effect}"), v)
        self.emitter.need(("moved", node.effect, relation), f("moved", c(f"e{node.effect}"), Variable("c")),
                          home or "", ctl.batch)
        return [true(fluent)], v

    def picked_card(self, node: ir.PickedCard, ctl: Ctl) -> Val:
        """The card a ``PickCard`` effect picked."""
        effect = self.program.effects[node.effect]
        home = self.batch_of.get(node.effect)
        if ctl.batch is not None and home == ctl.batch:
            return self.card(effect.card, effect.env, ctl)  # type: ignore[attr-defined]
        v = self.fresh("c")
        fluent = f("picked", c(f"e{node.effect}"), Variable("c"))
        self.emitter.need(("picked", node.effect, self.emitter.picks[node.effect]), fluent, home or "",
                          ctl.batch or "")
        return [true(f("picked", c(f"e{node.effect}"), v))], v

    def random_value(self, node: Random, env: Env, ctl: Ctl) -> Val:
        if not ctl.chance:
            raise TranslationError(node, "`random` can only be used in an action")
        low, high = self.interval(node, env)
        v = self.fresh("n")
        self.chance_uses.setdefault(ctl.batch or "", []).append(
            ("num", list(self.current_guards), [self.sort_literal(v, f"int:{low}:{high}")], v))
        return [does(RANDOM, f("num", v))], v

    def card_values(self, pm: Any, env: Env, card_id: str) -> set[int]:
        return PointMapMixin.card_values(self, pm, env, card_id)

    def elem_member(self, coll: Any, env: Env, ctl: Ctl, term: Term, kind: str) -> list[Literal]:
        """Membership of a value in any collection (cards, or a static one)."""
        if kind == "card":
            return self.member(coll, env, ctl, term)
        elements = static_elements(self.model, coll, env, coll)
        if elements is None:
            raise TranslationError(coll, "cannot choose from this collection")
        sort = {"player": "seat", "team": "team"}.get(kind)
        alternatives = []
        for binding, conds in elements:
            assert isinstance(binding, Fixed)
            lits: list[Literal] = []
            for cond, cond_env in conds:
                lits += self.cond(cond, cond_env, ctl)
            if not isinstance(term, Variable):
                if term == binding.term:
                    alternatives.append(lits)
                continue
            if sort is None:
                alternatives.append(lits + [self.sort_literal(term, "name:" + binding.term.name)
                                            if kind == "str" else self.sort_literal(term, f"int:{binding.term.name}:{binding.term.name}")])
            else:
                alternatives.append(lits + [f(self.same(sort), term, binding.term)])
        if not alternatives:
            return [FALSE]
        if not isinstance(term, Variable) and any(not a for a in alternatives):
            return []
        extra = [(term, _sort_of(kind, elements))] if isinstance(term, Variable) else []
        atom = self.aux("elem", alternatives, env, coll, extra=extra, key=("elem", coll, env, ctl.key, term))
        return [atom]


def _sort_of(kind: str, elements: list[tuple[ir.Binding, list[tuple[Node, Env]]]]) -> str:
    if kind == "player":
        return "seat"
    if kind == "team":
        return "team"
    values = [b.term.name for b, _ in elements if isinstance(b, Fixed)]  # all Fixed (see elem_member)
    if kind == "int":
        return f"int:{min(map(int, values))}:{max(map(int, values))}"
    return "name:" + ",".join(values)


@dataclass
class Translation:
    """A translated game: the rules, their KIF text and what is known about them."""

    description: GameDescription
    kif: str
    model: GameModel
    steps: dict[str, str]
    lines: dict[str, int]
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def has_chance(self) -> bool:
        """Whether the game has a ``random`` role."""
        return self.description.has_random


def program_expressions(program: ir.Program, model: GameModel) -> Iterator[tuple[Any, Env]]:
    """Every expression of the program with its environment."""
    for effect in program.effects.values():
        for attr in ("card", "target", "source", "value", "cell"):
            value = getattr(effect, attr, None)
            if isinstance(value, Node):
                yield value, effect.env
        if isinstance(effect, ir.SetPointMap):
            yield effect.node, effect.env
        for sym in effect.env.syms():
            if sym.domain is not None:
                yield sym.domain.collection, sym.domain.env
    for guard in program.guards.values():
        yield guard.cond, guard.env
    for choice in program.choices.values():
        for option in choice.options:
            yield from option.legal
            for sym in option.forks:
                if sym.domain is not None:
                    yield sym.domain.collection, sym.domain.env
    for stage in program.stages.values():
        yield stage.end, stage.env
    yield model.game.scoring.value, Env()


def _walk_with_env(node: Any, env: Env) -> Iterator[tuple[Any, Env]]:
    stack = [(node, env)]
    seen: set[int] = set()
    while stack:
        item, item_env = stack.pop()
        if not isinstance(item, Node) or id(item) in seen:
            continue
        seen.add(id(item))
        yield item, item_env
        from translators.recycle.syntax.nodes import Var

        if isinstance(item, Var):
            real, real_env = deref(item, item_env)
            if real is not item:
                stack.append((real, real_env))
            continue
        for child in item.subnodes():
            stack.append((child, item_env))


def order_facts(program: ir.Program, model: GameModel,
                domains: CardDomains) -> tuple[set[Location], set[Location], set[Location]]:
    """Which locations are ordered, which can hold a heap, and which keep their whole order
    (their bottom card is read: "linked")."""
    tops: set[Location] = set()
    bottoms: set[Location] = set()
    for expr, env in program_expressions(program, model):
        for node, node_env in _walk_with_env(expr, env):
            if isinstance(node, CardAt) and node.position in ("top", "bottom"):
                real, real_env = deref(node.cards, node_env)
                if isinstance(real, CardLocation):
                    places = concrete(real, real_env, model)
                    tops.update(places)
                    if node.position == "bottom":
                        bottoms.update(places)
    shuffled: set[Location] = set()
    edges: list[tuple[set[Location], set[Location]]] = []
    for effect in program.effects.values():
        if isinstance(effect, ir.Shuffle):
            shuffled.update(concrete(effect.target, effect.env, model))
        elif isinstance(effect, ir.BulkMove):
            from translators.recycle.analysis.batches import AccessAnalysis

            sources = set(AccessAnalysis(model, domains, set(), set()).card_source_coll(effect.source, effect.env))
            edges.append((sources, set(concrete(effect.target, effect.env, model))))
    ordered, heapy = order_classes(model, tops, shuffled, edges)
    return ordered, heapy, bottoms


__all__ = ["Compiler", "Translation", "order_facts", "program_expressions"]
