"""Decks created at the start of play, made in the setup.

CardStock makes a deck's cards wherever ``create deck`` runs (``CardGame.SetDeck``: put on top of
the location, in creation order). The rules make every card at the start: cards are constants.
A ``create deck`` (or a ``repeat N`` of them) among the first actions of play, in a ``do`` block
before any stage, runs once; before anything reads or changes its location it is the same as
one in the setup (the cards are made in the same order, after the setup's), and is moved there.
Elsewhere (in a stage, under a condition, after its location is used) it stays a located error.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from translators.recycle.syntax.nodes import (
    CardLocation,
    CreateDeck,
    Do,
    Game,
    IntLit,
    Name,
    Repeat,
)


def hoist_decks(game: Game) -> Game:
    """``game`` with the decks created at the start of play made in its setup."""
    hoisted: list[CreateDeck | Repeat] = []
    used: set[str] | None = set()  # location names mentioned so far (None: any may be)
    flow: list[Any] = []
    for index, item in enumerate(game.flow):
        if not isinstance(item, Do):
            flow += game.flow[index:]
            break
        kept = []
        for action in item.items:
            target = _created_at(action)
            if target is not None and used is not None and target not in used and isinstance(action, (CreateDeck, Repeat)):
                hoisted.append(action)
                continue
            used = _mentioned(action, used)
            kept.append(action)
        if kept:
            flow.append(replace(item, items=tuple(kept)) if len(kept) < len(item.items) else item)
    if not hoisted:
        return game
    setup = replace(game.setup, decks=game.setup.decks + tuple(hoisted))
    return replace(game, setup=setup, flow=tuple(flow))


def _created_at(action: Any) -> str | None:
    """The name of the location a ``create deck`` (under literal repeats) fills, when it is one."""
    while isinstance(action, Repeat) and isinstance(action.count, IntLit):
        action = action.action
    if isinstance(action, CreateDeck) and isinstance(action.location, CardLocation) \
            and isinstance(action.location.name, Name):
        return action.location.name.text
    return None


def _mentioned(action: Any, used: set[str] | None) -> set[str] | None:
    """``used`` with the location names ``action`` mentions (None when one is computed)."""
    if used is None:
        return None
    for node in action.walk():
        if isinstance(node, CardLocation):
            if not isinstance(node.name, Name):
                return None
            used = used | {node.name.text}
    return used


__all__ = ["hoist_decks"]
