"""Scores and goals: the scoring rule ranks the players.

Each seat's score is the scoring expression evaluated with that seat as ``(current player)``;
``(score ROLE N)`` gives it (a plain relation, for analysis). Players are ranked by it (highest
first for ``max``, lowest for ``min``); a player's goal is 100 x (players ranked below + half
the players tied with it) / (players - 1), rounded to the nearest integer (halves up). A game
that failed (500 choices, a choice with no option, a control loop, a value out of range...)
is a draw: every player gets 50.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ggp.gdl.rules import Distinct, Not
from ggp.gdl.terms import Constant, Function, Variable
from translators.recycle.emit.contexts import FixedSeatCtl
from translators.recycle.emit.protocol import Compiler
from translators.recycle.emit.wide import digits_for, encode
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import c, f, num, rule
from translators.recycle.syntax.nodes import IntStorage, RelativePlayer, TeamOf


def goal_value(below: int, tied: int, players: int) -> int:
    """100 x (below + tied/2) / (players - 1), rounded half up (100 for a lone player)."""
    if players < 2:
        return 100
    value = Fraction(100) * (Fraction(below) + Fraction(tied, 2)) / (players - 1)
    return int(value + Fraction(1, 2))


def emit_goals(comp: Compiler, env: Env) -> None:
    """``score``, the ranking and ``goal`` rules."""

    comp_ = comp
    model = comp_.model
    book = comp_.book
    scoring = model.game.scoring
    n = model.players
    low, high = comp_.interval(scoring.value, env)

    real, real_env = deref(scoring.value, env)
    family = comp_.family(real, real_env) if isinstance(real, IntStorage) else None
    direct = (family is not None and comp_.wide.is_wide(family)
              and isinstance(real.owner, (RelativePlayer, TeamOf)))
    if not direct:
        with book.group(f"scores: {describe(scoring)}", scoring):
            for seat in range(n):
                lits, value = comp_.int_(scoring.value, env, FixedSeatCtl(seat, n))
                book.add(rule(f("score", c(f"player{seat}"), value), lits))
    if direct:
        assert family is not None  # direct reads a wide family
        _wide_ranking(comp_, real, real_env, family, scoring.order)
    elif high - low + 1 <= 400:
        _unary_ranking(comp_, low, high, scoring.order)
    else:
        _digit_ranking(book, n, low, high, scoring.order)
    P, Q, K, K2, B, B2, T, T2, G = (Variable(x) for x in ("p", "q", "k", "k2", "b", "b2", "t", "t2", "g"))
    comp_.tables.cover((0, n))
    with book.group("goals: 100 x (players below + half the players tied) / (players - 1); "
                    "(rank P K B T): of the first K seats, P beats B and ties T"):
        book.add(rule(c("normal_end"), f("at_step", c("end")), Not(c("has_failed"))))
        # control goes round without running anything: the engine stops it as a game stuck in a loop
        book.add(rule(c("normal_end"), f("at_step", c("loop")), Not(c("has_failed"))))
        before = f("rank", P, K, B, T)
        book.add(rule(f("rank", P, num(0), num(0), num(0)), f("seat", P)))
        book.add(rule(f("rank", P, K2, B2, T), before, f("seatnum", K, Q), f("beats", P, Q), f("succ", K, K2),
                      f("succ", B, B2)))
        book.add(rule(f("rank", P, K2, B, T2), before, f("seatnum", K, Q), f("tie", P, Q), f("succ", K, K2),
                      f("succ", T, T2)))
        book.add(rule(f("rank", P, K2, B, T), before, f("seatnum", K, Q), Not(f("beats", P, Q)), Not(f("tie", P, Q)),
                      f("succ", K, K2)))
        book.add(rule(f("goal", P, G), c("normal_end"), f("rank", P, num(n), B, T), f("goalvalue", B, T, G)))
        book.add(rule(f("goal", P, num(50)), f("seat", P), Not(c("normal_end"))))
        for b in range(n):
            for t in range(n - b):
                book.add(rule(f("goalvalue", num(b), num(t), num(goal_value(b, t, n)))))


def _unary_ranking(comp: Compiler, low: int, high: int, order: str) -> None:
    """``beats`` and ``tie`` from a chain "the score is at least (max) / at most (min) v"
    over the successor table."""
    P, Q, V, W = (Variable(x) for x in ("p", "q", "v", "w"))
    comp.tables.cover((low, high))
    word = "atleast" if order == "max" else "atmost"

    def step(smaller: Variable, larger: Variable) -> Function | Constant:
        """``larger`` is one better than ``smaller``."""
        return f("succ", smaller, larger) if order == "max" else f("succ", larger, smaller)

    with comp.book.group(f"ranking ({order} is best): (beats P Q) when P's score is better, (tie P Q) when equal"):
        comp.book.add(rule(f(word, P, V), f("score", P, V)))
        comp.book.add(rule(f(word, P, V), f(word, P, W), step(V, W)))
        comp.book.add(rule(f("beats", P, Q), f("score", Q, V), step(V, W), f(word, P, W)))
        comp.book.add(rule(f("tie", P, Q), f("score", P, V), f("score", Q, V), Distinct(P, Q)))


def _wide_ranking(comp: Compiler, node: IntStorage, env: Env, family: tuple[str, str], order: str) -> None:
    """The scoring reads a wide cell: compare its stored digits directly."""
    book = comp.book
    n = comp.model.players
    k = comp.wide.k[family]
    D = Variable("d")
    with book.group("each player's score, in the decimal digits of a wide cell (scoredigit ROLE POS DIGIT): "
                    f"the score is the number they spell minus {5 * 10 ** (k - 1)}"):
        for seat in range(n):
            lits, owner = comp.owner(node.owner, env, FixedSeatCtl(seat, n))
            for i in range(k):
                book.add(rule(f("sdigit", c(f"player{seat}"), num(i), D),
                              lits + [f("true", f("wsto", owner, comp.storage_name(node.name, env), num(i), D))]))
                book.add(rule(f("scoredigit", c(f"player{seat}"), num(i), D), [f("sdigit", c(f"player{seat}"), num(i), D)]))
    _lexicographic(book, k, order)


def _lexicographic(book: Any, k: int, order: str) -> None:
    """beats/ties from ``(sdigit ROLE POS DIGIT)``, most significant digit first."""
    D, A, B = Variable("d"), Variable("a"), Variable("b")
    with book.group(f"ranking ({order} is best) by the scores' decimal digits"):
        for a in range(10):
            for b in range(10):
                if (a > b) if order == "max" else (a < b):
                    book.add(rule(f("digitbetter", num(a), num(b))))
        I, J, E = Variable("i"), Variable("j"), Variable("e")
        # (same I J POS): I's and J's digits agree from the most significant down to POS
        book.add(rule(f("same", I, J, num(k)), f("sdigit", I, num(0), D), f("sdigit", J, num(0), E), Distinct(I, J)))
        for pos in range(k - 1, -1, -1):
            book.add(rule(f("same", I, J, num(pos)), f("same", I, J, num(pos + 1)), f("sdigit", I, num(pos), D),
                          f("sdigit", J, num(pos), D)))
            book.add(rule(f("beats", I, J), f("same", I, J, num(pos + 1)), f("sdigit", I, num(pos), A),
                          f("sdigit", J, num(pos), B), f("digitbetter", A, B)))
        book.add(rule(f("tie", I, J), f("same", I, J, num(0))))


def _digit_ranking(book: Any, n: int, low: int, high: int, order: str) -> None:
    """beats/ties comparing the scores' decimal digits from the most significant (wide ranges)."""
    k = digits_for((low, high))
    V = Variable("v")
    ds = [Variable(f"d{i}") for i in range(k)]
    with book.group("each player's score in decimal digits"):
        for v in range(low, high + 1):
            book.add(rule(f("scoredigits", num(v), *[num(x) for x in encode(v, k)])))
        for seat in range(n):
            role = c(f"player{seat}")
            for i in range(k):
                book.add(rule(f("sdigit", role, num(i), ds[i]), f("score", role, V), f("scoredigits", V, *ds)))
    _lexicographic(book, k, order)


__all__ = ["emit_goals", "goal_value"]
