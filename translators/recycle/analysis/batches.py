"""Parallel batches: straight-line effects grouped into GDL steps.

A batch is a maximal run of consecutive effects that can all read the step's start state: it
ends before an effect that reads what an earlier effect of the batch writes (read after write)
or writes what one writes (write after write), over conservative static resources: the cards
in a location (cards arriving and cards leaving are separate, so several cards can arrive in
one unordered location in one step), the order of an ordered location, a storage cell, a point
map, a stage's seat and queue, and chance (at most one random choice per step). Owners that are
not fixed statically cover every seat or team they could be.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ggp.gdl.terms import Variable
from translators.recycle.analysis.places import CardDomains, concrete
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import static_elements, storage_family
from translators.recycle.ir.nodes import Env, Fixed, Sym, deref
from translators.recycle.ir.rewrite import map_children
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.syntax.nodes import (
    ActualCard,
    BoolAgg,
    CardAt,
    CardLocation,
    CardsAgg,
    ExtremeCard,
    Filter,
    GameOwner,
    IntAgg,
    IntStorage,
    Node,
    OwnerOf,
    PlayerAt,
    PointStorage,
    Random,
    RelativePlayer,
    RelativeTeam,
    Score,
    SetOp,
    StrStorage,
    TeamAt,
    TeamOf,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: A read or written thing: a tag and its parts (``("cards", location)``, ``("sto", owner, name)``...).
Key: TypeAlias = tuple[Any, ...]


@dataclass
class Access:
    """What an effect reads and writes, and its chance source (if any)."""

    reads: set[Key] = field(default_factory=set)
    writes: set[Key] = field(default_factory=set)
    chance: set[Key] = field(default_factory=set)
    #: Writes that replace a value whole (``set``, ``cycle``): two of these on a cell may share
    #: a step, the later one winning.
    overwrites: set[Key] = field(default_factory=set)
    #: The partition group (see :class:`~.ir.Alias`) through which cards leave a location.
    tags: dict[Key, Any] = field(default_factory=dict)


@dataclass
class Batch:
    """Effects run together in one step."""

    id: str
    effects: list[ir.Effect]
    block: str
    index: int
    chance: Key | None = None


class AccessAnalysis:
    """Read and write sets of effects."""

    def __init__(self, model: GameModel, domains: CardDomains, ordered: set[Location], heapy: set[Location],
                 wide: AbstractSet[tuple[str, str]] = frozenset()):
        self.model = model
        self.domains = domains
        self.ordered = ordered
        self.heapy = heapy
        #: Cell families kept in decimal digits: their increments each take their own step
        #: (adding up wide deltas in one step needs huge tables).
        self.wide = wide

    def separate_increments(self, effect: ir.SetInt) -> bool:
        """Whether the increments of ``effect``'s cell must each take their own step."""
        return storage_family(effect.cell, effect.env) in self.wide

    def locations(self, node: Any, env: Env) -> list[Location]:
        """Concrete locations of a location expression."""
        return concrete(node, env, self.model)

    def owners(self, node: Any, env: Env) -> list[str]:
        """Concrete owners an owner expression can be."""
        real, real_env = deref(node, env)
        if isinstance(real, GameOwner):
            return ["game"]
        if isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, Fixed):
                return [binding.term.name]
            kind = binding.kind if isinstance(binding, Sym) else "player"
            return self.model.owners(kind)
        if isinstance(real, PlayerAt) and real.index.__class__.__name__ == "IntLit":
            return [f"player{real.index.value}"]  # type: ignore[union-attr]
        if isinstance(real, TeamAt) and real.index.__class__.__name__ == "IntLit":
            return [f"team{real.index.value}"]  # type: ignore[union-attr]
        if isinstance(real, (RelativeTeam, TeamOf, TeamAt)):
            return self.model.team_names
        return self.model.seats

    def reads(self, node: Any, env: Env, out: set[Key], chance: set[Key]) -> None:
        """Add what evaluating an expression reads."""
        if isinstance(node, tuple):
            for item in node:
                self.reads(item, env, out, chance)
            return
        if not isinstance(node, Node):
            return
        if isinstance(node, Var):
            real, real_env = deref(node, env)
            binding = env.get(node.name)
            if isinstance(binding, ir.Alias) and binding.tag is not None and real is not node:
                inner: set[Key] = set()
                self.reads(real, real_env, inner, chance)
                for key in inner:
                    out.add(("gcards", key[1], binding.tag) if key[0] == "cards" else key)
            elif real is not node:
                self.reads(real, real_env, out, chance)
            else:
                binding = env.get(node.name)
                if isinstance(binding, Sym) and binding.domain is not None and binding.domain.anchor.startswith("k"):
                    pass  # a choice fork: bound by the move
            return
        if isinstance(node, CardLocation):
            for loc in self.locations(node, env):
                out.add(("cards", loc))
            self.reads(node.owner, env, out, chance)
            return
        if isinstance(node, CardAt):
            real, real_env = deref(node.cards, env)
            if isinstance(real, CardLocation):
                for loc in self.locations(real, real_env):
                    out.add(("order", loc))
                    if loc in self.heapy:
                        chance.add(("top", real, real_env))
            self.reads(node.cards, env, out, chance)
            return
        if isinstance(node, ExtremeCard):
            chance.add(("ext", node))
        if isinstance(node, Score):
            real, real_env = deref(node.card, env)
            if isinstance(real, ExtremeCard) and real.points == node.points:
                self.reads(real.cards, real_env, out, chance)
                self.reads(real.points, real_env, out, chance)
                return
        if isinstance(node, Random):
            chance.add(("random", node))
        if isinstance(node, OwnerOf):
            for loc in self.model.locations:
                if loc.owner_kind == "player":
                    out.add(("cards", loc))
        if isinstance(node, IntStorage):
            for owner in self.owners(node.owner, env):
                out.add(("sto", owner, _text(node.name)))
        if isinstance(node, StrStorage):
            for owner in self.owners(node.owner, env):
                out.add(("str", owner, _text(node.name)))
        if isinstance(node, PointStorage):
            out.add(("pmap", _text(node.name)))
        if isinstance(node, RelativePlayer):
            stage = env.player_stage().id
            out.add(("seat", stage))
            if node.which == "next":
                out.add(("queue", stage))
        if isinstance(node, RelativeTeam):
            team_stage = env.team_stage()
            out.add(("seat", team_stage.id if team_stage else env.player_stage().id))
        if isinstance(node, (Filter, BoolAgg, CardsAgg, IntAgg)):
            self.reads(node.collection, env, out, chance)
            kind = "card"
            try:
                elements = static_elements(self.model, node.collection, env, node)
            except TranslationError:
                elements = None
            if elements:
                for binding, conds in elements:
                    for cond, cond_env in conds:
                        self.reads(cond, cond_env, out, chance)
                    body_env = env.bind(node.var.name, binding)
                    self.reads(_body(node), body_env, out, chance)
            else:
                body_env = env.bind(node.var.name, Sym(Variable("_"), kind, "card"))
                self.reads(_body(node), body_env, out, chance)
            return
        if isinstance(node, (ir.MovedCard, ir.PickedCard)):
            return
        if isinstance(node, (ir.SlotSet, ir.SlotCheck, ir.CardGroup, ir.CardsIn, ir.ChosenSet, ir.ChosenSetIn)):
            self.reads(node.base, env, out, chance)
            return
        for child in node.subnodes():
            self.reads(child, env, out, chance)

    def card_source(self, card: Any, env: Env) -> list[Location]:
        """Where a moved card can come from."""
        real, real_env = deref(card, env)
        if isinstance(real, CardAt):
            return self.card_source_coll(real.cards, real_env)
        if isinstance(real, (ActualCard,)):
            return self.card_source(real.card, real_env)
        if isinstance(real, ExtremeCard):
            return self.card_source_coll(real.cards, real_env)
        if isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, Sym) and binding.domain is not None:
                return self.card_source_coll(binding.domain.collection, binding.domain.env)
        cards = self.domains.card_cards(card, env)
        return [loc for loc in self.model.locations if self.domains.location(loc) & cards]

    def access(self, effect: ir.Effect, guards_here: Iterable[ir.Guard]) -> Access:
        """The accesses of one effect (plus the guards anchored on it)."""
        acc = Access()
        env = effect.env
        for guard in guards_here:
            self.reads(guard.cond, guard.env, acc.reads, acc.chance)
        for sym in env.syms():
            if sym.domain is not None and sym.domain.anchor == str(effect.id):
                self.reads(sym.domain.collection, sym.domain.env, acc.reads, acc.chance)
        if isinstance(effect, (ir.MoveCard, ir.Remember)):
            self.reads(effect.card, env, acc.reads, acc.chance)
            self.target_reads(effect.target, env, acc)
            targets = self.locations(effect.target, env)
            for loc in targets:
                acc.writes.add(("in", loc))
                if loc in self.ordered:
                    acc.writes.add(("order", loc))
                if isinstance(effect, ir.Remember):  # a copy takes the next place: one a step
                    acc.writes.add(("copies", loc))
            if isinstance(effect, ir.MoveCard):
                for loc in self.card_source(effect.card, env):
                    acc.reads.add(("cards", loc))
                    acc.writes.add(("out", loc))
                    if loc in self.ordered:
                        acc.writes.add(("order", loc))
        elif isinstance(effect, ir.BulkMove):
            self.reads(effect.source, env, acc.reads, acc.chance)
            self.target_reads(effect.target, env, acc)
            for loc in self.locations(effect.target, env):
                acc.writes.add(("in", loc))
                if loc in self.ordered:
                    acc.writes.add(("order", loc))
            tag = _group_tag(effect.source, env)
            for loc in self.card_source_coll(effect.source, env):
                acc.writes.add(("out", loc))
                if tag is not None:
                    acc.tags[("out", loc)] = tag
                if loc in self.ordered:
                    acc.writes.add(("order", loc))
        elif isinstance(effect, ir.ForgetCopies):
            if effect.card is not None:
                self.reads(effect.card, env, acc.reads, acc.chance)
            for loc in self.locations(effect.target, env):
                acc.writes.add(("out", loc))
                acc.writes.add(("order", loc))
                acc.writes.add(("copies", loc))  # the places and count a remember in the step sets too
        elif isinstance(effect, ir.Shuffle):
            for loc in self.locations(effect.target, env):
                acc.writes.add(("order", loc))
                acc.reads.add(("cards", loc))
        elif isinstance(effect, ir.SetInt):
            self.reads(effect.value, env, acc.reads, acc.chance)
            cell = effect.cell
            self.reads(cell.owner, env, acc.reads, acc.chance)
            for owner in self.owners(cell.owner, env):
                key = ("sto", owner, _text(cell.name))
                if effect.op != "set" and self.separate_increments(effect):
                    acc.writes.add(key)
                    acc.reads.add(key)
                elif effect.op != "set":
                    # increments of one cell run one after the other in one step (see
                    # effects.additive)
                    acc.writes.add(("add",) + key[1:])
                else:
                    acc.writes.add(key)
                    acc.overwrites.add(key)
        elif isinstance(effect, ir.SetStr):
            self.reads(effect.value, env, acc.reads, acc.chance)
            str_cell = effect.cell
            self.reads(str_cell.owner, env, acc.reads, acc.chance)
            for owner in self.owners(str_cell.owner, env):
                acc.writes.add(("str", owner, _text(str_cell.name)))
                acc.overwrites.add(("str", owner, _text(str_cell.name)))
        elif isinstance(effect, ir.SetPointMap):
            node = effect.node
            for award in node.awards:  # type: ignore[attr-defined]
                for pair in award.pairs:
                    self.reads(pair.value, env, acc.reads, acc.chance)
                self.reads(award.points, env, acc.reads, acc.chance)
            target = node.target  # type: ignore[attr-defined]
            acc.writes.add(("pmap", _text(target.name) if not isinstance(target, Var) else target.name))
            acc.overwrites |= {k for k in acc.writes if k[0] == "pmap"}
        elif isinstance(effect, ir.PickCard):
            self.reads(effect.card, env, acc.reads, acc.chance)
        elif isinstance(effect, ir.CycleSet):
            if not isinstance(effect.target, str):
                self.reads(effect.target, env, acc.reads, acc.chance)
            stage = effect.stage.id
            acc.reads.add(("seat", stage))
            if effect.target == "next":
                acc.reads.add(("queue", stage))
            acc.writes.add(("queue" if effect.which == "next" else "seat", stage))
            acc.overwrites.add(("queue" if effect.which == "next" else "seat", stage))
        return acc

    def target_reads(self, target: Any, env: Env, acc: Access) -> None:
        """What naming a target location reads: its owner expression (not its cards)."""
        real, real_env = deref(target, env)
        if isinstance(real, CardLocation):
            self.reads(real.owner, real_env, acc.reads, acc.chance)
            self.reads(real.name, real_env, acc.reads, acc.chance)

    def card_source_coll(self, coll: Any, env: Env) -> list[Location]:
        """Where the cards of a collection can be."""
        real, real_env = deref(coll, env)
        if isinstance(real, CardLocation):
            return self.locations(real, real_env)
        if isinstance(real, Filter):
            return self.card_source_coll(real.collection, real_env)
        if isinstance(real, SetOp) and isinstance(real.parts, tuple):
            return [loc for part in real.parts for loc in self.card_source_coll(part, real_env)]
        if isinstance(real, SetOp) and isinstance(real.parts, CardsAgg):
            elements = static_elements(self.model, real.parts.collection, real_env, real)
            if elements is not None:
                return [loc for b, _ in elements
                        for loc in self.card_source_coll(real.parts.body, real_env.bind(real.parts.var.name, b))]
        cards = self.domains.cards(coll, env)
        return [loc for loc in self.model.locations if self.domains.location(loc) & cards]


