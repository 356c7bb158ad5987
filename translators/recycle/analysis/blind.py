"""Choices among cards the chooser may not see.

An option that forks over the cards of a location its chooser cannot see must not name them:
its legal moves would tell the chooser which cards are there. Such an option names the card by
its place instead, ``(hidden L I)``: the ``I``-th card of pile ``L`` from the bottom (0 the
bottom card), which is what a player sees of a face-down card (the engine's options are the
cards of the location, in its order). That needs the pile's whole order to be kept: these are
the piles found here (``emit/handles.py`` writes the moves).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from translators.recycle.analysis.batches import AccessAnalysis
from translators.recycle.analysis.order import shuffles_and_bulk_moves
from translators.recycle.analysis.places import CardDomains, concrete
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.syntax.nodes import CardLocation, Filter, RelativePlayer


def fork_places(sym: ir.Sym, model: GameModel, domains: CardDomains) -> list[Location]:
    """The piles a choice's card fork takes its cards from that its chooser may not see (for
    some seat that can choose): a pile of the chooser's own (``(current player) ...``) when its
    owner cannot see it, another pile when some player cannot."""
    if sym.kind != "card" or sym.domain is None:
        return []
    coll, env = sym.domain.collection, sym.domain.env
    own = _chooser_location(coll, env)
    sources = list(dict.fromkeys(concrete(own, env, model) if own is not None else
                                 AccessAnalysis(model, domains, set(), set()).card_source_coll(coll, env)))
    if any(p.vis == "mem" for p in sources):  # copies remembered, not cards: named as they are
        return []
    if own is not None:
        return [p for p in sources if not model.visible(int(p.owner.removeprefix("player")), p)]
    return [p for p in sources if any(not model.visible(seat, p) for seat in range(model.players))]


#: The most a game's piles named by place may cost, as the sum over them of the cube of the
#: number of cards each can hold: keeping a pile's whole order, and the place of each of its
#: cards, grounds rules over triples of its cards (a pile of 24 cards: 13,824; four hands of a
#: 24-card deck made the fast reasoner ground for 40 s instead of 5). Beyond, the options name the
#: cards (a located warning).
BLIND_BUDGET = 10_000


def unseen_places(program: ir.Program, model: GameModel, domains: CardDomains) -> set[Location]:
    """Every pile some choice takes a card from that its chooser may not see (see
    :func:`fork_places`)."""
    return {place for choice in program.choices.values() for option in choice.options
            for sym in option.forks for place in fork_places(sym, model, domains)}


def blind_places(program: ir.Program, model: GameModel, domains: CardDomains) -> set[Location]:
    """The piles of :func:`unseen_places`, whose whole order is kept so that their cards are
    named by place; none when they would cost more than :data:`BLIND_BUDGET`."""
    places = unseen_places(program, model, domains)
    return places if blind_cost(places, domains) <= BLIND_BUDGET else set()


def blind_cost(places: set[Location], domains: CardDomains) -> int:
    """What naming the cards of ``places`` by place costs (see :data:`BLIND_BUDGET`)."""
    return sum(len(domains.location(place)) ** 3 for place in places)


def lossy_places(program: ir.Program, model: GameModel, domains: CardDomains,
                 linked: AbstractSet[Location]) -> set[Location]:
    """The piles whose order can be lost in play: moved onto in bulk from a pile whose order is
    not kept (not ``linked``); there a choice names their cards as they are."""
    _, moves = shuffles_and_bulk_moves(program, model, domains)
    return {target for sources, targets in moves if sources - linked for target in targets}


def _chooser_location(coll: Any, env: Env) -> CardLocation | None:
    """The location of a collection of cards of the chooser's own pile (``(current player)``'s,
    possibly filtered), else None."""
    real, real_env = deref(coll, env)
    if isinstance(real, Filter):
        return _chooser_location(real.collection, real_env)
    if isinstance(real, CardLocation) and isinstance(real.owner, RelativePlayer) and real.owner.which == "current":
        return real
    return None


__all__ = ["BLIND_BUDGET", "blind_cost", "blind_places", "fork_places", "lossy_places", "unseen_places"]
