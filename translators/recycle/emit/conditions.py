"""Conditions: conjunctions of literals; disjunction, negation and quantifiers through
auxiliary relations; comparisons of integers (through tables or chains), strings, cards,
players and teams; membership of a value in any collection."""

from __future__ import annotations

from typing import Any

from ggp.gdl.rules import Literal
from ggp.gdl.terms import Constant, Term, Variable
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.integers import FLIPPED, Interval, holds
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.groups import groups_of
from translators.recycle.emit.literals import (
    ALWAYS,
    FALSE,
    clean,
    lit_vars,
    positive_vars,
    substitute,
)
from translators.recycle.emit.protocol import Compiler
from translators.recycle.emit.setdata import chosen_in, set_ids, set_members
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import static_elements
from translators.recycle.ir.nodes import Env, Fixed, Sym, deref
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import (
    card_constant,
    f,
    num,
    rule,
)
from translators.recycle.syntax.kinds import kind_of
from translators.recycle.syntax.nodes import (
    And,
    BoolAgg,
    CardAtt,
    Compare,
    IntStorage,
    Name,
    Node,
    Or,
    Size,
    StrStorage,
    Sum,
    Var,
)
from translators.recycle.syntax.nodes import Not as RNot
from translators.recycle.translation_error import TranslationError


def cond(cx: Compiler, node: Any, env: Env, ctl: Ctl) -> list[Literal]:
    """A condition as a conjunction of literals."""
    node, env = deref(node, env)
    if isinstance(node, And):
        out: list[Literal] = []
        for arg in node.args:
            out += cx.cond(arg, env, ctl)
        return clean(out)
    if isinstance(node, Or):
        alts = [cx.cond(arg, env, ctl) for arg in node.args]
        if any(not alt for alt in alts):
            return []
        atom = cx.aux("or", alts, env, node, key=("or", node, env, cx.ctl_key(node, env, ctl)))
        return [] if atom is ALWAYS else [atom]
    if isinstance(node, RNot):
        return cx.negate(cx.cond(node.arg, env, ctl), env, node)
    if isinstance(node, BoolAgg):
        return quantified(cx, node, env, ctl)
    if isinstance(node, Compare):
        return clean(compare(cx, node, env, ctl))
    if isinstance(node, ir.SlotCheck):
        return cx.slot_check(node, env, ctl)
    if isinstance(node, ir.CardsIn):
        return [lit for cid in node.cards for lit in cx.member(node.base, env, ctl, card_constant(cx.model, cid))]
    if isinstance(node, ir.ChosenSetIn):
        return chosen_in(cx, node, env, ctl)
    raise TranslationError(node, "a condition is expected here")


def quantified(cx: Compiler, node: BoolAgg, env: Env, ctl: Ctl) -> list[Literal]:
    """``(all COLL 'V COND)`` / ``(any COLL 'V COND)``."""

    elements = static_elements(cx.model, node.collection, env, node)
    over_ids = set_members(cx, node, env, ctl) if elements is None else None
    if elements is None and over_ids is None:
        elements = groups_of(cx, node.collection, env)
    if elements is not None:
        parts: list[list[Literal]] = []
        for binding, conds in elements:
            inner = env.bind(node.var.name, binding)
            member: list[Literal] = []
            for cond, cond_env in conds:
                member += cx.cond(cond, cond_env, ctl)
            body = cx.cond(node.condition, inner, ctl)
            if node.quantifier == "any":
                parts.append(member + body)
            else:
                parts.append(cx.negate(member + cx.negate(body, inner, node), inner, node))
        if node.quantifier == "all":
            return clean([lit for part in parts for lit in part])
        if any(not p for p in parts):
            return []
        atom = cx.aux("any", parts, env, node, key=("any", node, env, cx.ctl_key(node, env, ctl)))
        return [] if atom is ALWAYS else [atom]
    if over_ids is not None:
        member, inner = over_ids
    else:
        card = cx.fresh("c")
        inner = env.bind(node.var.name, Sym(card, "card", "card"))
        member = cx.member(node.collection, env, ctl, card)
    body = cx.cond(node.condition, inner, ctl)
    if node.quantifier == "any":
        atom = cx.aux("exists", [member + body], env, node, key=("ex", node, env, cx.ctl_key(node, env, ctl)))
        return [] if atom is ALWAYS else [atom]
    bad = cx.aux("counter", [member + cx.negate(body, inner, node)], env, node,
                   key=("ctr", node, env, cx.ctl_key(node, env, ctl)))
    return cx.negate([bad], env, node) if bad is not FALSE else []


