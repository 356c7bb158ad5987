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