def _group_tag(coll: Any, env: Env) -> Any:
    """The partition group a collection expression is, if it is one."""
    if isinstance(coll, Var):
        binding = env.get(coll.name)
        if isinstance(binding, ir.Alias):
            return binding.tag
    return None


def _text(node: Any) -> str:
    return str(getattr(node, "text", getattr(node, "name", node)))


def _body(node: Any) -> Any:
    return getattr(node, "condition", None) or getattr(node, "body", None)


def conflicts(acc: Access, batch_reads: set[Key], batch_writes: set[Key], ordered: set[Location],
              batch_overwrites: AbstractSet[Key] = frozenset(), batch_tags: dict[Key, set[Any]] | None = None) -> bool:
    """Whether an effect must start a new batch after effects with these reads and writes."""
    for key in acc.reads:
        if key[0] == "gcards":
            if ("in", key[1]) in batch_writes:
                return True
            if ("out", key[1]) in batch_writes:
                writers = (batch_tags or {}).get(("out", key[1]), {None})
                if any(w is None or w[0] != key[2][0] or w == key[2] for w in writers):
                    return True
            continue
        if key[0] == "cards":
            if ("in", key[1]) in batch_writes or ("out", key[1]) in batch_writes:
                return True
        elif key in batch_writes or key[0] == "sto" and ("add",) + key[1:] in batch_writes:
            return True
    for key in acc.writes:
        if key[0] == "in" and key[1] not in ordered:
            continue
        if key[0] == "add":
            if ("sto",) + key[1:] in batch_writes or ("sto",) + key[1:] in batch_reads:
                return True
            continue
        if key[0] == "sto" and ("add",) + key[1:] in batch_writes:
            return True
        if key[0] == "out":
            continue
        if key in acc.overwrites and key in batch_overwrites:
            continue
        if key in batch_writes:
            return True
    return False


