"""RECYCLE -> GDL-II: the translator's entry points and the driver tying the passes together.

``translate(game)`` gives a :class:`~ggp.gdl.rules.GameDescription`; ``compile_game(game)``
the full :class:`~.assembly.Translation` (KIF text with comments, line map, step points,
warnings); ``translate_file(path)`` reads a ``.rcy`` file and compiles it.

Passes: static model (:mod:`.model`), lowering to the IR (:mod:`.lower`), where cards can be
(:mod:`.places`), which piles are ordered (:mod:`.cardstate`), integer ranges
(:mod:`.ranges`), batches (:mod:`.batches`), control (:mod:`.control`); then the rules:
effects (:mod:`.effects`), card fluents (:mod:`.cardstate`), choices and storage (here),
percepts (:mod:`.percepts`), goals (:mod:`.goals`). ``docs/translation.md`` describes it all.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ggp.collector import rare_collections
from ggp.errors import Location, Problem
from ggp.gdl.rules import GameDescription, Literal, Not
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle import ir
from translators.recycle.assembly import Compiler, Translation, order_facts
from translators.recycle.batches import AccessAnalysis, Batch, make_batches
from translators.recycle.cardstate import emit_card_state
from translators.recycle.compiler import StepCtl
from translators.recycle.control import Control
from translators.recycle.effects import EffectEmitter
from translators.recycle.goals import emit_goals
from translators.recycle.ir import Env
from translators.recycle.lower import deref, lower
from translators.recycle.model import build_model
from translators.recycle.nodes import Game
from translators.recycle.percepts import emit_percepts
from translators.recycle.places import CardDomains
from translators.recycle.ranges import Ranges, execution_bounds
from translators.recycle.rulebook import RuleBook, describe
from translators.recycle.stagerel import drop_undefined, split_by_stage, stages_of
from translators.recycle.translation_error import TranslationError
from translators.recycle.vocabulary import (
    NOOP,
    UNSET,
    c,
    f,
    loc,
    name,
    num,
    nxt,
    rule,
    true,
)

RANDOM = Constant("random")
#: CardStock's limit on choices in one game.
CHOICE_LIMIT = 500


class Translator:
    """Runs the passes over one game."""

    def __init__(self, game: Game):
        self.game = game
        self.book = RuleBook()
        self.book.root = game
        self.warnings: list[Problem] = []

    def run(self) -> Translation:
        """Translate the game."""
        start = time.perf_counter()
        book = self.book
        model = build_model(self.game)
        program = lower(model)
        domains = CardDomains(model, program)
        ordered, heapy, linked = order_facts(program, model, domains)
        if linked & heapy:
            raise TranslationError(self.game, "the bottom card of a shuffled pile cannot be read")
        comp = Compiler(model, book, program, domains, ordered, heapy, linked)
        self.comp = comp
        comp.ranges = self.ranges(program, model)
        from translators.recycle.wide import Wide

        comp.wide = Wide(book, comp.ranges.wide)
        analysis = AccessAnalysis(model, domains, ordered, heapy)
        analysis.separate_increments = lambda e: comp.wide.is_wide(comp.family(e.cell, e.env))
        control = Control(model, program, book, comp.cond)
        self.control = control
        batches: dict[str, Batch] = {}
        blocks: dict[str, list[Batch]] = {}
        option_first: dict[str, tuple[ir.ChoiceNode, ir.Option]] = {}
        self.collect(program.body, analysis, program, control, batches, blocks, option_first)
        batch_of = {e.id: b.id for b in batches.values() for e in b.effects}
        batch_order = {b.id: (b.block, b.index) for b in batches.values()}
        arity = max((len(o.forks) for ch in program.choices.values() for o in ch.options), default=0)
        control.register()
        emitter = EffectEmitter(comp, batch_of, batch_order, option_first, arity)
        comp.emitter = emitter
        comp.batch_of = batch_of
        self.emitter = emitter
        self.header(model)
        for block in blocks.values():
            for batch in block:
                emitter.batch(batch)
        control.build()
        self.choices(program, control, option_first)
        self.chance(batches)
        self.storage(model)
        self.turns(control, option_first, program)
        emit_card_state(book, model, emitter, ordered, heapy, linked)
        emitter.emit_temps(batches, blocks)
        self.ending(control, program)
        emit_percepts(book, model, emitter)
        emit_goals(comp, Env())
        stages = stages_of(book.rules())
        split = drop_undefined([split_by_stage(rules, stages) for _, rules in book.groups])
        book.groups = [(comment, rules) for (comment, _), rules in zip(book.groups, split)]
        book.prune(frozenset({"score"}))
        description = book.description(self.game.source)
        roles = description.roles
        kif = book.kif(self.banner(model, roles))
        steps = {point.id: point.kind for point in control.points.values()}
        return Translation(description, kif, model, steps, dict(book.lines), self.warnings,
                           time.perf_counter() - start)

    # -- passes ------------------------------------------------------------------------------------

    def collect(self, items: list[ir.Item], analysis: AccessAnalysis, program: ir.Program, control: Control,
                batches: dict[str, Batch], blocks: dict[str, list[Batch]],
                option_first: dict[str, tuple[ir.ChoiceNode, ir.Option]]) -> None:
        """Batch every block and every choice option."""
        for item in items:
            if isinstance(item, ir.Block):
                got = make_batches(item.id, item.effects, analysis, program)
                control.flow_batches[item.id] = got
                blocks[item.id] = got
                batches.update((b.id, b) for b in got)
            elif isinstance(item, ir.ChoiceNode):
                for option in item.options:
                    block = f"{item.id}o{option.index}"
                    got = make_batches(block, option.effects, analysis, program, option=True)
                    control.option_batches[(item.id, option.index)] = got
                    blocks[block] = got
                    batches.update((b.id, b) for b in got)
                    option_first[got[0].id] = (item, option)
            else:
                self.collect(item.body, analysis, program, control, batches, blocks, option_first)

    def size_bound(self, coll: Any, env: Env) -> int:
        """How many elements a collection can have."""
        real, real_env = deref(coll, env)
        from translators.recycle.lower import Lowerer

        kind = Lowerer(self.comp.model).kind(real, real_env)
        if kind in ("players", "team"):
            return self.comp.model.players
        if kind == "teams":
            return len(self.comp.model.teams)
        return len(self.comp.domains.cards(real, real_env))

    def sum_interval(self, node: Any, env: Env) -> tuple[int, int]:
        """The range of a sum of points."""
        return self.comp.interval_of_sum(node, env)

    def score_interval(self, node: Any, env: Env) -> tuple[int, int]:
        """The range of one card's points."""
        cards = self.comp.domains.card_cards(node.card, env)
        values = {v for cid in cards for v in self.comp.card_values(node.points, env, cid)} or {0}
        return min(values), max(values)

    def header(self, model: Any) -> None:
        """Roles and static helper tables."""
        book = self.book
        with book.group("roles: the players in seat order, and random when the game has chance"):
            for seat in model.seats:
                book.add(rule(f("role", c(seat))))
            if self.has_chance():
                book.add(rule(f("role", RANDOM)))
        n, teams = model.players, model.team_names
        with book.group("seats and teams (static)"):
            for i, seat in enumerate(model.seats):
                book.add(rule(f("seat", c(seat))))
                book.add(rule(f("nextseat", c(seat), c(model.seats[(i + 1) % n]))))
                book.add(rule(f("prevseat", c(seat), c(model.seats[(i - 1) % n]))))
                book.add(rule(f("seatnum", num(i), c(seat))))
                book.add(rule(f("teamof", c(seat), c(teams[model.team_of(i)]))))
            for i, team in enumerate(teams):
                book.add(rule(f("team", c(team))))
                book.add(rule(f("nextteam", c(team), c(teams[(i + 1) % len(teams)]))))
                book.add(rule(f("prevteam", c(team), c(teams[(i - 1) % len(teams)]))))

    def has_chance(self) -> bool:
        """Whether any step may need a random choice (any shuffle, tie or ``random``)."""
        program = self.comp.program
        return bool(self.comp.heapy) or any(
            isinstance(e, ir.Shuffle) for e in program.effects.values()) or any(
            node.__class__.__name__ in ("ExtremeCard", "Random") for node in self.game.walk())

    def choices(self, program: ir.Program, control: Control,
                option_first: dict[str, tuple[ir.ChoiceNode, ir.Option]]) -> None:
        """``legal`` rules of the players: the options of a choice, ``noop`` for the others."""
        book, comp = self.book, self.comp
        firsts = {(ch.id, op.index): b for b, (ch, op) in option_first.items()}
        self.choice_of = {id(o): ch.id for ch in program.choices.values() for o in ch.options}
        for choice in program.choices.values():
            stage = choice.env.player_stage().id
            who = Variable(f"seat_{stage}")
            anyopt = f"hasopt_{choice.id}"
            for option in choice.options:
                ctl = StepCtl(None, chance=False)
                lits: list[Literal] = [f("at_step", c(choice.id)), f("rseat", stage, who)]
                for cond, env in option.legal:
                    lits += comp.cond(cond, env, ctl)
                for sym in option.forks:
                    assert sym.domain is not None
                    member = comp.elem_member(sym.domain.collection, sym.domain.env, ctl, sym.var, sym.kind)
                    self.warn_hidden_options(option, sym.var, who, member)
                    lits += member
                lits += self.executable(option, ctl)
                move = self.emitter.choose_term(option)
                with book.group(f"option {option.index} of choice {choice.id}: {describe(option.node)}", option.node):
                    book.add(rule(f("legal", who, move), lits))
                    book.add(rule(c(anyopt), lits))
                    first = firsts[(choice.id, option.index)]
                    book.add(rule(f("npc", c(control.after[first])), self.emitter.activation(self.batch(first))))
            with book.group(f"choice {choice.id}: who decides, and a choice without options"):
                book.add(rule(f("decides", who), f("at_step", c(choice.id)), f("rseat", stage, who)))
                book.add(rule(c("stuck"), f("at_step", c(choice.id)), Not(c(anyopt))))
                book.add(rule(c("choicestep"), f("at_step", c(choice.id))))
        who = Variable("who")
        with book.group("players who do not decide play noop"):
            if program.choices:
                book.add(rule(f("legal", who, NOOP), f("seat", who), Not(f("decides", who))))
            else:
                book.add(rule(f("legal", who, NOOP), f("seat", who)))

    def warn_hidden_options(self, option: ir.Option, card: Term, who: Variable, member: list[Literal]) -> None:
        """Warn when an option forks over cards in a location its chooser may not see (by
        :meth:`GameModel.visible`, for some seat of the chooser): the legal moves name the cards,
        so they tell the chooser which cards are there."""
        model = self.comp.model
        for lit in member:
            if not (isinstance(lit, Function) and lit.name == "true" and isinstance(lit.args[0], Function)):
                continue
            fluent = lit.args[0]
            if fluent.name != "at" or fluent.args[0] != card or not isinstance(fluent.args[1], Function):
                continue
            pattern = fluent.args[1]
            hidden = any(
                not model.visible(seat, place)
                for seat in range(model.players) for place in model.locations
                if all(want == have or isinstance(want, Variable) for want, have in zip(pattern.args, loc(place).args))
                and (pattern.args[0] != who or place.owner == f"player{seat}"))
            if hidden:
                owner, vis, where = pattern.args
                node = option.node
                message = (f"the options of this choice name the cards of ({owner} {vis} {where}), which its "
                           "chooser may not see: its legal moves tell it which cards are there")
                problem = Problem(Location(self.game.source or "<recycle>", node.line or 1, node.column or 1),
                                  message, "warning")
                if problem not in self.warnings:
                    self.warnings.append(problem)

    def executable(self, option: ir.Option, ctl: StepCtl) -> list[Literal]:
        """CardStock offers an option only if its actions can be carried out: the unconditional
        card moves of the option's first step need a card to move."""
        from translators.recycle.nodes import CardAt

        comp = self.comp
        lits: list[Literal] = []
        first = self.control.option_batches[(self.choice_of[id(option)], option.index)][0]
        for effect in first.effects:
            if effect.guards:
                continue
            if isinstance(effect, ir.MoveCard):
                real, real_env = deref(effect.card, effect.env)
                if isinstance(real, CardAt):
                    lits += comp.exists(real.cards, real_env, ctl)
            elif isinstance(effect, ir.BulkMove):
                lits += comp.exists(effect.source, effect.env, ctl)
        return lits

    def ranges(self, program: ir.Program, model: Any) -> Ranges:
        """Integer ranges: with generous loop bounds, or modest ones when the generous bounds
        make a cell's range too large (see :func:`.ranges.execution_bounds`)."""
        bounds = execution_bounds(program, model)
        try:
            return Ranges(model, program, self.size_bound, self.sum_interval, self.score_interval,
                          lambda e: bounds.get(e.id))
        except TranslationError:
            modest = execution_bounds(program, model, nested=False)
            if modest == bounds:
                raise
            return Ranges(model, program, self.size_bound, self.sum_interval, self.score_interval,
                          lambda e: modest.get(e.id))

    def batch(self, batch_id: str) -> Batch:
        """A batch by id."""
        for block in self.control.flow_batches.values():
            for batch in block:
                if batch.id == batch_id:
                    return batch
        for block in self.control.option_batches.values():
            for batch in block:
                if batch.id == batch_id:
                    return batch
        raise KeyError(batch_id)

    def chance(self, batches: dict[str, Batch]) -> None:
        """``random``'s moves: a draw, a tie break or a number where a step needs one."""
        if not self.has_chance():
            return
        book = self.book
        with book.group("random: what it chooses in a step that needs chance, else noop"):
            for uses in self.comp.chance_uses.values():
                for kind, cond, pick, var in uses:
                    book.add(rule(f("legal", RANDOM, f(kind, var)), cond + pick))
                    book.add(rule(c("chance"), cond))
            book.add(rule(f("legal", RANDOM, NOOP), Not(c("chance")))
                     if self.comp.chance_uses else rule(f("legal", RANDOM, NOOP)))
        # A manager that plays random itself may track random's state from its percepts alone
        # (the GameControllers' local players do, ignoring the moves they made): seeing every
        # move, random knows the true state, hence its legal moves. See docs/interop.md.
        with book.group("random sees every move, so that it always knows its legal moves"):
            who, move = Variable("r"), Variable("m")
            book.add(rule(f("sees", RANDOM, f("did", who, move)), f("role", who), f("does", who, move)))

    def storage(self, model: Any) -> None:
        """Initial values and frame rules of integer, string and point-map storage."""
        book = self.book
        O, N, V = Variable("o"), Variable("n"), Variable("v")
        with book.group("storage starts at 0 (integers) and unset (strings)"):
            for kind, label in model.int_cells:
                for owner in model.owners(kind):
                    if self.comp.wide.is_wide((kind, label)):
                        self.comp.wide.init((kind, label), owner)
                    else:
                        book.add(rule(f("init", f("sto", c(owner), name(label), num(0)))))
            for kind, label in model.str_cells:
                for owner in model.owners(kind):
                    book.add(rule(f("init", f("str", c(owner), name(label), UNSET))))
        with book.group("storage keeps its value unless written"):
            for fluent, setter, written in (("sto", "stoset", "stowritten"), ("str", "strset", "strwritten"),
                                            ("pmap", "pmapset", "pmwritten")):
                if not self.defines(setter):
                    if fluent != "pmap":
                        book.add(rule(nxt(f(fluent, O, N, V)), true(f(fluent, O, N, V))))
                    continue
                book.add(rule(f(written, O, N), f(setter, O, N, V)))
                book.add(rule(nxt(f(fluent, O, N, V)), f(setter, O, N, V)))
                book.add(rule(nxt(f(fluent, O, N, V)), true(f(fluent, O, N, V)), Not(f(written, O, N))))
            if self.defines("wstoset"):
                I = Variable("i")
                book.add(rule(f("wwritten", O, N), f("wstoset", O, N, I, V)))
                book.add(rule(nxt(f("wsto", O, N, I, V)), f("wstoset", O, N, I, V)))
                book.add(rule(nxt(f("wsto", O, N, I, V)), true(f("wsto", O, N, I, V)), Not(f("wwritten", O, N))))
            elif self.comp.wide.families:
                I = Variable("i")
                book.add(rule(nxt(f("wsto", O, N, I, V)), true(f("wsto", O, N, I, V))))

    def defines(self, relation: str) -> bool:
        """Whether some rule defines ``relation``."""
        return any(r.head.name == relation for r in self.book.rules())

    def turns(self, control: Control, option_first: dict[str, tuple[ir.ChoiceNode, ir.Option]],
              program: ir.Program) -> None:
        """Seats, queues, the program counter and the choice counter from one step to the next."""
        book = self.book
        S, P, U, X, N, M = (Variable(n) for n in ("s", "p", "u", "x", "n", "m"))
        with book.group("seats: the top level starts at seat 0; a stage's seat as resolved, unless set"):
            book.add(rule(f("init", f("seat", c("s0"), c("player0")))))
            book.add(rule(f("hasqueue", S), true(f("queue", S, X))))
            book.add(rule(f("hasrqueue", S), f("rqueue", S, X)))
            book.add(rule(f("rnext", S, P), f("rqueue", S, P)))
            book.add(rule(f("rnext", S, P), f("rseat", S, U), Not(f("hasrqueue", S)), f("nextseat", U, P)))
            book.add(rule(f("rtnext", S, P), f("rtseat", S, U), f("nextteam", U, P)))
            book.add(rule(nxt(f("tseat", S, P)), f("rtseat", S, P)))
            if self.defines("seatset"):
                book.add(rule(f("seatwritten", S), f("seatset", S, P)))
                book.add(rule(nxt(f("seat", S, P)), f("seatset", S, P)))
                book.add(rule(nxt(f("seat", S, P)), f("rseat", S, P), Not(f("seatwritten", S))))
            else:
                book.add(rule(nxt(f("seat", S, P)), f("rseat", S, P)))
            if self.defines("queueset"):
                book.add(rule(f("queuewritten", S), f("queueset", S, P)))
                book.add(rule(nxt(f("queue", S, P)), f("queueset", S, P)))
                book.add(rule(nxt(f("queue", S, P)), f("rqueue", S, P), Not(f("queuewritten", S))))
        with book.group("the program counter: where the next step resumes"):
            for point in control.points.values():
                if point.kind == "batch" and point.id not in option_first:
                    book.add(rule(f("npc", c(control.after[point.id])), f("at_step", c(point.id))))
            book.add(rule(nxt(f("pc", X)), f("npc", X)))
        with book.group(f"choices made so far (CardStock stops a game at {CHOICE_LIMIT})"):
            book.add(rule(f("init", f("choices", num(0)))))
            for k in range(CHOICE_LIMIT):
                book.add(rule(f("nextcount", num(k), num(k + 1))))
            if program.choices:
                book.add(rule(nxt(f("choices", M)), true(f("choices", N)), c("choicestep"), f("nextcount", N, M)))
                book.add(rule(nxt(f("choices", N)), true(f("choices", N)), Not(c("choicestep"))))
                book.add(rule(c("limit"), c("choicestep"), true(f("choices", num(CHOICE_LIMIT)))))
            else:
                book.add(rule(nxt(f("choices", N)), true(f("choices", N))))

    def ending(self, control: Control, program: ir.Program) -> None:
        """Failures and ``terminal``."""
        book = self.book
        X = Variable("x")
        L = Variable("l")
        with book.group("failures: a value out of its range, a pile whose order is not known"):
            for kind, lits in self.emitter.failures:
                book.add(rule(f("fails", c(kind)), lits))
            for batch_id in self.read_tops():
                book.add(rule(f("fails", c("order")), f("at_step", c(batch_id)), f("lostread", L),
                              f("readstop", c(batch_id), L)))
            book.add(rule(f("fails", c("loop")), f("at_step", c("loop"))))
            book.add(rule(nxt(f("failed", X)), f("fails", X)))
            book.add(rule(nxt(f("failed", X)), true(f("failed", X))))
            book.add(rule(c("has_failed"), true(f("failed", X))))
        with book.group("the game ends when the program ends, fails, or a choice has no option"):
            book.add(rule(c("terminal"), f("at_step", c("end"))))
            book.add(rule(c("terminal"), f("at_step", c("loop"))))
            book.add(rule(c("terminal"), c("has_failed")))
            if program.choices:
                book.add(rule(c("terminal"), c("stuck")))
                book.add(rule(c("terminal"), c("limit")))
                book.add(rule(c("has_failed"), c("stuck")))
                book.add(rule(c("has_failed"), c("limit")))

    def read_tops(self) -> list[str]:
        """Batches reading the top of an ordered pile (checked for lost order)."""
        return []

    def banner(self, model: Any, roles: Any) -> str:
        """The comment at the top of the KIF text."""
        source = self.game.source or "a RECYCLE game"
        warnings = "".join(f"\n{WARNING_MARK} {p.location.line} {p.location.column} {p.message}" for p in self.warnings)
        return (f"GDL-II translation of {Path(source).name} (RECYCLE, CardStock)\n"
                f"{model.players} players, {len(model.cards)} cards; roles: {' '.join(str(r) for r in roles)}\n"
                "generated by translators.recycle; see docs/translation.md" + warnings)


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
            return Translator(game).run()
    except TranslationError as exc:
        if exc.location is not None and game.source:
            exc.location = exc.location.with_file(game.source)
        raise


def translate(game: Game) -> GameDescription:
    """The GDL-II rules of a parsed RECYCLE game."""
    return compile_game(game).description


def translate_file(path: str | Path) -> Translation:
    """Read, parse and translate a ``.rcy`` file."""
    from translators.recycle import parse_recycle_file

    return compile_game(parse_recycle_file(path))


__all__ = ["CHOICE_LIMIT", "WARNING_MARK", "Translator", "compile_game", "translate", "translate_file", "warnings_in_kif"]
