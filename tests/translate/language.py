"""Small RECYCLE games for the language tests (``test_language_*.py``): each builds a game whose
outcome CardStock's semantics fix (``GameIterator.cs``), plays it at random through the
translation and, where the real engine is built (``conformance/cardstock/build.sh``, under
Mono), checks the engine's figures for the same text against the translation's (choices per
game, options per decision, shares, mean scores: ``ggp recycle stats --compare``'s test), an
independent check of the outcomes the tests expect.
"""

from __future__ import annotations

import itertools
import random
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from ggp.gdl.terms import Function
from ggp.reasoner import make_machine
from ggp.reasoner.machine import StateMachine
from translators.recycle import parse_recycle
from translators.recycle.engine import (
    EngineMissing,
    engine_figures,
    find_mono,
    find_runner,
)
from translators.recycle.playstats import Playout, play
from translators.recycle.refstats import compare
from translators.recycle.refstats import engine_figures as translation_figures
from translators.recycle.translate import compile_game
from translators.recycle.translation_error import TranslationError

DECK = "(deck (RANK (ONE, TWO, THREE)) (SUIT (RED, BLACK)))"


def game(body: str, players: int = 2, scoring: str = "(scoring max ((current player) sto SCORE))",
         deck: str = DECK, teams: str = "") -> str:
    """A game of ``players`` with the six-card deck in ``(game iloc STOCK)`` and ``body``."""
    return (f"(game (setup (create players {players}) {teams} (create deck (game iloc STOCK) {deck}))\n"
            f" {body}\n {scoring})")


def playouts(text: str, games: int = 6, seed: int = 1, engine_plays: bool = True) -> list[Playout]:
    """Random playouts of the translation of ``text`` (every one must end normally), checked
    against the real engine's play of the same text when it is built (``engine_plays``: the
    engine can play this game; it throws on a few constructs)."""
    game_tree = parse_recycle(text, "language.rcy")
    translation = compile_game(game_tree)
    machine = make_machine(translation.description, "fast")
    rng = random.Random(seed)
    out = [play(machine, translation.description, rng) for _ in range(games)]
    assert all(p.ending == "end" for p in out), [p.ending for p in out]
    if engine_plays and _engine_built():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "language.rcy"
            path.write_text(text, encoding="utf-8")
            engine = engine_figures(path, games=100)
        ours = translation_figures(out, translation.model.players, game_tree.scoring.order)
        per_decision = ("options_per_decision_mean", "decision_share_by_seat")
        differ = [str(a) for a in compare(ours, engine) if not a.agree
                  and not (ours["choices_mean"] == 0 and a.field.startswith(per_decision))]
        assert not differ, "the translation and the CardStock engine differ:\n" + "\n".join(differ)
    return out


def _engine_built() -> bool:
    try:
        find_mono()
        find_runner()
    except EngineMissing:
        return False
    return True


def scores(text: str, games: int = 6, engine_plays: bool = True) -> set[tuple[int, ...]]:
    """The final scores of random playouts, seat by seat."""
    return {tuple(p.scores[f"player{i}"] for i in range(len(p.scores)))
            for p in playouts(text, games, engine_plays=engine_plays)}


DRAW = "(stage player (end (== (size (game iloc STOCK)) 0)) " \
       "(choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"


HAND = "(scoring max (size ((current player) iloc HAND)))"


#: Every card its own power of two (ONE RED 1, ONE BLACK 2, TWO RED 4 ... THREE BLACK 32): a
#: hand's sum names its cards.
POWERS = ("(set (game points VALUE) (((RANK : ONE) (SUIT : RED) 1) ((RANK : ONE) (SUIT : BLACK) 2)"
          " ((RANK : TWO) (SUIT : RED) 4) ((RANK : TWO) (SUIT : BLACK) 8)"
          " ((RANK : THREE) (SUIT : RED) 16) ((RANK : THREE) (SUIT : BLACK) 32)))")


SUMS = "(scoring max (sum ((current player) iloc HAND) using (game points VALUE)))"


#: A Rummy-like game: each turn a player discards a card of their hand or draws the discard
#: pile's top, then draws from the stock; the discard pile gets several cards deep and its top
#: is drawn again and again.
RUMMY = game("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)"
             " ((RANK : FOUR) 4) ((RANK : FIVE) 5) ((RANK : SIX) 6)))"
             " (shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
             " (stage player (end (== (size (game iloc STOCK)) 0))"
             " (choice ((any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc DISCARD)))"
             " (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
             " ((> (size (game vloc DISCARD)) 0) (do ((move (top (game vloc DISCARD)) (top ((current player) iloc HAND)))"
             " (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))))))",
             deck="(deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX)) (SUIT (RED, BLACK)))",
             scoring="(scoring max (sum ((current player) iloc HAND) using (game points VALUE)))")


DEAL3 = "(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"


def dealt_scores(score: Callable[[list[int]], int]) -> set[tuple[int, int]]:
    """The scores, seat by seat, ``score`` gives every deal ``DEAL3`` can make of the six cards
    of ``DECK`` to two players (each hand as the cards' places in the deck's order: ONE RED,
    ONE BLACK, TWO RED ...): the independent reference the scores of random playouts must keep to."""
    out = set()
    for hand in itertools.combinations(range(6), 3):
        rest = [c for c in range(6) if c not in hand]
        out.add((score(list(hand)), score(rest)))
    return out


SUITS = ("(scoring max (+ (* 10 ((current player) sto RED)) ((current player) sto BLACK)))")


VALUE = "(set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))"


def capture_options(machine: StateMachine, ranks: list[str], games: int, seed: int,
                    must_take: bool = False) -> set[tuple[int, int]]:
    """Random games of a capture game (a card of the hand played to take a set of table cards
    whose points, a card's rank's place in ``ranks`` from 1, add up to its own; or thrown away,
    with ``must_take`` only when no card can take), checking at every decision that the legal
    moves are one per card of the hand and set of table cards adding up to it, and one per card
    of the hand (counted from the state with ``itertools``: the independent reference); the
    (takes, table size) pairs seen."""
    rng = random.Random(seed)
    seen = set()
    for _ in range(games):
        state = machine.initial_state()
        while not machine.is_terminal(state):
            moves = [machine.legal_moves(state, role) for role in machine.roles]
            where: dict[str, list[int]] = {}
            for fluent in state.fluents:
                if isinstance(fluent, Function) and fluent.name == "at":
                    rank = str(fluent.args[0]).split("_")[0]
                    where.setdefault(str(fluent.args[1]), []).append(ranks.index(rank) + 1)
            for seat, legal in enumerate(moves[:-1]):
                if str(legal[0]) == "noop":
                    continue
                hand, table = where.get(f"(loc player{seat} iloc hand)", []), where.get("(loc game vloc table)", [])
                takes = sum(1 for card in hand for k in range(1, len(table) + 1)
                            for chosen in itertools.combinations(table, k) if sum(chosen) == card)
                assert len(legal) == takes + (0 if must_take and takes else len(hand)), (hand, table)
                seen.add((takes, len(table)))
            state = machine.next_state(state, tuple(m[rng.randrange(len(m))] for m in moves))
    return seen


def translation_error(text: str, source: str) -> str:
    """The located error translating ``text`` (read as the file ``source``) gives; fails the
    test when it translates."""
    with pytest.raises(TranslationError) as info:
        compile_game(parse_recycle(text, source))
    return str(info.value)
