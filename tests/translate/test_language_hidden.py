"""Choices among cards the chooser may not see: the options name the card's place, not the card
(``analysis/blind.py``, ``emit/handles.py``), so that the legal moves tell the chooser nothing
the game does not show it. Checked against the engine's figures where it is built."""

from __future__ import annotations

import random

from ggp.gdl.terms import Constant, Function, Term
from ggp.reasoner import make_machine
from ggp.reasoner.machine import State, StateMachine
from tests.translate.language import DEAL3, game, playouts
from translators.recycle import parse_recycle
from translators.recycle.translate import compile_game

#: Each player in turn takes a card of the next player's hand, face down, into its own hand.
TAKE = ("(stage player (end (>= (game sto TURNS) 4))"
        " (choice ((any ((next player) iloc HAND) 'C (move 'C (top ((current player) iloc HAND))))))"
        " (do ((inc (game sto TURNS) 1))))")
HAND_SIZE = "(scoring max (size ((current player) iloc HAND)))"


NOOP = Constant("noop")


def machine_of(text: str) -> StateMachine:
    """The fast reasoner over the translation of ``text``."""
    return make_machine(compile_game(parse_recycle(text, "hidden.rcy")).description, "fast")


def first_decision(machine: StateMachine, rng: random.Random) -> tuple[State, int]:
    """The state of the first decision of a player, and the deciding role's index (``random``
    deals at random until then)."""
    state = machine.initial_state()
    while True:
        legal = [list(machine.legal_moves(state, role)) for role in machine.roles]
        deciding = [i for i, moves in enumerate(legal) if str(machine.roles[i]) != "random" and str(moves[0]) != "noop"]
        if deciding:
            return state, deciding[0]
        state = machine.next_state(state, tuple(rng.choice(moves) for moves in legal))


def hand(state: State, owner: str) -> set[str]:
    """The cards in ``owner``'s hidden hand."""
    return {str(f.args[0]) for f in state.fluents
            if isinstance(f, Function) and f.name == "at" and str(f.args[1]) == f"(loc {owner} iloc hand)"}


def waits(machine: StateMachine) -> tuple[Term, ...]:
    """``noop`` for every role but the first."""
    return tuple(NOOP for _ in machine.roles[1:])


def card_names(machine: StateMachine) -> set[str]:
    """Every card constant of the game."""
    return {str(f.args[0]) for f in machine.initial_state().fluents if isinstance(f, Function) and f.name == "at"}


def words(move: Term) -> set[str]:
    """The constants a move names."""
    return set(str(move).replace("(", " ").replace(")", " ").split())


def test_a_card_of_another_player_s_hidden_hand_is_named_by_its_place() -> None:
    """Player 0 takes a card of player 1's hand: its options are the three places of that hand
    (0 the bottom card), not the three cards, which it cannot see (before: ``(choose 1 C)`` with
    the card C, telling it player 1's cards)."""
    machine = machine_of(game(f"{DEAL3} {TAKE}", scoring=HAND_SIZE))
    state, seat = first_decision(machine, random.Random(3))
    moves = [str(m) for m in machine.legal_moves(state, machine.roles[seat])]
    assert seat == 0 and sorted(moves) == [f"(play (hidden (loc player1 iloc hand) {i}))" for i in range(3)]
    assert not set().union(*(words(m) for m in machine.legal_moves(state, machine.roles[seat]))) & card_names(machine)


def test_the_place_taken_is_the_card_dealt_that_many_cards_before_the_top() -> None:
    """Unshuffled, player 1 is dealt ONE RED... in a known order: the card at place 0 is the
    first dealt to it (the bottom of its hand), place 2 the last (its top)."""
    deal = "(do ((all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
    machine = machine_of(game(f"{deal} {TAKE}", scoring=HAND_SIZE))
    rng = random.Random(1)
    state = machine.initial_state()
    arrived: list[str] = []
    while True:  # the deal, card by card: which card reaches player 1's hand, in order
        before = hand(state, "player1")
        legal = [list(machine.legal_moves(state, role)) for role in machine.roles]
        if str(legal[0][0]) != "noop":
            break
        state = machine.next_state(state, tuple(rng.choice(moves) for moves in legal))
        arrived += sorted(hand(state, "player1") - before)
    assert len(arrived) == 3
    for place, card in enumerate(arrived):
        options = list(machine.legal_moves(state, machine.roles[0]))
        chosen = next(m for m in options if str(m) == f"(play (hidden (loc player1 iloc hand) {place}))")
        after = machine.next_state(state, (chosen,) + waits(machine))
        assert hand(state, "player1") - hand(after, "player1") == {card}


def test_the_chooser_s_options_are_the_same_whatever_cards_the_other_hand_holds() -> None:
    """Two deals: player 1's hands differ, player 0's options do not."""
    machine = machine_of(game(f"{DEAL3} {TAKE}", scoring=HAND_SIZE))
    seen = {}
    for seed in range(6):
        state, seat = first_decision(machine, random.Random(seed))
        seen[frozenset(hand(state, "player1"))] = sorted(str(m) for m in machine.legal_moves(state, machine.roles[seat]))
    assert len(seen) > 1 and len({tuple(v) for v in seen.values()}) == 1


