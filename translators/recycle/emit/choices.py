"""Who may do what: the options of every choice as the deciding player's legal moves, ``noop``
for the others, and ``random``'s moves where a step needs chance."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from ggp.errors import Location, Problem
from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Function, Term, Variable
from translators.recycle.analysis.batches import Batch, StepPlan
from translators.recycle.analysis.blind import (
    BLIND_BUDGET,
    blind_cost,
    fork_places,
    lossy_places,
    unseen_places,
)
from translators.recycle.emit.contexts import StepCtl
from translators.recycle.emit.control import Control
from translators.recycle.emit.effects import EffectEmitter
from translators.recycle.emit.handles import handle
from translators.recycle.emit.literals import ALWAYS
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import deref
from translators.recycle.ir.vacancy import nil_sets
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import NOOP, RANDOM, c, f, loc, rule
from translators.recycle.syntax.nodes import CardAt, Game


def has_chance(comp: Compiler, game: Game) -> bool:
    """Whether any step may need a random choice (any shuffle, tie or ``random``)."""
    return bool(comp.heapy) or any(isinstance(e, ir.Shuffle) for e in comp.program.effects.values()) or any(
        node.__class__.__name__ in ("ExtremeCard", "Random") for node in game.walk())


def emit_choices(comp: Compiler, control: Control, emitter: EffectEmitter, plan: StepPlan,
                 source: str) -> list[Problem]:
    """``legal`` rules of the players: the options of a choice, ``noop`` for the others; the
    warnings about options that name cards their chooser may not see."""
    book, program = comp.book, comp.program
    warnings: list[Problem] = []
    firsts = {(ch.id, op.index): b for b, (ch, op) in plan.option_first.items()}
    cost = blind_cost(unseen_places(program, comp.model, comp.domains), comp.domains)
    lossy = lossy_places(program, comp.model, comp.domains, comp.linked)
    why = (f" (naming them by place instead would cost {cost:,} of the {BLIND_BUDGET:,} allowed: the cube of the "
           "cards each such pile can hold)") if cost > BLIND_BUDGET else ""
    for choice in program.choices.values():
        stage = choice.env.player_stage().id
        who = Variable(f"seat_{stage}")
        anyopt = f("has_option", c(choice.id))
        for option in choice.options:
            offers = []
            for nil, empty in nil_sets(option):
                ctl = StepCtl(None, chance=False, decision=choice.id)
                lits: list[Literal] = [f("at_step", c(choice.id)), f("rseat", stage, who)]
                for cond, env in option.legal:  # what fails there (too many cards for a group's slots) fails here
                    lits += comp.cond(cond, env, ctl)
                for sym in option.forks:
                    if sym not in nil:
                        member, found = _member(comp, emitter, option, sym, who, ctl, (source, lossy, why))
                        warnings += [p for p in found if p not in warnings]
                        lits += member
                for sym in empty:  # offered without it: its collection is empty
                    assert sym.domain is not None
                    member = comp.elem_member(sym.domain.collection, sym.domain.env, ctl, sym.var, sym.kind)
                    lits += comp.negate(member, sym.domain.env, option.node)
                lits += _executable(comp, option, plan.options[(choice.id, option.index)], ctl, nil)
                for runs in _running(comp, option, empty, ctl):  # and another action of it runs
                    offers.append((emitter.choose_term(option, nil), lits + runs))
            with book.group(f"option {option.index} of choice {choice.id}: {describe(option.node)}", option.node):
                for move, lits in offers:
                    book.add(rule(f("legal", who, move), lits))
                    book.add(rule(anyopt, lits))
                first = firsts[(choice.id, option.index)]
                book.add(rule(f("npc", c(control.after[first])), emitter.activation(plan.batches[first])))
        with book.group(f"choice {choice.id}: who decides, and a choice without options"):
            book.add(rule(f("decides", who), f("at_step", c(choice.id)), f("rseat", stage, who)))
            book.add(rule(c("stuck"), f("at_step", c(choice.id)), Not(anyopt)))
            book.add(rule(c("choicestep"), f("at_step", c(choice.id))))
    who = Variable("who")
    with book.group("players who do not decide play noop"):
        if program.choices:
            book.add(rule(f("legal", who, NOOP), f("seat", who), Not(f("decides", who))))
        else:
            book.add(rule(f("legal", who, NOOP), f("seat", who)))
    return warnings


def _running(comp: Compiler, option: ir.Option, empty: tuple[ir.Sym, ...], ctl: StepCtl) -> list[list[Literal]]:
    """The ways an option offered without the forks ``empty`` runs another action: for each
    fork, an action that always runs (no literal), or the guards of one that may, read in the
    decision's state (``ir/vacancy.py``)."""
    ways: list[list[Literal]] = [[]]
    for sym in empty:
        guarded = option.vacancies[sym]
        ways = [way + [lit for guard in guards for lit in comp.cond(guard.cond, guard.env, ctl)]
                for way in ways for guards in guarded]
    return ways


