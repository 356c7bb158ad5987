"""Where cards can be: the concrete locations an expression may name, and for every location
the cards that can ever be in it (a flow-insensitive fixpoint over the program's moves).

These static sets keep the generated rules small: a chain counting the cards of a hand only
visits the cards that can be in a hand, a filter on ``(cardatt RANK 'C)`` compared with a
literal only the cards of that rank.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import static_elements
from translators.recycle.ir.nodes import Alias, Env, Fixed, Sym, deref
from translators.recycle.symbols.model import GameModel, Location, owner_kind
from translators.recycle.syntax.nodes import (
    ActualCard,
    And,
    CardAt,
    CardAtt,
    CardLocation,
    CardsAgg,
    CollectionAt,
    Compare,
    ExtremeCard,
    Filter,
    GameOwner,
    IntLit,
    Name,
    Not,
    Or,
    Partition,
    PlayerAt,
    Run,
    Runs,
    SetOp,
    Slice,
    Sort,
    Subsets,
    Tuples,
    Var,
)
from translators.recycle.translation_error import TranslationError


def location_names(node: CardLocation, env: Env, model: GameModel) -> list[str]:
    """The names a location expression's name part can have."""
    real, real_env = deref(node.name, env)
    if isinstance(real, Name):
        return [real.text]
    if isinstance(real, Var):
        binding = real_env.get(real.name)
        if isinstance(binding, Fixed):
            return [_recycle_name(binding.term.name, model)]
        if isinstance(binding, Sym) and binding.sort.startswith("name:"):
            return [_recycle_name(n, model) for n in binding.sort[5:].split(",")]
    raise TranslationError(node, "cannot tell which location this is")


def _recycle_name(gdl: str, model: GameModel) -> str:
    for text in model.names:
        low = text.lower()
        if gdl in (low, low + "_"):
            return text
    raise KeyError(gdl)


def concrete(node: Any, env: Env, model: GameModel) -> list[Location]:
    """Every concrete location a card-location expression may denote."""
    real, real_env = deref(node, env)
    if not isinstance(real, CardLocation):
        raise TranslationError(node, "a card location is expected here")
    names = location_names(real, real_env, model)
    owners: list[str]
    owner = real.owner
    if isinstance(owner, GameOwner):
        owners = ["game"]
    elif isinstance(owner, Var) and isinstance(real_env.get(owner.name), Fixed):
        owners = [real_env.get(owner.name).term.name]  # type: ignore[union-attr]
    elif isinstance(owner, PlayerAt) and isinstance(owner.index, IntLit):
        owners = [f"player{owner.index.value}"]
    else:
        kind = owner_kind(owner) if not isinstance(owner, Var) else _var_kind(owner, real_env)
        owners = model.owners(kind)
    return [Location(o, real.visibility, n) for o in owners for n in names]


def _var_kind(var: Var, env: Env) -> str:
    binding = env.get(var.name)
    if isinstance(binding, (Fixed, Sym)):
        return binding.kind
    return owner_kind(var)


def card_number(cid: str) -> int:
    """A card id's number (``c12``: 12), the order cards are made in."""
    return int(cid[1:])


