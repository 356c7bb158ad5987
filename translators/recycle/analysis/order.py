"""Which piles need their order tracked: those whose top (or bottom) card the program reads;
which of them can be a shuffled heap (shuffled, or filled in bulk from one); and which keep
their whole order because their bottom card (or their top or bottom N cards, or a numbered one)
is read, because a card is put at a numbered place of them, or because they are dealt from in
the order their cards were made ("linked")."""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from typing import Any

from translators.recycle.analysis.batches import AccessAnalysis
from translators.recycle.analysis.crowding import LINK_LIMIT
from translators.recycle.analysis.places import CardDomains, concrete
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import filtered_pile, parallel_card
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.ir.walks import walk_with_env
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.syntax.nodes import (
    And,
    CardAt,
    CardAtt,
    CardLocation,
    Compare,
    Filter,
    GameOwner,
    IntLit,
    Node,
    PlayerAt,
    RelativePlayer,
    Run,
    Slice,
    Var,
)


def program_expressions(program: ir.Program, model: GameModel) -> Iterator[tuple[Any, Env]]:
    """Every expression of the program with its environment."""
    for effect in program.effects.values():
        for attr in ("card", "target", "source", "value", "cell"):
            value = getattr(effect, attr, None)
            if isinstance(value, Node):
                yield value, effect.env
        if isinstance(effect, ir.SetPointMap):
            yield effect.node, effect.env
        for sym in effect.env.syms():
            if sym.domain is not None:
                yield sym.domain.collection, sym.domain.env
    for guard in program.guards.values():
        yield guard.cond, guard.env
    for choice in program.choices.values():
        for option in choice.options:
            yield from option.legal
            for sym in option.forks:
                if sym.domain is not None:
                    yield sym.domain.collection, sym.domain.env
    for stage in program.stages.values():
        yield stage.end, stage.env
    yield model.game.scoring.value, Env()


def order_facts(program: ir.Program, model: GameModel, domains: CardDomains,
                whole: AbstractSet[Location] = frozenset()) -> tuple[set[Location], set[Location], set[Location]]:
    """Which locations are ordered, which can hold a heap, and which keep their whole order
    ("linked": their bottom card is read, or the top or bottom card of a filter of them, or they
    are dealt from in the order their cards were made: several cards at the start, never
    shuffled, the top taken; and the piles ``whole``, whose cards are named by place)."""
    tops: set[Location] = set(whole)
    bottoms: set[Location] = set(whole)
    ends: list[tuple[CardAt, list[Location]]] = []  # the end cards of filtered piles
    pinned: set[int] = set()  # ... whose one use is an attribute all passing cards share
    for expr, env in program_expressions(program, model):
        for node, node_env in walk_with_env(expr, env, model):
            if isinstance(node, CardAtt) and isinstance(node.card, CardAt) and _shared_by_all(node, node_env):
                pinned.add(id(node.card))
            elif isinstance(node, CardAt):
                real, real_env = deref(node.cards, node_env)
                base = filtered_pile(real, real_env)
                if base is not None and node.position in ("top", "bottom"):
                    ends.append((node, concrete(base[0], base[1], model)))
                elif isinstance(real, CardLocation):
                    places = concrete(real, real_env, model)
                    tops.update(places)
                    # the bottom card or a numbered one (counted from the bottom)
                    if node.position != "top" and real.visibility != "mem":
                        bottoms.update(places)
            elif isinstance(node, (Slice, Run)):  # the top (bottom) N cards: the whole order is read
                real, real_env = deref(node.cards, node_env)
                if isinstance(real, CardLocation) and real.visibility != "mem":
                    places = concrete(real, real_env, model)
                    tops.update(places)
                    bottoms.update(places)
    for node, places in ends:
        # the passing card nearest the pile's top (bottom): its whole order is kept where that
        # is cheap; else (a Go Fish hand: 5 times the ground rules) the card with the highest id
        if id(node) not in pinned and sum(len(domains.location(p)) ** 2 for p in places) <= LINK_LIMIT:
            tops.update(places)
            bottoms.update(places)
    shuffled, edges = shuffles_and_bulk_moves(program, model, domains)
    ordered, heapy = order_classes(model, tops, shuffled, edges)
    # a pile created with several cards, never shuffled and dealt from (its top taken one card
    # at a time) deals in the order the cards were made: that order is kept from the start
    taken = {place for effect in program.effects.values() if isinstance(effect, ir.MoveCard)
             for place in _top_of(effect.card, effect.env, model)}
    dealt_in_order = {place for place in (ordered & taken) - heapy if len(model.cards_at_start(place)) > 1}
    # a card put at a numbered place of a pile whose order is read goes between two of its cards
    put_at = {place for effect in program.effects.values()
              if isinstance(effect, ir.MoveCard) and effect.end == "index"
              for place in concrete(effect.target, effect.env, model)} & ordered
    return ordered, heapy, bottoms | dealt_in_order | put_at


