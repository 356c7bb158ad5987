"""Sizes of collections: ``(size COLL)`` compared with a constant or as a value.

- A card collection compared with 0 or 1 needs no counting (is there a member?); other sizes
  count with a chain over the cards that can be members (in card-id order), saturating just above
  the largest constant it is compared with.
- A collection whose possible elements are known before play (players, teams, names, ranges,
  filters of them, the groups of a ``partition``) is a constant, or a chain over the conditions
  under which each element is one.
"""

from __future__ import annotations

from math import comb
from typing import Any

from ggp.gdl.rules import Literal
from ggp.gdl.terms import Term, Variable
from translators.recycle.analysis.capacity import MEMORY_CAP
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.integers import holds
from translators.recycle.emit.cardsets import (
    context_params,
    domain_cards,
    is_card_collection,
    lift,
    points_are,
    tuple_candidates,
    tuple_groups,
    tuple_items,
    tuple_size,
    unlift,
)
from translators.recycle.emit.chains import chain_count
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.copies import copies_kept, remembers
from translators.recycle.emit.groups import groups_of
from translators.recycle.emit.literals import ALWAYS, FALSE
from translators.recycle.emit.protocol import Compiler
from translators.recycle.emit.runcount import runs_count
from translators.recycle.emit.setdata import chosen_size
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import (
    expression_kind,
    memory_under_filters,
    static_elements,
)
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.symbols.vocabulary import card_constant, f, num, true
from translators.recycle.syntax.nodes import (
    Filter,
    Partition,
    Run,
    Runs,
    Subsets,
    Tuples,
)
from translators.recycle.translation_error import TranslationError


def size_compare(cx: Compiler, coll: Any, op: str, k: int, env: Env, ctl: Ctl) -> list[Literal]:
    """``(size COLL) op k``."""
    real, real_env = deref(coll, env)
    counted = static_size(cx, real, real_env, ctl)
    if counted is not None:
        lits, value = counted
        if not isinstance(value, Variable):
            return lits if holds(op, int(value.name), k) else [FALSE]
        table = cx.tables.test(op, k, (0, static_count_bound(cx, real, real_env)))
        return lits + [f(table, value) if table else FALSE]
    if isinstance(real, (ir.SlotSet, ir.CardGroup)):
        return [] if holds(op, group_size(real), k) else [FALSE]
    if isinstance(real, ir.ChosenSet):
        lits, value = chosen_size(cx, real, real_env)
        if not isinstance(value, Variable):
            return lits if holds(op, int(value.name), k) else [FALSE]
        table = cx.tables.test(op, k, (0, max(len(cards) for cards in real.table.sets)))
        return lits + [f(table, value) if table else FALSE]
    if isinstance(real, Run):
        lits, value = cx.run_length(real, real_env, ctl)
        table = cx.tables.test(op, k, (0, 13))
        return lits + [f(table, value) if table else FALSE]
    if isinstance(real, Tuples) and (op, k) in (("==", 0), ("<", 1), ("<=", 0), (">", 0), (">=", 1), ("!=", 0)):
        _, quals, _ = tuple_groups(cx, real, real_env, ctl)
        some = cx.aux("tuples", [[q] for q in quals.values()], real_env, real,
                        key=("tupsome", real, real_env, ctl.key))
        exists = [] if some is ALWAYS else [some]
        return exists if (op, k) in ((">", 0), (">=", 1), ("!=", 0)) else cx.negate(exists, env, coll)
    if isinstance(real, Subsets):  # 2^c op k, told from c
        cards = domain_cards(cx, real.cards, real_env)
        lits, value = count(cx, real.cards, real_env, ctl, len(cards))
        table = cx.tables.test_of("two_to", lambda x: 1 << x, op, k, (0, len(cards)))
        return lits + [f(table, value) if table else FALSE]
    if isinstance(real, Tuples):
        cap = max(k + 1, 0)
        lits, value = group_count(cx, real, real_env, ctl, cap)
        table = cx.tables.test(op, k, (0, min(cx.ranges.size_bound(real, real_env), cap)))
        return lits + [f(table, value) if table else FALSE]
    if isinstance(real, Runs) and (op, k) in (("==", 0), ("<", 1), ("<=", 0), (">", 0), (">=", 1), ("!=", 0)):
        run = runs_exist(cx, real, real_env, ctl)
        return run if (op, k) in ((">", 0), (">=", 1), ("!=", 0)) else cx.negate(run, env, coll)
    if isinstance(real, Runs):
        if k < 0:
            return [] if op in (">", ">=", "!=") else [FALSE]
        lits, value = runs_count(cx, real, real_env, ctl, k + 1)
        table = cx.tables.test(op, k, (0, k + 1))
        return lits + [f(table, value) if table else FALSE]
    if (op, k) in (("==", 0), ("<", 1), ("<=", 0)):
        return cx.negate(cx.exists(coll, env, ctl), env, coll)
    if (op, k) in ((">", 0), (">=", 1), ("!=", 0)):
        return cx.exists(coll, env, ctl)
    if k < 0:
        return [] if op in (">", ">=", "!=") else [FALSE]
    if k > len(cx.model.cards) and memory_under_filters(coll, env) is None:  # nor more cards than the game has (copies can be)
        return [] if op in ("<", "<=", "!=") else [FALSE]
    lits, value = count(cx, coll, env, ctl, k + 1)
    table = cx.tables.test(op, k, (0, k + 1))
    return lits + [f(table, value) if table else FALSE]


