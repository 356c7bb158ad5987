"""The frame of the game: roles and seats, storage that keeps its value unless written, turns
and the program counter from one step to the next, failures and the end."""

from __future__ import annotations

from ggp.gdl.rules import Distinct, Not
from ggp.gdl.terms import Variable
from translators.recycle.analysis.batches import StepPlan
from translators.recycle.emit.arith import Tables
from translators.recycle.emit.control import Control
from translators.recycle.emit.protocol import Compiler
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.model import CHOICE_LIMIT, GameModel
from translators.recycle.symbols.vocabulary import (
    RANDOM,
    UNSET,
    c,
    f,
    name,
    num,
    nxt,
    rule,
    true,
)


def emit_header(book: RuleBook, model: GameModel, chance: bool) -> None:
    """Roles and the static tables of seats and teams."""
    with book.group("roles: the players in seat order, and random when the game has chance"):
        for seat in model.seats:
            book.add(rule(f("role", c(seat))))
        if chance:
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


def _defines(book: RuleBook, relation: str) -> bool:
    """Whether some rule defines ``relation``."""
    return any(r.head.name == relation for r in book.rules())


def emit_storage(comp: Compiler) -> None:
    """Initial values and frame rules of integer, string and point-map storage."""
    book, model, wide = comp.book, comp.model, comp.wide
    O, N, V = Variable("o"), Variable("n"), Variable("v")
    with book.group("storage starts at 0 (integers) and unset (strings)"):
        for kind, label in model.int_cells:
            for owner in model.owners(kind):
                if wide.is_wide((kind, label)):
                    wide.init((kind, label), owner)
                else:
                    book.add(rule(f("init", f("sto", c(owner), name(label), num(0)))))
        for kind, label in model.str_cells:
            for owner in model.owners(kind):
                book.add(rule(f("init", f("str", c(owner), name(label), UNSET))))
    with book.group("storage keeps its value unless written"):
        for fluent, setter, written in (("sto", "stoset", "stowritten"), ("str", "strset", "strwritten"),
                                        ("pmap", "pmapset", "pmwritten")):
            if not _defines(book, setter):
                if fluent != "pmap":
                    book.add(rule(nxt(f(fluent, O, N, V)), true(f(fluent, O, N, V))))
                continue
            book.add(rule(f(written, O, N), f(setter, O, N, V)))
            book.add(rule(nxt(f(fluent, O, N, V)), f(setter, O, N, V)))
            book.add(rule(nxt(f(fluent, O, N, V)), true(f(fluent, O, N, V)), Not(f(written, O, N))))
        I = Variable("i")
        if _defines(book, "wstoset"):
            book.add(rule(f("wwritten", O, N), f("wstoset", O, N, I, V)))
            book.add(rule(nxt(f("wsto", O, N, I, V)), f("wstoset", O, N, I, V)))
            book.add(rule(nxt(f("wsto", O, N, I, V)), true(f("wsto", O, N, I, V)), Not(f("wwritten", O, N))))
        elif wide.families:
            book.add(rule(nxt(f("wsto", O, N, I, V)), true(f("wsto", O, N, I, V))))


