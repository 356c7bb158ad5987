"""Integer and string values: storage, arithmetic through tables, sizes and sums of card
collections, points, aggregates over players, ``random``; ``cardatt`` with and without a value."""

from __future__ import annotations

from typing import Any

from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Term, Variable
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.integers import fib, tri
from translators.recycle.analysis.valuesets import value_set
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.literals import (
    ALWAYS,
    FALSE,
    lit_vars,
    positive_vars,
    substitute,
)
from translators.recycle.emit.protocol import Compiler
from translators.recycle.emit.wide import WideRead
from translators.recycle.ir.elements import static_elements
from translators.recycle.ir.nodes import Env, Sym, deref
from translators.recycle.symbols.vocabulary import (
    RANDOM,
    UNSET,
    does,
    f,
    name,
    num,
    true,
)
from translators.recycle.syntax.nodes import (
    ActualCard,
    Arith,
    CardAtt,
    ExtremeCard,
    Fib,
    IntAgg,
    IntStorage,
    Name,
    Random,
    Score,
    Size,
    StrStorage,
    Sum,
    Tri,
    Var,
)
from translators.recycle.translation_error import TranslationError


def int_(cx: Compiler, node: Any, env: Env, ctl: Ctl) -> Val:
    """An integer expression."""
    node, env = deref(node, env)
    known = static_int(node, env)
    if known is not None:
        return [], num(known)
    if isinstance(node, Var):
        binding = env.get(node.name)
        if isinstance(binding, Sym):
            return [], binding.var
        raise TranslationError(node, f"'{node.name} is not an integer here")
    if isinstance(node, IntStorage):
        lits, owner = cx.owner(node.owner, env, ctl)
        family = cx.family(node, env)
        if cx.wide.is_wide(family):
            try:
                more, value = cx.wide.read(owner, family, cx.fresh)
            except WideRead as exc:
                raise TranslationError(node, str(exc)) from None
            return lits + more, value
        v = cx.fresh("n")
        return lits + [true(f("sto", owner, cx.storage_name(node.name, env), v))], v
    if isinstance(node, Arith):
        return arith(cx, node, env, ctl)
    if isinstance(node, Size):
        return cx.size_value(node.collection, env, ctl)
    if isinstance(node, Sum):
        return cx.sum_value(node, env, ctl)
    if isinstance(node, Score):
        real, real_env = deref(node.card, env)
        while isinstance(real, ActualCard):  # the card itself: its score is the same
            real, real_env = deref(real.card, real_env)
        if isinstance(real, ExtremeCard) and real.points == node.points:  # tied cards score alike
            return cx.extreme_value(real, real_env, ctl)
        return score(cx, node, env, ctl)
    if isinstance(node, IntAgg):
        return int_agg(cx, node, env, ctl)
    if isinstance(node, Random):
        return random_value(cx, node, env, ctl)
    if isinstance(node, (Tri, Fib)):
        lits, arg = int_(cx, node.arg, env, ctl)
        what = "tri" if isinstance(node, Tri) else "fib"
        table = cx.tables.unary(what, tri if what == "tri" else fib, cx.interval(node.arg, env))
        v = cx.fresh("n")
        return lits + [f(table, arg, v) if table else FALSE], v
    raise TranslationError(node, "an integer is expected here")


def score(cx: Compiler, node: Score, env: Env, ctl: Ctl) -> Val:
    """``(score CARD using P)`` (no value when there is no card)."""
    card_lits, card = cx.card(node.card, env, ctl)
    lits, value = cx.points(node.points, env, ctl, card)
    return card_lits + lits, value


#: Where a context keeps parts (:attr:`.Ctl.keeps_parts`), an operand whose value takes more
#: literals than this is read from a relation of its own.
KEPT_PART = 2


def kept(cx: Compiler, val: Val, interval: tuple[int, int], env: Env, ctl: Ctl, node: Any) -> Val:
    """A value read through a relation of its own (``part``) where ``ctl`` keeps parts and it
    takes more than :data:`KEPT_PART` literals: the rules using it then ground its values
    once, not joined with every other part's."""
    lits, value = val
    if not ctl.keeps_parts or len(lits) <= KEPT_PART or not isinstance(value, Variable):
        return val
    w = cx.fresh("n")
    params = [(s.var, s.sort) for s in env.syms() if s.var in lit_vars(lits)] + [(w, f"int:{interval[0]}:{interval[1]}")]
    return [cx.define("part", node, params, [({w: value}, lits)])], w


def arith(cx: Compiler, node: Arith, env: Env, ctl: Ctl) -> Val:
    """``(op A B)`` through a table (each operand kept apart where ``ctl`` keeps parts)."""
    la, ta = kept(cx, int_(cx, node.left, env, ctl), cx.interval(node.left, env), env, ctl, node.left)
    lb, tb = kept(cx, int_(cx, node.right, env, ctl), cx.interval(node.right, env), env, ctl, node.right)
    out = cx.interval(node, env)
    v = cx.fresh("n")
    if not isinstance(tb, Variable):
        table = cx.tables.shift(node.op, int(tb.name), cx.interval(node.left, env), out)
        return la + lb + [f(table, ta, v) if table else FALSE], v
    if not isinstance(ta, Variable):
        table = cx.tables.shift(node.op, int(ta.name), cx.interval(node.right, env), out, left=True)
        return la + lb + [f(table, tb, v) if table else FALSE], v
    ia, ib = cx.interval(node.left, env), cx.interval(node.right, env)
    if not cx.tables.fits(node.op, ia, ib, out):
        xs, ys = value_set(cx.ranges, node.left, env), value_set(cx.ranges, node.right, env)
        if xs is not None and ys is not None:
            table = cx.tables.binary_of(node.op, sorted(xs), sorted(ys), out)
            return la + lb + [f(table, ta, tb, v) if table else FALSE], v
    table = cx.tables.binary(node.op, ia, ib, out)
    return la + lb + [f(table, ta, tb, v) if table else FALSE], v


