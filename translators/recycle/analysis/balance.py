"""How far a stage can fill a pile that each of its passes takes cards from as fast as it adds.

A rummy hand is drawn to in a loop, so counting arrivals alone (``analysis/capacity.py``) finds
it unbounded; but each turn that draws a card to the hand also throws one away. A pass of a
player stage is a sequence of effects, with one path per option of each choice; on one pile an
effect either adds up to ``a`` cards (``x + a``), surely takes one (``max(x - 1, 0)``: the top
or bottom card, or the card a choice's option picked from the pile, moved before anything else
of that option could take it) or takes them all (``0``), or else leaves it be (a guarded move
out of the pile may not run). Compositions and maxima of such steps keep the form ``x ->
max(x + n, m)``, so a pass, all its paths at once, is one such function for the level at its end
and one for the highest level along the way (:class:`Pass`). The passes of a stage follow one
another with the current player in each seat; when no pass can end a pile higher than it
started (``n <= 0`` for every seat), the pile never holds more than it held when the stage
began plus a bound the passes give (:func:`stage_rises`), however many passes are made; cards
from elsewhere (nested stages, other stages) add to it, being counted apart.

The current player of a pass is its seat; ``(next player)`` and the like are taken as any
player (an arrival to each). A stage that sets its current player in the middle of a pass
(``(cycle current ...)``) or a team stage is not bounded here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from translators.recycle.analysis.memo import ByIdentity
from translators.recycle.analysis.places import concrete
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Env, MovedCard, Sym, deref
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.syntax.nodes import (
    CardAt,
    CardLocation,
    Filter,
    RelativePlayer,
    Var,
)

#: Stands for minus infinity in ``max(x + n, m)`` (a step that empties the pile, no floor).
NONE = -(10**9)


@dataclass(frozen=True)
class Pass:
    """The bounds one pass (or part of one) puts on a pile that held ``x`` cards when it began:
    at the end ``max(x + n, m)``, at every point on the way ``max(x + p, q)``."""

    n: int = 0
    m: int = NONE
    p: int = 0
    q: int = NONE

    def then(self, step: Pass) -> Pass:
        """This part followed by ``step``."""
        return Pass(self.n + step.n, max(self.m + step.n, step.m),
                    max(self.p, self.n + step.p), max(self.q, self.m + step.p, step.q))

    def either(self, other: Pass) -> Pass:
        """One of two parts (the bounds of both)."""
        return Pass(max(self.n, other.n), max(self.m, other.m), max(self.p, other.p), max(self.q, other.q))


def adding(cards: int) -> Pass:
    """A step that may add up to ``cards`` cards."""
    return Pass(cards, NONE, cards, NONE)


#: A step that surely takes one card when there is one.
TAKING = Pass(-1, 0, -1, 0)
#: A step that takes every card.
EMPTYING = Pass(NONE, 0, NONE, 0)

#: How many cards one run of a move can add (None: not bounded).
PerRun = Callable[[ir.MoveCard | ir.BulkMove], int | None]


def stage_rises(program: ir.Program, model: GameModel, per_run: PerRun) -> dict[tuple[str, Location], int]:
    """For each player stage and pile its own moves add cards to, when its passes keep the pile
    from growing: how many cards over its level when the stage began the pile can hold during
    the stage and, after it, over that level (see the module doc)."""
    out: dict[tuple[str, Location], int] = {}
    for stage in program.stages.values():
        if stage.ref.kind != "player" or any(isinstance(e, ir.CycleSet) and e.which == "current"
                                             and e.stage.id == stage.ref.id
                                             for e in ir.item_effects(stage.body, nested=True)):
            continue  # its current player may change in the middle of a pass (a nested stage's too)
        piles = {p for e in ir.item_effects(stage.body) if isinstance(e, (ir.MoveCard, ir.BulkMove))
                 for p in concrete(e.target, e.env, model) if p.vis != "mem"}
        known: ByIdentity[list[Location]] = ByIdentity()
        for pile in piles:
            whole: Pass | None = None
            for seat in model.seats:
                one = _Pass(model, program, pile, seat, per_run, known).items(stage.body)
                if one is None or one.n > 0:
                    break
                whole = one if whole is None else whole.either(one)
            else:
                if whole is not None:
                    out[(stage.ref.id, pile)] = max(whole.m, 0) + max(whole.p, 0) + max(whole.q, 0)
    return out


@dataclass(frozen=True)
class _Pass:
    """The bounds a pass whose current player is ``seat`` puts on ``pile``."""

    model: GameModel
    program: ir.Program
    pile: Location
    seat: str
    per_run: PerRun
    #: The piles each location may be, by its node, environment and the seat (memo).
    known: ByIdentity[list[Location]]

    def items(self, items: Iterable[ir.Item]) -> Pass | None:
        """The bounds of a stage body (None: some move adds cards without bound)."""
        total = Pass()
        for item in items:
            step: Pass | None
            if isinstance(item, ir.Block):
                step = self.effects(item.effects, None)
            elif isinstance(item, ir.ChoiceNode):
                step = None
                for option in item.options:
                    one = self.effects(option.effects, item.id)
                    if one is None:
                        return None
                    step = one if step is None else step.either(one)
            else:
                continue  # a nested stage's moves are counted as its own
            if step is None:
                return None
            total = total.then(step)
        return total

    def effects(self, effects: list[ir.Effect], choice: str | None) -> Pass | None:
        """The bounds of effects run in order (``choice``: the choice whose option they are, whose
        picked card is surely in the pile until something of the option may have taken one)."""
        total = Pass()
        untouched = choice is not None
        for effect in effects:
            if not isinstance(effect, (ir.MoveCard, ir.BulkMove)):
                continue
            taking = self.takes(effect, choice if untouched else None)
            if self.source(effect) != "elsewhere":
                untouched = False
            if taking is not None and not effect.guards:
                total = total.then(taking)
            if self.pile in self.places(effect.target, effect.env):
                cards = self.per_run(effect)
                if cards is None:
                    return None
                total = total.then(adding(cards))
        return total

    def takes(self, effect: ir.MoveCard | ir.BulkMove, choice: str | None) -> Pass | None:
        """The step an effect surely takes from the pile when it runs (None: not sure to take any)."""
        if isinstance(effect, ir.BulkMove):
            return EMPTYING if self.source(effect) == "pile" else None
        card, env = deref(effect.card, effect.env)
        if isinstance(card, CardAt) and card.position in ("top", "bottom"):
            return TAKING if self.only(card.cards, env) else None
        if isinstance(card, MovedCard):  # the card an earlier move put on top, when there was one
            moved = self.program.effects[card.effect]
            return TAKING if isinstance(moved, ir.MoveCard) and self.places(moved.target, moved.env) == [self.pile] else None
        binding = env.get(card.name) if isinstance(card, Var) else None
        if isinstance(binding, Sym) and binding.domain is not None and binding.domain.parallel:
            # `(all PILE 'C (move 'C ...))`: every card of the pile moved
            whole, whole_env = deref(binding.domain.collection, binding.domain.env)
            if isinstance(whole, CardLocation) and self.places(whole, whole_env) == [self.pile]:
                return EMPTYING
        if (choice is not None and isinstance(binding, Sym) and binding.domain is not None
                and binding.domain.anchor == choice and self.only(binding.domain.collection, binding.domain.env)):
            return TAKING
        return None

    def source(self, effect: ir.MoveCard | ir.BulkMove) -> str:
        """Where an effect takes its cards: the ``pile`` (all of it, for a whole location moved),
        ``elsewhere``, or ``maybe`` the pile."""
        if isinstance(effect, ir.BulkMove):
            source, env = deref(effect.source, effect.env)
        else:
            source, env = deref(effect.card, effect.env)
            if isinstance(source, CardAt):
                source, env = deref(source.cards, env)
        if isinstance(source, CardLocation):
            places = self.places(source, env)
            return "pile" if places == [self.pile] else "maybe" if self.pile in places else "elsewhere"
        return "maybe"

    def only(self, coll: Any, env: Env) -> bool:
        """Whether a collection is the pile's cards, or some of them."""
        real, real_env = deref(coll, env)
        if isinstance(real, Filter):
            real, real_env = deref(real.collection, real_env)
        return isinstance(real, CardLocation) and self.places(real, real_env) == [self.pile]

    def places(self, node: Any, env: Env) -> list[Location]:
        """The piles a location may be in this pass."""
        def make() -> list[Location]:
            real, real_env = deref(node, env)
            if not isinstance(real, CardLocation):
                return []
            places = concrete(real, real_env, self.model)
            if isinstance(real.owner, RelativePlayer) and real.owner.which == "current":
                return [p for p in places if p.owner == self.seat]
            return places
        return self.known.get((node, env), make, self.seat)


def stage_of(program: ir.Program) -> Mapping[int, str]:
    """The stage each effect runs in directly (top-level effects: none)."""
    return {e.id: stage.ref.id for stage in program.stages.values() for e in ir.item_effects(stage.body)}


__all__ = ["EMPTYING", "NONE", "Pass", "TAKING", "adding", "stage_of", "stage_rises"]