def _shared_by_all(node: CardAtt, env: Env) -> bool:
    """Whether ``(cardatt KEY (top|bottom FILTER))`` reads a KEY that every passing card has
    alike (a filter's condition is, or is a conjunct, ``(== (cardatt KEY 'C) X)``, X not reading
    'C): any passing card gives the same value."""
    real, real_env = deref(node.card.cards, env) if isinstance(node.card, CardAt) else (None, env)
    while isinstance(real, Filter):
        conds = real.condition.args if isinstance(real.condition, And) else (real.condition,)
        for cond in conds:
            if isinstance(cond, Compare) and cond.op == "==":
                for mine, other in ((cond.left, cond.right), (cond.right, cond.left)):
                    if (isinstance(mine, CardAtt) and mine.key == node.key and isinstance(mine.card, Var)
                            and mine.card.name == real.var.name and not _reads(other, real.var.name)):
                        return True
        real, real_env = deref(real.collection, real_env)
    return False


def _reads(node: Any, var: str) -> bool:
    """Whether ``node`` mentions the variable ``var``."""
    return any(isinstance(sub, Var) and sub.name == var for sub in node.walk()) if isinstance(node, Node) else False


def loose_piles(program: ir.Program, model: GameModel, domains: CardDomains,
                ordered: set[Location], linked: set[Location]) -> set[Location]:
    """The ordered piles (not memories, their order not kept whole) onto which single cards are
    put and from which single cards leave: where the known top alone may not be enough."""
    access = AccessAnalysis(model, domains, set(), set())
    into: set[Location] = set()
    out: set[Location] = set()
    for effect in program.effects.values():
        if isinstance(effect, ir.MoveCard):
            into.update(concrete(effect.target, effect.env, model))
            out.update(access.card_source(effect.card, effect.env))
    return {place for place in ordered & into & out if place.vis != "mem" and place not in linked}


def spliced_piles(program: ir.Program, model: GameModel, domains: CardDomains) -> set[Location]:
    """The piles a card can leave from between others (not as their top or bottom card): the
    only ones whose ``under`` links must be joined over the gap it leaves."""
    access = AccessAnalysis(model, domains, set(), set())
    out: set[Location] = set()
    for effect in program.effects.values():
        if isinstance(effect, ir.MoveCard):
            card, card_env = deref(effect.card, effect.env)
            if isinstance(card, CardAt) and card.position in ("top", "bottom") \
                    and isinstance(deref(card.cards, card_env)[0], CardLocation):
                continue
            out.update(access.card_source(effect.card, effect.env))
        elif isinstance(effect, ir.BulkMove) and not isinstance(deref(effect.source, effect.env)[0], CardLocation):
            out.update(access.card_source_coll(effect.source, effect.env))
    return out


