"""How many runs ``(runs largest N CARDS using P)`` makes: ``(size (runs ...))`` as a value and
compared with any constant.

The engine (``GameIterator.ProcessMemset``) sorts the cards by points and walks them: a card of
the next value extends every run, a card of the same value as the one before branches every run
that ended on that one, a gap (or the end) closes the runs, keeping those of N cards or more.
So each longest stretch of consecutive values held, N values or more, gives the product of the
numbers of cards of its values. The rules count it with a chain over the possible values in
order, its state the stretch's product, its length (up to N) and the total so far, the products
and the total saturating at a cap (just above the largest constant compared with, or the most
runs the cards can make when the size is a value). ``runs all`` keeps every run, and branches
differently on equal points: its size counts the runs an ``all`` over them makes (the engine's
where the cards score apart; see docs/translation.md), or is told from 0 (``sizes.runs_exist``).
"""

from __future__ import annotations

from collections.abc import Callable

from ggp.gdl.rules import Literal, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.ranges import runs_bound
from translators.recycle.emit.cardsets import (
    context_params,
    domain_cards,
    lift,
    points_are,
    unlift,
)
from translators.recycle.emit.chains import chain_count
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.groups import groups_of
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir.nodes import Env
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import card_constant, f, num, rule
from translators.recycle.syntax.nodes import Runs
from translators.recycle.translation_error import TranslationError

#: The most runs a size used as a value may count (a table row per count).
MOST_RUNS = 10_000


def runs_count(cx: Compiler, node: Runs, env: Env, ctl: Ctl, cap: int | None = None) -> Val:
    """The number of runs, saturating at ``cap`` (None: exact)."""
    if node.mode != "largest":  # over the groups, as a filter of them is counted (not lifted)
        return _all_count(cx, node, env, ctl, cap)
    lifted = lift(cx, node, env, ctl)
    if lifted is not None:
        inner, pctl, binds = lifted
        lits, runs = runs_count(cx, node, inner, pctl, cap)
        return unlift(cx, binds, lits), runs
    length = static_int(node.length, env)
    if length is None:
        raise TranslationError(node, "`runs` needs a literal length")
    length = max(length, 1)
    scoring: dict[int, list[str]] = {}
    for cid in domain_cards(cx, node.cards, env):
        for value in cx.pointmaps.card_values(node.points, env, cid):
            scoring.setdefault(value, []).append(cid)
    most = runs_bound({v: len(m) for v, m in scoring.items()}, length, cx.ranges.card_bound(node.cards, env))
    if cap is None and most > MOST_RUNS:
        raise TranslationError(node, f"these cards can make up to {most} runs, too many to count as a value "
                                     f"(at most {MOST_RUNS}); compare the size with a constant instead")
    top = most if cap is None else min(cap, most)
    if top == 0:
        return [], num(0)
    key = ("runcount", node, env, ctl.key, top)
    if key not in cx.book.memo:
        cx.book.memo[key] = _chain(cx, node, env, ctl, scoring, length, top)
    name, heads = cx.book.memo[key]
    made = cx.fresh("n")
    return [f(name, *heads, made)], made


def _all_count(cx: Compiler, node: Runs, env: Env, ctl: Ctl, cap: int | None) -> Val:
    """The number of ``runs all``: the runs an ``all`` over them makes (:func:`groups_of`, each
    as many times as the engine keeps it where the cards score apart), counted with a chain over
    their conditions, saturating at ``cap``."""
    members = groups_of(cx, node, env)
    if members is None:
        raise TranslationError(node, f"cannot count the runs of `{describe(node.cards)}`")
    top = len(members) if cap is None else min(cap, len(members))
    if top > MOST_RUNS:
        raise TranslationError(node, f"these cards can make up to {len(members)} runs, too many to count as a "
                                     f"value (at most {MOST_RUNS}); compare the size with a constant instead")
    if top == 0:
        return [], num(0)
    return chain_count(cx, node, env, ctl, lambda: [[lit for cond, cond_env in conds for lit in cx.cond(cond, cond_env, ctl)]
                                                    for _, conds in members], top, label="runs all")


