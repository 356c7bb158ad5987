"""Options as the engine builds them: it runs an option's actions one by one as it builds them
(``GameIterator.RecurseDo``), so an ``any`` inside an option forks over its collection as the
actions before it leave it, and an ``any`` over nothing beside other actions leaves the option
offered with those actions (``ir/previews.py``, ``ir/vacancy.py``).

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

from tests.translate.language import DEAL3, HAND, game, playouts, translation_error
from translators.recycle import parse_recycle
from translators.recycle.translate import compile_game

DEAL1 = "(do ((shuffle (game iloc STOCK)) (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))"


def _throw_a_rank_then_draw(rank: str, deal: str) -> str:
    """After ``deal``, each turn an option throwing away a card of ``rank`` from the hand and
    drawing a card, until the stock is empty; scored by the hand."""
    return game(deal + " (stage player (end (== (size (game iloc STOCK)) 0))"
                f" (choice ((do ((any (filter ((current player) iloc HAND) 'C (== (cardatt RANK 'C) {rank})) 'C"
                " (move 'C (top (game vloc DISCARD))))"
                " (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))))", scoring=HAND)


def test_an_any_over_nothing_beside_another_action_still_offers_the_option() -> None:
    """No card is a FOUR, so the ``any`` never has a card: the engine offers the option with
    its draw alone, once at every decision. The translation offered no option and every game
    stopped at its first decision (``stuck``)."""
    out = playouts(_throw_a_rank_then_draw("FOUR", "(do ((shuffle (game iloc STOCK))))"), games=4)
    assert all(p.options == [1] * 6 for p in out)
    assert {tuple(p.scores.values()) for p in out} == {(3, 3)}


def test_an_any_over_a_filter_some_cards_pass_offers_them_or_else_the_other_action_alone() -> None:
    """A player holding ONEs throws one away with the draw, else draws alone: as many options
    as ONEs held, or one. The two ONEs thrown away leave the hands short by as many."""
    out = playouts(_throw_a_rank_then_draw("ONE", DEAL1), games=12)
    assert all(p.decisions == 4 and set(p.options) <= {1, 2} for p in out)
    finals = {tuple(p.scores.values()) for p in out}
    assert all(3 - a + 3 - b <= 2 for a, b in finals)
    assert (3, 3) in finals and len(finals) > 1  # some games threw ONEs away, some did not


def test_an_any_after_a_draw_forks_over_the_hand_with_the_card_drawn() -> None:
    """Draw, then throw away a card of the hand, the card drawn among them: two options at
    every decision (a hand of one, and the card drawn). The translation read the hand before
    the draw: one option, and the card drawn could not be thrown away."""
    text = game(DEAL1 + " (stage player (end (== (size (game iloc STOCK)) 0))"
                " (choice ((do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"
                " (any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD)))))))))", scoring=HAND)
    out = playouts(text, games=6)
    assert all(p.options == [2] * 4 for p in out)
    assert {tuple(p.scores.values()) for p in out} == {(1, 1)}


def test_an_any_after_two_cards_drawn_forks_over_the_hand_with_both() -> None:
    """Draw two, then throw away a RED card of the hand, the two drawn among them (a located
    refusal before: the second draw reads the stock's top after the first): options by the RED
    cards of the hand of three, or the draw alone, against the engine's figures."""
    deck = "(deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (RED, BLACK)))"
    text = game(DEAL1 + " (stage player (end (< (size (game iloc STOCK)) 2))"
                " (choice ((do ((repeat 2 (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))"
                " (any (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) RED)) 'C"
                " (move 'C (top (game vloc DISCARD)))))))))", scoring=HAND, deck=deck)
    out = playouts(text, games=12)
    assert {len(p.options) for p in out} == {3}
    assert {n for p in out for n in p.options} == {1, 2, 3}  # 0 RED cards: the draw alone


def test_an_any_after_a_draw_over_an_empty_hand_keeps_the_draw() -> None:
    """The hand is empty when the card is thrown onto the discard pile instead: the option is
    offered with that move alone, and a card of the hand is then kept by the draw of the other
    option (its figures against the engine's)."""
    text = game("(do ((shuffle (game iloc STOCK))))"
                " (stage player (end (== (size (game iloc STOCK)) 0))"
                " (choice ((do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"
                " (any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc WON))))))"
                " (do ((move (top (game iloc STOCK)) (top (game vloc DISCARD)))"
                " (any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc WON)))))))))",
                scoring="(scoring max (size ((current player) vloc WON)))")
    out = playouts(text, games=12)
    assert all(p.options[:2] == [2, 2] for p in out)  # an empty hand: each option once
    assert all(p.decisions == 6 for p in out)


def test_an_any_after_a_count_it_reads_is_raised_forks_over_the_cards_the_count_then_allows() -> None:
    """Each turn raises a count, then throws away a card while the count is below 3: the
    filter reads the count as raised (``(+ (game sto LIMIT) 1)`` in the decision's state), so
    the third decision offers the raise alone, every later one too. It read the count before
    the raise, offering the hand once more; refused with a located error in between."""
    text = game(DEAL3 + " (stage player (end (>= (game sto LIMIT) 6))"
                " (choice ((do ((inc (game sto LIMIT) 1)"
                " (any (filter ((current player) iloc HAND) 'C (< (game sto LIMIT) 3)) 'C"
                " (move 'C (top (game vloc DISCARD)))))))))", scoring=HAND)
    out = playouts(text, games=4)
    assert all(p.options == [3, 3, 1, 1, 1, 1] for p in out)
    assert {tuple(p.scores.values()) for p in out} == {(2, 2)}


def test_an_any_after_an_action_changing_what_it_reads_otherwise_is_a_located_error() -> None:
    """The turn passed to the next player before an ``any`` over the current player's hand: the
    engine forks over the next player's hand, which the translation does not write as read in
    the decision's state; refused where the ``any`` is."""
    text = game(DEAL1 + " (stage player (end (== (size (game iloc STOCK)) 0))"
                " (choice ((do ((cycle next next)"
                " (any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD)))))))))", scoring=HAND)
    message = translation_error(text, "turn.rcy")
    line, column = (int(n) for n in message.split(":")[1:3])
    assert text.splitlines()[line - 1][column - 1:].startswith("(any ((current player)")
    assert "reads the turn, which actions of the option before it change" in message


def test_a_choice_among_groups_after_another_action_of_the_option() -> None:
    """A count raised, then a pair of the hand laid down: the groups are read after the count
    changes, which they do not read, so the three pairs of a hand of three are offered (a
    located refusal before: the engine builds the groups after the actions before them)."""
    text = game("(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
                " (stage player (end (all player 'P (< (size ('P iloc HAND)) 2)))"
                " (choice ((do ((inc ((current player) sto SCORE) 1)"
                " (any (filter (subsets ((current player) iloc HAND)) 'S (== (size 'S) 2)) 'S"
                " (all 'S 'X (move 'X (top ((current player) vloc WON))))))))))")
    out = playouts(text, games=4)
    assert all(p.options == [3, 3] for p in out)
    assert {tuple(p.scores.values()) for p in out} == {(1, 1)}


def test_a_choice_among_groups_after_an_action_changing_them_is_a_located_error() -> None:
    """A card drawn into the hand before its pairs are offered: refused where the ``any`` is."""
    text = game("(do ((shuffle (game iloc STOCK))))"
                " (stage player (end (== (size (game iloc STOCK)) 0))"
                " (choice ((do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"
                " (any (subsets ((current player) iloc HAND)) 'S (all 'S 'X (move 'X (top (game vloc WON))))))))))")
    message = translation_error(text, "pairs.rcy")
    line, column = (int(n) for n in message.split(":")[1:3])
    assert text.splitlines()[line - 1][column - 1:].startswith("(any (subsets")
    assert "reads HAND, which actions of the option before it change" in message


def test_an_option_legal_by_the_top_card_of_a_shuffled_stock() -> None:
    """Take the stock's top card when it is RED, or throw it away: a shuffled pile's top is a
    card ``random`` draws in the step that reads it, which a legal move cannot wait for, and the
    first option was never offered (one option at every decision, against the engine's 4/3).
    Such a pile keeps its whole order (``analysis/order.py::read_without_chance``): the option
    is offered exactly when the card on top is RED."""
    text = game("(do ((shuffle (game iloc STOCK))))"
                " (stage player (end (== (size (game iloc STOCK)) 0))"
                " (choice (((== (cardatt SUIT (top (game iloc STOCK))) RED)"
                " (move (top (game iloc STOCK)) (top ((current player) vloc WON))))"
                " (move (top (game iloc STOCK)) (top (game vloc DISCARD))))))",
                scoring="(scoring max (size ((current player) vloc WON)))")
    out = playouts(text, games=8)
    assert all(sorted(p.options) == [1, 1, 1, 2, 2, 2] for p in out)  # three RED cards of six


def test_a_card_drawn_from_a_shuffled_stock_of_52_is_drawn_in_a_step_before_the_choice() -> None:
    """Draw from a shuffled 52-card stock, then throw away a card of the hand of five, the card
    drawn among them: six options at every decision. The stock's top is drawn by ``random`` in a
    step of its own before the choice (``ir/peeks.py``), not by laying out the stock's shuffle
    card by card (4.7 random playouts a second then, 81 now, 144 for the draw and the throw as
    two choices): no hidden heap of a laid-out shuffle in the translation."""
    deck = ("(deck (RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K))"
            " (SUIT (HEARTS, DIAMONDS, CLUBS, SPADES)))")
    text = game("(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 5 (move (top (game iloc STOCK))"
                " (top ('P iloc HAND)))))))"
                " (stage player (end (< (size (game iloc STOCK)) 30))"
                " (choice ((do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"
                " (any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD)))))))))",
                scoring=HAND, deck=deck)
    out = playouts(text, games=3)
    assert all(p.options == [6] * 13 for p in out)
    model = compile_game(parse_recycle(text, "draw52.rcy")).model
    assert not any(place.name.startswith("SHUFFLE_") for place in model.locations)


def test_the_card_a_choice_played_read_by_a_negated_condition_after_the_choice() -> None:
    """A point for every card played that is not a ONE, the card read as the trick's top after
    the choice: the condition's negation lost the card chosen and asked whether any card at all
    was a ONE, so no one ever scored (found by the differential fuzz: a Stealing Bundles whose
    `==` became `!=`). The six cards are all dealt, the two ONEs among them: four points in all."""
    text = game("(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
                " (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))"
                " (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc TRICK))))))"
                " (do (((!= (cardatt RANK (top ((current player) vloc TRICK))) ONE)"
                " (inc ((current player) sto SCORE) 1)))))")
    finals = {tuple(p.scores.values()) for p in playouts(text, games=8)}
    assert finals <= {(1, 3), (2, 2), (3, 1)} and len(finals) > 1


def test_a_card_played_then_the_cards_of_its_rank_left_in_the_hand() -> None:
    """Play a card, then with it one card of its rank still in the hand, if any: the card played
    has left the hand (``(filter HAND 'X (!= 'X 'C))``), so it is never its own partner. The
    deal is the deck's order: THREE BLACK, THREE RED and TWO BLACK to the first player, TWO RED,
    ONE BLACK, ONE RED to the second: three options each (a THREE with the other, the TWO
    alone), where pairing a card with itself made five. The engine's nested ``any`` reads its
    collection with the wrong card (it pairs the first card with itself, and a TWO with a ONE):
    a difference, so no engine figures here."""
    text = game("(do ((all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
                " (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))"
                " (choice ((any ((current player) iloc HAND) 'C"
                " (do ((move 'C (top ((current player) vloc WON)))"
                " (any (filter ((current player) iloc HAND) 'D (== (cardatt RANK 'D) (cardatt RANK 'C))) 'D"
                " (move 'D (top ((current player) vloc WON))))))))))",
                scoring="(scoring max (size ((current player) vloc WON)))")
    out = playouts(text, games=12, engine_plays=False)
    assert {tuple(p.options[:2]) for p in out} == {(3, 3)}
    assert {tuple(p.options[2:]) for p in out} <= {(1, 1), (1, 2), (2, 1), (2, 2)}
    assert {tuple(p.scores.values()) for p in out} == {(3, 3)}


def test_an_any_after_a_draw_under_a_condition_forks_over_the_hand_as_the_draw_left_it() -> None:
    """``(((> (size STOCK) 0) DRAW) (any HAND ...))``: where the stock has a card the hand has
    the card drawn too, else not. Each player holds one card and draws one: two options at every
    decision (a located refusal before: the preview knew no conditional action)."""
    text = game(DEAL1 + " (stage player (end (== (size (game iloc STOCK)) 0))"
                " (choice ((do (((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))"
                " (any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc WON)))))))))",
                scoring="(scoring max (size ((current player) vloc WON)))")
    out = playouts(text, games=6)
    assert all(p.options == [2] * 4 for p in out)


def test_an_any_over_nothing_beside_an_action_under_a_condition_offers_the_option_where_it_holds() -> None:
    """No card is a FOUR; the option's other action draws where the stock has a card: the engine
    offers the option with the draw alone while the stock lasts. The translation offered it only
    beside an action that always runs: no option, and every game stopped at its first decision
    (found by the generated games of ``tests/translate/generated.py::option_game``, guarded)."""
    text = game(DEAL1 + " (stage player (end (== (size (game iloc STOCK)) 0))"
                " (choice ((do ((any (filter ((current player) iloc HAND) 'C (== (cardatt RANK 'C) FOUR)) 'C"
                " (move 'C (top (game vloc DISCARD))))"
                " ((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ((current player) vloc WON)))))))))",
                scoring="(scoring max (size ((current player) vloc WON)))")
    out = playouts(text, games=4)
    assert all(p.options == [1] * 4 for p in out)
    assert {tuple(p.scores.values()) for p in out} == {(2, 2)}
