"""Decks created during play, made before play in a hidden pile and brought out when created.

CardStock makes a deck's cards when ``create deck`` runs (``InitializeAction``: each card put on
top of the location, in creation order), so cards can appear in the middle of a game. The rules
make every card at the start (cards are constants), so a ``create deck`` in play at site ``L C``
is rewritten, on the syntax tree, to::

    (repeat N (move (bottom (game iloc MADE_L_C)) (top LOCATION)))

where ``N`` is the deck's number of cards, and the setup makes ``K`` copies of the deck, one
after the other, in the game's hidden pile ``MADE_L_C``: the i-th time the action runs it moves
the i-th copy, its first card first, so that the location ends as the engine's (the last card
made on top). ``K`` is how often the action can run, from the execution bounds of the game
lowered with one copy (:func:`made_sites` finds the sites, :func:`make_in_play` rewrites).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from translators.recycle.ir.repeats import Site
from translators.recycle.ir.rewrite import rewrite_flow
from translators.recycle.syntax.nodes import (
    CardAt,
    CardLocation,
    CreateDeck,
    Game,
    GameOwner,
    IntLit,
    Move,
    Name,
    Repeat,
)

#: The start of the names of the hidden piles decks created in play are made in.
HOLD_PREFIX = "MADE_"


def hold_name(site: Site) -> str:
    """The name of the game's hidden pile the deck created at ``site`` is made in."""
    return f"{HOLD_PREFIX}{site[0]}_{site[1]}"


def made_sites(game: Game) -> list[CreateDeck]:
    """The ``create deck`` actions of ``game``'s play (not of its setup), in source order."""
    found = [node for item in game.flow for node in item.walk() if isinstance(node, CreateDeck)]
    return sorted(found, key=lambda n: (n.line, n.column))


def make_in_play(game: Game, copies: Mapping[Site, int]) -> Game:
    """``game`` with each ``create deck`` of its play at a site of ``copies`` rewritten to bring
    out the next of that many copies made in the setup (see the module doc)."""

    played = rewrite_flow(game, lambda node: isinstance(node, CreateDeck) and (node.line, node.column) in copies,
                          _bring_out)
    made: dict[Site, Repeat] = {}  # a site whose location name was expanded is found once per name
    for node in made_sites(game):
        site = (node.line, node.column)
        if copies.get(site, 0) > 0 and site not in made:
            at = {"line": node.line, "column": node.column}
            made[site] = Repeat(IntLit(copies[site], **at), replace(node, location=_hold(node)), **at)
    setup = replace(game.setup, decks=game.setup.decks + tuple(made.values()))
    return replace(played, setup=setup)


def _hold(node: CreateDeck) -> CardLocation:
    at = {"line": node.line, "column": node.column}
    return CardLocation(GameOwner(**at), "iloc", Name(hold_name((node.line, node.column)), **at), **at)


def _bring_out(node: CreateDeck) -> Repeat:
    at = {"line": node.line, "column": node.column}
    move = Move(CardAt("bottom", _hold(node), **at), CardAt("top", node.location, **at), **at)
    return Repeat(IntLit(len(node.deck.cards()), **at), move, **at)


__all__ = ["HOLD_PREFIX", "hold_name", "made_sites", "make_in_play"]
