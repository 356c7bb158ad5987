"""A choice's ``any`` over a pile that earlier actions of its option draw to or take from,
read as those actions leave it.

The engine builds an option's actions one by one, running each before building the next
(``GameIterator.RecurseDo``), so in ``(do ((move (top STOCK) (top HAND)) (any HAND 'C ...)))``
the ``any`` forks over the hand with the card just drawn. The translation reads a fork's
collection in the decision's state; :func:`preview` writes the collection as the earlier moves
leave it, in that state: a card moved onto the pile joins it (``(union COLL (filter SOURCE 'X
(== 'X CARD)))``), a card taken from it leaves it (``(filter COLL 'X (!= 'X CARD))``). That
holds for moves of one card, from the top or bottom of a pile or a card the choice picked from
a pile, to the top or bottom of another, each card read as the moves before it leave its pile; anything else (a count changed, a pile
shuffled, a card moved by a variable) gives None, and :func:`read_after` refuses the ``any``
with a located error.
"""

from __future__ import annotations

from typing import Any

from translators.recycle.ir.footprints import clash, describe
from translators.recycle.ir.forwards import location_key
from translators.recycle.ir.nodes import Env, Sym, deref
from translators.recycle.syntax.nodes import (
    ActionAgg,
    CardAt,
    CardLocation,
    Compare,
    Filter,
    Move,
    Node,
    SetOp,
    Var,
)
from translators.recycle.translation_error import TranslationError


def _moved_card(node: Any, env: Env) -> tuple[Any, Any, Any] | None:
    """A moved card as the card read, its pile's key and the pile: ``(top|bottom LOC)`` of a
    named location, or a choice's card variable over a pile (or a filter of one); None for
    anything else."""
    real, real_env = deref(node, env)
    if isinstance(real, CardAt) and real.position in ("top", "bottom"):
        key = location_key(real.cards, real_env)
        return (real, key, real.cards) if key is not None else None
    bound = real_env.get(real.name) if isinstance(real, Var) else None
    if isinstance(bound, Sym) and bound.domain is not None and not bound.domain.parallel:
        pile, pile_env = deref(bound.domain.collection, bound.domain.env)
        while isinstance(pile, Filter):
            pile, pile_env = deref(pile.collection, pile_env)
        key = location_key(pile, pile_env) if isinstance(pile, CardLocation) else None
        # read where the move is, the pile must be the same one
        return (real, key, pile) if key is not None and location_key(pile, env) == key else None
    return None


def _target(node: Any, env: Env) -> Any:
    """The key of the pile a move puts its card on (top or bottom), or None."""
    real, real_env = deref(node, env)
    if isinstance(real, CardAt) and real.position in ("top", "bottom"):
        return location_key(real.cards, real_env)
    return None


def preview(collection: Any, env: Env, before: tuple[tuple[Node, Env], ...]) -> CardLocation | Filter | SetOp | None:
    """``collection`` (a pile under filters) as the actions ``before`` leave it, read in the
    state before them; None when that cannot be written so (see the module doc)."""
    real, real_env = deref(collection, env)
    filters: list[Filter] = []
    while isinstance(real, Filter):
        filters.append(real)
        real, real_env = deref(real.collection, real_env)
    if not isinstance(real, CardLocation) or real_env != env:
        return None
    pile = location_key(real, env)
    if pile is None or any(clash(before, f.condition, env) for f in filters):
        return None
    at = {"line": real.line, "column": real.column}
    current: CardLocation | Filter | SetOp = real
    for index, (action, action_env) in enumerate(before):
        if not clash([(action, action_env)], current, env):
            continue
        source = _moved_card(action.source, action_env) if isinstance(action, Move) else None
        target = _target(action.target, action_env) if isinstance(action, Move) else None
        if source is None or target is None or action_env != env or clash(before[:index], source[0], env):
            return None
        card, source_key, source_pile = source
        if pile not in (source_key, target):
            return None
        var = Var(f"PREVIEW_{action.line}_{action.column}", kind="card", **at)
        if source_key == pile:
            current = Filter(current, var, Compare("!=", var, card, kind="card", **at), **at)
        if target == pile:
            drawn = Filter(source_pile, var, Compare("==", var, card, kind="card", **at), **at)
            current = SetOp("union", (current, drawn), **at)
    for outer in reversed(filters):
        current = Filter(current, outer.var, outer.condition, **at)
    return current


def read_after(node: ActionAgg, env: Env, before: tuple[tuple[Node, Env], ...]) -> Any:
    """The collection a choice's ``any`` forks over, as the option's actions ``before`` it leave
    it (its own where they change nothing it reads); a located error where that cannot be
    written (see the module doc)."""
    changed = clash(before, node.collection, env)
    if not changed:
        return node.collection
    collection = preview(node.collection, env, before)
    if collection is None:
        raise TranslationError(node, f"this `any` reads {describe(changed)}, which actions of the option before it "
                                     "change (the engine offers its options as those actions leave the game), other "
                                     "than by moving one card from the top or bottom of a pile: make the choice "
                                     "before those actions")
    return collection


__all__ = ["preview", "read_after"]
