"""A choice among the card sets a filter of ``subsets`` can pick, as data.

Where a filter bounds the card sets it can pick (``analysis/picks.py``: a Scopa table taken by a
card's points), each set was a group of its own (:class:`~.nodes.CardGroup`) and a choice among
them one option per set: about 170 ground rules each, too many for a 40-card Scopa's 4,050
sets. A choice is instead one option forking over set ids (:class:`~.nodes.SetIds`), the set it
chose a :class:`~.nodes.ChosenSet` read through static facts (which cards a set holds, how many,
their points), legal while every card of the set is in the collection
(:class:`~.nodes.ChosenSetIn`) and the filter's condition holds of it. The engine offers the
same sets (``ProcessCStorageCollectionFilter`` over ``CardGrouping.Subsets``), so the options
are the same pairs of a card and a set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.groups import group_site
from translators.recycle.ir.nodes import Alias, Domain, Env, Picker, Sym, deref
from translators.recycle.ir.sites import GroupSites
from translators.recycle.symbols.model import GameModel
from translators.recycle.symbols.vocabulary import card_constant
from translators.recycle.syntax.nodes import Filter, Node, Subsets

#: A set's conditions to be chosen, each with its environment.
Conditions = list[tuple[Node, Env]]


def filtered_subsets(coll: Any, env: Env) -> tuple[Subsets, Env, list[Picker]] | None:
    """``(filter ... (filter (subsets CARDS) 'S COND) ...)`` as the subsets, their environment
    and the filters around them, outermost first; None for another collection or subsets
    under no filter (the empty subset is one of those: no set to name)."""
    pickers: list[Picker] = []
    real, real_env = deref(coll, env)
    while isinstance(real, Filter):
        pickers.append((real.condition, real.var.name, real_env))
        real, real_env = deref(real.collection, real_env)
    return (real, real_env, pickers) if isinstance(real, Subsets) and pickers else None


#: How a set id begins (no game word has an underscore: RECYCLE names are letters only).
SET_ID = "set_"


def set_table(model: GameModel, sets: tuple[tuple[str, ...], ...]) -> ir.SetTable:
    """The card sets with their ids: ``set_`` and the constants of their cards in card-id
    order (``set_one_hearts_two_clubs``), numbered on where two would read alike."""
    ids: list[str] = []
    taken: set[str] = set()
    for cards in sets:
        text = SET_ID + "_".join(card_constant(model, cid).name for cid in cards)
        while text in taken:
            text += "_"
        taken.add(text)
        ids.append(text)
    return ir.SetTable(tuple(ids), sets)


def set_sort(table: ir.SetTable) -> str:
    """The sort of a variable naming a set of ``table``: its ids."""
    return "name:" + ",".join(table.ids)


def is_set_sort(sort: str) -> bool:
    """Whether ``sort`` is the ids of a table of card sets (:func:`set_sort`)."""
    return sort.startswith("name:" + SET_ID) and all(v.startswith(SET_ID) for v in sort[5:].split(","))


def chosen_group(subsets: Subsets, subsets_env: Env, pickers: list[Picker], table: ir.SetTable, key: str,
                 sym: Sym) -> tuple[Alias, Conditions]:
    """The set chosen (``key`` bound to the fork ``sym`` over set ids) and its conditions to be
    an option: its cards all in the collection, and every filter's condition."""
    at = {"line": subsets.line, "column": subsets.column}
    group_env = subsets_env.bind(key, sym)
    group = Alias(ir.ChosenSet(subsets.cards, table, key, **at), group_env)
    conds: Conditions = [(ir.ChosenSetIn(subsets.cards, table, key, **at), group_env)]
    conds += [(cond, cond_env.bind(var, group)) for cond, var, cond_env in reversed(pickers)]
    return group, conds


def set_fork(model: GameModel, sites: GroupSites, coll: Any, coll_env: Env, env: Env, cid: str, var: str,
             new_sym: Callable[[str, str, Domain], Sym]) -> tuple[Env, Conditions, Sym] | None:
    """A choice (``cid``) among the card sets ``coll`` picks, as data: the option's ``env`` with
    ``var`` bound to the set chosen (and the key naming it to the fork over set ids, which rules
    over the set take as a parameter), the set's conditions to be chosen, and the fork (made by
    ``new_sym``); None where the groups of ``coll`` are not card sets a filter picks."""
    found = filtered_subsets(coll, coll_env)
    if found is None:
        return None
    subsets, subsets_env, pickers = found
    sets = sites.site_room(subsets, subsets_env, pickers[-1]).sets
    if sets is None:
        return None
    sites.room(subsets, subsets_env, pickers[-1], chosen=True)
    site = group_site(subsets)
    if site not in sites.tables:
        sites.tables[site] = set_table(model, sets)
    table = sites.tables[site]
    at = {"line": subsets.line, "column": subsets.column}
    sym = new_sym("str", set_sort(table), Domain(ir.SetIds(table, **at), env, cid))
    key = f"_S{sym.var.name}"
    group, conds = chosen_group(subsets, subsets_env, pickers, table, key, sym)
    return env.bind(key, sym).bind(var, group), conds, sym


__all__ = ["SET_ID", "Conditions", "chosen_group", "filtered_subsets", "is_set_sort", "set_fork", "set_sort", "set_table"]
