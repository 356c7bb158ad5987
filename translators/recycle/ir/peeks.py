"""A choice whose legal moves read the top card of a shuffled pile: ``random`` draws it first.

The rules keep a shuffled pile as a heap, its top a card ``random`` draws in the step that
takes or reads it (``emit/cardstate.py``); a legal move cannot wait for that draw. Such a top
was read as no card (an option legal by the stock's top card was never offered), then kept by
laying out the pile's shuffles card by card, a step per card and the pile's whole order (4.7
random playouts a second where two choices play 144). Here the choice is given a block of its
own just before it, in its stage, that reads each such top where ``random`` can draw it::

    (do ((set (game str PEEK_L_C) (cardatt KEY (top PILE)))))

so that the card drawn is the pile's known top when the choice is made (the *peeked* piles:
``analysis/order.py::peeked``), and stays so until it moves. ``L_C`` is the choice's line and
column. Only tops of piles named without a variable of the choice (``(game iloc STOCK)``,
``((current player) iloc HAND)``) are read so; any other stays laid out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from translators.recycle.ir.repeats import Site
from translators.recycle.ir.rewrite import rewrite_flow
from translators.recycle.syntax.nodes import (
    CardAt,
    CardAtt,
    Choice,
    Do,
    Game,
    GameOwner,
    Let,
    Name,
    SetStr,
    Stage,
    StrStorage,
)


def peek_name(site: Site) -> str:
    """The name of the game's string cell the block before the choice at ``site`` writes."""
    return f"PEEK_{site[0]}_{site[1]}"


def peek_before(game: Game, tops: Mapping[Site, list[CardAt]], key: str) -> Game:
    """``game`` with a block before each choice at a site of ``tops`` that reads those top
    cards (through their attribute ``key``) where ``random`` can draw them."""

    def insert(items: tuple[Any, ...]) -> tuple[Any, ...]:
        out: list[Any] = []
        for item in items:
            inner = item
            while isinstance(inner, Let):
                inner = inner.body
            site = (inner.line, inner.column)
            if isinstance(inner, Choice) and site in tops:
                at = {"line": inner.line, "column": inner.column}
                cell = StrStorage(GameOwner(**at), Name(peek_name(site), **at), **at)
                out.append(Do(tuple(SetStr(cell, CardAtt(Name(key, **at), top, **at), **at) for top in tops[site]),
                              **at))
            out.append(item)
        return tuple(out)

    flow = insert(game.flow)
    game = game if flow == game.flow else replace(game, flow=flow)
    return rewrite_flow(game, lambda node: isinstance(node, Stage), lambda stage: replace(stage, body=insert(stage.body)))


def is_peek(item: Any) -> bool:
    """Whether a stage body's item is a block :func:`peek_before` added (not the engine's)."""
    return isinstance(item, Do) and bool(item.items) and all(
        isinstance(a, SetStr) and isinstance(a.storage.owner, GameOwner) and isinstance(a.storage.name, Name)
        and a.storage.name.text.startswith("PEEK_") for a in item.items)


__all__ = ["is_peek", "peek_before", "peek_name"]
