"""How many passes a stage can make, found by exploring its control state.

Many stages are betting rounds: each pass the current player chooses an option, the options
offered and the end of the round depend only on words the game keeps (``(game str LAST)``,
``('P str ACTION)``), and the options set those words to constants. Such a stage is a finite
transition system: its state is the value of every string cell its conditions read, and the
seat of the player to move. :func:`stage_passes` explores it from *every* state (so whatever
the stage starts from) and returns the largest number of passes any path makes before the end
condition holds (or a choice has no option left, which ends the game), or None when some path
can go on for ever or the stage is not of this kind.

Conditions are evaluated in three values (true, false, unknown): whatever cannot be read
(cards, integers) is unknown, an option whose condition is unknown may be chosen, an effect
whose guard is unknown may run or not, and an end that is unknown may not hold. Every path the
game can take is among the paths explored, so the bound is sound.

The bound replaces the heuristic loop bounds of :func:`~.bounds.execution_bounds` where it
exists: Kuhn poker's betting round makes at most 3 passes, so its pot stays within 0..5.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from typing import Any

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import static_elements, static_literal
from translators.recycle.ir.nodes import Env, Fixed, deref
from translators.recycle.symbols.model import GameModel
from translators.recycle.symbols.vocabulary import name
from translators.recycle.syntax.nodes import (
    And,
    BoolAgg,
    Compare,
    GameOwner,
    Name,
    Or,
    PlayerAt,
    RelativePlayer,
    StrStorage,
    Var,
)
from translators.recycle.syntax.nodes import Not as RNot
from translators.recycle.translation_error import TranslationError

#: States explored at most (past this, no bound is claimed).
STATE_LIMIT = 20_000

#: A string cell: (owner, NAME); its value is a RECYCLE name or ``None`` (never set).
Cell = tuple[str, str]
#: The control state: the values of the cells, in a fixed order, and the seat to move.
State = tuple[tuple[str | None, ...], int]


class _Unsupported(Exception):
    """The stage is not one this analysis can bound."""


def stage_passes(model: GameModel, program: ir.Program, stage: ir.StageNode) -> int | None:
    """The largest number of passes ``stage`` can make, or None (see the module doc)."""
    try:
        return _Explorer(model, program, stage).longest()
    except (_Unsupported, TranslationError):
        return None


class _Explorer:
    def __init__(self, model: GameModel, program: ir.Program, stage: ir.StageNode):
        if stage.ref.kind != "player" or any(isinstance(item, ir.StageNode) for item in stage.body):
            raise _Unsupported
        self.model = model
        self.stage = stage
        self.players = model.players
        effects = list(ir.item_effects(stage.body))
        if any(isinstance(e, ir.CycleSet) for e in effects):
            raise _Unsupported
        self.cells = sorted(self._read_cells(stage, effects))
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.domains = [self._values(cell, program) for cell in self.cells]
        size = self.players
        for values in self.domains:
            size *= len(values)
        if size > STATE_LIMIT:
            raise _Unsupported

    # -- which cells, which values ---------------------------------------------------------------

    def _read_cells(self, stage: ir.StageNode, effects: list[ir.Effect]) -> set[Cell]:
        """Every string cell the stage's conditions can read (for every seat)."""
        found: set[Cell] = set()
        conditions: list[tuple[Any, Env]] = [(stage.end, stage.env)]
        for item in stage.body:
            if isinstance(item, ir.ChoiceNode):
                for option in item.options:
                    conditions += option.legal
        conditions += [(g.cond, g.env) for e in effects for g in e.guards]
        for cond, env in conditions:
            for node, node_env in _walk(cond, env):
                if isinstance(node, StrStorage):
                    label = _name(node.name, node_env)
                    for seat in range(self.players):
                        owner = self._owner(node.owner, node_env, seat, {})
                        if owner is None:
                            for other in ["game", *self.model.seats]:
                                found.add((other, label))
                        else:
                            found.add((owner, label))
        return found

    def _values(self, cell: Cell, program: ir.Program) -> list[str | None]:
        """Every value ``cell`` can hold: never set, or a name some ``set`` writes to its NAME."""
        values: set[str | None] = {None}
        for effect in program.effects.values():
            if isinstance(effect, ir.SetStr) and _name(effect.cell.name, effect.env) == cell[1]:
                value = _literal(effect.value, effect.env)
                if value is None:
                    raise _Unsupported
                values.add(value)
        return sorted(values, key=lambda v: "" if v is None else v)

    # -- evaluation ----------------------------------------------------------------------------

    def _owner(self, node: Any, env: Env, seat: int, bound: dict[str, str]) -> str | None:
        real, real_env = deref(node, env)
        if isinstance(real, GameOwner):
            return "game"
        if isinstance(real, RelativePlayer):
            step = {"current": 0, "next": 1, "previous": -1}[real.which]
            return self.model.seats[(seat + step) % self.players]
        if isinstance(real, PlayerAt):
            index = static_literal(real.index, real_env)
            return None if index is None else self.model.seats[index % self.players]
        if isinstance(real, Var):
            if real.name in bound:
                return bound[real.name]
            binding = real_env.get(real.name)
            if isinstance(binding, Fixed) and binding.kind == "player":
                return binding.term.name
        return None

    def _string(self, node: Any, env: Env, state: State, bound: dict[str, str]) -> str | None | bool:
        """A string's value (None: never set); False when it cannot be told."""
        real, real_env = deref(node, env)
        if isinstance(real, Name):
            return real.text
        if isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, Fixed) and binding.kind == "str":
                return _recycle_name(self.model, binding.term.name)
            return False
        if isinstance(real, StrStorage):
            owner = self._owner(real.owner, real_env, state[1], bound)
            label = _name(real.name, real_env)
            at = self.index.get((owner, label)) if owner is not None else None
            return False if at is None else state[0][at]
        return False

    def truth(self, node: Any, env: Env, state: State, bound: dict[str, str]) -> bool | None:
        """True, false or None (unknown)."""
        real, real_env = deref(node, env)
        if isinstance(real, And):
            values = [self.truth(a, real_env, state, bound) for a in real.args]
            return False if False in values else (None if None in values else True)
        if isinstance(real, Or):
            values = [self.truth(a, real_env, state, bound) for a in real.args]
            return True if True in values else (None if None in values else False)
        if isinstance(real, RNot):
            value = self.truth(real.arg, real_env, state, bound)
            return None if value is None else not value
        if isinstance(real, Compare) and real.op in ("==", "!=") and real.kind in ("str", "unknown"):
            left = self._string(real.left, real_env, state, bound)
            right = self._string(real.right, real_env, state, bound)
            if left is False or right is False:
                return None
            return (left == right) == (real.op == "==")
        if isinstance(real, BoolAgg):
            elements = static_elements(self.model, real.collection, real_env, real)
            if elements is None or any(conds for _, conds in elements):
                return None
            values = []
            for binding, _ in elements:
                if not isinstance(binding, Fixed) or binding.kind != "player":
                    return None
                values.append(self.truth(real.condition, real_env.bind(real.var.name, binding), state, bound))
            if real.quantifier == "all":
                return False if False in values else (None if None in values else True)
            return True if True in values else (None if None in values else False)
        return None

    # -- one pass ------------------------------------------------------------------------------

    def _apply(self, effects: list[ir.Effect], states: set[State]) -> set[State]:
        for effect in effects:
            after: set[State] = set()
            for state in states:
                guards = [self.truth(g.cond, g.env, state, {}) for g in effect.guards]
                if False in guards:
                    after.add(state)
                    continue
                changed = self._effect(effect, state)
                after.add(changed)
                if None in guards:
                    after.add(state)
            states = after
        return states

    def _effect(self, effect: ir.Effect, state: State) -> State:
        if not isinstance(effect, ir.SetStr):
            return state
        owner = self._owner(effect.cell.owner, effect.env, state[1], {})
        label = _name(effect.cell.name, effect.env)
        cells = [(owner, label)] if owner is not None else [c for c in self.cells if c[1] == label]
        if owner is None and cells:
            raise _Unsupported  # which player's word is set cannot be told
        at = self.index.get((owner, label)) if owner is not None else None
        if at is None:
            return state
        value = _literal(effect.value, effect.env)
        if value is None:
            raise _Unsupported
        values = list(state[0])
        values[at] = value
        return tuple(values), state[1]

    def successors(self, state: State) -> set[State] | None:
        """The states one pass can lead to (None: it can end the game, stuck)."""
        states = {state}
        stuck = False
        for item in self.stage.body:
            if isinstance(item, ir.Block):
                states = self._apply(item.effects, states)
            elif isinstance(item, ir.ChoiceNode):
                after: set[State] = set()
                for current in states:
                    offered = 0
                    for option in item.options:
                        legal = [self.truth(c, e, current, {}) for c, e in option.legal]
                        if False in legal:
                            continue
                        offered += 1
                        after |= self._apply(option.effects, {current})
                    stuck = stuck or offered == 0
                states = after
        seated = {(values, (seat + 1) % self.players) for values, seat in states}
        return seated if seated or not stuck else None

    def all_states(self) -> Iterator[State]:
        for values in itertools.product(*self.domains):
            for seat in range(self.players):
                yield tuple(values), seat

    def longest(self) -> int:
        """The most passes from any state (raises :class:`_Unsupported` on a cycle)."""
        memo: dict[State, int] = {}
        active: set[State] = set()
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, STATE_LIMIT * 4 + 1000))
        try:
            return max((self._longest(s, memo, active) for s in self.all_states()), default=0)
        finally:
            sys.setrecursionlimit(limit)

    def _longest(self, state: State, memo: dict[State, int], active: set[State]) -> int:
        if state in memo:
            return memo[state]
        if self.truth(self.stage.end, self.stage.env, state, {}) is True:
            memo[state] = 0
            return 0
        if state in active:
            raise _Unsupported  # a path that never ends
        active.add(state)
        nexts = self.successors(state)
        best = 1 + max((self._longest(s, memo, active) for s in nexts), default=0) if nexts else 1
        active.discard(state)
        memo[state] = best
        return best


def _walk(node: Any, env: Env) -> Iterator[tuple[Any, Env]]:
    """Every node of an expression with its environment, through ``let`` aliases."""
    stack = [(node, env)]
    while stack:
        item, item_env = stack.pop()
        real, real_env = deref(item, item_env)
        if real is not item:
            stack.append((real, real_env))
            continue
        yield item, item_env
        if hasattr(item, "subnodes"):
            stack.extend((child, item_env) for child in item.subnodes())


def _name(node: Any, env: Env) -> str:
    real, _ = deref(node, env)
    if isinstance(real, Name):
        return real.text
    raise _Unsupported


def _literal(node: Any, env: Env) -> str | None:
    """The RECYCLE name a string expression always is, or None."""
    real, _ = deref(node, env)
    if isinstance(real, Name):
        return real.text
    return None


def _recycle_name(model: GameModel, gdl_name: str) -> str:
    """The RECYCLE spelling of a name's GDL constant."""
    for text in model.names:
        if name(text).name == gdl_name:
            return text
    return gdl_name.upper()


__all__ = ["STATE_LIMIT", "stage_passes"]
