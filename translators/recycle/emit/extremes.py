"""``(max|min CARDS using P)``: the best value found by comparing the members' scores through a
static table of the scores the point map can give (``(max_N_above V W)``: W is better), or with
a chain over the integers when there are more than :data:`ORDER_LIMIT` of them; ties are broken
by ``random`` (``(pick C)``), as the documentation says.
"""

from __future__ import annotations

from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Term, Variable
from translators.recycle.emit.cardsets import context_params, ctl_key, domain_cards
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir.nodes import Env
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import RANDOM, does, f, num, rule
from translators.recycle.syntax.nodes import ExtremeCard

#: ``(max|min CARDS using P)`` compares the members' scores through a table of the scores P can
#: give when they are at most this many (a ladder over the integers otherwise).
ORDER_LIMIT = 64


def extreme_parts(cx: Compiler, node: ExtremeCard, env: Env, ctl: Ctl) -> tuple[list[Literal], Term, str, str, list[Variable]]:
    """Relations for the best value and the tied cards of ``(max|min CARDS using P)``."""
    key = ("ext", node, env, ctl_key(cx, node.cards, env, ctl))
    if key not in cx.book.memo:
        cards = domain_cards(cx, node.cards, env)
        by_value: dict[int, list[str]] = {}
        for cid in cards:
            for value in cx.pointmaps.card_values(node.points, env, cid):
                by_value.setdefault(value, []).append(cid)
        prefix = cx.book.name(node.which, node)
        card = cx.fresh("c")
        member = cx.member(node.cards, env, ctl, card)
        plits, pts = cx.points(node.points, env, ctl, card)
        params = context_params(cx, env, [member, plits])
        heads = [p for p, _ in params]
        values = sorted(by_value)
        v, w = cx.fresh("n"), cx.fresh("n")
        reach, beyond, best = f"{prefix}_reach", f"{prefix}_beyond", f"{prefix}_value"
        if len(values) <= ORDER_LIMIT:
            # the members' scores compared pairwise through a small static table of the scores
            # they can have: a top-down prover reads each member's score once, where a ladder
            # over the integers calls every rung with every member
            above = f"{prefix}_above"
            with cx.book.group(f"{node.which}: {describe(node)} (reach: a member scores this; above: the "
                               "second score is better; value: the best score)", node):
                cx.book.add(rule(f(reach, *heads, pts), member + plits))
                cx.book.add(rule(f(beyond, *heads, v), f(reach, *heads, v), f(reach, *heads, w), f(above, v, w)))
                cx.book.add(rule(f(best, *heads, v), f(reach, *heads, v), Not(f(beyond, *heads, v))))
                cx.book.add(rule(f(f"{prefix}_tied", *heads, card), member + plits + [f(best, *heads, pts)]))
                ranked = values if node.which == "max" else values[::-1]
                for i, low in enumerate(ranked):
                    for high in ranked[i + 1:]:
                        cx.book.add(rule(f(above, num(low), num(high))))
        else:
            cx.tables.cover((min(values, default=0), max(values, default=0)))

            def better(low: Term, high: Term) -> Literal:
                """``high`` is the next value better than ``low``."""
                return f("succ", low, high) if node.which == "max" else f("succ", high, low)

            with cx.book.group(f"{node.which}: {describe(node)} (reach: a member scores at least this well; "
                               "value: the best score)", node):
                cx.book.add(rule(f(reach, *heads, pts), member + plits))
                cx.book.add(rule(f(reach, *heads, v), f(reach, *heads, w), better(v, w)))
                cx.book.add(rule(f(beyond, *heads, v), better(v, w), f(reach, *heads, w)))
                cx.book.add(rule(f(best, *heads, v), f(reach, *heads, v), Not(f(beyond, *heads, v))))
                cx.book.add(rule(f(f"{prefix}_tied", *heads, card), member + plits + [f(best, *heads, pts)]))
        cx.book.memo[key] = (prefix, heads, params)
    prefix, heads, params = cx.book.memo[key]
    v = cx.fresh("n")
    return [f(f"{prefix}_value", *heads, v)], v, prefix, f"{prefix}_tied", heads


def extreme_value(cx: Compiler, node: ExtremeCard, env: Env, ctl: Ctl) -> Val:
    """The points of the best card."""
    lits, value, *_ = extreme_parts(cx, node, env, ctl)
    return lits, value


def extreme(cx: Compiler, node: ExtremeCard, env: Env, ctl: Ctl) -> Val:
    """The best card; in a step a tie is broken by ``random``; elsewhere (a legal-move
    condition, the scoring) a tie gives no card."""
    _, _, prefix, tied, heads = extreme_parts(cx, node, env, ctl)
    several = f(f"{prefix}_tie", *heads)
    key = ("extcount", node, env, ctl_key(cx, node.cards, env, ctl))
    if key not in cx.book.memo:
        a, b = cx.fresh("c"), cx.fresh("c")
        with cx.book.group(f"several cards are best in {describe(node)}", node):
            cx.book.add(rule(several, f(tied, *heads, a), f(tied, *heads, b), Distinct(a, b)))
        cx.book.memo[key] = True
    v = cx.fresh("c")
    unique: list[Literal] = [f(tied, *heads, v), Not(several)]
    if not ctl.chance:
        return unique, v
    tie: list[Literal] = [f(tied, *heads, v), several, does(RANDOM, f("pick", v))]
    cx.ledger.chance(ctl.batch, ("pick", cx.ledger.current_guards + [several], [f(tied, *heads, v)], v))
    params = [(h, s) for h, s in cx.book.memo[("ext", node, env, ctl_key(cx, node.cards, env, ctl))][2]] + [(v, "card")]
    head = cx.define("best", node, params, [({}, unique), ({}, tie)])
    return [head], v


__all__ = ["ORDER_LIMIT", "extreme", "extreme_parts", "extreme_value"]