def _member(comp: Compiler, emitter: EffectEmitter, option: ir.Option, sym: ir.Sym, who: Variable, ctl: StepCtl,
            where: tuple[str, set[Any], str]) -> tuple[list[Literal], list[Problem]]:
    """The literals making a fork's variable an element of its collection (with the name the
    chooser gives it, where it names cards by place), and the warnings about what they tell."""
    source, lossy, why = where
    assert sym.domain is not None
    member = comp.elem_member(sym.domain.collection, sym.domain.env, ctl, sym.var, sym.kind)
    if sym.var not in emitter.handles:
        return member, _hidden_options(comp, option, sym.var, who, member, source, why)
    lost = sorted(f"({p.owner} {p.vis} {p.name.lower()})" for p in set(fork_places(sym, comp.model, comp.domains)) & lossy)
    found = []
    if lost:  # named by place where the chooser does not see it
        message = (f"the options of this choice name the cards of {', '.join(lost)}, which its chooser may not "
                   "see, once its order is lost (cards moved onto it in bulk from a pile whose order is not kept): "
                   "its legal moves then tell it which cards are there")
        found.append(Problem(Location(source, option.node.line or 1, option.node.column or 1), message, "warning"))
    return member + [handle(comp, who, sym.var, emitter.handles[sym.var])], found


def _hidden_options(comp: Compiler, option: ir.Option, card: Term, who: Variable, member: list[Literal],
                    source: str, why: str = "") -> list[Problem]:
    """A warning when an option forks over cards in a location its chooser may not see (by
    :meth:`GameModel.visible`, for some seat of the chooser): the legal moves name the cards,
    so they tell the chooser which cards are there (``why`` they are not named by place)."""
    model = comp.model
    found = []
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
                       f"chooser may not see: its legal moves tell it which cards are there{why}")
            found.append(Problem(Location(source, node.line or 1, node.column or 1), message, "warning"))
    return found


def _executable(comp: Compiler, option: ir.Option, batches: list[Batch], ctl: StepCtl,
                nil: AbstractSet[ir.Sym] = frozenset()) -> list[Literal]:
    """CardStock offers an option only if it makes some action (``GameIterator.BuildOptions``
    drops an empty one): the unconditional card moves of the option's first step need a card to
    move; and an option all of whose effects are conditional (guarded, run for each card of an
    ``all``, which makes none over an empty collection, or a ``repeat all`` of the first step,
    none from an empty pile) needs one of them whose conditions hold in the decision's state
    (and, in the first step, that has a card to move). The effects in the body of a fork that is
    ``nil`` (``nil``) make no action."""
    first = batches[0]
    firsts = {e.id for e in first.effects}
    effects = [e for e in option.effects[:option.own] if not nil & set(e.env.syms())]

    def conditional(effect: ir.Effect) -> bool:
        # (a `repeat all` alone needs a card all the same: written as before, one literal)
        whole = isinstance(effect, ir.BulkMove) and effect.id in firsts and len(effects) > 1
        return bool(effect.guards or _loops(option, effect)) or whole

    lits: list[Literal] = []
    for effect in first.effects:
        if not conditional(effect) and not nil & set(effect.env.syms()):
            lits += _has_card(comp, effect, ctl)
    # the engine runs each action as it builds the option (GameIterator.RecurseDo, TempExecute),
    # so the first action it makes reads the decision's state: every one before it made none
    if effects and all(conditional(e) for e in effects):
        alternatives = [[lit for var, domain in _loops(option, e)
                         for lit in comp.member(domain.collection, domain.env, ctl, var)]
                        + [lit for guard in e.guards for lit in comp.cond(guard.cond, guard.env, ctl)]
                        + (_has_card(comp, e, ctl) if e.id in firsts else []) for e in effects]
        acts = comp.aux("acts", alternatives, option.env, option.node, extra=[(s.var, s.sort) for s in option.forks])
        lits += [] if acts is ALWAYS else [acts]
    return lits


def _loops(option: ir.Option, effect: ir.Effect) -> list[tuple[Variable, ir.Domain]]:
    """The card variables of the ``all`` loops within ``option`` that ``effect`` runs for, and
    their collections, outermost first."""
    outside = option.env.syms()
    return [(s.var, s.domain) for s in effect.env.syms()
            if s.domain is not None and s.domain.parallel and s not in outside]


def _has_card(comp: Compiler, effect: ir.Effect, ctl: StepCtl) -> list[Literal]:
    """What a card move needs to make an action: a card where it takes one from."""
    if isinstance(effect, ir.MoveCard):
        real, real_env = deref(effect.card, effect.env)
        if isinstance(real, CardAt):
            return comp.exists(real.cards, real_env, ctl)
    elif isinstance(effect, ir.BulkMove):
        return comp.exists(effect.source, effect.env, ctl)
    return []


def emit_chance(comp: Compiler) -> None:
    """``random``'s moves: a draw, a tie break or a number where a step needs one, else noop."""
    book, uses_by_batch = comp.book, comp.ledger.chance_uses
    with book.group("random: what it chooses in a step that needs chance, else noop"):
        for uses in uses_by_batch.values():
            for kind, cond, pick, var in uses:
                book.add(rule(f("legal", RANDOM, f(kind, var)), cond + pick))
                book.add(rule(c("chance"), cond))
        book.add(rule(f("legal", RANDOM, NOOP), Not(c("chance"))) if uses_by_batch else rule(f("legal", RANDOM, NOOP)))
    # A manager that plays random itself may track random's state from its percepts alone (the
    # GameControllers' local players do, ignoring the moves they made): seeing every move,
    # random knows the true state, hence its legal moves. See docs/interop.md.
    with book.group("random sees every move, so that it always knows its legal moves"):
        who, move = Variable("r"), Variable("m")
        book.add(rule(f("sees", RANDOM, f("did", who, move)), f("role", who), f("does", who, move)))


__all__ = ["emit_chance", "emit_choices", "has_chance"]
