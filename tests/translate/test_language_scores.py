"""Scoring expressions that add up many independent counts (a poker hand scored by its pairs,
threes, flushes and straights at once).

Each test a small game checked against CardStock's semantics and, where it is built, the real
engine (:mod:`tests.translate.language`)."""

from __future__ import annotations

from tests.translate.language import DEAL3, dealt_scores, game, scores
from translators.recycle import parse_recycle
from translators.recycle.translate import compile_game


def _count(att: str, value: str) -> str:
    return f"(size (filter ((current player) iloc HAND) 'C (== (cardatt {att} 'C) {value})))"


#: 1000 x aces + 100 x twos + 10 x threes + reds + blacks.
WEIGHED = (f"(scoring max (+ (* 1000 {_count('RANK', 'ONE')}) (+ (* 100 {_count('RANK', 'TWO')})"
           f" (+ (* 10 {_count('RANK', 'THREE')}) (+ {_count('SUIT', 'RED')} {_count('SUIT', 'BLACK')})))))")


def test_a_score_adding_up_independent_counts_keeps_each_part_in_a_relation_of_its_own() -> None:
    """Each seat's score was one rule joining every count it adds up (five counts of 0..3: a
    grounder multiplies their values; a five-card draw scored this way passed the fast
    reasoner's two million ground rules); each part is now a relation of its own and the score
    rule reads two of them. The scores are the ones every deal of the six cards gives, worked
    out here (cards in the deck's order ONE RED, ONE BLACK, TWO RED ...)."""
    text = game(DEAL3, scoring=WEIGHED)
    description = compile_game(parse_recycle(text, "weighed.rcy")).description
    bodies = [len(r.body) for r in description.rules if r.head.name == "score"]
    assert bodies and max(bodies) <= 4, bodies

    def score(cards: list[int]) -> int:
        ranks = [card // 2 for card in cards]
        return 1000 * ranks.count(0) + 100 * ranks.count(1) + 10 * ranks.count(2) + len(cards)

    found = scores(text, 8)
    assert found <= dealt_scores(score) and len(found) > 2


#: Ten ranks in four suits; each hand of six scores its pairs, and 100 more for three or more.
TEN_RANKS = "(deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN)) (SUIT (RED, BLACK, GREEN, BLUE)))"
PAIRS = ("(do ((set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)"
         " ((RANK : FIVE) 5) ((RANK : SIX) 6) ((RANK : SEVEN) 7) ((RANK : EIGHT) 8) ((RANK : NINE) 9) ((RANK : TEN) 10)))"
         " (shuffle (game iloc STOCK)) (all player 'P (repeat 6 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))"
         " (all player 'P (do ((set ('P sto SCORE) (size (tuples 2 ('P iloc HAND) using (game points VALUE))))"
         " ((> (size (tuples 2 ('P iloc HAND) using (game points VALUE))) 2) (inc ('P sto SCORE) 100)))))))")


def test_the_number_of_pairs_over_many_values_adds_one_value_at_a_time() -> None:
    """The pairs of a hand are C(c, 2) for each value held by c cards, added up: in one rule, a
    grounder joined every count of every value (ten values passed the fast reasoner's two
    million ground rules: a Pairs game whose pairs were compared with 2 instead of 0, found by
    the differential fuzz); each partial sum is a relation now, saturating just above the
    constant compared with. A hand of six from ten ranks in four suits holds 0 to 7 pairs (four
    of a rank are six pairs)."""
    possible = {0, 1, 2} | {100 + pairs for pairs in range(3, 8)}
    found = scores(game(PAIRS, deck=TEN_RANKS), 30)
    assert found <= {(a, b) for a in possible for b in possible} and len(found) > 3, found
