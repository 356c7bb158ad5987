"""Changes of a cell made once per card of a collection, as one change by a count.

CardStock runs the body of ``(all CARDS 'C BODY)`` once per card; the lowering makes an ``all``
over cards one parallel effect with a card variable, which changes a cell once however many
cards there are. A body that only changes cells by fixed amounts (under conditions), the cells
not the card's, is written instead as one change per cell by the amount times the number of
cards for which the conditions hold.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Any

from translators.recycle.ir.elements import static_literal
from translators.recycle.ir.nodes import Env
from translators.recycle.syntax.nodes import (
    ActionAgg,
    And,
    Arith,
    Conditional,
    Do,
    Filter,
    IntUpdate,
    Node,
    Size,
    Var,
)


def counted_change(node: ActionAgg, env: Env, consumed: AbstractSet[int]) -> Node | None:
    """``(all CARDS 'C [(COND)...] (inc|dec CELL K))`` with K fixed and CELL not the card's (or a
    ``do`` of such changes only) as one change by K times the number of cards of CARDS for which
    its conditions hold; None for other bodies (``consumed``: conditions that are an option's
    legality, not guards)."""
    items = list(node.body.items) if isinstance(node.body, Do) else [node.body]
    changes: list[Any] = [_counted_one(node, item, env, consumed) for item in items]
    if not changes or any(change is None for change in changes):
        return None
    return changes[0] if len(changes) == 1 else Do(tuple(changes), line=node.line, column=node.column)


def _counted_one(node: ActionAgg, item: Any, env: Env, consumed: AbstractSet[int]) -> IntUpdate | None:
    body: Any = item
    conds: list[Any] = []
    while True:
        if isinstance(body, Do) and len(body.items) == 1:
            body = body.items[0]
        elif isinstance(body, Conditional) and id(body) not in consumed:
            conds.append(body.condition)
            body = body.body
        else:
            break
    if not isinstance(body, IntUpdate) or body.op == "set" or static_literal(body.value, env) is None:
        return None
    if any(isinstance(n, Var) and n.name == node.var.name for n in body.storage.walk()):
        return None
    at = {"line": body.line, "column": body.column}
    cards: Any = node.collection
    if conds:
        cards = Filter(node.collection, node.var, conds[0] if len(conds) == 1 else And(tuple(conds), **at), **at)
    return replace(body, value=Arith("*", body.value, Size(cards, **at), **at))


__all__ = ["counted_change"]