def group_size(group: ir.SlotSet | ir.CardGroup) -> int:
    """How many cards a group holds (its slots are filled while it is one)."""
    return len(group.slots) if isinstance(group, ir.SlotSet) else len(group.cards)


def size_value(cx: Compiler, coll: Any, env: Env, ctl: Ctl) -> Val:
    """``(size COLL)`` as a value."""
    real, real_env = deref(coll, env)
    if isinstance(real, (ir.SlotSet, ir.CardGroup)):
        return [], num(group_size(real))
    if isinstance(real, ir.ChosenSet):
        return chosen_size(cx, real, real_env)
    if isinstance(real, Run):
        return cx.run_length(real, real_env, ctl)
    counted = static_size(cx, real, real_env, ctl)
    if counted is not None:
        return counted
    if isinstance(real, (Tuples, Subsets)):
        return group_count(cx, real, real_env, ctl)
    if isinstance(real, Runs):
        return runs_count(cx, real, real_env, ctl)
    copies = memory_count(cx, real, real_env, ctl, MEMORY_CAP)
    if copies is None:
        copies = filtered_copies(cx, real, real_env, ctl, MEMORY_CAP)
    if copies is not None:
        return copies
    cards = domain_cards(cx, real, real_env) if is_card_collection(real) else None
    if cards is None:
        raise TranslationError(coll, "only the size of a card collection, of a partition or of a "
                               "collection of players, teams, names or numbers can be used as a value")
    return count(cx, coll, env, ctl, len(cards))


def group_conditions(cx: Compiler, coll: Any, env: Env) -> list[list[tuple[Any, Env]]] | None:
    """For a collection whose possible elements are known before play (players, teams, names,
    ranges, filters of them, the groups of a ``partition``): the conditions under which each
    is an element (a group of a partition is one when it is not empty); None for others."""
    if not isinstance(coll, Partition) and expression_kind(coll, env) == "cards":
        return None
    elements = static_elements(cx.model, coll, env, coll)
    if elements is None and isinstance(deref(coll, env)[0], Filter):  # a filter of groups
        elements = groups_of(cx, coll, env)
    return None if elements is None else [conds for _, conds in elements]


def static_count_bound(cx: Compiler, coll: Any, env: Env) -> int:
    """How many elements a collection of :func:`group_conditions` can have."""
    conditions = group_conditions(cx, coll, env)
    return len(conditions) if conditions is not None else len(cx.model.cards)


def static_size(cx: Compiler, coll: Any, env: Env, ctl: Ctl) -> Val | None:
    """The size of a collection of :func:`group_conditions`: a constant when every element is
    unconditional, else a count with a chain over the elements; None for other collections."""
    conditions = group_conditions(cx, coll, env)
    if conditions is None:
        return None
    if not any(conditions):
        return [], num(len(conditions))
    return chain_count(cx, coll, env, ctl, lambda: [[lit for cond, cond_env in conds for lit in cx.cond(cond, cond_env, ctl)]
                                                    for conds in conditions], len(conditions))


def count(cx: Compiler, coll: Any, env: Env, ctl: Ctl, cap: int) -> Val:
    """The number of members, saturating at ``cap``, with a chain over the possible members."""
    lifted = lift(cx, coll, env, ctl)
    if lifted is not None:
        inner, pctl, binds = lifted
        lits, value = count(cx, coll, inner, pctl, cap)
        return unlift(cx, binds, lits), value
    copies = memory_count(cx, coll, env, ctl, cap)
    if copies is None:
        copies = filtered_copies(cx, coll, env, ctl, cap)
    if copies is not None:
        return copies
    return chain_count(cx, coll, env, ctl, lambda: [cx.member(coll, env, ctl, card_constant(cx.model, cid))
                                                    for cid in domain_cards(cx, coll, env)], cap)


def memory_count(cx: Compiler, coll: Any, env: Env, ctl: Ctl, cap: int) -> Val | None:
    """The copies in a memory location, saturating at ``cap`` (a card remembered twice there is
    two, as the engine's memory holds copies): its ``(ccount LOC N)``. None for other collections."""
    found = memory_under_filters(coll, env)
    if found is None or found[2]:
        return None
    real, real_env, _ = found
    if not remembers(cx):
        return [], num(0)
    lits, place = cx.loc_term(real, real_env, ctl)
    held = cx.fresh("n")
    lits = lits + [true(f("ccount", place, held))]
    if cap >= MEMORY_CAP:
        return lits, held
    capped = cx.tables.unary(f"copies_upto_{cap}", lambda x: min(x, cap), (0, MEMORY_CAP))
    assert capped is not None  # a table over 0..MEMORY_CAP has rows
    return lits + [f(capped, held, (value := cx.fresh("n")))], value


