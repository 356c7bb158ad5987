"""The engine's nodes: the items of a stage body CardStock processes one at a time (a ``do``, an
``all``, a ``let``), each counted at the first effect it lowers to (``emit/idle.py``)."""

from __future__ import annotations

from typing import Any

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.peeks import is_peek


def engine_nodes(items: list[tuple[Any, list[ir.Effect]]], nodes: dict[int, int]) -> list[ir.Effect]:
    """The effects of a stage body's items (each with its syntax), in order; each item counted
    in ``nodes`` at its first effect (one with none, at the next one's, or the last effect), but
    the blocks the translation adds (``ir/peeks.py``)."""
    effects = [e for _, made in items for e in made]
    waiting = 0
    for item, made in items:
        waiting += not is_peek(item)
        if made:
            nodes[made[0].id] = nodes.get(made[0].id, 0) + waiting
            waiting = 0
    if waiting and effects:
        nodes[effects[-1].id] = nodes.get(effects[-1].id, 0) + waiting
    return effects


__all__ = ["engine_nodes"]
