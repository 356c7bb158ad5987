"""What an option's actions change, what a fork reads, and a fork's collection as the moves
before it leave it (``ir/footprints.py``, ``ir/previews.py``): one option of text in, one line
of RECYCLE (or a set of names) out."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.translate.language import game
from translators.recycle import parse_recycle
from translators.recycle.ir.footprints import reads, writes
from translators.recycle.ir.nodes import Alias, Env
from translators.recycle.ir.previews import condition_before, preview
from translators.recycle.syntax.nodes import ActionAgg, Choice, Conditional, Do, Let
from translators.recycle.syntax.printer import print_recycle

DRAW = "(move (top (game iloc STOCK)) (top (game iloc HAND)))"
THROW = "(move (top (game iloc HAND)) (top (game vloc DISCARD)))"
FORK = "(move 'C (top (game vloc DISCARD)))"


def _option(option: str) -> Do:
    text = game(f"(stage player (end (== (size (game iloc STOCK)) 0)) (choice ({option})))")
    choice = next(node for node in parse_recycle(text, "option.rcy").walk() if isinstance(node, Choice))
    item = choice.items[0]
    assert isinstance(item, Do)
    return item


def _previewed(option: str) -> str | None:
    """The collection of the option's ``any`` as the actions before it leave it."""
    item = _option(option)
    index = next(i for i, a in enumerate(item.items) if isinstance(a, (ActionAgg, Let)))
    fork: Any = item.items[index]
    env = Env()
    while isinstance(fork, Let):
        env, fork = env.bind(fork.var.name, Alias(fork.value, env)), fork.body
    assert isinstance(fork, ActionAgg)
    result = preview(fork.collection, env, tuple((action, Env()) for action in item.items[:index]))
    return None if result is None else " ".join(print_recycle(result).split())


def _var(option: str, inner: bool = False) -> str:
    """The variable a preview names after the move it reads (its line and column), or the
    condition (``inner``: the move under it)."""
    move: Any = _option(option).items[0]
    move = move.body if inner else move
    return f"'PREVIEW_{move.line}_{move.column}"


@pytest.mark.parametrize(("option", "expected"), [
    (f"(do ({DRAW} (any (game iloc HAND) 'C {FORK})))",
     "(union (game iloc HAND) (filter (game iloc STOCK) {v} (== {v} (top (game iloc STOCK)))))"),
    (f"(do ({THROW} (any (game iloc HAND) 'C {FORK})))",
     "(filter (game iloc HAND) {v} (!= {v} (top (game iloc HAND))))"),
    (f"(do ({DRAW} (any (filter (game iloc HAND) 'X (== (cardatt RANK 'X) ONE)) 'C {FORK})))",
     "(filter (union (game iloc HAND) (filter (game iloc STOCK) {v} (== {v} (top (game iloc STOCK))))) 'X "
     "(== (cardatt RANK 'X) ONE))"),
    (f"(do ((inc (game sto N) 1) (any (filter (game iloc HAND) 'X (< (game sto N) 3)) 'C {FORK})))",
     "(filter (game iloc HAND) 'X (< (+ (game sto N) 1) 3))"),
    (f"(do ((set (game str S) (cardatt SUIT (top (game vloc DISCARD)))) (inc (game sto N) 1)"
     f" (any (filter (game iloc HAND) 'X (and (< (game sto N) 3) (== (cardatt SUIT 'X) (game str S)))) 'C {FORK})))",
     "(filter (game iloc HAND) 'X (and (< (+ (game sto N) 1) 3) (== (cardatt SUIT 'X) (cardatt SUIT (top (game vloc DISCARD))))))"),
    (f"(do ((inc (game sto N) 1) (any (filter (game iloc HAND) 'X (< ((0 player) sto N) 3)) 'C {FORK})))", None),
    (f"(do ((shuffle (game iloc HAND)) (any (game iloc HAND) 'C {FORK})))", None),
    (f"(do ({DRAW} (any (game iloc DISCARD) 'C {FORK})))", "(game iloc DISCARD)"),
    (f"(do ({DRAW} (let (cardatt RANK (top (game vloc DISCARD))) 'R"
     f" (any (filter (game iloc HAND) 'X (== (cardatt RANK 'X) 'R)) 'C {FORK}))))",
     "(filter (union (game iloc HAND) (filter (game iloc STOCK) {v} (== {v} (top (game iloc STOCK))))) 'X "
     "(== (cardatt RANK 'X) 'R))"),
    (f"(do ({DRAW} (let (size (game iloc HAND)) 'N (any (filter (game iloc HAND) 'X (< 'N 3)) 'C {FORK}))))",
     None),
    (f"(do (((> (size (game iloc STOCK)) 0) {DRAW}) (any (game iloc HAND) 'C {FORK})))",
     "(union (filter (union (game iloc HAND) (filter (game iloc STOCK) {w} (== {w} (top (game iloc STOCK))))) {v} "
     "(> (size (game iloc STOCK)) 0)) (filter (game iloc HAND) {v} (not (> (size (game iloc STOCK)) 0))))"),
    (f"(do ((repeat 2 {DRAW}) (any (game iloc HAND) 'C {FORK})))", "(union (game iloc HAND) (top 2 (game iloc STOCK)))"),
    (f"(do ((repeat 2 {DRAW}) (any (game iloc STOCK) 'C {FORK})))",
     "(filter (game iloc STOCK) {v} (== (size (filter (top 2 (game iloc STOCK)) {v}_RUN (== {v}_RUN {v}))) 0))"),
    (f"(do ((repeat (size (game iloc HAND)) {DRAW}) (any (game iloc HAND) 'C {FORK})))", None),
], ids=["draw", "throw", "filter", "count", "cells", "other-owner", "shuffle", "elsewhere", "let", "let-reads",
        "if-drawn", "draw-two", "draw-two-source", "draw-computed"])
