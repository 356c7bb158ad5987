"""Point maps: the points a card scores, static or from awards set during play.

A point map whose every ``set`` has literal awards is a static table ``(points_N CARD V)``.
When an award compares with a value computed in play (``((SUIT : (game str LEAD)) 100)``) or
its points are computed in play (``((SUIT : RED) (game sto ROUND))``), the ``set`` stores those
values in a fluent ``(pmap OWNER NAME SITE V1... P1...)`` and a card's points are derived from
it: for every card, one rule per combination of the dynamic awards it matches, adding the stored
points of the computed awards it matches to the literal ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Constant, Term, Variable
from translators.recycle.analysis.integers import Interval
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.literals import FALSE
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.symbols.vocabulary import (
    UNSET,
    c,
    card_constant,
    card_id,
    f,
    name,
    num,
    rule,
    true,
)
from translators.recycle.syntax.nodes import SetPoints
from translators.recycle.translation_error import TranslationError

#: One award of a ``set``: its (key, value) pairs (a value is a name, or None when dynamic,
#: then the index of its stored value) and its points.
Award = tuple[list[tuple[str, str | None, int]], int]


def points(cx: Compiler, pm: Any, env: Env, ctl: Ctl, card: Term) -> Val:
    """The points of a card under a point map."""
    key = cx.pointmaps.map_key(pm, env)
    rel = points_relation(cx, key)
    static = cx.pointmaps.is_static(key)
    if isinstance(card, Constant):
        cid = card_id(cx.model, card.name)
        values = cx.pointmaps.card_values(pm, env, cid) if cid is not None else {0}
        if len(values) == 1 and static:
            return [], num(values.pop())
    v = cx.fresh("n")
    if static or key[0] == "game":
        return [f(rel, card, v)], v
    real, real_env = deref(pm, env)
    owner_lits, owner = cx.owner(real.owner, real_env, ctl)
    return [*owner_lits, f(rel, owner, card, v)], v


def points_relation(cx: Compiler, key: tuple[str, str]) -> str:
    """The relation ``(REL CARD POINTS)`` of a point map (made on first use)."""
    memo = ("points", key)
    if memo in cx.book.memo:
        known: str = cx.book.memo[memo]
        return known
    owner, label = key
    rel = cx.book.name("points", cx.pointmaps.sites(key)[0][1] if cx.pointmaps.sites(key) else None)
    cx.book.memo[memo] = rel
    sites = cx.pointmaps.sites(key)
    if cx.pointmaps.is_static(key):
        awards = cx.pointmaps.awards(sites[0][1], sites[0][2].env)[0] if sites else []
        with cx.book.group(f"points of each card under ({owner} points {label})"):
            for card_item in cx.model.cards:
                cx.book.add(rule(f(rel, card_constant(cx.model, card_item.id), num(cx.pointmaps.static_points(awards, dict(card_item.attrs))))))
        return rel
    # a player's or team's map is kept per owner: (REL OWNER CARD POINTS)
    holder: list[Term] = [] if owner == "game" else [Variable("o")]
    keeper: Term = holder[0] if holder else c(owner)
    if cx.pointmaps.read_unset(key):
        card, site_values = Variable("c"), Variable("s")
        filled = cx.book.name("filled", sites[0][1])
        with cx.book.group(f"until ({owner} points {label}) is set, every card scores 0 under it"):
            for held in ([[]] if owner == "game" else [[c(o)] for o in cx.model.owners(owner)]):
                flag = f(filled, *held) if held else c(filled)
                cx.book.add(rule(f(rel, *held, card, num(0)), [f("card", card), Not(flag)]))
            cx.book.add(rule(f(filled, *holder) if holder else c(filled), [true(f("pmap", keeper, name(label), site_values))]))
    for site, node, effect in sites:
        awards, dynamic = cx.pointmaps.awards(node, effect.env)
        computed = cx.pointmaps.computed(node, effect.env)
        stored = [Variable(f"d{i}") for i in range(len(dynamic))] + [Variable(f"p{i}") for i in range(len(computed))]
        with cx.book.group("points of each card under the awards set here", node):
            for card_item in cx.model.cards:
                attrs = dict(card_item.attrs)
                for pattern in cx.pointmaps.patterns(awards, attrs):
                    body: list[Literal] = []
                    args: list[Term] = list(stored)
                    ok = True
                    for (pairs, _), hit in zip(awards, pattern):
                        dyn = [(k, i) for k, v, i in pairs if v is None]
                        if not dyn:
                            continue
                        if not hit and any(v is not None and attrs.get(k) != v for k, v, _ in pairs):
                            continue  # missed whatever is stored: a static pair fails
                        if hit:
                            for k, i in dyn:
                                if isinstance(args[i], Variable):
                                    args[i] = _attribute(attrs, k)
                                elif args[i] != _attribute(attrs, k):
                                    ok = False
                        else:
                            body.append(("miss", dyn))  # type: ignore[arg-type]
                    if not ok:
                        continue
                    stored_term = f(f"site{site}", *args) if args else c(f"site{site}")
                    final: list[Literal] = [true(f("pmap", keeper, name(label), stored_term))]
                    for item in body:
                        _, dyn = item  # type: ignore[misc]
                        if len(dyn) != 1:
                            raise TranslationError(node, "an award with several computed values is not supported")
                        k, i = dyn[0]
                        if isinstance(args[i], Variable):
                            final.append(Distinct(args[i], _attribute(attrs, k)))
                        elif args[i] == _attribute(attrs, k):
                            ok = False
                    if not ok:
                        continue
                    total = sum(p for (_, p), hit in zip(awards, pattern) if hit)
                    added = [(stored[len(dynamic) + j], cx.interval(expr, expr_env))
                             for j, (index, expr, expr_env) in enumerate(computed) if pattern[index]]
                    adding, value = _add_up(cx, total, added)
                    cx.book.add(rule(f(rel, *holder, card_constant(cx.model, card_item.id), value), final + adding))
    return rel


def _attribute(attrs: dict[str, str], key: str) -> Constant:
    """A card's value for ``key``; ``unset`` where it has none, as the engine reads a missing
    attribute as the empty string, the value of a string cell never set."""
    return name(attrs[key]) if key in attrs else UNSET


def _add_up(cx: Compiler, total: int, added: Sequence[tuple[Term, Interval]]) -> tuple[list[Literal], Term]:
    """``total`` plus the points of the awards computed in play a card matches (literals
    binding the sum, and the sum)."""
    value: Term = num(total)
    span = (total, total)
    lits: list[Literal] = []
    for term, (low, high) in added:
        if value == num(0):
            value, span = term, (low, high)
            continue
        out = cx.fresh("n")
        if isinstance(value, Constant):
            table = cx.tables.shift("+", total, (low, high))
            lits.append(f(table, term, out) if table else FALSE)
        else:
            table = cx.tables.binary("+", span, (low, high))
            lits.append(f(table, value, term, out) if table else FALSE)
        value, span = out, (span[0] + low, span[1] + high)
    return lits, value


def site_values(cx: Compiler, effect: ir.SetPointMap, ctl: Ctl) -> tuple[list[Literal], list[Term]]:
    """The values a ``set`` of a point map stores (literals binding them)."""
    node = effect.node
    assert isinstance(node, SetPoints)
    _, dynamic = cx.pointmaps.awards(node, effect.env)
    lits: list[Literal] = []
    terms: list[Term] = []
    for expr, env in dynamic:
        part, term = cx.str_total(expr, env, ctl)
        lits += part
        terms.append(term)
    for _, expr, env in cx.pointmaps.computed(node, effect.env):
        part, term = cx.int_(expr, env, ctl)
        lits += part
        terms.append(term)
    return lits, terms