def returned_piles(program: ir.Program, model: GameModel, domains: CardDomains,
                   ordered: AbstractSet[Location]) -> set[Location]:
    """The piles a single card move (onto the top, or anywhere in a pile whose order is not
    kept) may put a card back on, taking it from that same pile: ``(move (top S) (top S))``, a
    chosen card of a hand moved to the hand's top. Where the card is already the top one, nothing
    moves, and a pile whose order is kept must not link it under itself (``emit/cardstate.py``)."""
    access = AccessAnalysis(model, domains, set(), set())
    out: set[Location] = set()
    for effect in program.effects.values():
        if isinstance(effect, ir.MoveCard):
            targets = set(concrete(effect.target, effect.env, model))
            if effect.end == "top" or not targets & ordered:
                out |= targets & set(access.card_source(effect.card, effect.env))
    return out


def bulk_targets(program: ir.Program, model: GameModel) -> set[Location]:
    """The piles whole collections of cards are moved onto."""
    return {place for effect in program.effects.values() if isinstance(effect, ir.BulkMove)
            for place in concrete(effect.target, effect.env, model)}


def pile_capacity(program: ir.Program, model: GameModel, runs: dict[int, int | None]) -> dict[Location, int]:
    """How many cards each pile can hold, counting its cards at the start and every card that
    can arrive (``runs``: how often each effect can run, None when unbounded): 0, 1, or 2 for
    two or more."""
    capacity = {place: min(len(model.cards_at_start(place)), 2) for place in model.locations}
    for effect in program.effects.values():
        if not isinstance(effect, (ir.MoveCard, ir.BulkMove)):
            continue
        several = isinstance(effect, ir.BulkMove) or parallel_card(effect.card, effect.env)
        times = runs.get(effect.id)
        arriving = 2 if times is None or several else min(times, 2)
        for place in concrete(effect.target, effect.env, model):
            capacity[place] = min(capacity.get(place, 0) + arriving, 2)
    return capacity


def bulk_linked(program: ir.Program, model: GameModel, ordered: set[Location], heapy: set[Location],
                capacity: dict[Location, int], named: AbstractSet[Location] = frozenset()) -> set[Location]:
    """The piles a whole pile that can hold two cards or more (``capacity``: see
    :func:`pile_capacity`) is moved onto in bulk, where the order is then read (or whose cards
    choices name by place, ``named``), with the piles moved (not shuffled ones): both keep their
    whole order, the moved cards' links carried over."""
    out: set[Location] = set()
    effects = [e for _, e in sorted(program.effects.items())]
    for index, effect in enumerate(effects):
        moved = _whole_pile(effect, model)
        if moved is not None and max(capacity.get(p, 2) for p in moved[0]) > 1:
            sources, targets = moved
            if targets & ordered and not sources & heapy and (
                    targets & named or _order_read(effects, index, targets & ordered, model, set())):
                out |= sources | (targets & ordered)
    return out


def _whole_pile(effect: ir.Effect, model: GameModel) -> tuple[set[Location], set[Location]] | None:
    """The piles a bulk move takes whole, and those it puts them on (None for other effects)."""
    if not isinstance(effect, ir.BulkMove):
        return None
    source, source_env = deref(effect.source, effect.env)
    if not isinstance(source, CardLocation) or source.visibility == "mem":
        return None
    return set(concrete(source, source_env, model)), set(concrete(effect.target, effect.env, model))


def _order_read(effects: list[ir.Effect], index: int, piles: set[Location], model: GameModel,
                seen: set[tuple[int, frozenset[Location]]]) -> bool:
    """Whether the order of ``piles`` after ``effects[index]`` can be read before they are
    shuffled: the effects that follow, in the order the program is written and round again
    (stages repeat), up to the first that shuffles them, takes their top, reads it, or moves
    them whole onto a pile whose order is then read."""
    key = (index, frozenset(piles))
    if key in seen:
        return False
    seen.add(key)
    for effect in effects[index + 1:] + effects[:index + 1]:
        if isinstance(effect, ir.Shuffle) and set(concrete(effect.target, effect.env, model)) & piles:
            return False
        moved = _whole_pile(effect, model)
        if moved is not None and moved[0] & piles:
            return _order_read(effects, effects.index(effect), moved[1], model, seen)
        for attr in ("card", "source", "value", "target"):
            value = getattr(effect, attr, None)
            if isinstance(value, Node) and _reads_top(value, effect.env, piles, model):
                return True
    return False


