"""The rules of effects: what each batch changes in the next state.

Every effect of a batch compiles against the step's start state. Its rule body is the batch's
activation (``(at_step B)``, or the decision for a choice's first batch), its guards and the
bindings of its variables, then what it computes. A guard, a fork value or a card of a parallel
``all`` that a later batch of the same block needs is kept in a temporary fluent (``flag``,
``bound``, ``moved``) until then. Card moves become ``(move I CARD FROM TO)`` (and the like) rules, from
which :mod:`.cardstate` makes the card fluents and :mod:`.percepts` what each role sees.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Function, Term, Variable
from translators.recycle.analysis.batches import Batch
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.moves import MoveName
from translators.recycle.analysis.places import concrete
from translators.recycle.emit.contexts import StepCtl, Val
from translators.recycle.emit.handles import blind_forks, handle, maybe_handle
from translators.recycle.emit.ledger import Temp
from translators.recycle.emit.literals import positive_vars
from translators.recycle.emit.protocol import Compiler
from translators.recycle.emit.wide import WideRead
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import parallel_card
from translators.recycle.ir.nodes import Env, Sym, deref
from translators.recycle.ir.vacancy import nil_sets
from translators.recycle.ir.walks import reads_random
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.model import Location
from translators.recycle.symbols.vocabulary import (
    c,
    does,
    f,
    name,
    num,
    nxt,
    rule,
    true,
)
from translators.recycle.syntax.nodes import (
    CardAt,
    CardLocation,
    Filter,
    IntStorage,
    Node,
    RelativePlayer,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: The relation of each kind of card move (and bulk moves that keep their order), all
#: ``(REL I CARD FROM TO)``: a card moves onto the top of a location (under its bottom, to a
#: numbered place), every card of a location moves onto its top (under its bottom: in the order
#: they had, or reversed when taken from the bottom), a copy of a card is remembered (before
#: the first copy).
MOVE_RELATIONS = {("single", False): "move", ("bulk", False): "move_all", ("bulk", True): "move_all_keep",
                  ("copy", False): "remember", ("copyunder", False): "remember_under", ("copyat", False): "remember_at",
                  ("under", False): "move_under", ("at", False): "move_at",
                  ("bulkunder", False): "move_all_under", ("bulkunder", True): "move_all_under_rev"}


@dataclass
class Moves:
    """A card-moving effect's relation and what it is."""

    relation: str
    kind: str  # "single", "under", "at", "bulk", "bulkunder", "copy", "copyunder" or "copyat"
    effect: ir.Effect
    batch: Batch
    index: int
    preserve: bool = False
    targets: list[Location] = field(default_factory=list)
    sources: list[Location] = field(default_factory=list)


