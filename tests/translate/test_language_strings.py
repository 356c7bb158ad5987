"""Strings as the engine reads them: a card's attribute it lacks, the attribute of no card and a
string cell never set are all the empty string (``Card.ReadAttribute``, ``ProcessCardatt``,
``DefaultStorage<string>("")``), so they equal one another.

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

import random

from ggp.gdl.terms import Function
from ggp.reasoner import make_machine
from tests.translate.language import game, playouts
from translators.recycle import parse_recycle
from translators.recycle.symbols.vocabulary import card_constant
from translators.recycle.translate import compile_game

#: Six suited cards and two jokers without a SUIT; each turn a player plays a card of the
#: discard pile's suit, or passes; a card scores 1 when its SUIT is the never-set LEAD.
JOKERS = """(game
 (setup (create players 2)
   (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)) (SUIT (RED, BLACK))))
   (create deck (game iloc STOCK) (deck (JOKER (BIG, SMALL)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (move (top (game iloc STOCK)) (top (game vloc DISCARD)))))
 (stage player (end (== (game sto TURNS) 4))
   (choice ((any (filter ((current player) iloc HAND) 'C
                   (== (cardatt SUIT 'C) (cardatt SUIT (top (game vloc DISCARD))))) 'C
              (move 'C (top (game vloc DISCARD))))
            (turn pass)))
   (do ((inc (game sto TURNS) 1))))
 (do ((set (game points LED) (((SUIT : (game str LEAD)) 1)))
      (all player 'P (inc ('P sto SCORE) (sum ('P iloc HAND) using (game points LED))))))
 (scoring max ((current player) sto SCORE)))"""


def test_a_card_without_the_attribute_reads_the_empty_string_as_the_engine_does() -> None:
    """A joker (no SUIT) on the discard pile lets every joker follow it, and only jokers; a
    point map awarding the SUIT held by a string cell never set scores the jokers. Every
    decision's options are counted from the state, each card's SUIT read from the deck (absent:
    ""); the winner the seat holding more jokers. The translation offered no card on a joker,
    and the map scored nothing (found by a differential fuzz, 28 November: Agram with the black
    cards' SUIT renamed)."""
    translation = compile_game(parse_recycle(JOKERS, "jokers.rcy"))
    machine = make_machine(translation.description, "fast")
    suit = {str(card_constant(translation.model, card.id)): card.attr("SUIT") or "" for card in translation.model.cards}
    rng = random.Random(3)
    followed_joker = 0
    for _ in range(40):
        state = machine.initial_state()
        while not machine.is_terminal(state):
            moves = [machine.legal_moves(state, role) for role in machine.roles]
            hands: dict[str, list[str]] = {}
            top = ""
            for fluent in state.fluents:
                if isinstance(fluent, Function) and fluent.name == "at":
                    hands.setdefault(str(fluent.args[1]), []).append(str(fluent.args[0]))
                if isinstance(fluent, Function) and fluent.name == "ontop" and str(fluent.args[0]) == "(loc game vloc discard)":
                    top = str(fluent.args[1])
            for seat, legal in enumerate(moves[:-1]):
                if str(legal[0]) == "noop":
                    continue
                hand = hands.get(f"(loc player{seat} iloc hand)", [])
                follow = [card for card in hand if suit[card] == suit[top]]
                assert len(legal) == len(follow) + 1, (hand, top, legal)
                followed_joker += bool(follow) and suit[top] == ""
            state = machine.next_state(state, tuple(m[rng.randrange(len(m))] for m in moves))
        hands = {}
        for fluent in state.fluents:
            if isinstance(fluent, Function) and fluent.name == "at":
                hands.setdefault(str(fluent.args[1]), []).append(str(fluent.args[0]))
        goals = machine.goals(state)
        jokers = [sum(suit[card] == "" for card in hands.get(f"(loc player{seat} iloc hand)", [])) for seat in range(2)]
        best = [j == max(jokers) for j in jokers]
        assert [goals[role] for role in machine.roles[:2]] == [100 // sum(best) if b else 0 for b in best], jokers
    assert followed_joker > 0
    playouts(JOKERS, games=8)


def test_the_attribute_of_no_card_equals_a_string_never_set() -> None:
    """The top of an empty pile has no card: its SUIT reads "" in the engine, as does a string
    cell never set, so the first option is offered (two options at the one decision); the
    translation had no value for it and offered only the pass."""
    text = game("(stage player (end (== (game sto N) 1))"
                " (choice (((== (cardatt SUIT (top (game vloc DISCARD))) (game str LEAD)) (inc ((current player) sto SCORE) 1))"
                " (turn pass)))"
                " (do ((inc (game sto N) 1))))")
    assert {tuple(p.options) for p in playouts(text, games=4)} == {(2,)}