def _reads_top(node: Node, env: Env, piles: set[Location], model: GameModel) -> bool:
    """Whether ``node`` reads the top card of one of ``piles``."""
    for sub, sub_env in walk_with_env(node, env, model):
        if isinstance(sub, CardAt):
            cards, cards_env = deref(sub.cards, sub_env)
            if isinstance(cards, CardLocation) and set(concrete(cards, cards_env, model)) & piles:
                return True
    return False


def peeked(program: ir.Program, model: GameModel) -> set[Location]:
    """The piles whose top is read other than to move it (a card turned up and left in place)."""
    moved = {id(effect.card) for effect in program.effects.values() if isinstance(effect, ir.MoveCard)}
    out: set[Location] = set()
    for expr, env in program_expressions(program, model):
        for node, node_env in walk_with_env(expr, env, model):
            if isinstance(node, CardAt) and node.position == "top" and id(node) not in moved:
                real, real_env = deref(node.cards, node_env)
                if isinstance(real, CardLocation):
                    out.update(concrete(real, real_env, model))
    return out


def read_without_chance(program: ir.Program, model: GameModel, choices: bool = True) -> set[Location]:
    """The piles whose top card is read where ``random`` cannot draw it: in a choice's legality
    (its conditions and the collections its forks range over; not with ``choices`` false), a
    stage's end condition, the scoring. A shuffled heap's top is a card ``random`` draws in the
    step that reads it, so these piles keep their whole order, their shuffles laid out card by
    card, but where a choice's are drawn in a step of their own before it (:func:`choice_tops`)."""
    expressions: list[tuple[Any, Env]] = [(stage.end, stage.env) for stage in program.stages.values()]
    if choices:
        expressions += [item for choice in program.choices.values() for item in _legal_reads(choice)]
    expressions.append((model.game.scoring.value, Env()))
    return {place for expr, env in expressions for _, places in _tops_read(expr, env, model) for place in places}


def choice_tops(program: ir.Program, model: GameModel,
                heapy: AbstractSet[Location]) -> tuple[dict[tuple[int, int], list[CardAt]], set[Location]]:
    """The top cards of shuffled piles each choice's legality reads, by the choice's site, where
    the pile is named without a variable of the choice (``ir/peeks.py`` reads them in a step
    before it, where ``random`` can draw them), and the piles they can be."""
    out: dict[tuple[int, int], list[CardAt]] = {}
    piles: set[Location] = set()
    for choice in program.choices.values():
        seen: set[tuple[Location, ...]] = set()
        for item in _legal_reads(choice):
            for node, places in _tops_read(*item, model):
                if set(places) & heapy and _fixed_owner(getattr(node.cards, "owner", None)) and tuple(places) not in seen:
                    seen.add(tuple(places))
                    piles.update(places)
                    out.setdefault((choice.node.line, choice.node.column), []).append(node)
    return out, piles


def _legal_reads(choice: ir.ChoiceNode) -> list[tuple[Any, Env]]:
    """What a choice's legality reads: its options' conditions and their forks' collections."""
    return [item for option in choice.options for item in option.legal] + [
        (sym.domain.collection, sym.domain.env) for option in choice.options for sym in option.forks
        if sym.domain is not None]


def _tops_read(expr: Any, env: Env, model: GameModel) -> list[tuple[CardAt, list[Location]]]:
    """The ``(top PILE)`` cards an expression reads (as ``(top PILE)`` of the pile itself), with
    the piles each can be."""
    out = []
    for node, node_env in walk_with_env(expr, env, model):
        if isinstance(node, CardAt) and node.position == "top":
            real, real_env = deref(node.cards, node_env)
            if isinstance(real, CardLocation) and real.visibility != "mem":
                out.append((CardAt("top", real, line=node.line, column=node.column), concrete(real, real_env, model)))
    return out


