"""RECYCLE -> GDL-II: the translator's entry points and the driver that runs the passes in order.

``translate(game)`` gives a :class:`~ggp.gdl.rules.GameDescription`; ``compile_game(game)``
the full :class:`~.translation.Translation` (KIF text with comments, line map, step points,
warnings); ``translate_file(path)`` reads a ``.rcy`` file and compiles it.

The passes, each a package, data flowing one way (``docs/translation.md``):

1. :mod:`.syntax`: the text parsed to a typed tree;
2. :mod:`.symbols`: the static model (seats, cards, locations, storage) and GDL spelling;
3. :mod:`.ir`: the tree lowered to stages, choices and blocks of effects;
4. :mod:`.analysis`: where cards can be, which piles are ordered, point maps, integer
   ranges, and the effects cut into GDL steps;
5. :mod:`.emit`: the rules, written into one rule book;
6. :mod:`.rulebook`: the finished rules split per stage, pruned, printed.
"""

from __future__ import annotations

import time
from pathlib import Path

from ggp.collector import rare_collections
from ggp.errors import Location, Problem
from ggp.gdl.rules import GameDescription
from translators.recycle.analysis.batches import AccessAnalysis, StepPlan, plan_steps
from translators.recycle.analysis.blind import blind_places
from translators.recycle.analysis.bounds import execution_bounds
from translators.recycle.analysis.crowding import crowded_piles
from translators.recycle.analysis.moves import move_names, option_places
from translators.recycle.analysis.order import (
    bulk_linked,
    bulk_targets,
    choice_tops,
    dealt_before_shuffle,
    heap_origins,
    loose_piles,
    order_facts,
    peeked,
    pile_capacity,
    read_without_chance,
    returned_piles,
    spliced_piles,
)
from translators.recycle.analysis.places import CardDomains, concrete
from translators.recycle.analysis.pointmaps import PointMaps
from translators.recycle.analysis.ranges import Ranges, integer_ranges
from translators.recycle.analysis.rooms import group_rooms, slot_warning, slot_warnings
from translators.recycle.analysis.spans import next_spans, range_spans, span_warnings
from translators.recycle.analysis.unread import unread_families
from translators.recycle.emit.cardstate import emit_card_state
from translators.recycle.emit.choices import emit_chance, emit_choices, has_chance
from translators.recycle.emit.control import Control
from translators.recycle.emit.effects import EffectEmitter
from translators.recycle.emit.expressions import Expressions
from translators.recycle.emit.frame import (
    CHOICE_LIMIT,
    emit_ending,
    emit_header,
    emit_storage,
    emit_turns,
)
from translators.recycle.emit.goals import emit_goals
from translators.recycle.emit.idle import emit_idle
from translators.recycle.emit.percepts import emit_percepts
from translators.recycle.emit.wide import Wide
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.decks import hoist_decks
from translators.recycle.ir.groups import SLOTS, Room
from translators.recycle.ir.layouts import lay_out_shuffles
from translators.recycle.ir.lower import lower
from translators.recycle.ir.made import made_sites, make_in_play
from translators.recycle.ir.names import expand_names
from translators.recycle.ir.nodes import Env
from translators.recycle.ir.peeks import peek_before
from translators.recycle.ir.rebuilt import moves_built_once
from translators.recycle.ir.repeats import (
    Site,
    cell_name,
    computed_repeats,
    expand_repeats,
)
from translators.recycle.ir.spans import Span, computed_ranges, expand_ranges
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.rulebook.frame import frame_by_step
from translators.recycle.rulebook.guards import pc_guards
from translators.recycle.rulebook.inline import inline, without_repeats
from translators.recycle.rulebook.merge import merge
from translators.recycle.rulebook.names import (
    node_words,
    rename,
    stage_words,
    word_names,
)
from translators.recycle.rulebook.order import binders_first, no_left_recursion
from translators.recycle.rulebook.owners import fold_by_owner
from translators.recycle.rulebook.project import project_groups
from translators.recycle.rulebook.stages import (
    STAGED,
    drop_undefined,
    split_by_stage,
    stages_of,
)
from translators.recycle.rulebook.steps import fold_steps
from translators.recycle.symbols.model import MAX_CARDS, GameModel, build_model
from translators.recycle.syntax.nodes import Game
from translators.recycle.syntax.parser import parse_recycle_file
from translators.recycle.translation import Translation
from translators.recycle.translation_error import TranslationError

