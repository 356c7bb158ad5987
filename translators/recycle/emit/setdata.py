"""A card set chosen as data (``ir/setchoice.py``): static facts per set, read through the
variable naming the set chosen.

- ``(setcard_N SET C)``: C is a card of SET; a card of the chosen set is one of its facts.
- ``(setsize_N SET K)``, ``(setsum_N SET V)``: how many cards SET holds and their points under a
  static point map (a constant where every set has the same).
- The set is legal while none of its cards is outside the collection it is picked from
  (``(setout_N SET)``, negated).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ggp.gdl.rules import Literal
from ggp.gdl.terms import Constant, Term, Variable
from translators.recycle.analysis.picks import CHOSEN_LIMIT
from translators.recycle.analysis.rooms import picked_room, site_room
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.literals import FALSE
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.groups import group_site
from translators.recycle.ir.nodes import Env, Sym
from translators.recycle.ir.setchoice import (
    chosen_group,
    filtered_subsets,
    set_sort,
    set_table,
)
from translators.recycle.symbols.vocabulary import card_constant, f, num, rule
from translators.recycle.syntax.nodes import BoolAgg


def chosen_key(node: ir.ChosenSet | ir.ChosenSetIn, env: Env) -> Term:
    """The term naming the set chosen (the fork's variable, or its value)."""
    term = env.term(node.key)
    assert term is not None, node.key
    return term


def chosen_card(cx: Compiler, node: ir.ChosenSet, env: Env, card: Term) -> list[Literal]:
    """A card is one of the chosen set's."""
    return [f(_cards(cx, node), chosen_key(node, env), card)]


def chosen_size(cx: Compiler, node: ir.ChosenSet, env: Env) -> Val:
    """How many cards the chosen set holds."""
    sizes = {len(cards) for cards in node.table.sets}
    if len(sizes) == 1:
        return [], num(sizes.pop())
    rel = _facts(cx, node, "setsize", "how many cards each card set a choice may take holds",
                 lambda cards: [(num(len(cards)),)])
    value = cx.fresh("n")
    return [f(rel, chosen_key(node, env), value)], value


def chosen_sum(cx: Compiler, node: ir.ChosenSet, env: Env, points: Any, points_env: Env) -> Val | None:
    """The points of the chosen set's cards under a static point map (one value per card);
    None under another map."""
    scores = {cid: cx.pointmaps.card_values(points, points_env, cid) for cards in node.table.sets for cid in cards}
    if any(len(values) != 1 for values in scores.values()):
        return None
    sums = [sum(min(scores[cid]) for cid in cards) for cards in node.table.sets]
    if len(set(sums)) == 1:
        return [], num(sums[0])
    rel = _facts(cx, node, "setsum", "the points of each card set a choice may take, under a static point map",
                 lambda cards: [(num(sum(min(scores[cid]) for cid in cards)),)], key=tuple(sums))
    value = cx.fresh("v")
    return [f(rel, chosen_key(node, env), value)], value


def chosen_in(cx: Compiler, node: ir.ChosenSetIn, env: Env, ctl: Ctl) -> list[Literal]:
    """Every card of the chosen set is in the collection: none of its cards is not."""
    card = cx.fresh("c")
    member = cx.member(node.base, env, ctl, card)
    outside = cx.negate(member, env, node, extra=[(card, "card")])
    out = cx.aux("setout", [[f(_cards(cx, node), chosen_key(node, env), card)] + outside], env, node,
                 key=("setout", node.table, node.base, env, ctl.key))
    return cx.negate([out], env, node)


def set_members(cx: Compiler, node: BoolAgg, env: Env, ctl: Ctl) -> tuple[list[Literal], Env] | None:
    """A condition's ``any``/``all`` over a filter of subsets picking more card sets than are
    enumerated one by one (``analysis/picks.py``: past ``PICK_LIMIT``, up to ``CHOSEN_LIMIT``),
    read over the set ids (Scopa's "lay a card only when none can take"): the literals making a
    fresh variable one of the sets the filter passes, and ``env`` with the quantifier's variable
    bound to that set (a :class:`~..ir.nodes.ChosenSet`); None for anything else."""
    found = filtered_subsets(node.collection, env)
    if found is None:
        return None
    subsets, subsets_env, pickers = found
    use: list[ir.GroupUse] = [(subsets, subsets_env, pickers[-1])]
    if site_room(use, cx.ranges).sets is not None:
        return None
    sets = picked_room(use, cx.ranges, CHOSEN_LIMIT)
    if sets is None:
        return None
    memo = ("settable", group_site(subsets))
    if memo not in cx.book.memo:
        cx.book.memo[memo] = set_table(cx.model, sets)
    table = cx.book.memo[memo]
    var = cx.fresh("s")
    sym = Sym(var, "str", set_sort(table))
    key = f"_Q{var.name}"
    group, conds = chosen_group(subsets, subsets_env, pickers, table, key, sym)
    inner = env.bind(key, sym).bind(node.var.name, group)
    member = [cx.sort_literal(var, set_sort(table))] + [lit for cond, cond_env in conds
                                                         for lit in cx.cond(cond, cond_env, ctl)]
    return member, inner


def set_ids(cx: Compiler, node: ir.SetIds, term: Term) -> list[Literal]:
    """``term`` names a set of the table."""
    if isinstance(term, Variable):
        return [cx.sort_literal(term, set_sort(node.table))]
    return [] if isinstance(term, Constant) and term.name in node.table.ids else [FALSE]


def _cards(cx: Compiler, node: ir.ChosenSet | ir.ChosenSetIn) -> str:
    """``(setcard_N SET C)``: the cards of each set of ``node``'s table."""
    return _facts(cx, node, "setcard", "the cards of each card set a choice may take",
                  lambda cards: [(card_constant(cx.model, cid),) for cid in cards])


def _facts(cx: Compiler, node: ir.ChosenSet | ir.ChosenSetIn, prefix: str, comment: str,
           rows: Callable[[tuple[str, ...]], Sequence[tuple[Term, ...]]], key: Any = None) -> str:
    """A static relation over the set ids of ``node``'s table: ``(REL SET X...)`` for each row
    of each set (named after the collection the sets are picked from)."""
    table = node.table
    memo = (prefix, table, key)
    if memo not in cx.book.memo:
        rel = cx.book.name(prefix, node.base)
        with cx.book.group(comment):
            for set_id, cards in zip(table.ids, table.sets):
                for row in rows(cards):
                    cx.book.add(rule(f(rel, Constant(set_id), *row)))
        cx.book.memo[memo] = rel
    return str(cx.book.memo[memo])


__all__ = ["chosen_card", "chosen_in", "chosen_key", "chosen_size", "chosen_sum", "set_ids", "set_members"]