class CardDomains:
    """For each location, the cards that can ever be in it."""

    def __init__(self, model: GameModel, program: ir.Program):
        self.model = model
        self.program = program
        self.at: dict[Location, set[str]] = {loc: set() for loc in model.locations}
        for card in model.cards:
            self.at.setdefault(card.home, set()).add(card.id)
        self.moved: dict[int, set[str]] = {}
        effects = list(program.effects.values())
        for _ in range(len(self.at) + 2):
            changed = False
            for effect in effects:
                changed |= self._flow(effect)
            if not changed:
                break

    def _flow(self, effect: ir.Effect) -> bool:
        if isinstance(effect, (ir.MoveCard, ir.Remember)):
            cards = self.card_cards(effect.card, effect.env)
            targets = concrete(effect.target, effect.env, self.model)
        elif isinstance(effect, ir.BulkMove):
            cards = self.cards(effect.source, effect.env)
            targets = concrete(effect.target, effect.env, self.model)
        else:
            return False
        self.moved[effect.id] = set(cards)
        changed = False
        for loc in targets:
            have = self.at.setdefault(loc, set())
            if not cards <= have:
                have |= cards
                changed = True
        return changed

    def location(self, loc: Location) -> set[str]:
        """The cards that can be in a concrete location."""
        return self.at.get(loc, set())

    def cards(self, coll: Any, env: Env) -> set[str]:
        """The cards that can be in a card collection."""
        real, real_env = deref(coll, env)
        if isinstance(real, CardLocation):
            out: set[str] = set()
            for loc in concrete(real, real_env, self.model):
                out |= self.location(loc)
            return out
        if isinstance(real, SetOp):
            parts = real.parts
            if isinstance(parts, CardsAgg):
                return self._agg(parts, real_env)
            sets = [self.cards(p, real_env) for p in parts]
            if real.op == "intersect" and sets:
                return set.intersection(*sets)
            return set().union(*sets)
        if isinstance(real, CardsAgg):
            return self._agg(real, real_env)
        if isinstance(real, Filter):
            base = self.cards(real.collection, real_env)
            return {c for c in base if static_test(real.condition, real.var.name, self._card(c)) is not False}
        if isinstance(real, Sort):
            return self.cards(real.cards, real_env)
        if isinstance(real, CollectionAt):
            return self.cards(real.groups, real_env)
        if isinstance(real, ir.SlotSet):
            return self.cards(real.base, real_env)
        if isinstance(real, ir.CardGroup):
            return set(real.cards)
        if isinstance(real, ir.ChosenSet):
            return {cid for cards in real.table.sets for cid in cards}
        if isinstance(real, (Slice, Run)):
            return self.cards(real.cards, real_env)
        if isinstance(real, (Tuples, Subsets, Runs)):
            return self.cards(real.cards, real_env)
        if isinstance(real, Partition):
            groups = real.parts if isinstance(real.parts, tuple) else (real.parts,)
            return set().union(*(self.cards(p, real_env) for p in groups))
        if isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, Sym) and binding.domain is not None:
                return self.cards(binding.domain.collection, binding.domain.env)
        return {c.id for c in self.model.cards}

    def _agg(self, agg: CardsAgg, env: Env) -> set[str]:

        elements = static_elements(self.model, agg.collection, env, agg)
        if elements is None:
            return {c.id for c in self.model.cards}
        out: set[str] = set()
        for binding, _ in elements:
            out |= self.cards(agg.body, env.bind(agg.var.name, binding))
        return out

    def ordered(self, coll: Any, env: Env) -> list[str]:
        """The cards that can be in a card collection, in card-id order."""
        return sorted(self.cards(coll, env), key=card_number)

    def card_cards(self, card: Any, env: Env) -> set[str]:
        """The cards a card expression can denote."""
        real, real_env = deref(card, env)
        if isinstance(real, (CardAt, ExtremeCard)):
            return self.cards(real.cards, real_env)
        if isinstance(real, ActualCard):
            return self.card_cards(real.card, real_env)
        if isinstance(real, ir.MovedCard):
            return self.moved.get(real.effect, {c.id for c in self.model.cards})
        if isinstance(real, ir.PickedCard):
            effect = self.program.effects[real.effect]
            return self.card_cards(effect.card, effect.env)  # type: ignore[attr-defined]
        if isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, Sym) and binding.domain is not None:
                return self.cards(binding.domain.collection, binding.domain.env)
            if isinstance(binding, Fixed):
                return {binding.term.name}
        return {c.id for c in self.model.cards}

    def _card(self, card_id: str) -> dict[str, str]:
        return dict(self.model.cards[int(card_id[1:]) - 1].attrs)


def static_test(cond: Any, var: str, attrs: dict[str, str]) -> bool | None:
    """A filter condition on card attributes decided for one card, when only literal
    ``(cardatt KEY 'VAR)`` comparisons decide it (None when it depends on the state)."""
    if isinstance(cond, And):
        results = [static_test(a, var, attrs) for a in cond.args]
        if False in results:
            return False
        return True if all(r is True for r in results) else None
    if isinstance(cond, Or):
        results = [static_test(a, var, attrs) for a in cond.args]
        if True in results:
            return True
        return False if all(r is False for r in results) else None
    if isinstance(cond, Not):
        inner = static_test(cond.arg, var, attrs)
        return None if inner is None else not inner
    if isinstance(cond, Compare) and cond.op in ("==", "!=") and cond.kind == "str":
        sides = [cond.left, cond.right]
        for a, b in (sides, sides[::-1]):
            if (isinstance(a, CardAtt) and isinstance(a.card, Var) and a.card.name == var
                    and isinstance(a.key, Name) and isinstance(b, Name)):
                equal = attrs.get(a.key.text) == b.text
                return equal if cond.op == "==" else not equal
    return None


def all_locations(locs: Iterable[Location]) -> list[Location]:
    """Locations in a stable order."""
    return sorted(set(locs))


__all__ = ["Alias", "CardDomains", "all_locations", "concrete", "location_names", "static_test"]
