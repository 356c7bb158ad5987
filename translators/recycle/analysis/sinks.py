"""Counts raised as cards go where they never leave: a bound by the cards, not by the loops.

A pile family no effect takes a card from is a *sink* (the books of a Go Fish, the tricks a
player took). A change of an integer cell that runs only together with a move of every card of
a collection onto a sink (by ``repeat all`` or an ``all`` over it), under a condition that the
collection holds N cards or more
(``((== (size 'MATCH) 4) (do ((inc SCORE 1) (repeat all (move (top 'MATCH) (top BOOKS)))))))``),
runs at most C / N times in a whole game, C the game's cards: each card enters the sink once,
and every run brings N. The effects that share a sink and an N share that budget
(:func:`sink_budgets`): the 13 copies of Go Fish's book check, one per rank, raise the score 13
times in all, where the loop bounds of ``analysis/bounds.py`` allowed 780.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.footprints import clash
from translators.recycle.ir.nodes import Env, Sym, deref
from translators.recycle.ir.walks import walk_with_env
from translators.recycle.symbols.model import GameModel
from translators.recycle.syntax.nodes import (
    CardLocation,
    Compare,
    IntLit,
    Name,
    Size,
    Var,
)

#: A family of piles: visibility and name.
Family = tuple[str, str]


def sink_budgets(program: ir.Program, model: GameModel) -> dict[int, tuple[tuple[Family, int], int]]:
    """For each integer change that only runs with N cards or more moved onto a sink: its group
    (the sink and N) and the group's budget, how often its changes can run in all."""
    sinks = _sinks(program, model)
    if not sinks:
        return {}
    effects = [e for _, e in sorted(program.effects.items())]
    position = {e.id: i for i, e in enumerate(effects)}
    # the moves of every card of a collection onto a sink, by the guards they run under
    feeding: dict[tuple[int, ...], list[ir.MoveCard | ir.BulkMove]] = {}
    for effect in effects:
        if isinstance(effect, (ir.MoveCard, ir.BulkMove)) and _whole(effect) is not None \
                and _family(deref(effect.target, effect.env)[0]) in sinks:
            feeding.setdefault(tuple(g.id for g in effect.guards), []).append(effect)
    out: dict[int, tuple[tuple[Family, int], int]] = {}
    for effect in effects:
        if not isinstance(effect, ir.SetInt) or effect.op == "set" or not effect.guards:
            continue
        fed = _fed(effects, position, effect, feeding.get(tuple(g.id for g in effect.guards), []))
        if fed is not None:
            family, cards = fed
            out[effect.id] = ((family, cards), len(model.cards) // cards)
    return out


def _fed(effects: list[ir.Effect], position: dict[int, int], effect: ir.SetInt,
         moves: list[ir.MoveCard | ir.BulkMove]) -> tuple[Family, int] | None:
    """The sink and the fewest cards one of ``moves`` (under the same guards, of every card of a
    collection onto a sink) brings to it whenever ``effect`` runs: one of the guards says that
    collection holds N cards or more, and nothing between the guards' reading and the move
    moves a card or changes what the collection reads."""
    for move in moves:
        whole = _whole(move)
        assert whole is not None
        source, source_env = whole
        at = [position[effect.id], position[move.id]] + [position[g.anchor] for g in effect.guards if g.anchor in position]
        between = [e for e in effects[min(at):max(at) + 1] if e is not move]
        if any(isinstance(e, (ir.MoveCard, ir.BulkMove)) for e in between) \
                or clash([(e.node, e.env) for e in between], source, source_env):
            continue
        cards = max((_at_least(g.cond, g.env, source, source_env) for g in effect.guards), default=0)
        if cards > 0:
            family = _family(deref(move.target, move.env)[0])
            assert family is not None
            return family, cards
    return None


def _whole(effect: ir.Effect) -> tuple[Any, Env] | None:
    """The collection an effect moves every card of, ``(repeat all (move (top COLL) ...))`` or
    ``(all COLL 'C (move 'C ...))``, with its environment; None for other effects."""
    if isinstance(effect, ir.BulkMove):
        return effect.source, effect.env
    card, card_env = deref(effect.card, effect.env) if isinstance(effect, ir.MoveCard) else (None, effect.env)
    binding = card_env.get(card.name) if isinstance(card, Var) else None
    if isinstance(binding, Sym) and binding.domain is not None and binding.domain.parallel:
        return binding.domain.collection, binding.domain.env
    return None


def _at_least(cond: Any, env: Env, source: Any, source_env: Env) -> int:
    """N where ``cond`` says the collection ``source`` holds N cards or more (0: it does not)."""
    if not isinstance(cond, Compare) or not isinstance(cond.left, Size) or not isinstance(cond.right, IntLit):
        return 0
    if deref(cond.left.collection, env) != deref(source, source_env):
        return 0
    n = cond.right.value
    return {"==": n, ">=": n, ">": n + 1}.get(cond.op, 0)


def _sinks(program: ir.Program, model: GameModel) -> set[Family]:
    """The pile families cards are moved onto and never taken from (none when some move's
    source cannot be told)."""
    sources: set[Family] = set()
    targets: set[Family] = set()
    for effect in program.effects.values():
        if isinstance(effect, ir.MoveCard):
            taken = _locations(effect.card, effect.env, model)
        elif isinstance(effect, ir.BulkMove):
            taken = _locations(effect.source, effect.env, model)
        else:
            continue
        if taken is None:
            return set()
        sources |= taken
        target, _ = deref(effect.target, effect.env)
        family = _family(target)
        if family is not None:
            targets.add(family)
    return {family for family in targets - sources if family[0] != "mem"}


def _locations(node: Any, env: Env, model: GameModel) -> set[Family] | None:
    """The pile families an expression can take a card from (None when it cannot be told)."""
    out: set[Family] = set()
    for sub, sub_env in _walk(node, env, model):
        if isinstance(sub, CardLocation):
            family = _family(sub)
            if family is None:
                return None
            out.add(family)
    return out


def _walk(node: Any, env: Env, model: GameModel) -> Iterator[tuple[Any, Env]]:
    """Every node an expression reads, into the collections its choice forks and ``all``
    variables range over."""
    for sub, sub_env in walk_with_env(node, env, model):
        yield sub, sub_env
        binding = sub_env.get(sub.name) if isinstance(sub, Var) else None
        if isinstance(binding, Sym) and binding.domain is not None:
            yield from _walk(binding.domain.collection, binding.domain.env, model)


def _family(node: Any) -> Family | None:
    if isinstance(node, CardLocation) and isinstance(node.name, Name):
        return node.visibility, node.name.text
    return None


__all__ = ["Family", "sink_budgets"]
