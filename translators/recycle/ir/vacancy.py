"""Choice forks an option is offered without: an ``any`` over nothing beside other actions.

The engine builds an option by walking its actions (``GameIterator.RecurseDo``): an ``any``
over an empty collection adds no alternative and none of its body's actions, and the walk goes
on with the actions beside it; the option is offered when it made any action at all. So in
``(do ((any (filter HAND 'C ...) 'C (move 'C (top DISCARD))) (move (top STOCK) (top HAND))))``
the option is offered, drawing a card, when no card passes the filter. A fork is *vacant*
(:func:`vacant_forks`) when the option has an action outside its body: the option is then also
offered with the fork ``nil`` when its collection is empty and such an action runs (always, or
where its conditions hold: ``(((> (size STOCK) 0) (move (top STOCK) (top HAND))) (any ...))``
is offered drawing a card while the stock has one; a condition is read in the decision's
state, written as the actions before it leave the game where they change what it reads,
``ir/previews.py::condition_before``: ``(((> (size DISCARD) 1) (inc (game sto N) 1)) ((> (game
sto N) 1) (move ...)) (any ...))`` is offered where the discard pile holds two cards or N is
above 1, or above 0 where it holds two), its body's effects not run (``emit/choices.py``,
``emit/effects.py``).

Not vacant: a fork whose body holds a condition of the option's legality (only where the fork
is the option's one item, so with no other action), and forks among groups, a partition's parts
or card sets. A condition in a vacant fork's body stays a guard: the option is offered for every
element, those failing it running the other actions alone, as the engine offers them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import static_elements
from translators.recycle.ir.footprints import clash
from translators.recycle.ir.nodes import Env, Sym
from translators.recycle.ir.previews import condition_before
from translators.recycle.symbols.model import GameModel
from translators.recycle.syntax.nodes import (
    ActionAgg,
    Conditional,
    CreateDeck,
    CreateTeams,
    Cycle,
    FaroShuffle,
    Forget,
    IntUpdate,
    Move,
    Node,
    Remember,
    SetPoints,
    SetStr,
    Shuffle,
    TurnPass,
)


def ancestors(sym: Sym, forks: Sequence[Sym]) -> list[Sym]:
    """The option's forks whose bodies hold ``sym``'s ``any``."""
    around = sym.domain.env.syms() if sym.domain is not None else []
    return [other for other in forks if other in around]


def never_empty(model: GameModel, sym: Sym) -> bool:
    """Whether a fork's collection is known before play to hold an element always (players,
    teams, a list of names, a range)."""
    if sym.domain is None:
        return False
    elements = static_elements(model, sym.domain.collection, sym.domain.env, sym.domain.collection)
    return elements is not None and any(not conditions for _, conditions in elements)


#: The actions a fork may be offered beside (an ``all`` counts by the actions in it).
_ACTIONS = (Move, Remember, Forget, Shuffle, FaroShuffle, IntUpdate, SetStr, SetPoints, Cycle, TurnPass, CreateTeams,
            CreateDeck)


def forks_beside(model: GameModel, item: Node, bindings: Mapping[int, object]) -> set[int]:
    """The ``any`` forks of the option ``item`` (by id; ``bindings``: the choice forks' by id)
    over what may be empty, beside an action outside their body: the option may be offered
    without them (:func:`vacant_forks`), so a card their body moved cannot stand for a later
    read of a top (``ir/forwards.py``)."""
    out = set()
    for fork in item.walk():
        binding = bindings.get(id(fork))
        if not isinstance(fork, ActionAgg) or binding is None or (isinstance(binding, Sym) and never_empty(model, binding)):
            continue
        inside = {id(node) for node in fork.walk()}
        if any(isinstance(node, _ACTIONS) and id(node) not in inside for node in item.walk()):
            out.add(id(fork))
    return out


def vacant_forks(model: GameModel, forks: Sequence[Sym], plain: Iterable[Sym], legal: Sequence[tuple[object, Env]],
                 effects: Sequence[ir.Effect], env: Env) -> dict[Sym, tuple[tuple[ir.Guard, ...], ...]]:
    """The forks among ``plain`` (forks over elements of a collection) that the option may be
    offered without (see the module doc), each with the ways another action of the option runs:
    the guards of one action outside the fork's body, none for an action that always runs (then
    the only way). ``effects`` are the option's own, ``env`` its environment."""
    plain = list(plain)
    outside = env.syms()
    position = {effect.id: index for index, effect in enumerate(effects)}
    out: dict[Sym, tuple[tuple[ir.Guard, ...], ...]] = {}
    for sym in forks:
        if sym not in plain or never_empty(model, sym) or any(sym in cond_env.syms() for _, cond_env in legal):
            continue
        mine = set(ancestors(sym, forks))
        ways: list[tuple[ir.Guard, ...]] = []
        for effect in effects:
            scope = effect.env.syms()
            looped = any(s.domain is not None and s.domain.parallel and s not in outside for s in scope)
            if looped or not {s for s in scope if s in forks} <= mine:
                continue
            if not effect.guards:
                ways = [()]
                break
            # each guard read in the decision's state, as the actions before it (but the fork's
            # own, which do not run without it) leave the game
            guards = tuple(_read_before(g, [e for e in effects[:position.get(g.anchor, 0)] if sym not in e.env.syms()])
                           for g in effect.guards)
            if None not in guards and guards not in ways:
                ways.append(guards)  # type: ignore[arg-type]
        if ways:
            out[sym] = tuple(ways)
    return out


def _read_before(guard: ir.Guard, effects: Sequence[ir.Effect]) -> ir.Guard | None:
    """``guard`` with its condition written to be read before ``effects`` (each under its own
    guards) and hold where it holds after them; None where that cannot be written, or where a
    guard shared by several of them reads what the ones between change (each is read anew)."""
    if not clash([(e.node, e.env) for e in effects], guard.cond, guard.env):
        return guard
    actions: list[tuple[Node, Env]] = []
    for index, effect in enumerate(effects):
        node: Node = effect.node
        for outer in reversed(effect.guards):
            first = next(i for i, e in enumerate(effects) if outer in e.guards)
            if clash([(e.node, e.env) for e in effects[first:index]], outer.cond, outer.env):
                return None
            node = Conditional(outer.cond, node, line=outer.cond.line, column=outer.cond.column)  # type: ignore[arg-type]
        actions.append((node, effect.env))
    condition = condition_before(guard.cond, guard.env, tuple(actions))
    return None if condition is None else replace(guard, cond=condition)


def nil_sets(option: ir.Option) -> list[tuple[frozenset[Sym], tuple[Sym, ...]]]:
    """The ways the option is offered: each the forks that are ``nil`` and, among them, those
    whose collections must be empty (the outermost; the forks inside a ``nil`` one are ``nil``
    with it). The first is the option with every fork taken."""
    out: list[tuple[frozenset[Sym], tuple[Sym, ...]]] = [(frozenset(), ())]
    vacant = list(option.vacant)
    for mask in range(1, 2 ** len(vacant)):
        chosen = [sym for i, sym in enumerate(vacant) if mask >> i & 1]
        if any(set(ancestors(sym, option.forks)) & set(chosen) for sym in chosen):
            continue
        nil = {sym for sym in option.forks if sym in chosen or set(ancestors(sym, option.forks)) & set(chosen)}
        out.append((frozenset(nil), tuple(chosen)))
    return out


__all__ = ["ancestors", "forks_beside", "never_empty", "nil_sets", "vacant_forks"]