def _chain(cx: Compiler, node: Runs, env: Env, ctl: Ctl, scoring: dict[int, list[str]], length: int,
           top: int) -> tuple[str, list[Variable]]:
    """Write the chain (see the module doc); its total's relation and context variables."""
    values = sorted(scoring)
    counts: list[tuple[list[Literal], Term, int]] = []
    for value in values:
        def conjunctions(value: int = value) -> list[list[Literal]]:
            return [cx.member(node.cards, env, ctl, card) + points_are(cx, node.points, env, ctl, card, value)
                    for card in (card_constant(cx.model, cid) for cid in scoring[value])]
        lits, m = chain_count(cx, node, env, ctl, conjunctions, len(scoring[value]), label=("runs", value))
        counts.append((lits, m, len(scoring[value])))
    params = context_params(cx, env, [lits for lits, _, _ in counts])
    heads = [v for v, _ in params]
    chain, total = cx.book.name("runs", node), cx.book.name("runcount", node)
    p, ln, t, p2, ln2, t2, mc = (cx.fresh("n") for _ in range(7))
    tables = cx.tables
    add = tables.capped((0, top), (0, top), top)
    long_, short = tables.test(">=", length, (0, length)), tables.test("<", length, (0, length))
    empty, begun = tables.test("==", 0, (0, length)), tables.test(">", 0, (0, length))
    grow = tables.unary(f"next_upto_{length}", lambda x: min(x + 1, length), (0, length))
    assert add and long_ and short and empty and begun and grow  # tables over ranges with rows

    def state(i: int, *terms: Term) -> Function | Constant:
        return f(chain, *heads, num(i), *terms)

    def then(i: int, *first: Term) -> Callable[[Term], Function | Constant]:
        """The state after value ``i`` with these first parts, given its total."""
        return lambda total_so_far: state(i, *first, total_so_far)

    def closing(head: Callable[[Term], Function | Constant], body: list[Literal]) -> list[Rule]:
        """``head`` with the total after the stretch ending before ``body`` is closed (its runs
        added when it is long enough)."""
        return [rule(head(t2), body + [f(long_, ln), f(add, t, p, t2)]), rule(head(t), body + [f(short, ln)])]

    rules: list[Rule] = [rule(state(0, num(0), num(0), num(0)), [cx.sort_literal(v, s) for v, s in params])]
    for i, (value, (lits, m, most)) in enumerate(zip(values, counts), start=1):
        before = state(i - 1, p, ln, t)
        zero, some = tables.test("==", 0, (0, most)), tables.test(">", 0, (0, most))
        start = tables.unary(f"at_most_{top}", lambda x: min(x, top), (0, most))
        times = tables.capped_times((0, top), (0, most), top)
        assert zero and some and start and times
        rules += closing(then(i, num(0), num(0)), [before, *lits, f(zero, m)])
        opened = [before, *lits, f(some, m), f(start, m, mc)]
        if i > 1 and values[i - 2] == value - 1:  # the next value: the stretch goes on, if begun
            rules.append(rule(state(i, p2, ln2, t), [before, *lits, f(some, m), f(begun, ln), f(times, p, m, p2),
                                                     f(grow, ln, ln2)]))
            rules.append(rule(state(i, mc, num(1), t), opened + [f(empty, ln)]))
        else:
            rules += closing(then(i, mc, num(1)), opened)
    rules += closing(lambda tt: f(total, *heads, tt), [state(len(values), p, ln, t)])
    with cx.book.group(f"how many runs (up to {top}): {describe(node)}", node):
        for r in rules:
            cx.book.add(r)
    return total, heads


__all__ = ["MOST_RUNS", "runs_count"]