def hoist_chance(effects: list[ir.Effect], analysis: AccessAnalysis, program: ir.Program) -> list[ir.Effect]:
    """An action needing two random choices (a draw and a tie break) gets its ``max``/``min``
    card picked by a step of its own just before (``PickCard``), read back as a ``PickedCard``."""
    from dataclasses import fields

    out: list[ir.Effect] = []
    for effect in effects:
        acc = analysis.access(effect, [])
        extremes = sorted((key[1] for key in acc.chance if key[0] == "ext"), key=lambda n: (n.line, n.column))
        if len(acc.chance) > 1 and extremes:
            for node in extremes:
                pick = ir.PickCard(max(program.effects) + 1, effect.node, effect.env, effect.guards, card=node)
                program.effects[pick.id] = pick
                for guard in effect.guards:
                    if guard.anchor == effect.id:
                        guard.anchor = pick.id
                out.append(pick)
                marker = ir.PickedCard(pick.id, line=node.line, column=node.column)
                for fld in fields(effect):
                    value = getattr(effect, fld.name)
                    if isinstance(value, Node) and fld.name != "node":
                        setattr(effect, fld.name, _swap(value, node, marker))
        out.append(effect)
    return out


def _swap(tree: Any, old: Node, new: Node) -> Any:
    """``tree`` with every node equal to ``old`` replaced by ``new``."""
    if not isinstance(tree, Node):
        return tree
    if tree == old and type(tree) is type(old):
        return new
    return map_children(tree, lambda child: _swap(child, old, new))


