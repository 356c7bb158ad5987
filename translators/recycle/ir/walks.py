"""Walking expressions as they are read: through ``let`` aliases, and (given the model) into
the body of an aggregate over a collection known before play once per element."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from translators.recycle.ir.elements import static_elements
from translators.recycle.ir.nodes import Env, Sym, deref
from translators.recycle.symbols.model import GameModel
from translators.recycle.syntax.nodes import Node, Random, Var


def walk_with_env(node: Any, env: Env, model: GameModel | None = None) -> Iterator[tuple[Any, Env]]:
    """Every node under ``node`` with its environment (through ``let`` aliases); with ``model``,
    the body of an aggregate over a collection known before play once per element, its
    variable bound to it."""
    stack = [(node, env)]
    seen: set[tuple[int, int]] = set()
    alive: list[Env] = []  # every environment seen, kept: an id is an object's only while it lives
    while stack:
        item, item_env = stack.pop()
        if not isinstance(item, Node) or (id(item), id(item_env)) in seen:
            continue
        seen.add((id(item), id(item_env)))
        alive.append(item_env)
        yield item, item_env
        if isinstance(item, Var):
            real, real_env = deref(item, item_env)
            if real is not item:
                stack.append((real, real_env))
            continue
        bound = _bound_bodies(item, item_env, model) if model is not None else None
        for child in item.subnodes():
            if bound is not None and child is item.body:  # type: ignore[attr-defined]
                stack.extend(bound)
            else:
                stack.append((child, item_env))


def reads_random(node: Any, env: Env) -> bool:
    """Whether an expression reads a number ``random`` draws (``(random ...)``): a condition
    that cannot be known before its step."""
    return any(isinstance(sub, Random) for sub, _ in walk_with_env(node, env))


def reads_variable(node: Any, env: Env) -> bool:
    """Whether an expression reads a variable standing for a GDL variable (a choice's fork, a
    card of an ``all``): it has a value only where that variable is bound."""
    return any(isinstance(sub, Var) and isinstance(sub_env.get(sub.name), Sym) for sub, sub_env in walk_with_env(node, env))


def _bound_bodies(item: Node, env: Env, model: GameModel) -> list[tuple[Any, Env]] | None:
    """An aggregate's body with its variable bound to each element of a collection known before
    play; None for other nodes."""
    var, collection, body = (getattr(item, a, None) for a in ("var", "collection", "body"))
    if not isinstance(var, Var) or collection is None or body is None or env.get(var.name) is not None:
        return None
    elements = static_elements(model, collection, env, item)
    return None if not elements else [(body, env.bind(var.name, binding)) for binding, _ in elements]


__all__ = ["reads_random", "reads_variable", "walk_with_env"]