def test_preview(option: str, expected: str | None) -> None:
    wanted = None if expected is None else expected.format(v=_var(option), w=_var(option, "{w}" in expected))
    assert _previewed(option) == wanted


WON = "(move (top (game vloc WON)) (top (game iloc HAND)))"


def _named(text: str | None) -> str | None:
    """``text`` with the preview's variables named 'A, 'B... in the order they first appear."""
    if text is None:
        return None
    names: dict[str, str] = {}
    return re.sub(r"'PREVIEW_\d+_\d+", lambda m: names.setdefault(m.group(0), "'" + "ABCDEFGH"[len(names)]), text)


@pytest.mark.parametrize(("option", "expected"), [
    # a card thrown away, then one drawn where the hand still has one: the condition is read as
    # the throw leaves the hand, each case the hand as its actions leave it
    (f"(do ({THROW} ((> (size (game iloc HAND)) 0) {DRAW}) (any (game iloc HAND) 'C {FORK})))",
     "(union (filter (filter (union (game iloc HAND) (filter (game iloc STOCK) 'A (== 'A (top (game iloc STOCK))))) "
     "'B (!= 'B (top (game iloc HAND)))) 'C (> (size (filter (game iloc HAND) 'B (!= 'B (top (game iloc HAND))))) 0)) "
     "(filter (filter (game iloc HAND) 'B (!= 'B (top (game iloc HAND)))) 'C "
     "(not (> (size (filter (game iloc HAND) 'B (!= 'B (top (game iloc HAND))))) 0))))"),
    # a card taken onto the hand where WON has one, then the hand's top thrown away where it has
    # one: the card thrown is the card just taken, in the case it was taken
    (f"(do (((> (size (game vloc WON)) 0) {WON}) ((> (size (game iloc HAND)) 0) {THROW}) (any (game iloc HAND) 'C {FORK})))",
     "(union (filter (union (filter (filter (union (game iloc HAND) (filter (game vloc WON) 'A (== 'A (top (game vloc WON))))) "
     "'B (!= 'B (top (game vloc WON)))) 'C (> (size (union (game iloc HAND) (filter (game vloc WON) 'A "
     "(== 'A (top (game vloc WON)))))) 0)) (filter (union (game iloc HAND) (filter (game vloc WON) 'A "
     "(== 'A (top (game vloc WON))))) 'C (not (> (size (union (game iloc HAND) (filter (game vloc WON) 'A "
     "(== 'A (top (game vloc WON)))))) 0)))) 'D (> (size (game vloc WON)) 0)) (filter (union (filter (filter "
     "(game iloc HAND) 'B (!= 'B (top (game iloc HAND)))) 'C (> (size (game iloc HAND)) 0)) (filter (game iloc HAND) "
     "'C (not (> (size (game iloc HAND)) 0)))) 'D (not (> (size (game vloc WON)) 0))))"),
    # the card under the top, once the top is thrown away: not written
    (f"(do ({THROW} ((> (size (game iloc HAND)) 0) {THROW}) (any (game iloc HAND) 'C {FORK})))", None),
    # the pile taken up whole, then a card thrown away: the hand with every card of the pile
    (f"(do ((repeat all {WON}) (any (game iloc HAND) 'C {FORK})))", "(union (game iloc HAND) (game vloc WON))"),
    (f"(do ((repeat all {WON}) (any (game vloc WON) 'C {FORK})))", "(filter (game vloc WON) 'A (== 1 0))"),
    (f"(do ((repeat all {WON}) ((> (size (game vloc WON)) 0) {DRAW}) (any (game iloc HAND) 'C {FORK})))",
     "(union (filter (union (union (game iloc HAND) (filter (game iloc STOCK) 'A (== 'A (top (game iloc STOCK))))) "
     "(game vloc WON)) 'B (> (size (filter (game vloc WON) 'C (== 1 0))) 0)) (filter (union (game iloc HAND) "
     "(game vloc WON)) 'B (not (> (size (filter (game vloc WON) 'C (== 1 0))) 0))))"),
], ids=["throw-then-if-draw", "if-take-then-if-throw", "second-card", "take-all", "take-all-source",
        "take-all-then-if"])