def make_batches(block: str, effects: list[ir.Effect], analysis: AccessAnalysis, program: ir.Program,
                 option: bool = False, items_apart: bool = False) -> list[Batch]:
    """Split a block's effects into batches. For a choice option (``option``) the first batch,
    run in the step of the decision, holds no random choice (it may be empty). With
    ``items_apart``, each of the engine's nodes (an item of the stage body) begins a batch."""
    from translators.recycle.translation_error import TranslationError

    effects = hoist_chance(effects, analysis, program)
    anchored: dict[int, list[ir.Guard]] = {}
    for guard in program.guards.values():
        anchored.setdefault(guard.anchor, []).append(guard)
    batches: list[Batch] = []
    current: list[ir.Effect] = []
    reads: set[Key] = set()
    writes: set[Key] = set()
    overwrites: set[Key] = set()
    tags: dict[Key, set[Any]] = {}
    chance: Key | None = None

    def close(force: bool = False) -> None:
        nonlocal current, reads, writes, overwrites, tags, chance
        if current or force:
            batches.append(Batch(f"{block}_{len(batches) + 1}", current, block, len(batches), chance))
        current, reads, writes, overwrites, tags, chance = [], set(), set(), set(), {}, None

    for effect in effects:
        acc = analysis.access(effect, anchored.get(effect.id, []))
        split = conflicts(acc, reads, writes, analysis.ordered, overwrites, tags)
        split = split or (items_apart and effect.id in program.nodes)
        source: Key | None = None
        if acc.chance:
            if len(acc.chance) > 1:
                raise TranslationError(effect.node, "this action needs two random choices at once")
            source = next(iter(acc.chance))
            if chance is not None and chance != source:
                split = True
            if option and not batches:
                close(force=True)
                split = False
        if split:
            close()
        current.append(effect)
        reads |= acc.reads
        writes |= acc.writes
        overwrites |= acc.overwrites
        for key in acc.writes:
            tags.setdefault(key, set()).add(acc.tags.get(key))
        if source is not None:
            chance = source
    close(force=option and not batches)
    return batches


