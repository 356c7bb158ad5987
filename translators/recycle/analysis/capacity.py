"""How many cards each pile can hold at once.

A pile holds at most its cards at the start and every card that can arrive: a card moved there
by an effect that runs once (outside every loop of the game: ``runs``, how often each effect can
run, says 1; the counts of loops are estimates, so a move in a loop is taken as unbounded), a
whole pile moved there as many cards as that pile can hold; and never more than the
cards that can be there at all (:class:`~.places.CardDomains`). Nor can more cards arrive from
some piles than ever passed through them (their *throughput*: the cards at the start and every
arrival): a hand dealt five cards gives at most five to the pile they are played on, however
long the game. The bounds feed each other, so they are found together, growing to a fixpoint
(a throughput that keeps growing, cards going round, is unbounded). A hand dealt once holds
what was dealt; a pile drawn to in a loop of the game from the whole deck is bounded by its
cards only, unless each pass of its stage takes a card from it for each it adds (a rummy turn
draws one and throws one away): then the stage adds what one pass can raise it by
(``analysis/balance.py``). Memories (which hold copies) are left out: they hold at most
:data:`MEMORY_CAP` copies.
"""

from __future__ import annotations

from collections.abc import Mapping

from translators.recycle.analysis.balance import stage_of, stage_rises
from translators.recycle.analysis.batches import AccessAnalysis
from translators.recycle.analysis.places import CardDomains, concrete
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import parallel_card
from translators.recycle.ir.nodes import deref
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.syntax.nodes import CardLocation

#: A throughput this large is taken as unbounded (cards going round in a loop of the game).
UNBOUNDED = 10**6
#: How many copies a memory location keeps in order (more ends the game with ``(failed
#: memory)``): a card remembered twice there is two copies, as in the engine.
MEMORY_CAP = 16


def pile_counts(program: ir.Program, model: GameModel, domains: CardDomains,
                runs: Mapping[int, int | None]) -> dict[Location, int]:
    """The most cards each pile (memories aside) can hold at once (see the module doc): sure
    bounds, never estimates."""
    places = [p for p in model.locations if p.vis != "mem"]
    start = {p: len(model.cards_at_start(p)) for p in places}
    most = {p: max(len(domains.location(p)), start[p]) for p in places}
    access = AccessAnalysis(model, domains, set(), set())
    moves = [(e, _sources(e, model, access)) for e in program.effects.values() if isinstance(e, (ir.MoveCard, ir.BulkMove))]
    counts = {p: min(start[p], most[p]) for p in places}
    through = dict(start)
    stage = stage_of(program)
    known_bulk: tuple[int | None, ...] | None = None
    rises: dict[tuple[str, Location], int] = {}
    for step in range(4 * len(places) + 8):
        arriving = dict.fromkeys(places, 0)
        passing = dict.fromkeys(places, 0)
        bulk = tuple(_cards_per_run(e, model, domains, counts) for e, _ in moves if isinstance(e, ir.BulkMove))
        if bulk != known_bulk:  # what a pass adds changes only with what a whole pile moved brings
            rises = stage_rises(program, model, lambda e: _cards_per_run(e, model, domains, counts))
            known_bulk = bulk
        in_stages: dict[tuple[str, Location], int] = {}
        for effect, sources in moves:
            each = _cards_per_run(effect, model, domains, counts)
            times = runs.get(effect.id)  # only a count outside every loop is sure: loops' are estimates
            bound = None if times != 1 or each is None else each
            if sources is not None and all(s in through for s in sources):
                flow = sum(through[s] for s in sources)
                bound = flow if bound is None else min(bound, flow)
            for place in concrete(effect.target, effect.env, model):
                if place in arriving:
                    added = most[place] if bound is None else min(bound, most[place])
                    balanced = (stage.get(effect.id, ""), place)
                    if balanced in rises:
                        in_stages[balanced] = min(most[place], in_stages.get(balanced, 0) + added)
                    else:
                        arriving[place] += added
                    passing[place] += UNBOUNDED if bound is None else bound
        for (stage_id, place), added in in_stages.items():
            arriving[place] += min(added, rises[(stage_id, place)])
        grown = {p: min(most[p], start[p] + arriving[p]) for p in places}
        flowed = {p: min(UNBOUNDED, start[p] + passing[p]) for p in places}
        if step > len(places) + 2:  # still growing: cards going round (their own throughput adds to it)
            flowed = {p: UNBOUNDED if flowed[p] > through[p] else flowed[p] for p in places}
        if grown == counts and flowed == through:
            return counts
        counts, through = grown, flowed
    return most


def _sources(effect: ir.MoveCard | ir.BulkMove, model: GameModel, access: AccessAnalysis) -> list[Location] | None:
    """The piles a move takes its cards from (None: some may not be a pile)."""
    if isinstance(effect, ir.MoveCard):
        places = access.card_source(effect.card, effect.env)
    else:
        places = access.card_source_coll(effect.source, effect.env)
    return None if any(p.vis == "mem" for p in places) else places


def _cards_per_run(effect: ir.MoveCard | ir.BulkMove, model: GameModel, domains: CardDomains,
                   counts: Mapping[Location, int]) -> int | None:
    """How many cards one run of a move can bring (None: not bounded here)."""
    if isinstance(effect, ir.MoveCard):
        return None if parallel_card(effect.card, effect.env) else 1
    source, env = deref(effect.source, effect.env)
    if isinstance(source, CardLocation) and source.visibility != "mem":
        return max((counts.get(p, 0) for p in concrete(source, env, model)), default=0)
    return len(domains.cards(effect.source, effect.env))


__all__ = ["pile_counts"]
