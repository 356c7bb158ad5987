"""Forwarded tops: while lowering a block, the card a move just put on top of a location stands
for a later ``(top LOC)`` of that location in the same block (:class:`~.nodes.MovedCard`), until
something else may change that top: another card put there, the top card taken away, a shuffle,
a bulk move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Env, Fixed, Guard, Sym, deref
from translators.recycle.ir.rewrite import map_children
from translators.recycle.ir.walks import walk_with_env
from translators.recycle.syntax.nodes import (
    CardAt,
    CardLocation,
    Filter,
    GameOwner,
    IntLit,
    Name,
    Node,
    PlayerAt,
    RelativePlayer,
    Var,
)

#: Forwarding state: location key -> (effect id, guards of the move).
Forwards = dict[Any, tuple[int, tuple[Guard, ...]]]


def owner_key(owner: Any, env: Env) -> Any:
    """A static key for the owner of a location or a cell, or None when it cannot be compared."""
    if isinstance(owner, GameOwner):
        return "game"
    if isinstance(owner, RelativePlayer) and owner.which == "current":
        return ("cur", env.player_stage().id)
    if isinstance(owner, Var):
        binding = env.get(owner.name)
        return binding if isinstance(binding, (Fixed, Sym)) else None
    if isinstance(owner, PlayerAt) and isinstance(owner.index, IntLit):
        return ("seat", owner.index.value)
    return None


def location_key(loc: Any, env: Env) -> Any:
    """A static key for a location expression, or None when it cannot be compared."""
    real, real_env = deref(loc, env)
    if not isinstance(real, CardLocation) or not isinstance(real.name, Name):
        return None
    owner = owner_key(real.owner, real_env)
    return None if owner is None else (real.visibility, real.name.text, owner)


def invalidate(fwd: Forwards, loc: Any, env: Env) -> None:
    """Forget forwarded tops of every location that may be ``loc``."""
    real, _ = deref(loc, env)
    if isinstance(real, CardLocation) and isinstance(real.name, Name):
        for key in [k for k in fwd if k[0] == real.visibility and k[1] == real.name.text]:
            del fwd[key]
    else:
        fwd.clear()


def invalidate_moved(fwd: Forwards, card: Any, env: Env) -> None:
    """Forget forwarded tops of the locations a moved card may leave (every location when
    that cannot be told): the card under it is that location's top now."""
    real, real_env = deref(card, env)
    binding = real_env.get(real.name) if isinstance(real, Var) else None
    if isinstance(real, CardAt):
        invalidate(fwd, real.cards, real_env)
    elif isinstance(binding, ir.Sym) and binding.domain is not None:
        collection, coll_env = deref(binding.domain.collection, binding.domain.env)
        while isinstance(collection, Filter):  # the cards come from the filtered collection
            collection, coll_env = deref(collection.collection, coll_env)
        invalidate_source(fwd, collection, coll_env)
    else:
        fwd.clear()


def invalidate_source(fwd: Forwards, source: Any, env: Env) -> None:
    """Forget forwarded tops of locations a bulk move may take cards from."""
    real, real_env = deref(source, env)
    for node in _walk(real):
        if isinstance(node, CardLocation):
            invalidate(fwd, node, real_env)


def forward(node: Any, env: Env, fwd: Forwards, guards: tuple[Guard, ...]) -> Any:
    """``node`` with each ``(top LOC)`` of a location just moved onto replaced by the moved card."""
    if not fwd or not isinstance(node, Node):
        return node
    if isinstance(node, CardAt) and node.position == "top":
        key = location_key(node.cards, env)
        hit = fwd.get(key) if key is not None else None
        if hit is not None and hit[1] == guards[: len(hit[1])]:
            return ir.MovedCard(hit[0], line=node.line, column=node.column)
    return map_children(node, lambda child: forward(child, env, fwd, guards))


def forget_changed(fwd: Forwards, inner: Forwards) -> None:
    """Forget in ``fwd`` the tops that ``inner`` (the forwards after a body that may not run,
    such as a choice fork's that may be offered over nothing) changed or forgot."""
    for key in set(fwd) | set(inner):
        if fwd.get(key) != inner.get(key):
            fwd.pop(key, None)


def carried(nodes: list[Any], env: Env, effects: Mapping[int, ir.Effect]) -> Env:
    """``env`` with the choice forks that the cards forwarded into ``nodes`` name: a card an
    option moved, read by an action after the choice, is that option's fork, which the action's
    rules must bind (a negation of a condition on it lost it, and asked whether any card passed)."""
    for node in nodes:
        for sub, _ in walk_with_env(node, env):
            if isinstance(sub, ir.MovedCard):
                source = effects[sub.effect]
                for var, var_env in walk_with_env(getattr(source, "card", None), source.env):
                    bound = var_env.get(var.name) if isinstance(var, Var) else None
                    if isinstance(bound, Sym) and bound.domain is not None and not bound.domain.parallel \
                            and bound not in env.syms():
                        env = env.bind(f"#{bound.var.name}", bound)
    return env


def _walk(node: Any) -> list[Node]:
    return list(node.walk()) if isinstance(node, Node) else []


__all__ = ["Forwards", "carried", "forget_changed", "forward", "invalidate", "invalidate_moved", "invalidate_source", "location_key",
           "owner_key"]
