"""The top and bottom card of a filter, in the order the engine lists the filtered cards: a
pile's order (``ProcessCStorageFilter`` walks the pile; ``CardCollection.Peek`` is the last) or
the order a memory's copies were remembered.

Both are the passing card nearest the end read, along an ordering of numbered places: a pile's
depths along its ``under`` links (``(pdepth L C D)`` from the top, ``(pheight L C D)`` from the
bottom; only for piles whose whole order is kept, ``analysis/order.py``) or a memory's copies'
places (``(cpos LOC C N)``, 0 the first remembered). ``(vseen ... K)`` says a card passes at one
of the K + 1 places nearest the end; the end card is the passing card at the K-th place when
none passes nearer.
"""

from __future__ import annotations

from collections.abc import Callable

from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Term, Variable
from translators.recycle.analysis.capacity import MEMORY_CAP
from translators.recycle.analysis.places import concrete
from translators.recycle.emit.cardsets import (
    context_params,
    loc_term,
    order_read,
    pile_depths,
)
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.literals import positive_vars
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir.elements import filtered_pile
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import f, num, rule, true
from translators.recycle.syntax.nodes import CardAt, CardLocation, Filter


def filter_end(cx: Compiler, node: CardAt, env: Env, ctl: Ctl) -> Val | None:
    """``(top|bottom (filter ...))`` of a pile whose whole order is kept or of a memory location
    (see the module doc); None for anything else (then the card with the highest id, the lowest
    for the bottom: ``cardsets.virtual_top``)."""
    if node.position not in ("top", "bottom"):
        return None
    coll, coll_env = deref(node.cards, env)
    return _pile_end(cx, node, coll, coll_env, ctl) or _memory_end(cx, node, coll, coll_env, ctl)


def _pile_end(cx: Compiler, node: CardAt, coll: Filter, env: Env, ctl: Ctl) -> Val | None:
    base = filtered_pile(coll, env)
    if base is None:
        return None
    pile, pile_env = base
    places = concrete(pile, pile_env, cx.model)
    if not places or any(p not in cx.linked for p in places):
        return None
    lits, loc = loc_term(cx, pile, pile_env, ctl)
    if any(p in cx.unkept for p in places):
        order_read(cx, ctl, lits, loc)
    deep = max(1, min(max(len(cx.domains.location(p)) for p in places), len(cx.model.cards)))
    rel = pile_depths(cx.book, "top" if node.position == "top" else "bottom", deep)
    return _nearest(cx, node, env, lambda card, depth: lits + cx.member(coll, env, ctl, card) + [f(rel, loc, card, num(depth))],
                    list(range(deep)))


def _memory_end(cx: Compiler, node: CardAt, coll: Filter, env: Env, ctl: Ctl) -> Val | None:
    base, base_env = coll, env
    while isinstance(base, Filter):
        base, base_env = deref(base.collection, base_env)
    if base is coll or not isinstance(base, CardLocation) or base.visibility != "mem":
        return None
    lits, loc = loc_term(cx, base, base_env, ctl)
    places = list(range(MEMORY_CAP))
    return _nearest(cx, node, env, lambda card, place: lits + cx.member(coll, env, ctl, card) + [true(f("cpos", loc, card, num(place)))],
                    places[::-1] if node.position == "top" else places)


def _nearest(cx: Compiler, node: CardAt, env: Env, at: Callable[[Variable, int], list[Literal]], places: list[int]) -> Val:
    """The card ``at`` some place of ``places`` (nearest first) when no card is ``at`` a nearer one."""
    x, v = cx.fresh("c"), cx.fresh("c")
    params = context_params(cx, env, [at(x, places[0])])
    heads = [var for var, _ in params]
    seen = cx.book.name("vseen", node)
    with cx.book.group(f"a card of `{describe(node.cards)}` passes at one of the places nearest its {node.position}", node):
        for k, place in enumerate(places):
            body = at(x, place)
            bound = positive_vars(body)
            cx.book.add(rule(f(seen, *heads, num(k)), body,
                             [cx.sort_literal(var, sort) for var, sort in params if var not in bound]))
            if k:
                cx.book.add(rule(f(seen, *heads, num(k)), f(seen, *heads, num(k - 1))))
    clauses: list[tuple[dict[Variable, Term], list[Literal]]] = [
        ({}, at(v, place) + ([Not(f(seen, *heads, num(k - 1)))] if k else [])) for k, place in enumerate(places)]
    return [cx.define("vtop", node, params + [(v, "card")], clauses)], v
