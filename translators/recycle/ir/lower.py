"""Lowering a RECYCLE syntax tree to the IR of :mod:`.ir`.

- ``do`` blocks, conditional actions, ``let``, ``repeat N`` and ``all`` become straight-line effects
  with guards; ``all``/``any`` (an automatic ``any`` acts like ``all``) over players, teams, name
  lists and ranges are unrolled; over a card collection they bind a GDL variable ranging over it
  (a parallel effect over its cards); over a ``partition`` they unroll over the attribute's values.
- A ``choice`` becomes a flat option list in source order: every ``any`` inside an option (at any
  depth of ``do``) forks it, one option per element; the option's legality is its leading condition
  (and the leading condition of a leading fork's body) plus the forks' membership.
- ``(top LOC)`` read right after an unconditional move onto the top of LOC in the same block is
  the moved card (forwarding), so no order needs tracking for it and no extra step is needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from ggp.gdl.terms import Variable
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.counted import counted_change
from translators.recycle.ir.declarations import declared_env
from translators.recycle.ir.elements import (
    expression_kind,
    fork_sort,
    memory_of,
    partition_parts,
    static_elements,
)
from translators.recycle.ir.enginenodes import engine_nodes
from translators.recycle.ir.forks import groups_any, groups_first, lift_groups
from translators.recycle.ir.forwards import (
    Forwards,
    carried,
    forget_changed,
    forward,
    invalidate,
    invalidate_moved,
    invalidate_source,
    location_key,
)
from translators.recycle.ir.groups import (
    Member,
    Room,
    group_members,
)
from translators.recycle.ir.nodes import (
    Alias,
    Domain,
    Env,
    Guard,
    StageRef,
    Sym,
    deref,
)
from translators.recycle.ir.partitions import (
    groups_of,
    holds_cards,
    kept_groups,
    with_value,
)
from translators.recycle.ir.previews import read_after
from translators.recycle.ir.repeats import unrolled_passes
from translators.recycle.ir.setchoice import Conditions, set_fork
from translators.recycle.ir.sites import GroupSites
from translators.recycle.ir.targets import end_of, location, place_of
from translators.recycle.ir.vacancy import forks_beside, vacant_forks
from translators.recycle.symbols.model import GameModel
from translators.recycle.symbols.vocabulary import name
from translators.recycle.syntax.nodes import (
    ActionAgg,
    CardAt,
    Choice,
    Compare,
    Conditional,
    CreateDeck,
    CreateTeams,
    Cycle,
    Do,
    FaroShuffle,
    Filter,
    Forget,
    IntLit,
    IntUpdate,
    Let,
    Move,
    NameList,
    Node,
    Partition,
    Remember,
    Repeat,
    RepeatAll,
    SetPoints,
    SetStr,
    Shuffle,
    Size,
    Stage,
    TurnPass,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: The most effects a ``repeat`` may unroll to (the corpus's largest repeat unrolls to a few
#: dozen; a count in the millions would take the translator hours).
MAX_UNROLLED = 10_000

#: An effect class, for :meth:`Lowerer.effect`.
E = TypeVar("E", bound=ir.Effect)
#: The actions of an option that run before a node, each with its environment.
Before = tuple[tuple[Node, Env], ...]


class Lowerer:
    """Builds the :class:`~.ir.Program` of one game."""

    def __init__(self, model: GameModel, rooms: Mapping[tuple[int, int], Room] | None = None):
        self.model = model
        self.sites = GroupSites(dict(rooms or {}))
        self.effects: dict[int, ir.Effect] = {}
        self.guards: dict[int, Guard] = {}
        self.stages: dict[str, ir.StageNode] = {}
        self.choices: dict[str, ir.ChoiceNode] = {}
        self.point_sites: dict[int, Node] = {}
        self.blocks = 0
        self.vars = 0
        self.guard_count = 0
        self.consumed: set[int] = set()
        #: The binding of each choice fork's variable, and the environment it is bound in.
        self.fork_nodes: dict[int, Sym | Alias] = {}
        self.fork_keys: dict[int, tuple[str, Sym]] = {}
        #: The forks (by their ``any``'s id) beside other actions of their option, over what may be empty.
        self.beside: set[int] = set()
        #: Card forks made for groups chosen within them (``ir/forks.py``), kept alive by id.
        self.lifted: dict[int, ActionAgg] = {}
        #: The fork over set ids of an option choosing among card sets as data, by its item's id.
        self.set_forks: dict[int, Sym] = {}
        #: The choice forks over the elements of a collection (``find_forks``), which may be vacant.
        self.plain: list[Sym] = []
        #: The engine's nodes beginning with each effect (:attr:`.ir.Program.nodes`).
        self.nodes: dict[int, int] = {}

    # -- program and flow ----------------------------------------------------------------------

    def program(self) -> ir.Program:
        """Lower the whole game."""
        env = self.top_env = declared_env(self.model.game)
        body = self.flow(self.model.game.flow, env)
        return ir.Program(body, self.stages, self.effects, self.choices, self.guards, self.point_sites,
                          self.sites.uses, self.vars, self.sites.enumerated, self.nodes)

    def flow(self, items: Any, env: Env) -> list[ir.Item]:
        """Lower a stage body (or the top level)."""
        out: list[ir.Item] = []
        pending: list[tuple[Any, list[ir.Effect]]] = []
        forwards: Forwards = {}

        def flush() -> None:
            nonlocal pending, forwards
            if any(made for _, made in pending):
                self.blocks += 1
                out.append(ir.Block(f"b{self.blocks}", engine_nodes(pending, self.nodes)))
            pending, forwards = [], {}

        items = list(items)
        i = 0
        while i < len(items):
            item = items[i]
            i += 1
            if isinstance(item, Stage):
                flush()
                out.append(self.stage(item, env))
            elif isinstance(item, Choice) or (isinstance(item, Let) and isinstance(_innermost(item), Choice)):
                flush()
                # the actions right after a choice run as the end of each of its options
                tail = []
                while i < len(items) and not _is_flow(items[i]):
                    tail.append(items[i])
                    i += 1
                inner_env = env
                while isinstance(item, Let):
                    inner_env = inner_env.bind(item.var.name, Alias(item.value, inner_env))
                    item = item.body
                out.append(self.choice(item, inner_env, tail, env))
            else:
                pending.append((item, self.seq([item], env, (), forwards)))
        flush()
        return out

    def stage(self, node: Stage, env: Env) -> ir.StageNode:
        """Lower a stage."""
        ref = StageRef(self.model.stage_id(node), node.kind)
        inner = env.enter(ref)
        stage = ir.StageNode(ref, node, node.end, inner, [], env.stages[-1].id)
        self.stages[ref.id] = stage
        stage.body = self.flow(node.body, inner)
        return stage

    # -- straight-line code ----------------------------------------------------------------------

    def effect(self, cls: type[E], node: Node, env: Env, guards: tuple[Guard, ...], **kw: Any) -> E:
        """A new effect, with the guards whose anchor it becomes."""
        eid = len(self.effects) + 1
        effect = cls(eid, node, carried(list(kw.values()) + [g.cond for g in guards], env, self.effects), guards, **kw)
        self.effects[eid] = effect
        for guard in guards:
            if guard.anchor < 0:
                guard.anchor = eid
        return effect

    def seq(self, items: Any, env: Env, guards: tuple[Guard, ...], fwd: Forwards) -> list[ir.Effect]:
        """Lower actions run in order."""
        out: list[ir.Effect] = []
        for item in items:
            out += self.item(item, env, guards, fwd)
        return out

    def item(self, node: Any, env: Env, guards: tuple[Guard, ...], fwd: Forwards) -> list[ir.Effect]:
        """Lower one action, conditional action or block."""
        if isinstance(node, Do):
            return self.seq(node.items, env, guards, fwd)
        if isinstance(node, Conditional):
            if id(node) in self.consumed:
                return self.item(node.body, env, guards, fwd)
            guard = self.new_guard(forward(node.condition, env, fwd, guards), env)
            inner = self.item(node.body, env, guards + (guard,), fwd)
            if not inner:
                del self.guards[guard.id]
            return inner
        if isinstance(node, Let):
            return self.item(node.body, env.bind(node.var.name, Alias(node.value, env)), guards, fwd)
        if isinstance(node, ActionAgg):
            return self.aggregate(node, env, guards, fwd)
        if isinstance(node, Repeat):
            times = unrolled_passes(node, env)
            out: list[ir.Effect] = []
            for _ in range(times):
                out += self.item(node.action, env, guards, fwd)
                if len(out) > MAX_UNROLLED:
                    raise TranslationError(node, f"`repeat {times}` unrolls to more than {MAX_UNROLLED} effects "
                                           "(a repeat is written out once per time)")
            return out
        if isinstance(node, TurnPass):
            return []
        return self.action(node, env, guards, fwd)

    def action(self, node: Any, env: Env, guards: tuple[Guard, ...], fwd: Forwards) -> list[ir.Effect]:
        """Lower one atomic action."""
        if isinstance(node, Move):
            target, end = place_of(node.target, env)
            card = forward(node.source, env, fwd, guards)
            effect = self.effect(ir.MoveCard, node, env, guards, card=card, target=target, end=end)
            invalidate(fwd, target, env)
            invalidate_moved(fwd, node.source, env)
            key = location_key(target, env)
            if key is not None and end == "top":
                fwd[key] = (effect.id, guards)
            return [effect]
        if isinstance(node, RepeatAll):
            action = node.action
            if isinstance(action, Forget):
                if not isinstance(action.card, CardAt) or action.card.position not in ("top", "bottom"):
                    # from either end, every copy goes
                    raise TranslationError(action, "`repeat all` forgets from the top or bottom of a memory location")
                target = location(action.card.cards, env)
                invalidate(fwd, target, env)
                return [self.effect(ir.ForgetCopies, node, env, guards, target=target)]
            if not isinstance(action.source, CardAt) or action.source.position not in ("top", "bottom"):
                raise TranslationError(action, "`repeat all` moves from the top or bottom of a collection")
            target, at = place_of(action.target, env)
            if at == "index":
                raise TranslationError(action.target, "`repeat all` moves onto `(top LOCATION)` or `(bottom LOCATION)`")
            source = forward(action.source.cards, env, fwd, guards)
            invalidate(fwd, target, env)
            invalidate_source(fwd, source, env)
            return [self.effect(ir.BulkMove, node, env, guards, source=source, end=str(action.source.position),
                                target=target, at=at)]
        if isinstance(node, Shuffle):
            target = location(node.cards, env)
            invalidate(fwd, target, env)
            return [self.effect(ir.Shuffle, node, env, guards, target=target)]
        if isinstance(node, IntUpdate):
            return [self.effect(ir.SetInt, node, env, guards, op=node.op, cell=node.storage,
                                value=forward(node.value, env, fwd, guards))]
        if isinstance(node, SetStr):
            return [self.effect(ir.SetStr, node, env, guards, cell=node.storage,
                                value=forward(node.value, env, fwd, guards))]
        if isinstance(node, SetPoints):
            awards = tuple(forward(a, env, fwd, guards) for a in node.awards)
            node = replace(node, awards=awards)
            setting = self.effect(ir.SetPointMap, node, env, guards)
            setting.site = setting.id
            self.point_sites[setting.id] = node
            return [setting]
        if isinstance(node, Cycle):
            cycled = node.target if isinstance(node.target, str) else forward(node.target, env, fwd, guards)
            stage = env.player_stage()
            if node.which == "current":
                for key in [k for k in fwd if k[2] == ("cur", stage.id)]:
                    del fwd[key]
            return [self.effect(ir.CycleSet, node, env, guards, which=node.which, stage=stage, target=cycled)]
        if isinstance(node, Remember):
            target, end = end_of(node.target, env)
            card = forward(node.source, env, fwd, guards)
            invalidate(fwd, target, env)
            return [self.effect(ir.Remember, node, env, guards, card=card, target=target, end=end)]
        if isinstance(node, FaroShuffle):
            raise TranslationError(node, "`shuffle faro` is not supported")
        if isinstance(node, Forget):
            target = memory_of(node.card, env)
            card = forward(node.card, env, fwd, guards)
            invalidate(fwd, target, env)
            return [self.effect(ir.ForgetCopies, node, env, guards, target=target, card=card)]
        if isinstance(node, CreateDeck):  # made in the setup by ``made.py`` before lowering
            raise TranslationError(node, "`create deck` in play was not made in the setup")
        if isinstance(node, CreateTeams):
            raise TranslationError(node, "teams are created in the setup (the teams are constants of the rules; the "
                                         "engine would keep the old teams beside the new ones)")
        raise TranslationError(node, f"`{type(node).__name__}` cannot be used as an action here")

    # -- aggregates -----------------------------------------------------------------------------

    def aggregate(self, node: ActionAgg, env: Env, guards: tuple[Guard, ...], fwd: Forwards) -> list[ir.Effect]:
        """``all`` (or an automatic ``any``) over a collection."""
        if id(node) in self.fork_nodes:
            if id(node) not in self.beside:
                return self.item(node.body, self.fork_env(node, env), guards, fwd)
            inner = dict(fwd)  # the option may be offered without the fork: its moves may not happen
            got = self.item(node.body, self.fork_env(node, env), guards, inner)
            forget_changed(fwd, inner)
            return got
        coll, coll_env = deref(node.collection, env)
        if isinstance(coll, Partition):
            return self.partition(node, coll, coll_env, env, guards, fwd)
        elements = static_elements(self.model, node.collection, env, node)
        if elements is not None:
            out: list[ir.Effect] = []
            for binding, conds in elements:
                inner_env = env.bind(node.var.name, binding)
                added = tuple(self.new_guard(cond, cond_env) for cond, cond_env in conds)
                got = self.item(node.body, inner_env, guards + added, fwd)
                if not got:
                    for guard in added:
                        del self.guards[guard.id]
                out += got
            return out
        kind = expression_kind(coll, coll_env)
        if kind == "cards":
            counted = counted_change(node, env, self.consumed)
            if counted is not None:
                return self.item(counted, env, guards, fwd)
            sym = self.new_sym("card", "card", Domain(node.collection, env, str(len(self.effects) + 1)))
            return self.item(node.body, env.bind(node.var.name, sym), guards, dict(fwd))
        groups = group_members(self.model, coll, coll_env, self.sites.room)
        if groups is not None:
            return self.groups(node, groups, env, guards, fwd)
        raise TranslationError(node, f"`{node.quantifier}` over this collection ({kind}) is not supported")

    def groups(self, node: ActionAgg, groups: list[Member], env: Env,
               guards: tuple[Guard, ...], fwd: Forwards) -> list[ir.Effect]:
        """``all`` over ``subsets``, ``runs`` or ``tuples`` (or a filter of them): the body once
        per group (:func:`.groups.group_members`), guarded by its conditions; a game where the cards have
        more members than slots ends with ``(failed slots)``."""
        out: list[ir.Effect] = []
        for group, conds in groups:
            inner_env = env.bind(node.var.name, group)
            added = tuple(self.new_guard(cond, cond_env) for cond, cond_env in conds)
            got = self.item(node.body, inner_env, guards + added, fwd)
            if not got:
                for guard in added:
                    del self.guards[guard.id]
            out += got
        return out

    def set_fork(self, coll: Any, coll_env: Env, env: Env, cid: str, var: str) -> tuple[Env, Conditions, Sym] | None:
        """A choice among the card sets a filter of subsets picks, as data (``ir/setchoice.py``):
        the option's ``env`` with ``var`` bound to the set chosen, its conditions and the fork
        over set ids; None where the groups of ``coll`` are not such sets."""
        return set_fork(self.model, self.sites, coll, coll_env, env, cid, var, self.new_sym)

    def partition_groups(self, node: ActionAgg, coll: Partition, coll_env: Env) -> list[Alias]:
        """The groups of ``(partition KEY CARDS)`` (``ir/partitions.py``), with fresh variables."""
        groups = groups_of(self.model, node, coll, coll_env, self.vars + 1)
        self.vars += len(groups)
        return groups

    def partition(self, node: ActionAgg, coll: Partition, coll_env: Env, env: Env,
                  guards: tuple[Guard, ...], fwd: Forwards) -> list[ir.Effect]:
        """``all`` over ``(partition KEY CARDS)``: one group per value of KEY (non-empty groups)."""
        out: list[ir.Effect] = []
        for group in self.partition_groups(node, coll, coll_env):
            inner_env = env.bind(node.var.name, group)
            guard = self.new_guard(holds_cards(node.var.name, coll), inner_env)
            got = self.item(node.body, inner_env, guards + (guard,), fwd)
            if not got:
                del self.guards[guard.id]
            out += got
        return out

    def group_fork(self, node: ActionAgg, coll: Partition, coll_env: Env, env: Env, cid: str) -> tuple[Sym, Alias]:
        """A choice among the groups of ``(partition KEY CARDS)``: a fork over KEY's values,
        the group being the cards of CARDS with the value chosen (offered when not empty)."""
        key, source, values = partition_parts(self.model, coll, coll_env)
        at = {"line": coll.line, "column": coll.column}
        sym = self.new_sym("str", "name:" + ",".join(name(v).name for v in values),
                           Domain(NameList(tuple(values), **at), env, cid))
        value = Var(f"_K{self.vars}", kind="str", **at)
        self.fork_keys[id(node)] = (value.name, sym)
        return sym, Alias(with_value(key, source, value, self.vars, at), coll_env.bind(value.name, sym))

    def fork_env(self, node: ActionAgg, env: Env) -> Env:
        """``env`` with the variable of the choice fork ``node`` bound (and, for a fork among
        groups, the value chosen, so that rules over the group take it as a parameter)."""
        if id(node) in self.fork_keys:
            key, sym = self.fork_keys[id(node)]
            env = env.bind(key, sym)
        return env.bind(node.var.name, self.fork_nodes[id(node)])

    def new_guard(self, cond: Node, env: Env) -> Guard:
        """A new guard (its anchor is set by the first effect it covers)."""
        self.guard_count += 1
        guard = Guard(self.guard_count, cond, carried([cond], env, self.effects))
        self.guards[guard.id] = guard
        return guard

    def new_sym(self, kind: str, sort: str, domain: Domain | None) -> Sym:
        """A fresh GDL variable binding."""
        self.vars += 1
        prefix = {"card": "c", "player": "p", "team": "t", "str": "s", "int": "n"}.get(kind, "x")
        return Sym(Variable(f"{prefix}{self.vars}"), kind, sort, domain)

    # -- choices --------------------------------------------------------------------------------

    def choice(self, node: Choice, env: Env, tail: list[Node] | None = None, tail_env: Env | None = None) -> ir.ChoiceNode:
        """Lower a choice to its flat option list (``tail``: actions that follow the choice,
        lowered at the end of every option)."""
        cid = f"k{len(self.choices) + 1}"
        choice = ir.ChoiceNode(cid, node, env, [])
        self.choices[cid] = choice
        for whole in node.items:
            for item, option_env, legal in self.group_options(whole, env, cid):
                forks: list[Sym] = []
                self.find_forks(item, option_env, forks, cid)
                self.beside |= forks_beside(self.model, item, self.fork_nodes)
                forks += [self.set_forks.pop(id(item))] if id(item) in self.set_forks else []
                self.leading(item, option_env, legal)
                fwd: Forwards = {}
                effects = self.item(item, option_env, (), fwd)
                own = len(effects)
                if tail:
                    effects += engine_nodes([(t, self.seq([t], tail_env or env, (), fwd)) for t in tail], self.nodes)
                index = len(choice.options)
                vacancies = vacant_forks(self.model, forks, self.plain, legal, effects[:own], option_env)
                choice.options.append(ir.Option(index, whole, tuple(forks), legal, effects, option_env, own, vacancies))
        return choice

    def group_options(self, item: Any, env: Env, cid: str) -> list[tuple[Any, Env, list[tuple[Node, Env]]]]:
        """The options an item of a choice makes, with conditions to be legal: itself; or, for
        ``(any GROUPS 'G BODY)`` over ``subsets``, ``runs``, ``tuples`` or a filter of a partition
        (under conditions), BODY once per group, legal under the conditions and the group's; the
        same for groups chosen within a part of a partition, or within a card (``ir/forks.py``)."""
        conditions: list[tuple[Node, Env]] = []
        inner = item
        while isinstance(inner, Conditional):
            conditions.append((inner.condition, env))
            inner = inner.body
        if isinstance(inner, Do) and (first := groups_first(inner, env)) is not None:
            inner = first
        if isinstance(inner, ActionAgg) and inner.quantifier == "any":
            coll, coll_env = deref(inner.collection, env)
            data = self.set_fork(coll, coll_env, env, cid, inner.var.name)
            if data is not None:
                option_env, conds, self.set_forks[id(inner.body)] = data
                return [(inner.body, option_env, conditions + conds)]
            groups = group_members(self.model, coll, coll_env, partial(self.sites.room, chosen=True))
            if groups is not None:
                return [(inner.body, env.bind(inner.var.name, group), conditions + conds) for group, conds in groups]
            kept, kept_env = deref(coll.collection, coll_env) if isinstance(coll, Filter) else (None, coll_env)
            if isinstance(coll, Filter) and isinstance(kept, Partition):
                return kept_groups(inner, coll, coll_env, env, conditions, self.partition_groups(inner, kept, kept_env))
            if isinstance(coll, Partition) and groups_any(inner.body):  # ``(any (partition SUIT H) 'S (any (runs 3 'S ..) 'R ..))``
                return [(body, part_env, conditions + conds) for group in self.partition_groups(inner, coll, coll_env)
                        for body, part_env, conds in self.group_options(inner.body, env.bind(inner.var.name, group), cid)]
            lifted = lift_groups(inner) if expression_kind(coll, coll_env) == "cards" else None
            if lifted is not None:
                return self.lifted_options(*lifted, env, conditions, cid)
        return [(item, env, [])]

    def lifted_options(self, fork: ActionAgg, chosen: ActionAgg, env: Env, conditions: list[tuple[Node, Env]],
                       cid: str) -> list[tuple[Any, Env, list[tuple[Node, Env]]]]:
        """One option per group ``chosen`` among, each the card ``fork`` with a variable of its own
        (an option's picks are kept for its later steps by their variable). The first option's
        groups stand for the site (the others differ by a fresh variable); a later option makes
        only its own group where the groups are card sets."""
        out: list[tuple[Any, Env, list[tuple[Node, Env]]]] = []
        total = -1
        while True:
            own = replace(fork)
            sym = self.new_sym("card", "card", Domain(own.collection, env, cid))
            chosen_coll, chosen_env = deref(chosen.collection, env.bind(own.var.name, sym))
            data = self.set_fork(chosen_coll, chosen_env, env, cid, chosen.var.name)
            if data is not None:
                self.fork_nodes[id(own)], self.lifted[id(own)] = sym, own
                option_env, conds, self.set_forks[id(own)] = data
                return [(own, option_env, conditions + conds)]
            nth = len(out)
            room_of = partial(self.sites.room, chosen=True) if not out else partial(self.sites.site_room, nth=nth)
            members = group_members(self.model, chosen_coll, chosen_env, room_of) or []
            total = len(members) if total < 0 else total
            if nth == total:
                return out
            self.fork_nodes[id(own)], self.lifted[id(own)] = sym, own
            group, conds = members[nth] if len(members) == total else members[0]
            out.append((own, env.bind(chosen.var.name, group), conditions + conds))

    def find_forks(self, node: Any, env: Env, forks: list[Sym], cid: str, before: Before = ()) -> None:
        """Every ``any`` inside an option (through ``do``, conditions, ``let``) becomes a fork
        (``before``: the option's actions that run before ``node``)."""
        if isinstance(node, Do):
            for index, item in enumerate(node.items):
                self.find_forks(item, env, forks, cid, before + tuple((a, env) for a in node.items[:index]))
        elif isinstance(node, Conditional):
            self.find_forks(node.body, env, forks, cid, before)
        elif isinstance(node, Let):
            self.find_forks(node.body, env.bind(node.var.name, Alias(node.value, env)), forks, cid, before)
        elif isinstance(node, ActionAgg) and node.quantifier == "any" and id(node) in self.lifted:
            sym = self.fork_nodes[id(node)]
            assert isinstance(sym, Sym)
            forks.append(sym)
            self.find_forks(node.body, env.bind(node.var.name, sym), forks, cid, before)
        elif isinstance(node, ActionAgg) and node.quantifier == "any":
            collection = read_after(node, env, before)
            real, real_env = deref(collection, env)
            if isinstance(real, Partition):
                sym, group = self.group_fork(node, real, real_env, env, cid)
                self.fork_nodes[id(node)] = group
                forks.append(sym)
                self.find_forks(node.body, self.fork_env(node, env), forks, cid, before)
                return
            element, sort = fork_sort(self.model, node, real, real_env)
            sym = self.new_sym(element, sort, Domain(collection, env, cid))
            self.fork_nodes[id(node)] = sym
            self.plain.append(sym)
            forks.append(sym)
            self.find_forks(node.body, env.bind(node.var.name, sym), forks, cid, before)

    def leading(self, node: Any, env: Env, legal: list[tuple[Node, Env]]) -> None:
        """The conditions an option needs to be offered (its leading conditions)."""
        if isinstance(node, Conditional):
            legal.append((node.condition, env))
            self.consumed.add(id(node))
            self.leading(node.body, env, legal)
        elif isinstance(node, Let):
            self.leading(node.body, env.bind(node.var.name, Alias(node.value, env)), legal)
        elif isinstance(node, Do) and len(node.items) == 1:
            self.leading(node.items[0], env, legal)
        elif isinstance(node, ActionAgg) and id(node) in self.fork_nodes:
            inner = self.fork_env(node, env)
            if id(node) in self.fork_keys:
                at = {"line": node.line, "column": node.column}
                legal.append((Compare(">", Size(Var(node.var.name, kind="cards", **at), **at), IntLit(0, **at),
                                      kind="int", **at), inner))
            self.leading(node.body, inner, legal)


def _is_flow(node: Any) -> bool:
    """Whether a stage item starts its own control step (a stage or a choice)."""
    return isinstance(node, (Stage, Choice)) or (isinstance(node, Let) and isinstance(_innermost(node), Choice))


def _innermost(node: Any) -> Any:
    while isinstance(node, Let):
        node = node.body
    return node


def lower(model: GameModel, rooms: Mapping[tuple[int, int], Room] | None = None) -> ir.Program:
    """The IR of a game (``rooms``: the slots of the groups made at each site, default ``SLOTS``)."""
    return Lowerer(model, rooms).program()


__all__ = ["Lowerer", "declared_env", "deref", "lower"]
