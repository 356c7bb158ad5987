"""A count of how many of a list of conjunctions hold, saturating at a cap: a chain of rules,
one link per conjunction (the sizes of collections, the cards of each value of runs and
tuples)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ggp.gdl.rules import Literal
from translators.recycle.emit.cardsets import context_params, ctl_key
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir.nodes import Env
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import f, num, rule


def chain_count(cx: Compiler, coll: Any, env: Env, ctl: Ctl, conjunctions: Callable[[], list[list[Literal]]],
                cap: int, label: object = None) -> Val:
    """How many of the ``conjunctions`` hold, saturating at ``cap``: a chain (made once per
    collection, context and ``label``)."""
    key = ("count", coll, env, ctl_key(cx, coll, env, ctl), cap) + ((label,) if label is not None else ())
    if key not in cx.book.memo:
        members = conjunctions()
        params = context_params(cx, env, members)
        step = cx.tables.shift("+", 1, (0, cap), (0, cap)) if cap > 0 else None
        capped = cx.book.name("sat") if cap > 0 else None
        if capped is not None:
            with cx.book.group(f"table: y = min(x + 1, {cap})"):
                for x in range(cap + 1):
                    cx.book.add(rule(f(capped, num(x), num(min(x + 1, cap)))))
        del step
        prefix = cx.book.name("count", coll)
        heads = [p for p, _ in params]
        n, m = cx.fresh("n"), cx.fresh("n")
        with cx.book.group(f"count (up to {cap}): {describe(coll)}", coll):
            cx.book.add(rule(f(prefix, *heads, num(0), num(0)), [cx.sort_literal(v, s) for v, s in params]))
            for i, lits in enumerate(members, start=1):
                before = f(prefix, *heads, num(i - 1), n)
                if capped is not None:
                    cx.book.add(rule(f(prefix, *heads, num(i), m), [before] + lits + [f(capped, n, m)]))
                cx.book.add(rule(f(prefix, *heads, num(i), n), [before] + cx.negate(lits, env, coll)))
        cx.book.memo[key] = (prefix, len(members), heads)
    prefix, last, heads = cx.book.memo[key]
    v = cx.fresh("n")
    return [f(prefix, *heads, num(last), v)], v


__all__ = ["chain_count"]
