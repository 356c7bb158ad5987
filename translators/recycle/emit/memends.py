"""The top and bottom card of a filter of a memory location: the passing copy remembered last
(first), as the engine's filter lists a memory's copies in the order they were remembered and
its top is the last (``ProcessCStorageFilter``, ``CardCollection.Peek``).

Each copy has its place, ``(cpos LOC C N)`` (0 the first remembered). ``(mseen ... K)`` says a
copy passes at one of the K + 1 places nearest the end read (from the last place for the top,
from place 0 for the bottom); the end card is the passing copy at the K-th place when none
passes nearer.
"""

from __future__ import annotations

from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Term, Variable
from translators.recycle.analysis.capacity import MEMORY_CAP
from translators.recycle.emit.cardsets import context_params, loc_term
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.literals import positive_vars
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import f, num, rule, true
from translators.recycle.syntax.nodes import CardAt, CardLocation, Filter


def memory_filter_end(cx: Compiler, node: CardAt, env: Env, ctl: Ctl) -> Val | None:
    """``(top|bottom (filter MEMORY 'C COND))`` (see the module doc); None for anything else."""
    coll, coll_env = deref(node.cards, env)
    base, base_env = coll, coll_env
    while isinstance(base, Filter):
        base, base_env = deref(base.collection, base_env)
    if (base is coll or not isinstance(base, CardLocation) or base.visibility != "mem"
            or node.position not in ("top", "bottom")):
        return None
    places = list(range(MEMORY_CAP))[::-1] if node.position == "top" else list(range(MEMORY_CAP))
    lits, loc = loc_term(cx, base, base_env, ctl)

    def at(card: Variable, place: int) -> list[Literal]:
        return lits + cx.member(coll, coll_env, ctl, card) + [true(f("cpos", loc, card, num(place)))]

    x, v = cx.fresh("c"), cx.fresh("c")
    params = context_params(cx, coll_env, [at(x, 0)])
    heads = [var for var, _ in params]
    seen = cx.book.name("mseen", node)
    with cx.book.group(f"a copy of `{describe(node.cards)}` passes at one of the places nearest the "
                       f"memory's {node.position}", node):
        for k, place in enumerate(places):
            body = at(x, place)
            bound = positive_vars(body)
            cx.book.add(rule(f(seen, *heads, num(k)), body,
                             [cx.sort_literal(var, sort) for var, sort in params if var not in bound]))
            if k:
                cx.book.add(rule(f(seen, *heads, num(k)), f(seen, *heads, num(k - 1))))
    clauses: list[tuple[dict[Variable, Term], list[Literal]]] = [
        ({}, at(v, place) + ([Not(f(seen, *heads, num(k - 1)))] if k else [])) for k, place in enumerate(places)]
    return [cx.define("mtop", node, params + [(v, "card")], clauses)], v