class EffectEmitter:
    """Emits the rules of every batch (mixed with the compiler by the translator)."""

    def __init__(self, comp: Compiler, batch_of: dict[int, str], batch_order: dict[str, tuple[str, int]],
                 option_first: dict[str, tuple[ir.ChoiceNode, ir.Option]], moves: dict[tuple[str, int], MoveName]):
        self.comp = comp
        self.book = comp.book
        self.model = comp.model
        self.batch_of = batch_of
        self.batch_order = batch_order
        self.option_first = option_first
        self.move_names = moves
        self.choice_of = {id(o): ch.id for ch in comp.program.choices.values() for o in ch.options}
        #: ``choose`` has one arity: the most picks of an option that has no name of its own.
        self.choose_arity = max((len(o.forks) for ch in comp.program.choices.values() for o in ch.options
                                 if moves.get((ch.id, o.index)) is None), default=0)
        #: Card forks named by a handle in the move (cards their chooser may not see).
        self.handles = blind_forks(comp)
        #: The forks options may be offered without (``ir/vacancy.py``).
        self.vacant = {sym for ch in comp.program.choices.values() for o in ch.options for sym in o.vacant}
        self.moves: list[Moves] = []
        self.writes: list[tuple[str, str, list[Literal], Any]] = []
        self.cycle_sets: list[tuple[str, Any, list[Literal], Term]] = []
        self.shuffles: list[tuple[Term, list[Literal]]] = []
        self.percept_writes: list[tuple[Term, list[Literal]]] = []
        self.forgets: list[str] = []
        self.forget_cards: list[str] = []
        self.whole_bulks = False

    # -- activation and scope -----------------------------------------------------------------

    def choose_term(self, option: ir.Option, nil: AbstractSet[Sym] = frozenset()) -> Term:
        """The option's move: its name with the option's picks (see :mod:`~..analysis.moves`),
        or ``(choose K f1 ... nil)``; the forks ``nil`` are ``nil`` (``ir/vacancy.py``)."""
        named = self.move_names.get((self.choice_of[id(option)], option.index))
        picks: list[Term] = [c("nil") if s in nil else self.handles.get(s.var, s.var) for s in option.forks]
        if named is not None:
            return f(named, *picks)
        args: list[Term] = [num(option.index)] + picks
        args += [c("nil")] * (self.choose_arity - len(option.forks))
        return f("choose", *args) if len(args) > 1 else f("choose", num(option.index))

    def activation(self, batch: Batch) -> list[Literal]:
        """Literals holding in the step that runs ``batch``.

        The sorts of the fork variables are redundant with ``does`` in play, but keep a move
        ``(choose K X)`` of one choice from lending its ``X`` to another's effects in the
        reasoner's relaxed reachability (negation dropped), which sizes the ground network.
        """
        first = self.option_first.get(batch.id)
        if first is None:
            return [f("at_step", c(batch.id))]
        choice, option = first
        stage = choice.env.player_stage().id
        player = Variable(f"seat_{stage}")
        maybe = {sym for nil, _ in nil_sets(option) for sym in nil}
        sorts = [self.comp.sort_literal(sym.var, sym.sort) if sym not in maybe else self.maybe_sort(sym)
                 for sym in option.forks]
        named = [handle(self.comp, player, sym.var, self.handles[sym.var]) if sym not in maybe
                 else maybe_handle(self.comp, player, sym.var, self.handles[sym.var])
                 for sym in option.forks if sym.var in self.handles]
        return [f("at_step", c(choice.id)), f("rseat", stage, player), does(player, self.choose_term(option)),
                *named, *sorts]

    def maybe_sort(self, sym: Sym) -> Literal:
        """``sym``'s sort or ``nil``: a fork an option may be offered without."""
        sort = self.comp.sort_literal(Variable("x"), sym.sort)
        assert isinstance(sort, Function)
        rel = f"maybe_{sort.name}"
        if ("maybe", rel) not in self.book.memo:
            self.book.memo[("maybe", rel)] = True
            with self.book.group(f"a value of {sym.sort}, or nil: a fork an option may be offered without"):
                self.book.add(rule(f(rel, c("nil"))))
                self.book.add(rule(f(rel, Variable("x")), sort))
        return f(rel, sym.var)

    def scope(self, effect: ir.Effect, batch: Batch, ctl: StepCtl, upto: int | None = None,
              skip: tuple[ir.Guard, ...] = ()) -> list[Literal]:
        """Guards and variable bindings an effect runs under (temps for earlier batches), but
        the guards ``skip``."""
        lits: list[Literal] = []
        guards = [g for g in (effect.guards if upto is None else effect.guards[:upto]) if g not in skip]
        for guard in guards:
            anchor = self.batch_of.get(guard.anchor)
            if anchor == batch.id:
                lits += self.comp.cond(guard.cond, guard.env, ctl)
            else:
                lits.append(true(f("flag", c(f"g{guard.id}"))))
                self.need(("flag", guard.id), f("flag", c(f"g{guard.id}")), anchor or batch.id, batch.id)
        for sym in effect.env.syms():
            lits += self.sym_scope(sym, batch, ctl)
        return lits

    def chance_scope(self, effect: ir.Effect, batch: Batch) -> list[Literal]:
        """What ``random`` may choose for an effect under: its scope without the guards of this
        step that ``random`` itself decides (a ``(random ...)`` in them): its legal moves cannot
        depend on its own move."""
        own = tuple(g for g in effect.guards if self.batch_of.get(g.anchor) == batch.id and reads_random(g.cond, g.env))
        return self.scope(effect, batch, StepCtl(batch.id, chance=False), skip=own)

    def sym_scope(self, sym: Sym, batch: Batch, ctl: StepCtl) -> list[Literal]:
        """What binds a variable in this batch."""
        domain = sym.domain
        if domain is None:
            return []
        if domain.anchor.startswith("k"):
            # the body of a fork an option may be offered without runs when it is not nil
            vacant: list[Literal] = [Distinct(sym.var, c("nil"))] if sym in self.vacant else []
            first = self.option_first.get(batch.id)
            if first is not None and first[0].id == domain.anchor:
                return vacant
            fluent = f("bound", c(sym.var.name), sym.var)
            self.need(("bound", sym.var.name), fluent, self.fork_anchor(domain.anchor, batch), batch.id)
            return [true(fluent), *vacant]
        anchor = self.batch_of.get(int(domain.anchor))
        if anchor is None or anchor == batch.id:
            return self.comp.member(domain.collection, domain.env, ctl, sym.var)
        fluent = f("bound", c(sym.var.name), sym.var)
        self.need(("bound", sym.var.name), fluent, anchor, batch.id, (domain, sym))
        return [true(fluent)]

    def fork_anchor(self, choice: str, batch: Batch) -> str:
        """The first batch (the decision step) of the option ``batch`` belongs to."""
        block, _ = self.batch_order[batch.id]
        return f"{block}_1"

    def need(self, key: Any, fluent: Any, anchor: str, reader: str, extra: Any = None) -> None:
        """Record that a temporary fluent is read by a later batch (see :class:`~.ledger.Ledger`)."""
        self.comp.ledger.need(key, fluent, anchor, reader, extra)

    # -- batches ----------------------------------------------------------------------------------

    def batch(self, batch: Batch) -> None:
        """Emit the rules of every effect of a batch (in reverse order: a value set twice in one
        step keeps the later write, so each write needs to know whether a later one happens)."""
        ctl = StepCtl(batch.id, chance=True)
        act = self.activation(batch)
        self.later_writes: dict[tuple[str, str], list[str]] = {}
        groups: dict[tuple[str, str], list[int]] = {}
        for index, effect in enumerate(batch.effects):
            if isinstance(effect, ir.SetInt) and effect.op != "set" and not self.comp.wide.is_wide(
                    self.comp.family(effect.cell, effect.env)):
                groups.setdefault(self.comp.family(effect.cell, effect.env), []).append(index)
        merged = {i for members in groups.values() if len(members) > 1 for i in members}
        for family, members in groups.items():
            if len(members) > 1:
                self.additive(family, [(i, batch.effects[i]) for i in members], batch, act, ctl)
        for index in range(len(batch.effects) - 1, -1, -1):
            if index in merged:
                continue
            effect = batch.effects[index]
            self.comp.ledger.current_guards = act + self.chance_scope(effect, batch)
            with self.book.group(f"{describe(effect.node)} (step {batch.id})", effect.node):
                base = act + self.scope(effect, batch, ctl)
                self.effect(effect, batch, index, base, ctl)
        self.comp.ledger.current_guards = []

    def overwrite(self, kind: str, label: str, head: Any, body: list[Literal]) -> None:
        """A whole-value write (``stoset``, ``strset``...): unless a later write of the same step
        writes the same cell; then record this write for the earlier ones."""
        owner, cell = head.args[0], head.args[1]
        later = [f(rel, owner, cell) for rel in self.later_writes.get((kind, label), [])]
        self.book.add(rule(head, body + [Not(x) for x in later]))
        rel = self.book.name("writes")
        self.book.add(rule(f(rel, owner, cell), body))
        self.later_writes.setdefault((kind, label), []).append(rel)

    def effect(self, effect: ir.Effect, batch: Batch, index: int, base: list[Literal], ctl: StepCtl) -> None:
        """One effect's rules."""
        comp = self.comp
        env = effect.env
        if isinstance(effect, ir.MoveCard):
            card_lits, card = comp.card(effect.card, env, ctl)
            to_lits, to = comp.loc_term(effect.target, env, ctl)
            src_lits, src = self.source(effect.card, env, ctl)
            body = base + card_lits + src_lits + [true(f("at", card, src))] + to_lits
            kind = self.placing(effect)
            self.move_relation(kind, effect, batch, index, [card, src, to], body)
            if kind == "at":  # the place it is put at, counted from the bottom card (0)
                at_lits, at = self.place(effect, ctl)
                self.book.add(rule(f("insertat", to, card, at), body + at_lits))
        elif isinstance(effect, ir.BulkMove):
            card = comp.fresh("c")
            to_lits, to = comp.loc_term(effect.target, env, ctl)
            whole, whole_env = deref(effect.source, env)
            # under the bottom of a pile whose top is read; elsewhere where they go does not matter
            under = effect.at == "bottom" and bool(set(concrete(effect.target, env, self.model)) & comp.ordered)
            if isinstance(whole, CardLocation) and whole.visibility != "mem":
                # the cards of one location: the location is where they come from (bound by
                # ``(true (at C ?from))`` it grounds over every place a card can be)
                src_lits, src = comp.loc_term(whole, whole_env, ctl)
                body = base + src_lits + [true(f("at", card, src))] + to_lits
                # a whole pile: its top or its links can be carried over; the order it lands
                # in: the same (``keep``) or reversed
                order = c("keep" if (effect.end == "bottom") != under else "reverse")
                if under:
                    self.book.add(rule(f("underwhole", src, to, order), base + src_lits + to_lits))
                elif comp.linked & set(concrete(whole, whole_env, self.model)):
                    self.book.add(rule(f("wholebulk", src, to, order), base + src_lits + to_lits))
                    self.whole_bulks = True
            else:
                members = comp.member(effect.source, env, ctl, card)
                src = Variable("from")
                body = base + members + [true(f("at", card, src))] + to_lits
            self.move_relation("bulkunder" if under else "bulk", effect, batch, index, [card, src, to], body,
                               preserve=effect.end == "bottom")
        elif isinstance(effect, ir.Remember):
            card_lits, card = comp.card(effect.card, env, ctl)
            to_lits, to = comp.loc_term(effect.target, env, ctl)
            if effect.end != "top" and parallel_card(effect.card, env):
                where = "under a memory location's bottom" if effect.end == "bottom" else "at a numbered place"
                raise TranslationError(effect.node, f"cards remembered {where} by an `all` (their places, one under "
                                                    "another, are not kept): remember them one at a time, or on top")
            kind = {"top": "copy", "bottom": "copyunder"}.get(effect.end, "copyat")
            self.move_relation(kind, effect, batch, index, [card, c("nowhere"), to], base + card_lits + to_lits)
            if kind == "copyat":  # the place it is put at, counted from the first copy (0)
                at_lits, at = self.place(effect, ctl)
                self.book.add(rule(f("copyat", to, card, at), base + card_lits + to_lits + at_lits))
        elif isinstance(effect, ir.ForgetCopies):
            lits, loc = comp.loc_term(effect.target, env, ctl)
            rel = self.book.name("forget", effect.node)
            if effect.card is None:
                self.book.add(rule(f(rel, loc), base + lits))
                self.forgets.append(rel)
            else:
                card_lits, card = comp.card(effect.card, env, ctl)
                self.book.add(rule(f(rel, loc, card), base + lits + card_lits))
                self.forget_cards.append(rel)
        elif isinstance(effect, ir.Shuffle):
            lits, loc = comp.loc_term(effect.target, env, ctl)
            self.shuffles.append((loc, base + lits))
            self.book.add(rule(f("shuffled", loc), base + lits))
        elif isinstance(effect, ir.SetInt):
            self.set_int(effect, base, ctl)
        elif isinstance(effect, ir.SetStr):
            owner_lits, owner = comp.owner(effect.cell.owner, env, ctl)
            value_lits, value = comp.str_total(effect.value, env, ctl)
            cell = comp.storage_name(effect.cell.name, env)
            self.overwrite("str", cell.name, f("strset", owner, cell, value), base + owner_lits + value_lits)
        elif isinstance(effect, ir.SetPointMap):
            node = effect.node
            kind, label = comp.pointmaps.map_key(node.target, env)  # type: ignore[attr-defined]
            if comp.pointmaps.is_static((kind, label)):
                return
            lits, values = comp.site_values(effect, ctl)
            site = f(f"site{effect.id}", *values) if values else c(f"site{effect.id}")
            target, target_env = deref(node.target, env)  # type: ignore[attr-defined]
            owner_lits, owner = ([], c(kind)) if kind == "game" else comp.owner(target.owner, target_env, ctl)
            self.overwrite("pmap", label, f("pmapset", owner, name(label), site), base + lits + owner_lits)
            comp.points_relation((kind, label))
        elif isinstance(effect, ir.CycleSet):
            self.cycle(effect, base, ctl)
        elif isinstance(effect, ir.PickCard):
            card_lits, card = comp.card(effect.card, env, ctl)
            rel = self.book.name("pick", effect.node)
            self.book.add(rule(f(rel, card), base + card_lits))
            self.comp.ledger.picks[effect.id] = rel
        else:
            raise TranslationError(effect.node, f"cannot translate {type(effect).__name__}")

    def source(self, card: Any, env: Env, ctl: StepCtl) -> tuple[list[Literal], Term]:
        """Where a moved card comes from: a location term when the expression tells, else a
        variable bound by the card's ``at`` fluent."""
        real, real_env = deref(card, env)
        coll: tuple[Node, Env] | None = None
        if isinstance(real, CardAt):
            coll = (real.cards, real_env)
        elif isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, Sym) and binding.domain is not None:
                coll = (binding.domain.collection, binding.domain.env)
        while coll is not None:
            node, node_env = deref(*coll)
            if isinstance(node, CardLocation):
                return self.comp.loc_term(node, node_env, ctl)
            coll = (node.collection, node_env) if isinstance(node, Filter) else None
        return [], Variable("from")

    def place(self, effect: ir.MoveCard | ir.Remember, ctl: StepCtl) -> Val:
        """The place ``N`` of an effect's ``(N LOC)`` target, counted from the bottom (0)."""
        place, place_env = deref(effect.node.target, effect.env)  # type: ignore[attr-defined]
        fixed = static_int(place.position, place_env)
        return ([], num(fixed)) if fixed is not None else self.comp.int_(place.position, place_env, ctl)

    def placing(self, effect: ir.MoveCard) -> str:
        """How a single move puts its card: on top (``single``), under the bottom card
        (``under``) or at a numbered place (``at``: the pile keeps its whole order); where no
        order is kept the place in the pile does not matter."""
        if effect.end == "top":
            return "single"
        if not any(place in self.comp.ordered for place in concrete(effect.target, effect.env, self.model)):
            return "single"
        return "at" if effect.end == "index" else "under"

    def move_relation(self, kind: str, effect: ir.Effect, batch: Batch, index: int, head: list[Term],
                      body: list[Literal], preserve: bool = False) -> None:
        """The rule of a moving effect: ``(REL I CARD FROM TO)``, with ``I`` the effect's place
        in its step and ``REL`` one of :data:`MOVE_RELATIONS` for its kind."""
        rel = MOVE_RELATIONS[(kind, preserve)]
        bound = positive_vars(body)
        extra = [self.comp.sort_literal(v, "card") for v in head[:1] if isinstance(v, Variable) and v not in bound]
        self.book.add(rule(f(rel, num(index), *head), body + extra))
        targets = concrete(effect.target, effect.env, self.model)  # type: ignore[attr-defined]
        self.moves.append(Moves(rel, kind, effect, batch, index, preserve, targets))
        self.comp.ledger.moved[effect.id] = rel

    def set_int(self, effect: ir.SetInt, base: list[Literal], ctl: StepCtl) -> None:
        """``set``/``inc``/``dec`` of an integer cell, with the overflow check."""
        comp = self.comp
        env = effect.env
        cell = effect.cell
        assert isinstance(cell, IntStorage)
        owner_lits, owner = comp.owner(cell.owner, env, ctl)
        label = comp.storage_name(cell.name, env)
        key = comp.family(cell, env)
        if key in comp.unread:
            return  # no rule reads it (analysis/unread.py)
        cell_range = comp.ranges.cell(*key)
        if comp.wide.is_wide(key):
            self.set_wide(effect, base + owner_lits, owner, key, ctl)
            return
        value_lits, value = comp.int_(effect.value, env, ctl)
        if effect.op == "set":
            self.overwrite("sto", label.name, f("stoset", owner, label, value), base + owner_lits + value_lits)
            return
        old, new = comp.fresh("n"), comp.fresh("n")
        op = "+" if effect.op == "inc" else "-"
        current: list[Literal] = [true(f("sto", owner, label, old))]
        if isinstance(value, Variable):
            delta = comp.interval(effect.value, env)
            table = comp.tables.binary(op, cell_range, delta, cell_range, label.name)
            step: list[Literal] | None = [f(table, old, value, new)] if table else None
            check: list[Literal] = [Not(f(comp.tables.defined(table), old, value))] if table else []
        else:
            table = comp.tables.shift(op, int(value.name), cell_range, cell_range, label=label.name)
            step = [f(table, old, new)] if table else None
            check = [Not(f(comp.tables.domain(table), old))] if table else []
        if step is None:
            self.comp.ledger.failures.append(("overflow", base + owner_lits + value_lits + current))
            return
        self.book.add(rule(f("stoset", owner, label, new), base + owner_lits + value_lits + current + step))
        self.comp.ledger.failures.append(("overflow", base + owner_lits + value_lits + current + check))

    def additive(self, family: tuple[str, str], members: list[tuple[int, ir.Effect]], batch: Batch,
                 act: list[Literal], ctl: StepCtl) -> None:
        """Several ``inc``/``dec`` of one (narrow) cell family in one step: they run one after
        the other, as in the engine, each through the cell's own addition, and the cell is
        written once with the last value. ``(R_delta K O D)``: the K-th change of owner O's cell
        is D; ``(R_sum K O S)``: after the first K changes the cell holds S."""
        comp = self.comp
        label = name(family[1])
        rel = self.book.name("adds", members[0][1].node)
        delta, has, total, touched = (f"{rel}_{part}" for part in ("delta", "has", "sum", "touched"))
        cell_range = comp.ranges.cell(*family)
        comp.tables.cover((0, len(members)))
        o, d, s1, s2, k, k2 = (Variable(n) for n in ("o", "d", "s1", "s2", "k", "k2"))
        with self.book.group(f"the changes of ({family[0]} sto {family[1]}) in step {batch.id}, one after the other"):
            self.book.add(rule(f(has, k, o), f(delta, k, o, d)))
            self.book.add(rule(f(touched, o), f(delta, k, o, d)))
            self.book.add(rule(f(total, num(0), o, s1), f(touched, o), true(f("sto", o, label, s1))))
            self.book.add(rule(f(total, k2, o, s1), f(total, k, o, s1), f("succ", k, k2), Distinct(k, num(len(members))),
                               Not(f(has, k2, o))))
            for index, (_, effect) in enumerate(members, start=1):
                assert isinstance(effect, ir.SetInt)
                env = effect.env
                self.comp.ledger.current_guards = act + self.chance_scope(effect, batch)
                base = act + self.scope(effect, batch, ctl)
                owner_lits, owner = comp.owner(effect.cell.owner, env, ctl)
                value_lits, value = comp.int_(effect.value, env, ctl)
                span = comp.interval(effect.value, env)
                op = "+" if effect.op == "inc" else "-"
                table = comp.tables.binary(op, cell_range, span, cell_range, label.name)
                ok = comp.tables.defined(table) if table else None
                self.book.add(rule(f(delta, num(index), owner, value), base + owner_lits + value_lits))
                before: list[Literal] = [f(total, num(index - 1), o, s1), f(delta, num(index), o, d)]
                if table:
                    self.book.add(rule(f(total, num(index), o, s2), before + [f(table, s1, d, s2)]))
                self.comp.ledger.failures.append(("overflow", before + ([Not(f(ok, s1, d))] if ok else [])))
            self.comp.ledger.current_guards = []
            self.book.add(rule(f("stoset", o, label, s1), f(total, num(len(members)), o, s1)))

    def set_wide(self, effect: ir.SetInt, base: list[Literal], owner: Term, family: tuple[str, str], ctl: StepCtl) -> None:
        """A write of a wide (decimal) cell."""
        comp = self.comp
        wide = comp.wide
        env = effect.env
        if effect.op == "set":
            value_lits, value = comp.int_(effect.value, env, ctl)
            try:
                self.comp.ledger.failures += wide.set(base, owner, family, value_lits, value, comp.fresh,
                                                      comp.interval(effect.value, env))
            except WideRead as exc:
                raise TranslationError(effect.node, str(exc)) from None
            return
        real, real_env = deref(effect.value, env)
        wide_delta = None
        if isinstance(real, IntStorage) and wide.is_wide(comp.family(real, real_env)):
            other = comp.family(real, real_env)
            if wide.k[other] == wide.k[family]:
                lits, other_owner = comp.owner(real.owner, real_env, ctl)
                self.comp.ledger.failures += wide.add(base + lits, owner, family, ([], other_owner), (0, 0),
                                          effect.op == "dec", comp.fresh, (other_owner, other))
                return
        value_lits, value = comp.int_(effect.value, env, ctl)
        span = comp.interval(effect.value, env)
        self.comp.ledger.failures += wide.add(base, owner, family, (value_lits, value), span, effect.op == "dec", comp.fresh)
        del wide_delta

    def cycle(self, effect: ir.CycleSet, base: list[Literal], ctl: StepCtl) -> None:
        """``(cycle next|current X)``."""
        comp = self.comp
        stage = effect.stage.id
        target = effect.target
        if isinstance(target, str):
            lits, player = comp.player(RelativePlayer(target), effect.env, ctl)
        else:
            real, real_env = deref(target, effect.env)

            lits, player = comp.player(real, real_env, ctl)
        head = "queueset" if effect.which == "next" else "seatset"
        self.overwrite(head, stage, f(head, c(stage), player), base + lits)

    # -- temporaries ----------------------------------------------------------------------------

    def emit_temps(self, batches: dict[str, Batch], blocks: dict[str, list[Batch]]) -> None:
        """Writers and keepers of temporary fluents."""
        for key, temp in self.comp.ledger.temps.items():
            anchor = temp.anchor
            kind = key[0]
            with self.book.group(f"keep {kind} {key[1]} from step {anchor} for {sorted(temp.readers)}"):
                if kind == "flag":
                    guard = self.comp.program.guards[key[1]]
                    effect = self.comp.program.effects[guard.anchor]
                    batch = batches[anchor]
                    position = list(effect.guards).index(guard) + 1
                    lits = self.activation(batch) + self.scope(effect, batch, StepCtl(anchor, chance=False), upto=position)
                    self.book.add(rule(nxt(temp.fluent), lits))
                elif kind == "bound":
                    batch = batches[anchor]
                    extra = temp.extra
                    lits = self.activation(batch)
                    if extra is not None:
                        domain, sym = extra
                        lits = lits + self.comp.member(domain.collection, domain.env, StepCtl(anchor), sym.var)
                    self.book.add(rule(nxt(temp.fluent), lits))
                elif kind == "moved":
                    mover = next(m for m in self.moves if m.effect.id == key[1])
                    self.book.add(rule(nxt(temp.fluent), self.activation(mover.batch)
                                       + [f(mover.relation, num(mover.index), temp.fluent.args[1], Variable("f"), Variable("t"))]))
                elif kind == "picked":
                    self.book.add(rule(nxt(temp.fluent), [f(key[2], temp.fluent.args[1])]))
                block, start = self.batch_order[anchor]
                last = max(self.batch_order[r][1] for r in temp.readers)
                for batch in blocks[block][start + 1: last]:
                    self.book.add(rule(nxt(temp.fluent), [true(temp.fluent), f("at_step", c(batch.id))]))


__all__ = ["EffectEmitter", "Moves", "Temp"]