def compare(cx: Compiler, node: Compare, env: Env, ctl: Ctl) -> list[Literal]:
    """A comparison."""
    kind: str = node.kind
    if kind == "unknown":
        kind = value_kind(cx, node.left, env)
    if kind == "int":
        sized = size_side(cx, node, env, ctl)
        if sized is not None:
            return sized
        digits = wide_side(cx, node, env, ctl)
        if digits is not None:
            return digits
        left, right = cx.int_(node.left, env, ctl), cx.int_(node.right, env, ctl)
        return int_compare(cx, node.op, left, right, node, env)
    if node.op not in ("==", "!="):
        raise TranslationError(node, f"`{node.op}` compares integers only")
    if kind == "str" and may_read_empty(cx, node.left, env) and may_read_empty(cx, node.right, env):
        # the engine reads a missing attribute, of no card or of a card without it, as "", as
        # it does a cell never set: two such sides are equal
        left, right = cx.str_total(node.left, env, ctl), cx.str_total(node.right, env, ctl)
    else:
        left, right = value(cx, node.left, env, ctl, kind), value(cx, node.right, env, ctl, kind)
    same = equal(cx, left, right, env, node, kind)
    return same if node.op == "==" else cx.negate(same, env, node)




def wide_side(cx: Compiler, node: Compare, env: Env, ctl: Ctl) -> list[Literal] | None:
    """A wide (decimal) cell compared with a constant: on its digits, without a table of its
    values; None for other comparisons."""
    for cell, other, op in ((node.left, node.right, node.op), (node.right, node.left, FLIPPED[node.op])):
        real, real_env = deref(cell, env)
        if not isinstance(real, IntStorage):
            continue
        family = cx.family(real, real_env)
        value = static_int(other, env)
        if cx.wide.is_wide(family) and value is not None:
            lits, owner = cx.owner(real.owner, real_env, ctl)
            return lits + cx.wide.compare_const(owner, family, op, value)
    return None


def may_read_empty(cx: Compiler, node: Any, env: Env) -> bool:
    """Whether a string expression can read as the engine's empty string: a string cell (empty
    until set), or ``cardatt`` of a card that may be missing (the top of an empty pile) or may
    lack the attribute (a deck whose cards have different keys)."""
    real, real_env = deref(node, env)
    if isinstance(real, StrStorage):
        return True
    if not isinstance(real, CardAtt):
        return False
    card, card_env = deref(real.card, real_env)
    if not (isinstance(card, Var) and isinstance(card_env.get(card.name), (Fixed, Sym))):
        return True
    key = real.key
    return not isinstance(key, Name) or any(c.attr(key.text) is None for c in cx.model.cards)


def value_kind(cx: Compiler, node: Any, env: Env) -> str:
    """What an operand holds."""
    real, real_env = deref(node, env)
    if isinstance(real, Var):
        binding = real_env.get(real.name)
        if isinstance(binding, (Fixed, Sym)):
            return binding.kind
    if isinstance(real, ir.MovedCard):
        return "card"
    return kind_of(real)


def value(cx: Compiler, node: Any, env: Env, ctl: Ctl, kind: str) -> Val:
    """An operand of the given kind."""
    if kind == "str":
        return cx.str_(node, env, ctl)
    if kind == "card":
        return cx.card(node, env, ctl)
    if kind == "player":
        return cx.player(node, env, ctl)
    if kind == "team":
        return cx.team(node, env, ctl)
    if kind == "int":
        return cx.int_(node, env, ctl)
    raise TranslationError(node, f"cannot compare values of kind {kind}")