def emit_turns(book: RuleBook, tables: Tables, control: Control, plan: StepPlan, has_choices: bool) -> None:
    """Seats, queues, the program counter and the choice counter from one step to the next."""
    S, P, U, X = (Variable(n) for n in ("s", "p", "u", "x"))
    with book.group("seats: the top level starts at seat 0; a stage's seat as resolved, unless set"):
        book.add(rule(f("init", f("seat", c("s0"), c("player0")))))
        book.add(rule(f("hasqueue", S), true(f("queue", S, X))))
        book.add(rule(f("hasrqueue", S), f("rqueue", S, X)))
        book.add(rule(f("rnext", S, P), f("rqueue", S, P)))
        book.add(rule(f("rnext", S, P), f("rseat", S, U), Not(f("hasrqueue", S)), f("nextseat", U, P)))
        book.add(rule(f("rtnext", S, P), f("rtseat", S, U), f("nextteam", U, P)))
        book.add(rule(nxt(f("tseat", S, P)), f("rtseat", S, P)))
        if _defines(book, "seatset"):
            book.add(rule(f("seatwritten", S), f("seatset", S, P)))
            book.add(rule(nxt(f("seat", S, P)), f("seatset", S, P)))
            book.add(rule(nxt(f("seat", S, P)), f("rseat", S, P), Not(f("seatwritten", S))))
        else:
            book.add(rule(nxt(f("seat", S, P)), f("rseat", S, P)))
        if _defines(book, "queueset"):
            book.add(rule(f("queuewritten", S), f("queueset", S, P)))
            book.add(rule(nxt(f("queue", S, P)), f("queueset", S, P)))
            book.add(rule(nxt(f("queue", S, P)), f("rqueue", S, P), Not(f("queuewritten", S))))
    with book.group("the program counter: where the next step resumes"):
        for point in control.points.values():
            if point.kind == "batch" and point.id not in plan.option_first:
                book.add(rule(f("npc", c(control.after[point.id])), f("at_step", c(point.id))))
        book.add(rule(nxt(f("pc", X)), f("npc", X)))
    with book.group(f"choices made so far, in decimal digits (CardStock stops a game at {CHOICE_LIMIT})"):
        D = [Variable(n) for n in ("a", "b", "c")]
        E = [Variable(n) for n in ("a2", "b2", "c2")]
        book.add(rule(f("init", f("choices", num(0), num(0), num(0)))))
        if has_choices:
            tables.cover((0, 9))
            # the last digit steps; a 9 turns to 0 and carries into the digit before it; the
            # count stops at the limit (the game ends there)
            top = num(CHOICE_LIMIT // 100)
            for i in (2, 1, 0):
                before = D[:i] + [D[i]] + [num(9)] * (2 - i)
                after = D[:i] + [E[i]] + [num(0)] * (2 - i)
                book.add(rule(nxt(f("choices", *after)), true(f("choices", *before)), c("choicestep"),
                              f("succ", D[i], E[i]), Distinct(D[i], num(9)), Distinct(before[0], top)))
            # the engine counts the choice that passes the limit, then stops: one choice more
            cap = [num(int(d)) for d in f"{CHOICE_LIMIT:03d}"]
            over = [num(int(d)) for d in f"{CHOICE_LIMIT + 1:03d}"]
            book.add(rule(nxt(f("choices", *over)), true(f("choices", *cap)), c("choicestep")))
            book.add(rule(nxt(f("choices", *D)), true(f("choices", *D)), Not(c("choicestep"))))
            book.add(rule(c("limit"), c("choicestep"), true(f("choices", *over))))
        else:
            book.add(rule(nxt(f("choices", *D)), true(f("choices", *D))))


def emit_ending(comp: Compiler, has_choices: bool) -> None:
    """Failures and ``terminal``."""
    book = comp.book
    X = Variable("x")
    with book.group("failures: a value out of its range, a pile whose order is not known"):
        for kind, lits in comp.ledger.failures:
            book.add(rule(f("fails", c(kind)), lits))
        for kind, lits in comp.ledger.failures_now:
            book.add(rule(f("failsnow", c(kind)), lits))
        if comp.ledger.failures_now:
            book.add(rule(f("fails", X), f("failsnow", X)))
            book.add(rule(c("has_failed"), f("failsnow", X)))
        book.add(rule(nxt(f("failed", X)), f("fails", X)))
        book.add(rule(nxt(f("failed", X)), true(f("failed", X))))
        book.add(rule(c("has_failed"), true(f("failed", X))))
    with book.group("the game ends when the program ends, fails, or a choice has no option"):
        book.add(rule(c("terminal"), f("at_step", c("end"))))
        book.add(rule(c("terminal"), f("at_step", c("loop"))))
        book.add(rule(c("terminal"), c("has_failed")))
        if has_choices:
            book.add(rule(c("terminal"), c("stuck")))
            book.add(rule(c("terminal"), c("limit")))
            book.add(rule(c("has_failed"), c("stuck")))
            book.add(rule(c("has_failed"), c("limit")))


__all__ = ["CHOICE_LIMIT", "emit_ending", "emit_header", "emit_storage", "emit_turns"]
