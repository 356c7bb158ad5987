"""Blocks run since the last choice: the engine ends a game that runs on without one.

CardStock's ``GameIterator.AdvanceToChoice`` processes the game's nodes (a stage's end check, a
``do``, an ``all``) until a choice is due, and after 200 of them without one prints "Game stuck
in loop" and ends the game, scored as any finished game. The translation counts the steps
since the last choice that begin a block of actions or a new pass of a stage, ``(idle PLACE
DIGIT)`` in decimal digits, and ends the game the same way once 201 have run, between two
blocks: each such step runs one or more of the engine's nodes, so it never ends a game the
engine plays on, and a game that loops without choices (a War
with no decision, a stage whose end can never hold) is finite, as GDL wants, where its rules
ran for ever before. The engine counts every stage check and every node of a block, so it
ends such a game sooner.
"""

from __future__ import annotations

from ggp.gdl.rules import Distinct, Not
from ggp.gdl.terms import Variable
from translators.recycle.analysis.batches import StepPlan
from translators.recycle.emit.arith import Tables
from translators.recycle.emit.control import Control
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.vocabulary import c, f, num, nxt, rule, true

#: The nodes the engine processes without a choice before it ends the game (its count passes 200).
STUCK_NODES = 201


def emit_idle(book: RuleBook, tables: Tables, plan: StepPlan, control: Control, has_choices: bool) -> None:
    """``(idle K D)``, digit D at place K (0 the units): one for each step that begins a block of
    the flow or a new pass of a stage (each at least one node of the engine's), up to
    ``STUCK_NODES``, reset by every choice; the game ends when the count is full and no block
    is half run. A fluent per place, not one holding every digit: a grounder makes ten atoms a
    place, not one per count."""
    places = [num(k) for k in range(len(str(STUCK_NODES)))]
    full = [true(f("idle", place, num(int(digit)))) for place, digit in zip(places, reversed(str(STUCK_NODES)))]
    d, e, k, b = Variable("d"), Variable("e"), Variable("k"), Variable("b")
    choice = [Not(c("choicestep"))] if has_choices else []
    with book.group(f"nodes of the engine's run since the last choice, at least: CardStock ends a game after "
                    f"{STUCK_NODES} without one"):
        tables.cover((0, 9))
        for place in places:
            book.add(rule(f("init", f("idle", place, num(0)))))
        for more in control.passes:
            book.add(rule(c("idle_pass"), c(more)))
        for block, batches in plan.flow.items():
            for batch in batches:
                book.add(rule(c("idle_flow"), f("at_step", c(batch.id))))
            for later in batches[1:]:  # a block goes on from a batch of its own to a later one
                book.add(rule(f("idle_in", c(block)), true(f("pc", c(later.id)))))
                book.add(rule(f("idle_at", c(block)), f("at_step", c(later.id))))
        book.add(rule(c("idle_within"), f("idle_in", b), f("idle_at", b), Not(c("idle_pass"))))
        book.add(rule(c("idle_full"), full))
        book.add(rule(f("idle_up", places[0]), c("idle_flow"), Not(c("idle_within")), Not(c("idle_full")), choice))
        book.add(rule(f("idle_up", places[0]), c("idle_pass"), Not(c("idle_full")), choice))
        # a 9 passes the one on to the next place
        for lower, upper in zip(places, places[1:]):
            book.add(rule(f("idle_up", upper), f("idle_up", lower), true(f("idle", lower, num(9)))))
        book.add(rule(nxt(f("idle", k, e)), f("idle_up", k), true(f("idle", k, d)), f("succ", d, e), Distinct(d, num(9))))
        book.add(rule(nxt(f("idle", k, num(0))), f("idle_up", k), true(f("idle", k, num(9)))))
        book.add(rule(nxt(f("idle", k, d)), true(f("idle", k, d)), Not(f("idle_up", k)), choice))
        if has_choices:
            book.add(rule(nxt(f("idle", k, num(0))), c("choicestep"), true(f("idle", k, d))))
        book.add(rule(c("idle_over"), c("idle_full"), Not(c("idle_within"))))
        book.add(rule(c("terminal"), c("idle_over")))
        book.add(rule(c("normal_end"), c("idle_over"), Not(c("has_failed"))))


__all__ = ["STUCK_NODES", "emit_idle"]
