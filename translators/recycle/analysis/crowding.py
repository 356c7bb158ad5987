"""Which piles filled card by card need their whole order kept: those whose top can be read
where the rules that keep only a pile's known top do not know it.

A pile whose top is read keeps only its known top (``ontop``, with ``lost`` when the order
under it is not tracked) unless its whole order is kept (``under`` links, ``emit/cardstate.py``),
which costs grounding quadratic in the cards that can be in the pile. The known top is enough
for a trick pile that holds one card at a time, or a discard pile whose top is always put back
before it is read again; a discard pile drawn from twice in a row needs the whole order.

:func:`crowded_piles` decides it by abstract interpretation of the whole program, one family of
piles (the piles of one name) at a time. The state is, for each pile of the family, what the
known-top rules know of it (its cards counted 0, 1 or "2 or more"; whether its top is known;
whether the order under it is lost), and the seat of every player stage (a stage is entered at
every seat; a pass moves to the next seat unless a ``cycle`` of that stage may run, then to any).
Conditions are evaluated in three values (sizes of the family's piles compared with numbers;
``and``, ``or``, ``not``, ``all`` / ``any`` over players; anything else unknown); an unknown
guard runs its effects or not (decided once for all the effects it guards), a choice may take
any option not known to be illegal, and stage loops are iterated to a fixpoint. Every run of the
game is among the runs explored: a pile never found read while its top is unknown and its order
lost is one whose known top is all the program observes. A family whose exploration exceeds
the budget (:data:`WORK_LIMIT`, :data:`GAME_WORK_LIMIT`, :data:`STATE_LIMIT`: deterministic, so
the same file gives the same rules everywhere) keeps its whole order when that costs at most
:data:`LINK_LIMIT` links (the squares of how many cards each of its piles can hold: never wrong,
a little slower), else its known top and the card under it (``second``, linear in its cards: a
card played onto another player's trick pile, the pile's own card put on it, then the top taken
away leaves the first card known): a read of a lost order, deeper, then still ends the game
visibly with ``(failed order)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from translators.recycle.analysis.batches import AccessAnalysis
from translators.recycle.analysis.memo import ByIdentity
from translators.recycle.analysis.places import CardDomains, concrete
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import static_elements
from translators.recycle.ir.nodes import Env, Sym, deref
from translators.recycle.ir.walks import walk_with_env as _walk_with_env
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.syntax.nodes import (
    And,
    BoolAgg,
    CardAt,
    CardLocation,
    Compare,
    IntLit,
    Node,
    Or,
    RelativePlayer,
    Size,
    Var,
)
from translators.recycle.syntax.nodes import Not as RNot
from translators.recycle.translation_error import TranslationError

#: Abstract states explored per family at most (past this, as past the work below, the family
#: keeps its known top only).
STATE_LIMIT = 20_000
#: Effects applied per family at most, and per game (past these a family keeps its known top
#: only): the analysis stays within about two seconds and gives the same answer on every machine.
WORK_LIMIT = 20_000
GAME_WORK_LIMIT = 60_000
#: A family past the budget keeps its whole order when its piles' possible ``under`` links (the
#: square of the cards each pile can hold, summed) are at most this many; a family of four
#: 52-card hands has 10,816, and keeping such a family's order cost a corpus game (4 hands of
#: up to 55 cards) 5 times the ground rules and 40 times fewer playouts a second.
LINK_LIMIT = 2_000
#: The abstract count standing for "two cards or more".
MANY = 2

#: What the rules know of one pile: its cards (0, 1, MANY), whether its top is known
#: (``ontop``), whether the order under the top is lost (``lost``).
Pile = tuple[int, bool, bool]
#: The family's piles, then the seat of every player stage (None: not entered).
State = tuple[tuple[Pile, ...], tuple[int | None, ...]]


class _TooLarge(Exception):
    """The family has too many abstract states."""


class Crowding(NamedTuple):
    """What :func:`crowded_piles` found: the piles that need their whole order, and those (of
    families past the budget whose whole order is costly) that keep the card under their known
    top as well."""

    whole: set[Location]
    second: set[Location]


def crowded_piles(program: ir.Program, model: GameModel, domains: CardDomains,
                  piles: Iterable[Location], heapy: set[Location]) -> Crowding:
    """The piles among ``piles`` whose top can be read while the rules that keep only their
    known top do not know it (the order under it lost): these need their whole order. A family
    past the budget is in when its whole order is cheap, else it keeps its top two cards (see
    the module doc)."""
    families: dict[str, list[Location]] = {}
    for pile in sorted(piles):
        families.setdefault(pile.name, []).append(pile)
    out = Crowding(set(), set())
    spent = 0
    for family in families.values():
        explorer = _Explorer(program, model, domains, family, heapy,
                             min(WORK_LIMIT, GAME_WORK_LIMIT - spent))
        try:
            out.whole.update(explorer.run())
        except _TooLarge:
            # past the budget: the whole order where it is cheap, else the top two (module doc)
            cheap = sum(len(domains.location(pile)) ** 2 for pile in family) <= LINK_LIMIT
            (out.whole if cheap else out.second).update(family)
        spent += explorer.work
    return out


class _Explorer:
    def __init__(self, program: ir.Program, model: GameModel, domains: CardDomains,
                 family: list[Location], heapy: set[Location], budget: int = WORK_LIMIT):
        self.program = program
        self.budget = budget
        self.model = model
        self.access = AccessAnalysis(model, domains, set(), set())
        self.family = family
        self.index = {pile: i for i, pile in enumerate(family)}
        self.heapy = heapy
        self.stages = sorted({s.id for s in _all_stages(program)} | {"s0"})
        self.seat_at = {sid: i for i, sid in enumerate(self.stages)}
        self.players = model.players
        self.crowded: set[Location] = set()
        # the forks an option is offered without (``ir/vacancy.py``): their cards may not move
        self.vacant = {sym for choice in program.choices.values() for option in choice.options for sym in option.vacant}
        self.explored = 0
        self.work = 0
        self.memo: dict[tuple[str, State], frozenset[State]] = {}
        self.tops: ByIdentity[list[tuple[CardLocation, Env]]] = ByIdentity()
        self.locations: ByIdentity[list[Location] | None] = ByIdentity()
        self.outcomes: dict[tuple[int, State], frozenset[State]] = {}
        self.relative: ByIdentity[tuple[int | None, int]] = ByIdentity()
        self.seats = model.seats

    def run(self) -> set[Location]:
        piles = []
        for pile in self.family:
            made = len(self.model.cards_at_start(pile))
            piles.append((min(made, MANY), made > 0, made > 1 and pile not in self.heapy))
        seats: list[int | None] = [None] * len(self.stages)
        start = set()
        for seat in range(self.players):
            seats[self.seat_at["s0"]] = seat
            start.add((tuple(piles), tuple(seats)))
        self.items(self.program.body, start)
        return self.crowded

    # -- control ---------------------------------------------------------------------------------

    def items(self, items: list[ir.Item], states: set[State]) -> set[State]:
        for item in items:
            if not states:
                break
            if isinstance(item, ir.Block):
                states = self.effects(item.effects, states)
            elif isinstance(item, ir.ChoiceNode):
                after: set[State] = set()
                for state in states:
                    for option in item.options:
                        for cond, env in option.legal:
                            self.reads(cond, env, state)
                        if any(self.truth(c, e, state) is False for c, e in option.legal):
                            continue
                        after |= self.effects(option.effects, {state})
                states = after
            elif isinstance(item, ir.StageNode):
                states = self.stage(item, states)
        return states

    def stage(self, stage: ir.StageNode, states: set[State]) -> set[State]:
        out: set[State] = set()
        for state in states:
            key = (stage.ref.id, state)
            if key not in self.memo:
                self.memo[key] = frozenset(self.loop(stage, {state}))
            out |= self.memo[key]
        return out

    def loop(self, stage: ir.StageNode, states: set[State]) -> set[State]:
        """The states a stage entered in ``states`` can end in (its passes to a fixpoint)."""
        at = self.seat_at.get(stage.ref.id) if stage.ref.kind == "player" else None
        cycles = stage.ref.kind == "player" and any(
            isinstance(e, ir.CycleSet) and e.stage.id == stage.ref.id for e in ir.item_effects(stage.body, nested=True))
        heads: set[State] = set()
        for piles, seats in states:
            if at is None:
                heads.add((piles, seats))
                continue
            for seat in range(self.players):
                heads.add((piles, _with(seats, at, seat)))
        seen = set(heads)
        exits: set[State] = set()
        todo = list(heads)
        while todo:
            state = todo.pop()
            self.explored += 1
            if self.explored > STATE_LIMIT:
                raise _TooLarge
            self.reads(stage.end, stage.env, state)
            end = self.truth(stage.end, stage.env, state)
            if end is not False:
                exits.add(state if at is None else (state[0], _with(state[1], at, None)))
            if end is True:
                continue
            for piles, seats in self.items(stage.body, {state}):
                if at is None:
                    nexts = [(piles, seats)]
                else:
                    now = seats[at]
                    choices = range(self.players) if cycles or now is None else [(now + 1) % self.players]
                    nexts = [(piles, _with(seats, at, s)) for s in choices]
                for nxt in nexts:
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
        return exits

    # -- reads of a top ----------------------------------------------------------------------------

    def reads(self, node: Any, env: Env, state: State) -> None:
        """Mark the family's piles whose top ``node`` reads where the rules do not know it."""
        for real, real_env in self.tops.get((node, env), lambda: self._tops(node, env)):
            for i in self.places(real, real_env, state):
                count, known, lost = state[0][i]
                if count and not known and (lost or self.family[i] not in self.heapy):
                    self.crowded.add(self.family[i])

    def _tops(self, node: Any, env: Env) -> list[tuple[CardLocation, Env]]:
        """The locations of the family whose top ``node`` reads."""
        found = []
        for sub, sub_env in _walk_with_env(node, env, self.model):
            if isinstance(sub, CardAt) and sub.position == "top":
                real, real_env = deref(sub.cards, sub_env)
                if isinstance(real, CardLocation) and any(p in self.index
                                                          for p in self.concrete(real, real_env) or self.family):
                    found.append((real, real_env))
        return found

    def concrete(self, node: CardLocation, env: Env) -> list[Location] | None:
        """The locations an expression can denote whatever the seats (None: cannot be told)."""
        def make() -> list[Location] | None:
            try:
                return concrete(node, env, self.model)
            except TranslationError:
                return None
        return self.locations.get((node, env), make)

    # -- effects ---------------------------------------------------------------------------------

    def effects(self, effects: list[ir.Effect], states: set[State]) -> set[State]:
        """Straight-line effects; a guard shared by several effects is decided once, where the
        first of them is reached (as the engine evaluates a conditional action's condition)."""
        work: set[tuple[State, frozenset[tuple[int, bool]]]] = {(state, frozenset()) for state in states}
        # the guards still to be read after each effect: a decision no later effect shares is
        # forgotten (kept, k guards of unknown truth would make 2^k combinations)
        later: list[set[int]] = [set()]
        for effect in reversed(effects[1:]):
            later.append(later[-1] | {guard.id for guard in effect.guards})
        later.reverse()
        for index, effect in enumerate(effects):
            after: set[tuple[State, frozenset[tuple[int, bool]]]] = set()
            for state, decided in work:
                self.work += 1
                if self.work > self.budget:
                    raise _TooLarge
                branches = [(True, decided)]
                for guard in effect.guards:
                    nxt = []
                    for holds, known in branches:
                        taken = dict(known)
                        if guard.id in taken:
                            nxt.append((holds and taken[guard.id], known))
                            continue
                        self.reads(guard.cond, guard.env, state)
                        value = self.truth(guard.cond, guard.env, state)
                        for outcome in ([value] if value is not None else [True, False]):
                            nxt.append((holds and outcome, known | {(guard.id, outcome)}))
                    branches = nxt
                for holds, known in branches:
                    if not holds:
                        after.add((state, known))
                        continue
                    after |= {(changed, known) for changed in self.applied(effect, state)}
            work = {(state, frozenset(d for d in known if d[0] in later[index])) for state, known in after}
        return {state for state, _ in work}

    def applied(self, effect: ir.Effect, state: State) -> frozenset[State]:
        """The states an effect run in ``state`` leads to, its reads of tops marked (once)."""
        key = (effect.id, state)
        if key not in self.outcomes:
            for attr in ("card", "target", "source", "value", "cell"):
                value = getattr(effect, attr, None)
                if isinstance(value, Node):
                    self.reads(value, effect.env, state)
            self.outcomes[key] = frozenset(self.effect(effect, state))
        return self.outcomes[key]

    def effect(self, effect: ir.Effect, state: State) -> set[State]:
        piles, seats = state
        env = effect.env
        if isinstance(effect, ir.MoveCard):
            return {(p, seats) for p in self.single_move(effect, state)}
        if isinstance(effect, ir.BulkMove):
            return {(p, seats) for p in self.bulk_move(effect, state)}
        if isinstance(effect, ir.Shuffle):
            out = {piles}
            for target in self.places(effect.target, env, state):
                out |= {_set(p, target, (p[target][0], False, False)) for p in out}
            return {(p, seats) for p in out}
        if isinstance(effect, ir.CycleSet) and effect.which == "current" and effect.stage.id in self.seat_at:
            at = self.seat_at[effect.stage.id]
            return {(piles, _with(seats, at, seat)) for seat in range(self.players)}
        return {state}

    def bulk_move(self, effect: ir.BulkMove, state: State) -> set[tuple[Pile, ...]]:
        """Every card of a collection moved: the sources lose cards (their top among them),
        the targets' order is lost unless a heap lands on an empty pile or one card is brought
        (put under the bottom of a pile that has cards, its top stays)."""
        piles, _ = state
        env = effect.env
        whole, whole_env = deref(effect.source, env)
        sources = self.places(effect.source, env, state, source=True)
        targets = self.places(effect.target, env, state)
        exact = isinstance(whole, CardLocation) and len(sources) == 1 \
            and len(self.resolve(whole, whole_env, state)) == 1
        try:
            heap_source = all(p in self.heapy for p in self.access.card_source_coll(effect.source, env))
        except TranslationError:
            heap_source = False
        moved_max = piles[sources[0]][0] if exact else MANY
        # the bottom-to-top kind keeps the source's known top as the target's (put under the
        # bottom of an empty pile, the top-to-bottom kind does)
        keeps = [piles[sources[0]][1]] if exact else [False, True]
        keeps = keeps if (effect.end == "bottom") != (effect.at == "bottom") else [False]
        out = {piles}
        for source in sources:
            count, known, lost = piles[source]
            lows = [0] if exact else range(0, count + 1)
            out = {_set(p, source, (low, known and low == count, lost)) for p in out for low in lows}
        for target in targets:
            nxt: set[tuple[Pile, ...]] = set()
            for p in out:
                count, known, lost = p[target]
                for extra in ([moved_max] if exact else range(0, moved_max + 1)):
                    if extra == 0:
                        nxt.add(p)
                        continue
                    if effect.at == "bottom" and count > 0:  # under the bottom: the top stays
                        nxt.add(_set(p, target, (min(count + extra, MANY), known, True)))
                        continue
                    if exact and extra == 1:  # one card brought: a push (emit/cardstate.py)
                        nxt.add(_set(p, target, (min(count + 1, MANY), True, known or (lost and count > 0))))
                        continue
                    still_heap = heap_source and count == 0
                    for keep in keeps:
                        nxt.add(_set(p, target, (min(count + extra, MANY), keep, not still_heap)))
            out = nxt
        return out

    def single_move(self, effect: ir.MoveCard, state: State) -> set[tuple[Pile, ...]]:
        """The piles after a move of one card (or of every card a variable ranges over)."""
        piles, _ = state
        card, card_env = deref(effect.card, effect.env)
        every = False
        positional = isinstance(card, CardAt) and card.position in ("top", "bottom")
        inner, inner_env = deref(card.cards, card_env) if positional else (None, card_env)
        if positional and isinstance(inner, CardLocation):
            locations = self.resolve(inner, inner_env, state)
            sources = [self.index[p] for p in locations if p in self.index]
            # the card may come from a pile outside the family, which may be empty
            outside = not locations or any(p not in self.index for p in locations)
            known = len(locations) == 1 and not outside
        else:
            sources = self._family_sources(effect)
            outside, known = True, False
            binding = card_env.get(card.name) if isinstance(card, Var) else None
            every = isinstance(binding, Sym) and binding.domain is not None and binding.domain.anchor == str(effect.id)
        top = positional and card.position == "top"
        out: set[tuple[Pile, ...]] = set()
        for source in sources:
            count, known_top, lost = piles[source]
            if count == 0:
                if known:
                    out.add(piles)  # the top of an empty pile: nothing moves
                continue
            lows = {count - 1} | ({count} if count >= MANY else set())
            if every:
                lows |= set(range(0, count + 1))
            # the top leaves (it may be the card a variable names)
            tops = [False] if top else ([known_top, False] if known_top else [False])
            for low in lows:
                for still in tops:
                    out |= self._arrive(_set(piles, source, (low, still and low > 0, lost)), effect, state, every)
        if outside:
            out |= self._arrive(piles, effect, state, every)
            if positional:
                out.add(piles)  # the top of an empty pile: nothing moves
        if not positional and binding in self.vacant:
            out.add(piles)  # a fork over nothing, its option offered without it: nothing moves
        return out

    def _arrive(self, piles: tuple[Pile, ...], effect: ir.MoveCard, state: State,
                every: bool) -> set[tuple[Pile, ...]]:
        targets = self.places(effect.target, effect.env, state)
        if not targets:
            return {piles}
        out: set[tuple[Pile, ...]] = set()
        under = effect.end == "bottom"
        for target in targets:
            count, known, lost = piles[target]
            if under:
                after = (min(count + 1, MANY), known or count == 0, count > 0 and (known or lost))
            else:
                after = (min(count + 1, MANY), True, known or (lost and count > 0))
            out.add(_set(piles, target, after))
            if every:
                out.add(piles)
                out.add(_set(piles, target, (MANY, True, True)))
        return out

    def _family_sources(self, effect: ir.MoveCard) -> list[int]:
        """The family's piles a card (not named by its position) can leave."""
        try:
            places = self.access.card_source(effect.card, effect.env)
        except TranslationError:
            return list(range(len(self.family)))
        return [self.index[p] for p in places if p in self.index]

    # -- places ----------------------------------------------------------------------------------

    def resolve(self, node: CardLocation, env: Env, state: State) -> list[Location]:
        """The concrete locations a location expression can be in this state (every one when
        it cannot be told)."""
        locations = self.concrete(node, env)
        if locations is None:
            return list(self.family) + [Location("game", "?", "?")]
        slot, step = self.relative.get((node, env), lambda: self._relative(node, env))
        seat = None if slot is None else state[1][slot]
        if seat is not None:
            who = self.seats[(seat + step) % self.players]
            return [p for p in locations if p.owner == who]
        return locations

    def _relative(self, node: CardLocation, env: Env) -> tuple[int | None, int]:
        """For a location owned relative to a stage's player, that stage's seat slot and the step."""
        owner, _ = deref(node.owner, env)
        stage = env.player_stage().id
        step = {"current": 0, "next": 1, "previous": -1}[owner.which] if isinstance(owner, RelativePlayer) else None
        return (self.seat_at[stage] if step is not None and stage in self.seat_at else None), step or 0

    def places(self, node: Any, env: Env, state: State, source: bool = False) -> list[int]:
        """The family's piles a location (or, as a source, a collection) can be in this state."""
        real, real_env = deref(node, env)
        if isinstance(real, CardLocation):
            return [self.index[p] for p in self.resolve(real, real_env, state) if p in self.index]
        if not source:
            return list(range(len(self.family)))
        try:
            places = self.access.card_source_coll(node, env)
        except TranslationError:
            return list(range(len(self.family)))
        return [self.index[p] for p in places if p in self.index]

    # -- conditions ------------------------------------------------------------------------------

    def truth(self, node: Any, env: Env, state: State) -> bool | None:
        """True, false or None (unknown)."""
        real, real_env = deref(node, env)
        if isinstance(real, And):
            values = [self.truth(a, real_env, state) for a in real.args]
            return False if False in values else (None if None in values else True)
        if isinstance(real, Or):
            values = [self.truth(a, real_env, state) for a in real.args]
            return True if True in values else (None if None in values else False)
        if isinstance(real, RNot):
            value = self.truth(real.arg, real_env, state)
            return None if value is None else not value
        if isinstance(real, BoolAgg):
            elements = static_elements(self.model, real.collection, real_env, real)
            if elements is None or any(conds for _, conds in elements):
                return None
            values = [self.truth(real.condition, real_env.bind(real.var.name, b), state) for b, _ in elements]
            if real.quantifier == "all":
                return False if False in values else (None if None in values else True)
            return True if True in values else (None if None in values else False)
        if isinstance(real, Compare) and real.op in ("==", "!=", "<", ">", "<=", ">="):
            left = self.count(real.left, real_env, state)
            right = self.count(real.right, real_env, state)
            if left is None or right is None:
                return None
            results = {_compare(real.op, a, b) for a in left for b in right}
            return results.pop() if len(results) == 1 else None
        return None

    def count(self, node: Any, env: Env, state: State) -> list[int] | None:
        """The values an integer can have (a size of MANY standing for MANY and MANY + 1)."""
        real, real_env = deref(node, env)
        if isinstance(real, IntLit):
            return [real.value]
        if isinstance(real, Size):
            coll, coll_env = deref(real.collection, real_env)
            if not isinstance(coll, CardLocation):
                return None
            places = self.resolve(coll, coll_env, state)
            if len(places) != 1 or places[0] not in self.index or places[0] in self.heapy:
                return None
            size = state[0][self.index[places[0]]][0]
            return [size] if size < MANY else [MANY, MANY + 1]
        return None


def _compare(op: str, a: int, b: int) -> bool:
    return {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def _set(piles: tuple[Pile, ...], at: int, value: Pile) -> tuple[Pile, ...]:
    return piles[:at] + (value,) + piles[at + 1:]


def _with(seats: tuple[int | None, ...], at: int, seat: int | None) -> tuple[int | None, ...]:
    return seats[:at] + (seat,) + seats[at + 1:]


def _all_stages(program: ir.Program) -> Iterable[ir.StageRef]:
    return (stage.ref for stage in program.stages.values())


__all__ = ["GAME_WORK_LIMIT", "LINK_LIMIT", "STATE_LIMIT", "WORK_LIMIT", "Crowding", "crowded_piles"]