#: Relations the clean-up passes keep as they are: the scores and how the game ended (read by
#: tools: ``playstats.ending_of``) and the step being played (read by people following a match).
KEPT = frozenset({"score", "scoredigit", "at_step", "normal_end", "limit", "stuck", "failsnow"})
#: The most cards the copies of decks created during play may add (each copy is made before
#: play: a deck created in a loop of a long game would make thousands, and the translation would
#: not finish).
MADE_CARDS = 520
#: How often the game is re-analysed for the bounds of its computed repeats and ranges (each
#: round makes as many copies, or integers, as the last found they could need).
ANALYSIS_ROUNDS = 6


def analysed(game: Game, book: RuleBook | None = None) -> tuple[Expressions, StepPlan]:
    """The expression compiler of ``game`` built from its analyses (model, lowering, card
    domains, pile order, point maps, integer ranges), writing into ``book``, and the game's
    effects cut into steps: everything the rules are then written from."""
    book = book if book is not None else RuleBook()
    game = made_in_play(expand_names(hoist_decks(moves_built_once(game))))
    model, program, domains, pointmaps, ranges = _lowered(game)
    blind = blind_places(program, model, domains)
    ordered, heapy, linked = order_facts(program, model, domains, blind)
    tops, peeks = choice_tops(program, model, heapy)
    if tops:
        # the shuffled piles' tops a choice's legal moves read: drawn in a step before it
        game = peek_before(game, tops, model.cards[0].attrs[0][0])
        model, program, domains, pointmaps, ranges = _lowered(game)
        blind = blind_places(program, model, domains)
        ordered, heapy, linked = order_facts(program, model, domains, blind)
    # tops read where random cannot draw them, but those drawn before their choice
    unchanced = read_without_chance(program, model, choices=False) | (read_without_chance(program, model) - peeks)
    whole = (linked | dealt_before_shuffle(program, model) | unchanced) & heapy
    if whole:
        # shuffled piles whose whole order is read, or dealt from before they are shuffled, and
        # the shuffled piles their heaps are moved from in bulk: their shuffles laid out card by card
        whole |= heap_origins(program, model, domains, whole)
        sites = {(e.node.line, e.node.column) for e in program.effects.values() if isinstance(e, ir.Shuffle)
                 and set(concrete(e.target, e.env, model)) & whole}
        model, program, domains, pointmaps, ranges = _lowered(lay_out_shuffles(game, sites))
        blind = blind_places(program, model, domains)
        ordered, heapy, linked = order_facts(program, model, domains, blind)
    if linked & heapy & blind:
        # piles filled in bulk from a shuffled heap: no order to name their cards by
        blind -= heapy
        ordered, heapy, linked = order_facts(program, model, domains, blind)
    if linked & heapy:
        raise TranslationError(game, "the bottom card, or the top or bottom N cards, of a shuffled pile cannot be "
                               f"read ({', '.join(sorted(str(p) for p in linked & heapy))})")
    # piles filled card by card whose top can be read where only their known top is kept
    crowding = crowded_piles(program, model, domains, loose_piles(program, model, domains, ordered, linked), heapy)
    linked |= crowding.whole
    # piles moved whole onto piles whose top is read: their order kept, their links carried over
    capacity = pile_capacity(program, model, execution_bounds(program, model))
    carried = bulk_linked(program, model, ordered, heapy, capacity, blind)
    linked |= carried
    ordered |= carried
    wide = Wide(book, ranges.wide)
    plan = plan_steps(program, AccessAnalysis(model, domains, ordered, heapy, frozenset(wide.families)))
    comp = Expressions(model, program, book, domains, pointmaps, ranges, wide, (ordered, heapy, linked), plan.batch_of)
    comp.peeked = peeked(program, model) & heapy
    comp.unread = unread_families(model.game)
    comp.unkept = linked & bulk_targets(program, model)
    comp.second = {pile for pile in crowding.second if capacity[pile] > 1}  # where a card can lie under the top
    return comp, plan