def equal(cx: Compiler, left: Val, right: Val, env: Env, node: Any, kind: str) -> list[Literal]:
    """Both values are equal."""
    (la, ta), (lb, tb) = left, right
    context = {s.var for s in cx.context(env)}
    if isinstance(tb, Variable) and tb not in context:
        return clean(la + substitute(lb, tb, ta))
    if isinstance(ta, Variable) and ta not in context:
        return clean(lb + substitute(la, ta, tb))
    if not isinstance(ta, Variable) and not isinstance(tb, Variable):
        return clean(la + lb) if ta == tb else [FALSE]
    sort = {"card": "card", "player": "seat", "team": "team"}.get(kind)
    if sort is None:
        raise TranslationError(node, "cannot compare these two values")
    return clean(la + lb + [f(cx.same(sort), ta, tb)])


def int_compare(cx: Compiler, op: str, left: Val, right: Val, node: Any, env: Env) -> list[Literal]:
    """``left op right`` for integers."""
    (la, ta), (lb, tb) = left, right
    if not isinstance(ta, Variable) and not isinstance(tb, Variable):
        return clean(la + lb) if holds(op, int(ta.name), int(tb.name)) else [FALSE]
    if op == "==":
        return equal(cx, left, right, env, node, "int")
    if not isinstance(tb, Variable):
        table = cx.tables.test(op, int(tb.name), term_interval(cx, ta, node, env, "left"))
        return clean(la + lb + [f(table, ta)]) if table else [FALSE]
    if not isinstance(ta, Variable):
        flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}[op]
        table = cx.tables.test(flipped, int(ta.name), term_interval(cx, tb, node, env, "right"))
        return clean(la + lb + [f(table, tb)]) if table else [FALSE]
    ra, rb = term_interval(cx, ta, node, env, "left"), term_interval(cx, tb, node, env, "right")
    if (ra[1] - ra[0] + 1) * (rb[1] - rb[0] + 1) > 400 and op != "!=":
        return chain_compare(cx, op, left, right, ra, rb, node, env)
    table = cx.tables.compare(op, ra, rb)
    return clean(la + lb + [f(table, ta, tb)]) if table else [FALSE]


def chain_compare(cx: Compiler, op: str, left: Val, right: Val, ra: Interval, rb: Interval, node: Any,
                  env: Env) -> list[Literal]:
    """``left op right`` for two wide-ranging values, with a chain "left is at least v"
    (linear in the ranges, where a table would be their product)."""
    if op in ("<", "<="):
        left, right, ra, rb = right, left, rb, ra
        op = {"<": ">", "<=": ">="}[op]
    (la, ta), (lb, tb) = left, right
    # the variables of the context each side reads, the sides themselves included (a fork's
    # number compared as it is: ``(>= CHIPS 'B)`` in an option over ``'B``)
    context = [(s.var, s.sort) for s in cx.context(env)]
    left_params = [(v, srt) for v, srt in context if v in lit_vars(la) or v == ta]
    params = [(v, srt) for v, srt in context if v in lit_vars(la + lb) or v in (ta, tb)]
    left_heads, heads = [v for v, _ in left_params], [v for v, _ in params]
    prefix = cx.book.name("atleast", node)
    result = cx.book.name("cmp", node)
    shift = 1 if op == ">" else 0

    def safe(body: list[Literal], wanted: list[tuple[Variable, str]], fixed: Term) -> list[Literal]:
        bound = positive_vars(body)
        return body + [cx.sort_literal(v, srt) for v, srt in wanted if v not in bound and v != fixed]

    def at(names: list[Variable], side: Term, value: int) -> list[Term]:
        return [num(value) if h == side else h for h in names]

    with cx.book.group(f"{describe(node)}: the left side is at least v, for each v", node):
        for v in range(ra[0], ra[1] + 1):
            here = f(prefix, *at(left_heads, ta, v), Constant(_n(v)))
            cx.book.add(rule(here, safe(substitute(la, ta, num(v)) if isinstance(ta, Variable) else la, left_params, ta)))
            if v > ra[0]:
                cx.book.add(rule(f(prefix, *left_heads, Constant(_n(v - 1))), [f(prefix, *left_heads, Constant(_n(v)))]))
        for w in range(rb[0], rb[1] + 1):
            need = w + shift
            if need > ra[1]:
                continue
            reach = f(prefix, *at(left_heads, tb, w), Constant(_n(max(need, ra[0]))))
            body = (substitute(lb, tb, num(w)) if isinstance(tb, Variable) else lb) + [reach]
            cx.book.add(rule(f(result, *at(heads, tb, w)), safe(body, params, tb)))
    return [f(result, *heads)]


