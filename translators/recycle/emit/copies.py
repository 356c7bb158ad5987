"""What reads the copies of a memory location one by one, as the engine does.

A memory location holds copies of cards (``(cpos LOC C N)``: the N-th copy remembered is of card
C), and the engine's collections over it walk the copies: a card remembered twice is two members
of a filter (``sizes.filtered_copies``) and adds its points twice to a sum (:func:`memory_sum`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ggp.gdl.rules import Literal
from translators.recycle.analysis.capacity import MEMORY_CAP
from translators.recycle.emit.cardsets import (
    SumLink,
    context_params,
    ctl_key,
    domain_cards,
    sum_chain,
)
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import FilteredMemory, memory_under_filters
from translators.recycle.ir.nodes import Env, Sym
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import f, num, rule, true
from translators.recycle.syntax.nodes import Sum


def remembers(cx: Compiler) -> bool:
    """Whether any effect of the game remembers a card (else every memory location is empty)."""
    return any(isinstance(e, ir.Remember) for e in cx.program.effects.values())


def copies_kept(cx: Compiler, found: FilteredMemory, ctl: Ctl) -> list[tuple[Any, list[Literal]]]:
    """For each place a copy can take, a fresh variable for the copy's card and the literals
    saying that a copy at that place is one the filters keep."""
    memory, memory_env, filters = found
    out = []
    for place in range(MEMORY_CAP):
        copy = cx.fresh("c")
        lits, loc = cx.loc_term(memory, memory_env, ctl)
        lits = lits + [true(f("cpos", loc, copy, num(place)))]
        for flt, flt_env in filters:
            lits += cx.cond(flt.condition, flt_env.bind(flt.var.name, Sym(copy, "card", "card")), ctl)
        out.append((copy, lits))
    return out


def memory_sum(cx: Compiler, node: Sum, env: Env, ctl: Ctl, cap: int | None = None) -> Val | None:
    """``(sum CARDS using P)`` over a memory location (or filters of one): the points of every
    copy, so a card remembered twice counts twice, as the engine sums the copies; a chain over
    the places the copies take (saturating at ``cap``). None for other collections."""
    found = memory_under_filters(node.cards, env)
    if found is None:
        return None
    if not remembers(cx):
        return [], num(0)
    key = ("copysum", node, env, ctl_key(cx, node, env, ctl), cap)
    if key not in cx.book.memo:
        values = set().union(*(cx.pointmaps.card_values(node.points, env, cid) for cid in domain_cards(cx, found[0], found[1])))
        low, high = min(values | {0}), max(values | {0})
        kept = copies_kept(cx, found, ctl)
        points = [cx.points(node.points, env, ctl, copy) for copy, _ in kept]
        params = context_params(cx, env, [lits for _, lits in kept] + [p for p, _ in points])
        heads = [p for p, _ in params]
        prefix = cx.book.name("copysum", node)
        worth = cx.book.name("copypoints", node)
        v = cx.fresh("n")
        links: list[SumLink] = []
        with cx.book.group(f"sum over the copies: {describe(node)}", node):
            for i, ((_, lits), (plits, pts)) in enumerate(zip(kept, points), start=1):
                # the points of the copy at place i, apart: the chain then joins points, not cards
                cx.book.add(rule(f(worth, *heads, num(i), pts), lits + plits))
                links.append(([f(worth, *heads, num(i), v)], v, (low, high), partial(cx.negate, lits, env, node)))
            sum_chain(cx, prefix, heads, params, links, cap)
        cx.book.memo[key] = (prefix, len(kept), heads)
    prefix, last, heads = cx.book.memo[key]
    v = cx.fresh("n")
    return [f(prefix, *heads, num(last), v)], v


__all__ = ["copies_kept", "memory_sum", "remembers"]
