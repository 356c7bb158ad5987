"""What an action may change and what an expression reads, by name: the footprints that tell
whether a choice's ``any`` inside an option reads what the option's earlier actions change.

The engine builds a choice's options by running each option's actions as it goes
(``GameIterator.RecurseDo``: every action is ``TempExecute``d before the next is built), so an
``any`` after other actions of an option forks over its collection as those actions left it.
The translation reads a fork's collection in the decision's state: the two agree exactly when
the earlier actions change nothing the collection reads (:func:`clash`).

A footprint is a set of keys: ``("loc", NAME)`` for a card location or memory of that name (any
owner), ``("int", NAME)``, ``("str", NAME)``, ``("points", NAME)`` for storage, ``("turn",)``
for the turn order (``cycle``, ``turn pass``; read by relative players and teams). A name
computed in play is ``"*"``, which meets every name of its kind.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from translators.recycle.ir.nodes import Env, Sym
from translators.recycle.ir.walks import walk_with_env
from translators.recycle.syntax.nodes import (
    CardLocation,
    CreateDeck,
    Cycle,
    Forget,
    IntStorage,
    IntUpdate,
    Move,
    Name,
    Node,
    PointStorage,
    RelativePlayer,
    RelativeTeam,
    Remember,
    SetPoints,
    SetStr,
    Shuffle,
    StrStorage,
    TurnPass,
    Var,
)

#: One thing an action changes or an expression reads (see the module doc).
Key = tuple[str, ...]


def _name(node: Any) -> str:
    return node.text if isinstance(node, Name) else "*"


def _locations(node: Any, env: Env) -> set[Key]:
    """The card locations an expression names (through aliases and the collections its card
    variables range over: where a card moved by its variable leaves from)."""
    return {key for key in reads(node, env, picks=True) if key[0] == "loc"}


def reads(node: Any, env: Env, picks: bool = False) -> set[Key]:
    """What an expression reads: card locations, storage, point maps, the turn order (through the
    collection of an ``all``'s card; of a choice's pick, fixed when it is made, only with
    ``picks``)."""
    out: set[Key] = set()
    todo: list[tuple[Any, Env]] = [(node, env)]
    seen: set[int] = set()
    while todo:
        item, item_env = todo.pop()
        for sub, sub_env in walk_with_env(item, item_env):
            if isinstance(sub, CardLocation):
                out.add(("loc", _name(sub.name)))
            elif isinstance(sub, IntStorage):
                out.add(("int", _name(sub.name)))
            elif isinstance(sub, StrStorage):
                out.add(("str", _name(sub.name)))
            elif isinstance(sub, PointStorage):
                out.add(("points", _name(sub.name)))
            elif isinstance(sub, (RelativePlayer, RelativeTeam)):
                out.add(("turn",))
            elif isinstance(sub, Var):
                bound = sub_env.get(sub.name)
                if isinstance(bound, Sym) and bound.domain is not None and (picks or bound.domain.parallel) \
                        and id(bound.domain) not in seen:
                    seen.add(id(bound.domain))
                    todo.append((bound.domain.collection, bound.domain.env))
    return out


def writes(action: Any, env: Env) -> set[Key]:
    """What an action (with everything nested in it) may change."""
    out: set[Key] = set()
    for sub, sub_env in walk_with_env(action, env):
        if isinstance(sub, (Move, Remember)):
            out |= _locations(sub.source, sub_env) | _locations(sub.target, sub_env)
        elif isinstance(sub, Forget):
            out |= _locations(sub.card, sub_env)
        elif isinstance(sub, Shuffle):
            out |= _locations(sub.cards, sub_env)
        elif isinstance(sub, CreateDeck):
            out |= _locations(sub.location, sub_env)
        elif isinstance(sub, IntUpdate):
            out.add(("int", _name(sub.storage.name)))
        elif isinstance(sub, SetStr):
            out.add(("str", _name(sub.storage.name)))
        elif isinstance(sub, SetPoints):
            out.add(("points", _name(sub.target.name) if isinstance(sub.target, PointStorage) else "*"))
        elif isinstance(sub, (Cycle, TurnPass)):
            out.add(("turn",))
    return out


def _meet(written: set[Key], read: set[Key]) -> set[Key]:
    return {key for key in read for other in written
            if key[0] == other[0] and (key == other or "*" in (key[1:] + other[1:]))}


def clash(before: Iterable[tuple[Node, Env]], node: Any, env: Env) -> set[Key]:
    """What ``node`` reads that the actions ``before`` it may change (empty: reading it before
    them gives what the engine reads after them)."""
    written: set[Key] = set()
    for action, action_env in before:
        written |= writes(action, action_env)
    return _meet(written, reads(node, env))


def describe(keys: Iterable[Key]) -> str:
    """The keys as a person reads them: ``HAND``, ``SCORE``, ``the turn``."""
    return ", ".join(sorted("the turn" if key == ("turn",) else key[1] for key in keys))


__all__ = ["Key", "clash", "describe", "reads", "writes"]
