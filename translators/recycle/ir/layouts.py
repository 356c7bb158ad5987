"""Shuffles of piles whose whole order is read, written as a layout card by card.

The rules keep a shuffled pile as a heap: no order, its top drawn by ``random`` when it is taken
or read (``emit/cardstate.py``). A pile whose bottom card, top or bottom N cards or numbered
cards are read keeps its whole order instead (``under`` links), and cannot be a heap too. A
shuffle of such a pile is rewritten here, on the syntax tree, to::

    (do ((repeat all (move (top PILE) (top (game iloc SHUFFLE_L_C))))
         (shuffle (game iloc SHUFFLE_L_C))
         (repeat (size (game iloc SHUFFLE_L_C)) (move (top (game iloc SHUFFLE_L_C)) (top PILE)))))

where ``L_C`` is the shuffle's line and column: the cards go to a hidden heap of the game and
come back one by one, ``random`` drawing each, so that the pile's order is uniformly random (as
the engine's ``Shuffle``) and known card by card. It costs a step per card, and only where a
shuffled pile's order is read.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from translators.recycle.ir.repeats import Site
from translators.recycle.ir.rewrite import rewrite_flow
from translators.recycle.syntax.nodes import (
    CardAt,
    CardLocation,
    CardsExpr,
    Do,
    Game,
    GameOwner,
    Move,
    Name,
    Repeat,
    RepeatAll,
    Shuffle,
    Size,
)


def heap_name(site: Site) -> str:
    """The name of the game's hidden location a shuffle at ``site`` lays its pile out from."""
    return f"SHUFFLE_{site[0]}_{site[1]}"


def lay_out_shuffles(game: Game, sites: AbstractSet[Site]) -> Game:
    """``game`` with each shuffle at one of ``sites`` written as a layout card by card."""

    return rewrite_flow(game, lambda node: isinstance(node, Shuffle) and (node.line, node.column) in sites, _layout)


def _layout(node: Shuffle) -> Do:
    at = {"line": node.line, "column": node.column}
    heap = CardLocation(GameOwner(**at), "iloc", Name(heap_name((node.line, node.column)), **at), **at)
    pile = node.cards

    def top(cards: CardsExpr) -> CardAt:
        return CardAt("top", cards, **at)

    return Do((RepeatAll(Move(top(pile), top(heap), **at), **at),
               Shuffle(heap, **at),
               Repeat(Size(heap, **at), Move(top(heap), top(pile), **at), **at)), **at)


__all__ = ["heap_name", "lay_out_shuffles"]