def made_in_play(game: Game) -> Game:
    """``game`` with its decks created in play made in the setup (``ir/made.py``), as many copies
    of each as its action can run by the execution bounds of the game lowered with one copy."""
    sites = {(node.line, node.column): node for node in made_sites(game)}
    if not sites:
        return game
    model = build_model(expand_ranges(expand_repeats(make_in_play(game, dict.fromkeys(sites, 1)), {}), {}))
    program = lower(model)
    bounds = execution_bounds(program, model)
    moved = dict.fromkeys(sites, 0)  # the moves each site's actions can make: a card's per run
    for effect in program.effects.values():
        site = (effect.node.line, effect.node.column)
        if site in moved:
            moved[site] += bounds.get(effect.id) or 0
    copies = {}
    for site, node in sites.items():
        cards = len(node.deck.cards())
        copies[site] = max(1, -(-moved[site] // max(cards, 1)))
    made = sum(copies[site] * len(node.deck.cards()) for site, node in sites.items())
    if made > MADE_CARDS or made + len(model.cards) > MAX_CARDS:
        site, node = max(sites.items(), key=lambda item: copies[item[0]] * len(item[1].deck.cards()))
        raise TranslationError(node, f"this deck of {len(node.deck.cards())} cards is created during play, up to "
                               f"{copies[site]} times: the rules make each copy before play, at most "
                               f"{MADE_CARDS} cards so (and {MAX_CARDS} in all)")
    return make_in_play(game, copies)


def _lowered(game: Game) -> tuple[GameModel, ir.Program, CardDomains, PointMaps, Ranges]:
    """The game's model and lowering with its card domains, point maps and integer ranges, its
    computed repeats unrolled as far as the ranges say their counts go, its ranges computed in
    play made of the integers their bounds can reach."""
    sites = computed_repeats(game)
    ranged = computed_ranges(game)
    bounds: dict[Site, int] = {}
    spans: dict[Site, Span] = {}
    caps: dict[tuple[str, str], int] = {}
    growing: set[Site] = set()
    rooms: dict[Site, Room] | None = None
    for _ in range(ANALYSIS_ROUNDS):
        repeated = expand_repeats(game, bounds)
        model = build_model(expand_ranges(repeated, spans))
        program = lower(model, rooms)
        domains = CardDomains(model, program)
        pointmaps = PointMaps(model, program)
        ranges = integer_ranges(model, program, domains, pointmaps, caps)
        needed = {site: max(ranges.cell("game", cell_name(site))[1], 1) for site in sites}
        kept = dict(caps)
        grown = next_spans(ranged, range_spans(repeated, model, ranges, ranged, spans), spans, caps, growing, ranges)
        settled = rooms is not None
        if rooms is None:  # the groups' slots, from the capacities of the game lowered with the default
            rooms = group_rooms(program, ranges)
            settled = all(room == Room(SLOTS) for room in rooms.values())
        if settled and grown == spans and caps == kept and all(needed[site] <= bounds.get(site, 1) for site in sites):
            return model, program, domains, pointmaps, ranges
        bounds = {site: max(needed[site], bounds.get(site, 1)) for site in sites}
        spans = grown
    growing_now = [f"`repeat` at line {s[0]}: {bounds[s]}" for s in sites] + [
        f"range at line {s[0]}: {spans[s][0]} to {spans[s][1]}" for s in sorted(spans)]
    raise TranslationError(game, "the counts of `repeat` (or the integers of ranges computed in play) keep growing "
                           f"with the copies made for them ({', '.join(growing_now)})")


def _run(game: Game) -> Translation:
    """Run the passes over one game."""
    start = time.perf_counter()
    book = RuleBook()
    book.root = game
    comp, plan = analysed(game, book)
    model, program = comp.model, comp.program
    control = Control(model, program, book, plan, comp.cond, comp.ledger)
    control.register()
    names = move_names(program)
    emitter = EffectEmitter(comp, comp.batch_of, plan.batch_order, plan.option_first, names)
    chance = has_chance(comp, game)
    emit_header(book, model, chance)
    for block in plan.blocks.values():
        for batch in block:
            emitter.batch(batch)
    control.build(frozenset(key[1] for key in comp.ledger.temps if key[0] == "flag"))
    warnings = slot_warnings(program, comp.ranges, game.source or "<recycle>")
    warnings += span_warnings(computed_ranges(game), comp.ranges, game.source or "<recycle>")
    warnings += emit_choices(comp, control, emitter, plan, game.source or "<recycle>")
    if chance:
        emit_chance(comp)
    emit_storage(comp)
    emit_turns(book, comp.tables, control, plan, bool(program.choices))
    emit_idle(book, plan, control, emitter, program, len(game.declarations), bool(program.choices))
    emit_card_state(book, model, emitter, comp.ordered, comp.heapy, comp.linked,
                    spliced_piles(program, model, comp.domains) & comp.linked,
                    returned_piles(program, model, comp.domains, comp.ordered), comp.second)
    emitter.emit_temps(plan.batches, plan.blocks)
    emit_ending(comp, bool(program.choices))
    emit_percepts(book, model, emitter)
    emit_goals(comp, Env())
    warnings += [slot_warning(game.source or "<recycle>", site, coll, most, read=True)  # groups read by conditions
                 for site, (coll, most) in sorted(comp.ledger.short_groups.items()) if site not in program.group_sites]
    comp.tables.finish()
    stages = stages_of(book.rules())
    split = drop_undefined([split_by_stage(rules, stages) for _, rules in book.groups])
    book.groups = [(comment, rules) for (comment, _), rules in zip(book.groups, split)]
    book.prune(KEPT)
    book.groups = inline(book.groups, keep=KEPT)
    book.groups = merge(book.groups, {"seat": model.seats, "team": model.team_names}, keep=KEPT)
    book.groups = inline(book.groups, keep=KEPT)
    book.groups = list(zip([comment for comment, _ in book.groups],
                           project_groups([rules for _, rules in book.groups], keep=KEPT)))
    words = stage_words({sid: node_words(stage.end) for sid, stage in program.stages.items()})
    nodes = {name: (family, tuple(words.get(k, k) for k in key)) for name, (family, key) in control.keys.items()}
    book.groups = fold_steps(book.groups, nodes | comp.tables.keys())
    book.groups = frame_by_step(book.groups)
    staged = {f"{base}_{sid}": f"{base}_{word}" for base in STAGED for sid, word in words.items()}
    hints = {name: node_words(node) for name, node in book.nodes.items()}
    book.groups = without_repeats(rename(book.groups, word_names(book.groups, staged, hints)))
    book.groups = fold_by_owner(book.groups, keep=KEPT)
    book.groups = binders_first(no_left_recursion(book.groups))
    book.groups = pc_guards(book.groups)
    description = book.description(game.source)
    kif = book.kif(_banner(game, model, description, warnings))
    steps = {point.id: point.kind for point in control.points.values()}
    return Translation(description, kif, model, steps, dict(book.lines), warnings, time.perf_counter() - start,
                       option_places(names))


def _banner(game: Game, model: GameModel, description: GameDescription, warnings: list[Problem]) -> str:
    """The comment at the top of the KIF text."""
    source = game.source or "a RECYCLE game"
    notes = "".join(f"\n{WARNING_MARK} {p.location.line} {p.location.column} {p.message}" for p in warnings)
    return (f"GDL-II translation of {Path(source).name} (RECYCLE, CardStock)\n"
            f"{model.players} players, {len(model.cards)} cards; roles: {' '.join(str(r) for r in description.roles)}\n"
            "generated by translators.recycle; see docs/translation.md" + notes)


#: How the KIF banner records a translation warning (``WARNING_MARK LINE COLUMN message``), so a
#: cached translation gives its warnings back.
WARNING_MARK = "warning at"


def warnings_in_kif(kif: str, source: str) -> list[Problem]:
    """The warnings a translation's banner records (see :data:`WARNING_MARK`)."""
    found = []
    for line in kif.splitlines():
        if not line.startswith(";"):
            break
        parts = line.lstrip("; ").split(" ", 4)
        if " ".join(parts[:2]) == WARNING_MARK and len(parts) == 5 and parts[2].isdigit() and parts[3].isdigit():
            found.append(Problem(Location(source, int(parts[2]), int(parts[3])), parts[4], "warning"))
    return found


def compile_game(game: Game) -> Translation:
    """Translate a parsed game; raises :class:`TranslationError` naming the RECYCLE position."""
    try:
        with rare_collections():
            try:
                return _run(game)
            except RecursionError:  # the parser bounds the nesting; a pass may still go deeper
                raise TranslationError(game, "the game's forms nest too deeply to translate") from None
    except TranslationError as exc:
        made = made_sites(hoist_decks(game))
        if made and exc.message.startswith("the translation is too large"):
            exc.message += (f" (decks are created in play at {', '.join(f'{n.line}:{n.column}' for n in made)}: the "
                            f"rules make a copy of a deck before play for each time its action can run)")
        if exc.location is not None and game.source:
            exc.location = exc.location.with_file(game.source)
        raise


def translate(game: Game) -> GameDescription:
    """The GDL-II rules of a parsed RECYCLE game."""
    return compile_game(game).description


def translate_file(path: str | Path) -> Translation:
    """Read, parse and translate a ``.rcy`` file."""
    return compile_game(parse_recycle_file(path))


__all__ = ["CHOICE_LIMIT", "WARNING_MARK", "analysed", "compile_game", "translate", "translate_file", "warnings_in_kif"]