def term_interval(cx: Compiler, term: Term, node: Any, env: Env, side: str) -> Interval:
    """The range of an operand of a comparison node."""
    operand = getattr(node, side, None) if isinstance(node, Compare) else node
    return cx.interval(operand, env)


def size_side(cx: Compiler, node: Compare, env: Env, ctl: Ctl) -> list[Literal] | None:
    """``(size C) op k`` or ``(sum C using P) op k`` with a constant k: sizes compared with 0
    need no counting, and counts and sums stop (saturate) just above k."""
    for coll_side, k_side, op in ((node.left, node.right, node.op), (node.right, node.left, FLIPPED[node.op])):
        real, real_env = deref(coll_side, env)
        if isinstance(real, (Size, Sum)):
            k = static_int(k_side, env)
            if k is None:
                continue
            if isinstance(real, Size):
                return cx.size_compare(real.collection, op, k, real_env, ctl)
            if k < 0:
                return [] if op in (">", ">=", "!=") else [FALSE]
            lits, value = cx.sum_value(real, real_env, ctl, cap=k + 1)
            table = cx.tables.test(op, k, (0, k + 1))
            return lits + [f(table, value) if table else FALSE]
    return None


def elem_member(cx: Compiler, coll: Any, env: Env, ctl: Ctl, term: Term, kind: str) -> list[Literal]:
    """Membership of a value in any collection (cards, or a static one)."""
    if kind == "card":
        return cx.member(coll, env, ctl, term)
    if isinstance(coll, ir.SetIds):
        return set_ids(cx, coll, term)
    elements = static_elements(cx.model, coll, env, coll)
    if elements is None:
        raise TranslationError(coll, "cannot choose from this collection")
    sort = {"player": "seat", "team": "team"}.get(kind)
    alternatives = []
    for binding, conds in elements:
        assert isinstance(binding, Fixed)
        lits: list[Literal] = []
        for cond, cond_env in conds:
            lits += cx.cond(cond, cond_env, ctl)
        if not isinstance(term, Variable):
            if term == binding.term:
                alternatives.append(lits)
            continue
        if sort is None:
            alternatives.append(lits + [cx.sort_literal(term, "name:" + binding.term.name)
                                        if kind == "str" else cx.sort_literal(term, f"int:{binding.term.name}:{binding.term.name}")])
        else:
            alternatives.append(lits + [f(cx.same(sort), term, binding.term)])
    if not alternatives:
        return [FALSE]
    if not isinstance(term, Variable) and any(not a for a in alternatives):
        return []
    extra = [(term, _sort_of(kind, elements))] if isinstance(term, Variable) else []
    atom = cx.aux("elem", alternatives, env, coll, extra=extra, key=("elem", coll, env, ctl.key, term))
    return [atom]


def _sort_of(kind: str, elements: list[tuple[ir.Binding, list[tuple[Node, Env]]]]) -> str:
    if kind == "player":
        return "seat"
    if kind == "team":
        return "team"
    values = [b.term.name for b, _ in elements if isinstance(b, Fixed)]  # all Fixed (see elem_member)
    if kind == "int":
        return f"int:{min(map(int, values))}:{max(map(int, values))}"
    return "name:" + ",".join(values)


def _n(value: int) -> str:
    return f"m{-value}" if value < 0 else str(value)