@dataclass
class StepPlan:
    """Every block and every choice option of a program cut into batches (GDL steps)."""

    #: Per block of the flow, its batches.
    flow: dict[str, list[Batch]] = field(default_factory=dict)
    #: Per (choice id, option index), the batches of the option.
    options: dict[tuple[str, int], list[Batch]] = field(default_factory=dict)
    #: Per block (of the flow or of an option, ``k1o0``), its batches.
    blocks: dict[str, list[Batch]] = field(default_factory=dict)
    #: Every batch by id.
    batches: dict[str, Batch] = field(default_factory=dict)
    #: The first batch of each option: its choice and option.
    option_first: dict[str, tuple[ir.ChoiceNode, ir.Option]] = field(default_factory=dict)
    #: The blocks of stages whose passes need not reach a choice: each item a batch of its own
    #: (the engine may end the game between any two, ``emit/idle.py``).
    apart: set[str] = field(default_factory=set)

    @property
    def batch_of(self) -> dict[int, str]:
        """The batch of every effect."""
        return {e.id: b.id for b in self.batches.values() for e in b.effects}

    @property
    def batch_order(self) -> dict[str, tuple[str, int]]:
        """Each batch's block and position in it."""
        return {b.id: (b.block, b.index) for b in self.batches.values()}


def plan_steps(program: ir.Program, analysis: AccessAnalysis) -> StepPlan:
    """Batch every block and every choice option of ``program``. In a stage whose passes need
    not reach a choice, the items of a block are batches apart (:attr:`StepPlan.apart`): the
    engine may end the game (``STUCK_NODES`` without a choice, ``emit/idle.py``) between any two."""
    plan = StepPlan()

    def collect(items: list[ir.Item], looping: bool = False) -> None:
        for item in items:
            if isinstance(item, ir.Block):
                got = make_batches(item.id, item.effects, analysis, program, items_apart=looping)
                if looping:
                    plan.apart.add(item.id)
                plan.flow[item.id] = got
                plan.blocks[item.id] = got
                plan.batches.update((b.id, b) for b in got)
            elif isinstance(item, ir.ChoiceNode):
                for option in item.options:
                    block = f"{item.id}o{option.index}"
                    got = make_batches(block, option.effects, analysis, program, option=True)
                    plan.options[(item.id, option.index)] = got
                    plan.blocks[block] = got
                    plan.batches.update((b.id, b) for b in got)
                    plan.option_first[got[0].id] = (item, option)
            else:
                collect(item.body, not any(isinstance(x, ir.ChoiceNode) for x in item.body))

    collect(program.body)
    return plan


__all__ = ["Access", "AccessAnalysis", "Batch", "StepPlan", "conflicts", "make_batches", "plan_steps"]