def filtered_copies(cx: Compiler, coll: Any, env: Env, ctl: Ctl, cap: int) -> Val | None:
    """The copies of a memory location that one or more filters keep, saturating at ``cap``: a
    card remembered twice counts twice, as the engine's filter walks the copies. A chain over
    the places the copies take (``(cpos LOC C N)``). None for other collections."""
    found = memory_under_filters(coll, env)
    if found is None or not found[2]:
        return None
    if not remembers(cx):
        return [], num(0)

    def kept() -> list[list[Literal]]:
        return [lits for _, lits in copies_kept(cx, found, ctl)]

    return chain_count(cx, coll, env, ctl, kept, min(cap, MEMORY_CAP), label="copies")


def group_count(cx: Compiler, node: Tuples | Subsets, env: Env, ctl: Ctl, cap: int | None = None) -> Val:
    """How many groups ``tuples`` or ``subsets`` makes, as the engine counts them: every N of the
    cards that score one value (C(c, N) for each value scored by c cards), every subset of the
    cards (2^c, the empty one included). The tuples of each value add to a sum of the values
    before it, each partial sum a relation of its own (in one rule, a grounder joined every
    value of every part: ten values of a pairs game compared with 2 passed two million ground
    rules), saturating at ``cap`` when given."""
    lifted = lift(cx, node, env, ctl)
    if lifted is not None:
        inner, pctl, binds = lifted
        lits, value = group_count(cx, node, inner, pctl, cap)
        return unlift(cx, binds, lits), value
    if isinstance(node, Subsets):
        cards = domain_cards(cx, node.cards, env)
        lits, c = count(cx, node.cards, env, ctl, len(cards))
        powers = cx.tables.unary("two_to", lambda x: 1 << x, (0, len(cards)))
        assert powers is not None  # a table over 0..n has rows
        return lits + [f(powers, c, (v := cx.fresh("n")))], v
    n = tuple_size(node, env)
    out: list[Literal] = []
    total: Term = num(0)
    high = 0
    for points, members in tuple_candidates(cx, node, env).items():
        def conjunctions(points: int = points, members: list[str] = members) -> list[list[Literal]]:
            return tuple_items(cx, node, env, ctl, points, members)
        lits, c = chain_count(cx, node, env, ctl, conjunctions, len(members), label=points)
        groups = cx.fresh("n")
        most = comb(len(members), n) if cap is None else min(comb(len(members), n), cap)
        if cap is None:
            choose = cx.tables.unary(f"choose_{n}", lambda x: comb(x, n), (0, len(members)))
        else:
            choose = cx.tables.unary(f"choose_{n}_upto_{cap}", lambda x: min(comb(x, n), cap), (0, len(members)))
        assert choose is not None
        part = lits + [f(choose, c, groups)]
        if high == 0:
            out, total, high = part, groups, most
            continue
        s = cx.fresh("n")
        if cap is None:
            table = cx.tables.binary("+", (0, high), (0, most))
            high += most
        else:
            table = cx.tables.capped((0, high), (0, most), cap)
            high = min(high + most, cap)
        assert table is not None
        body = out + part + [f(table, total, groups, s)]
        params = context_params(cx, env, [body]) + [(s, f"int:0:{high}")]
        out, total = [cx.define("tuplesum", node, params, [({}, body)])], s
    return out, total


def runs_exist(cx: Compiler, node: Runs, env: Env, ctl: Ctl) -> list[Literal]:
    """``(runs largest|all N CARDS using P)`` has a run: N consecutive values are each scored by
    some card of CARDS (the engine's runs go up by exactly 1, cards of equal points branching)."""
    lifted = lift(cx, node, env, ctl)
    if lifted is not None:
        inner, pctl, binds = lifted
        return unlift(cx, binds, runs_exist(cx, node, inner, pctl))
    n = static_int(node.length, env)
    if n is None:
        raise TranslationError(node, "`runs` needs a literal length")
    scoring: dict[int, list[str]] = {}
    for cid in domain_cards(cx, node.cards, env):
        for value in cx.pointmaps.card_values(node.points, env, cid):
            scoring.setdefault(value, []).append(cid)
    held = {value: cx.aux("scored", [cx.member(node.cards, env, ctl, card) + points_are(cx, node.points, env, ctl, card, value)
                                     for card in (card_constant(cx.model, cid) for cid in members)], env, node,
                          key=("scored", node, env, ctl.key, value))
            for value, members in scoring.items()}
    starts = [[held[v + i] for i in range(max(n, 1))] for v in sorted(held) if all(v + i in held for i in range(max(n, 1)))]
    some = cx.aux("hasrun", [[lit for lit in alt if lit is not ALWAYS] for alt in starts], env, node,
                  key=("runsexist", node, env, ctl.key))
    return [] if some is ALWAYS else [some]