def test_preview_case_by_case(option: str, expected: str | None) -> None:
    assert _named(_previewed(option)) == expected


def test_a_condition_after_a_conditional_raise_is_read_case_by_case() -> None:
    item = _option(f"(do (((> (size (game vloc DISCARD)) 1) (inc (game sto N) 1)) ((> (game sto N) 1) {DRAW})))")
    second = item.items[1]
    assert isinstance(second, Conditional)
    result = condition_before(second.condition, Env(), ((item.items[0], Env()),))
    assert " ".join(print_recycle(result).split()) == (
        "(or (and (> (size (game vloc DISCARD)) 1) (> (+ (game sto N) 1) 1)) "
        "(and (not (> (size (game vloc DISCARD)) 1)) (> (game sto N) 1)))")


def _keys(keys: set[tuple[str, ...]]) -> set[str]:
    return {":".join(key) for key in keys}


@pytest.mark.parametrize(("action", "expected"), [
    (DRAW, {"loc:STOCK", "loc:HAND"}),
    ("(inc ((current player) sto SCORE) (size (game iloc HAND)))", {"int:SCORE"}),
    ("(set (game str LEAD) (cardatt SUIT (top (game vloc TRICK))))", {"str:LEAD"}),
    ("(cycle next current)", {"turn"}),
    ("(all player 'P (shuffle ('P iloc HAND)))", {"loc:HAND"}),
])
def test_writes(action: str, expected: set[str]) -> None:
    node: Any = _option(f"(do ({action} {THROW}))").items[0]
    assert _keys(writes(node, Env())) == expected


@pytest.mark.parametrize(("expression", "expected"), [
    ("(filter ((current player) iloc HAND) 'X (< (game sto N) 3))", {"loc:HAND", "int:N", "turn"}),
    ("(filter (game iloc HAND) 'X (== (cardatt SUIT 'X) (game str LEAD)))", {"loc:HAND", "str:LEAD"}),
    ("(filter (game iloc HAND) 'X (> (score 'X using (game points VALUE)) 1))", {"loc:HAND", "points:VALUE"}),
])
def test_reads(expression: str, expected: set[str]) -> None:
    fork = _option(f"(do ({DRAW} (any {expression} 'C {FORK})))").items[1]
    assert isinstance(fork, ActionAgg)
    assert _keys(reads(fork.collection, Env())) == expected