def int_agg(cx: Compiler, node: IntAgg, env: Env, ctl: Ctl) -> Val:
    """``(all COLL 'V (OWNER sto NAME))``: the sum over a static collection."""

    elements = static_elements(cx.model, node.collection, env, node)
    if elements is None:
        raise TranslationError(node, "a sum over storage needs a collection known before play (players, teams, "
                               "names, ranges, filters of them)")
    lits: list[Literal] = []
    total: Term = num(0)
    low = high = 0
    for binding, conds in elements:
        inner = env.bind(node.var.name, binding)
        part_lits, part = int_(cx, node.body, inner, ctl)
        lo, hi = cx.interval(node.body, inner)
        if conds:  # the element's value when it is a member, else 0
            member = [lit for cond, cond_env in conds for lit in cx.cond(cond, cond_env, ctl)]
            lo, hi = min(lo, 0), max(hi, 0)
            v = cx.fresh("n")
            params = [(p, sort) for p, sort in ((s.var, s.sort) for s in env.syms())
                      if p in lit_vars(member + part_lits)] + [(v, f"int:{lo}:{hi}")]
            part_lits = [cx.define("element", node, params, [({v: part}, member + part_lits),
                                                             ({v: num(0)}, cx.negate(member, env, node))])]
            part = v
        part_lits, part = kept(cx, (part_lits, part), (lo, hi), inner, ctl, node.body)
        lits += part_lits
        if total == num(0):
            total, low, high = part, lo, hi
            continue
        v = cx.fresh("n")
        table = cx.tables.binary("+", (low, high), (lo, hi))
        lits.append(f(table, total, part, v) if table else FALSE)
        lits, total = kept(cx, (lits, v), (low + lo, high + hi), env, ctl, node)
        low, high = low + lo, high + hi
    return lits, total


def str_(cx: Compiler, node: Any, env: Env, ctl: Ctl) -> Val:
    """A string expression (may fail to have a value: ``cardatt`` of no card)."""
    node, env = deref(node, env)
    if isinstance(node, Name):
        return [], name(node.text)
    if isinstance(node, Var):
        bound = env.term(node.name)
        if bound is not None:
            return [], bound
        raise TranslationError(node, f"'{node.name} is not a string here")
    if isinstance(node, StrStorage):
        lits, owner = cx.owner(node.owner, env, ctl)
        v = cx.fresh("s")
        return lits + [true(f("str", owner, cx.storage_name(node.name, env), v))], v
    if isinstance(node, CardAtt):
        _, _, lits, v = _card_attribute(cx, node, env, ctl)
        return lits, v
    raise TranslationError(node, "a string is expected here")


def _card_attribute(cx: Compiler, node: CardAtt, env: Env, ctl: Ctl) -> tuple[list[Literal], Term, list[Literal], Variable]:
    """``(cardatt KEY CARD)``: the card's literals and term, and the attribute's literals and value."""
    key = cx.storage_name(node.key, env)
    card_lits, card = cx.card(node.card, env, ctl)
    v = cx.fresh("s")
    return card_lits, card, card_lits + [f("attr", card, key, v)], v


def str_total(cx: Compiler, node: Any, env: Env, ctl: Ctl) -> Val:
    """A string expression that always has a value (``unset`` where ``cardatt`` has none)."""
    real, real_env = deref(node, env)
    if not isinstance(real, CardAtt):
        return str_(cx, node, env, ctl)
    key = ("strtotal", real, env, ctl.key)
    if key in cx.book.memo:
        head = cx.book.memo[key]
        return [head], head.args[-1]
    card_lits, card, lits, term = _card_attribute(cx, real, real_env, ctl)
    # a card bound outside (the card a move of this step put on top, read through the move's
    # own variable) is an argument too: without it the relation would hold for any card
    free = card not in positive_vars(card_lits)
    outside = [(card, "card")] if isinstance(card, Variable) and free and card not in {s.var for s in cx.context(env)} else []
    some = cx.aux("hasatt", [lits], env, node, extra=outside, key=("ha", real, env, ctl.key))
    v = cx.fresh("s")
    values = ",".join(sorted({name(n).name for n in cx.model.names} | {UNSET.name}))
    params = [(s.var, s.sort) for s in cx.context(env) if s.var in lit_vars(lits)] + outside + [(v, "name:" + values)]
    clauses: list[tuple[dict[Variable, Term], list[Literal]]] = [({}, substitute(lits, term, v))]
    if some is not ALWAYS:
        clauses.append(({v: UNSET}, [Not(some)] if some is not FALSE else []))
    head = cx.define("att", real, params, clauses)
    cx.book.memo[key] = head
    return [head], v


def random_value(cx: Compiler, node: Random, env: Env, ctl: Ctl) -> Val:
    """``(random ...)``: a number ``random`` chooses in the step (read again, without asking
    for it, by the rules that keep a condition of the step's actions for later steps)."""
    if ctl.batch is None or ctl.resolving:
        raise TranslationError(node, "`random` can only be used in an action or its condition")
    low, high = cx.interval(node, env)
    v = cx.fresh("n")
    if ctl.chance:
        cx.ledger.chance(ctl.batch, ("num", list(cx.ledger.current_guards), [cx.sort_literal(v, f"int:{low}:{high}")], v))
    return [does(RANDOM, f("num", v)), cx.sort_literal(v, f"int:{low}:{high}")], v