def test_a_card_of_the_chooser_s_own_hidden_hand_is_named_as_the_card() -> None:
    play = ("(stage player (end (>= (game sto TURNS) 4))"
            " (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PLAYED))))))"
            " (do ((inc (game sto TURNS) 1))))")
    machine = machine_of(game(f"{DEAL3} {play}", scoring=HAND_SIZE))
    state, seat = first_decision(machine, random.Random(2))
    moves = list(machine.legal_moves(state, machine.roles[seat]))
    assert {w for m in moves for w in words(m)} & card_names(machine) == hand(state, "player0")


def test_one_pile_a_chooser_sees_and_another_does_not() -> None:
    """Both players take from player 0's hand: player 0 sees it and names the card, player 1
    names the place."""
    take = ("(stage player (end (>= (game sto TURNS) 2))"
            " (choice ((any ((0 player) iloc HAND) 'C (move 'C (top (game vloc TAKEN))))))"
            " (do ((inc (game sto TURNS) 1))))")
    machine = machine_of(game(f"{DEAL3} {take}", scoring=HAND_SIZE))
    rng = random.Random(4)
    state, seat = first_decision(machine, rng)
    assert seat == 0
    first = list(machine.legal_moves(state, machine.roles[0]))
    assert {w for m in first for w in words(m)} & card_names(machine) == hand(state, "player0")
    state = machine.next_state(state, (first[0],) + waits(machine))
    while str(next(iter(machine.legal_moves(state, machine.roles[1])))) == "noop":
        state = machine.next_state(state, tuple(rng.choice(list(machine.legal_moves(state, r))) for r in machine.roles))
    second = sorted(str(m) for m in machine.legal_moves(state, machine.roles[1]))
    assert second == [f"(play (hidden (loc player0 iloc hand) {i}))" for i in range(2)]


#: Concentration's turns: two cards of the face-down table turned; a pair of the same rank is
#: kept, else both go back under the table.
TURN_TWO = (
    " (stage player (end (or (== (size (game hloc TABLE)) 0) (>= (game sto TURNS) 8)))"
    " (choice ((any (game hloc TABLE) 'C (move 'C (top (game vloc FLIP))))))"
    " (choice ((any (game hloc TABLE) 'C (move 'C (top (game vloc FLIP))))))"
    " (do ((inc (game sto TURNS) 1)"
    " ((== (cardatt RANK (top (game vloc FLIP))) (cardatt RANK (0 (game vloc FLIP))))"
    " (do ((repeat all (move (top (game vloc FLIP)) (top ((current player) vloc WON)))) (inc ((current player) sto SCORE) 1))))"
    " ((!= (cardatt RANK (top (game vloc FLIP))) (cardatt RANK (0 (game vloc FLIP))))"
    " (repeat all (move (top (game vloc FLIP)) (bottom (game hloc TABLE))))))))")


def test_a_face_down_table_two_cards_turned_a_turn_against_the_engine() -> None:
    """Concentration: the table's cards are named by place, put back under the table when they
    differ; the figures agree with the engine's (choices per game, options per decision...)."""
    deal = "(do ((repeat all (move (top (game iloc STOCK)) (top (game hloc TABLE)))) (shuffle (game hloc TABLE))))"
    runs = playouts(game(deal + TURN_TWO), games=12)
    assert all(o == 6 for p in runs for o in p.options[:1])


def test_a_face_down_table_dealt_in_bulk_from_a_shuffled_deck_against_the_engine() -> None:
    """The same, the table filled by moving the shuffled stock onto it whole: the stock's shuffle
    is laid out card by card and its links carried over to the table, so the table's cards are
    named by place (before: by card, with a warning)."""
    deal = "(do ((shuffle (game iloc STOCK)) (repeat all (move (top (game iloc STOCK)) (top (game hloc TABLE))))))"
    table = game(deal + TURN_TWO)
    assert not compile_game(parse_recycle(table, "table.rcy")).warnings
    runs = playouts(table, games=12)
    assert all(o == 6 for p in runs for o in p.options[:1])


def test_hands_too_large_to_name_by_place_keep_the_card_names_with_a_located_warning() -> None:
    """Four hands of a 24-card deck: keeping their whole order and every card's place would
    ground rules over triples of their cards (4 x 24^3, eight times the fast reasoner's grounding);
    the options name the cards, and the warning says why."""
    deck = "(deck (RANK (NINE, TEN, JACK, QUEEN, KING, ACE)) (SUIT (HEARTS, SPADES, CLUBS, DIAMONDS)))"
    deal = "(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 6 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
    text = game(f"{deal} {TAKE}", players=4, scoring=HAND_SIZE, deck=deck)
    translation = compile_game(parse_recycle(text, "big.rcy"))
    column = text.splitlines()[1].index("(any ((next player)") + 1
    assert [str(w) for w in translation.warnings] == [
        f"big.rcy:2:{column}: warning: the options of this choice name the cards of (?next_s1 iloc hand), which its chooser "
        "may not see: its legal moves tell it which cards are there (naming them by place instead would cost 55,296 "
        "of the 10,000 allowed: the cube of the cards each such pile can hold)"]
    assert "(hidden" not in translation.kif