def _fixed_owner(owner: Any) -> bool:
    """Whether a pile's owner is named without a variable: the game, the current player, a seat."""
    if isinstance(owner, RelativePlayer):
        return owner.which == "current"
    return isinstance(owner, GameOwner) or isinstance(owner, PlayerAt) and isinstance(owner.index, IntLit)


def dealt_before_shuffle(program: ir.Program, model: GameModel) -> set[Location]:
    """The piles created with several cards whose top is taken before their first shuffle (in
    the order the program is written): they deal in the order the cards were made, then at
    random (their shuffles are laid out card by card, ``ir/layouts.py``)."""
    shuffled: set[Location] = set()
    early: set[Location] = set()
    for _, effect in sorted(program.effects.items()):
        if isinstance(effect, ir.Shuffle):
            shuffled.update(concrete(effect.target, effect.env, model))
        elif isinstance(effect, ir.MoveCard):
            early.update(p for p in _top_of(effect.card, effect.env, model)
                         if p not in shuffled and len(model.cards_at_start(p)) > 1)
    return early & shuffled


def _top_of(card: Any, env: Env, model: GameModel) -> list[Location]:
    """The locations a ``(top LOC)`` card expression takes from."""
    real, real_env = deref(card, env)
    if isinstance(real, CardAt) and real.position == "top":
        cards, cards_env = deref(real.cards, real_env)
        if isinstance(cards, CardLocation):
            return list(concrete(cards, cards_env, model))
    return []


def shuffles_and_bulk_moves(program: ir.Program, model: GameModel, domains: CardDomains
                            ) -> tuple[set[Location], list[tuple[set[Location], set[Location]]]]:
    """The piles shuffled somewhere, and every bulk move as (the piles it can take cards from,
    those it can put them on)."""
    shuffled: set[Location] = set()
    edges: list[tuple[set[Location], set[Location]]] = []
    for effect in program.effects.values():
        if isinstance(effect, ir.Shuffle):
            shuffled.update(concrete(effect.target, effect.env, model))
        elif isinstance(effect, ir.BulkMove):
            sources = set(AccessAnalysis(model, domains, set(), set()).card_source_coll(effect.source, effect.env))
            edges.append((sources, set(concrete(effect.target, effect.env, model))))
    return shuffled, edges


def heap_origins(program: ir.Program, model: GameModel, domains: CardDomains,
                 places: AbstractSet[Location]) -> set[Location]:
    """The shuffled piles whose cards can reach ``places`` by bulk moves (one after another):
    where the heaps of ``places`` come from."""
    shuffled, edges = shuffles_and_bulk_moves(program, model, domains)
    reach = set(places)
    changed = True
    while changed:
        changed = False
        for sources, targets in edges:
            if targets & reach and not sources <= reach:
                reach |= sources
                changed = True
    return reach & shuffled


def order_classes(model: GameModel, tops: set[Location], shuffled: set[Location],
                  bulk_edges: list[tuple[set[Location], set[Location]]]) -> tuple[set[Location], set[Location]]:
    """Ordered locations (their top is read) and heap-capable ones (shuffled, or filled in bulk
    from a heap-capable one)."""
    ordered = set(tops)
    heapy = {loc for loc in shuffled if loc in ordered}
    changed = True
    while changed:
        changed = False
        for sources, targets in bulk_edges:
            if sources & (heapy | shuffled):
                for target in targets & ordered:
                    if target not in heapy:
                        heapy.add(target)
                        changed = True
    return ordered, heapy


__all__ = [
    "bulk_linked",
    "bulk_targets",
    "choice_tops",
    "dealt_before_shuffle",
    "heap_origins",
    "loose_piles",
    "order_classes",
    "order_facts",
    "peeked",
    "pile_capacity",
    "program_expressions",
    "read_without_chance",
    "returned_piles",
    "shuffles_and_bulk_moves",
    "spliced_piles",
]
