"""Shared helpers for the translator tests: cached translations and machines, invariant checks."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from ggp.gdl.dependencies import body_atoms
from ggp.gdl.rules import KEYWORDS, GameDescription
from ggp.gdl.terms import Constant, Function, Term
from ggp.reasoner import make_machine
from ggp.reasoner.machine import State, StateMachine
from tests.conftest import SHARED
from translators.recycle.symbols.model import Location
from translators.recycle.symbols.vocabulary import card_constant
from translators.recycle.translate import translate_file
from translators.recycle.translation import Translation

CORPUS = SHARED / "corpus" / "recycle"
REFERENCE = SHARED / "reference" / "cardstock-random-play.json"


#: Two players take turns choosing a card of a hidden (``hloc``) pile of 22 cards: naming them by
#: place would cost more than ``analysis/blind.py::BLIND_BUDGET`` (22 cubed), so the options name
#: the cards. (A filter of a shuffled heap moved in bulk did this before; the engine moves one
#: card of such a filter, and so does the translation: ``ir/rebuilt.py``.)
BLIND_PICK = """(game
 (declare 2 'NUMP)
 (setup (create players 'NUMP) (create teams (0) (1))
        (create deck (game hloc DECK) (deck (RANK (A, B, C, D, E, F, G, H, I, J, K)) (COLOR (RED (SUIT (HEARTS, DIAMONDS)))))))
 (do ((shuffle (game hloc DECK))
      (repeat all (move (top (game hloc DECK)) (top (game hloc STOCK))))))
 (stage player (end (== (size (game hloc STOCK)) 0))
  (choice ((any (game hloc STOCK) 'C (move 'C (top ((current player) iloc HAND)))))))
 (scoring max (size ((current player) iloc HAND))))
"""

#: Seconds the fast reasoner may take to ground a corpus game when it is checked (the default
#: budget otherwise): Cribbage2 takes 23 s.
GROUNDING_SECONDS = {"Cribbage2": 600.0}


@lru_cache(maxsize=12)
def translation(path: str) -> Translation:
    """The translation of a file (once per test session)."""
    return translate_file(path)


@lru_cache(maxsize=8)
def machine(path: str, kind: str = "auto") -> StateMachine:
    """A reasoner for a translated file (a few kept per test session)."""
    return make_machine(translation(path).description, kind)


def location_of(term: Term) -> Location:
    """The model location a ``(loc OWNER VIS NAME)`` term names."""
    assert isinstance(term, Function) and term.name == "loc"
    owner, vis, name = (str(a) for a in term.args)
    return Location(owner, vis, name.upper().rstrip("_"))


def card_places(state: State) -> dict[str, list[Term]]:
    """Every card's locations in a state (from the ``at`` fluents)."""
    places: dict[str, list[Term]] = {}
    for fluent in state.fluents:
        if isinstance(fluent, Function) and fluent.name == "at":
            places.setdefault(str(fluent.args[0]), []).append(fluent.args[1])
    return places


def check_playout(path: str, seed: int, max_steps: int = 5000) -> tuple[int, str]:
    """Play one seeded random game checking the invariants at every step: each card in exactly
    one place; no percept names a card its role could not see where it was before the step or
    where it is after; no legal move of a choice names a card its role cannot see; every role has
    a legal move until the end. Returns (steps, ending)."""
    from translators.recycle.playstats import ending_of

    t = translation(path)
    m = machine(path)
    model = t.model
    cards = {card_constant(model, card.id).name for card in model.cards}
    rng = random.Random(seed)
    state = m.initial_state()
    steps = 0
    seats = {Constant(f"player{i}"): i for i in range(model.players)}
    while not m.is_terminal(state):
        places = card_places(state)
        assert set(places) == cards, f"cards missing from the state: {sorted(cards - set(places))}"
        assert all(len(v) == 1 for v in places.values()), f"a card in two places: {places}"
        joint = []
        for role in m.roles:
            moves = m.legal_moves(state, role)
            assert moves, f"{role} has no legal move in a non-terminal state (step {steps})"
            seat = seats.get(role)
            if seat is not None and len(moves) > 1:  # a role knows its legal moves: they must not tell
                for move in moves:
                    for card in _cards_in(move, cards):
                        where = location_of(places[card][0])
                        assert model.visible(seat, where), f"{role} may play {move} but {card} is in {where}"
            joint.append(moves[rng.randrange(len(moves))])
        percepts = m.percepts(state, tuple(joint))
        nxt = m.next_state(state, tuple(joint))
        after = card_places(nxt)
        for role, seen in percepts.items():
            seat = seats.get(role)
            if seat is None:
                continue
            for percept in seen:
                for card in _cards_in(percept, cards):
                    before_loc = location_of(places[card][0])
                    after_loc = location_of(after[card][0])
                    assert model.visible(seat, before_loc) or model.visible(seat, after_loc), (
                        f"{role} sees {percept} but {card} was in {before_loc} and is in {after_loc}")
        state = nxt
        steps += 1
        assert steps < max_steps, "the game did not end"
    ending, _ = ending_of(t.description, state)
    return steps, ending


def _cards_in(term: Term, cards: set[str]) -> list[str]:
    if isinstance(term, Constant):
        return [term.name] if term.name in cards else []
    if isinstance(term, Function):
        return [c for a in term.args for c in _cards_in(a, cards)]
    return []


def corpus(pattern: str = "*.rcy") -> list[Path]:
    """Corpus files (empty when ../shared is absent)."""
    return sorted(CORPUS.glob(pattern)) if CORPUS.exists() else []


__all__ = ["BLIND_PICK", "CORPUS", "GROUNDING_SECONDS", "REFERENCE", "card_places", "check_playout", "corpus", "location_of", "machine", "translation"]


def undefined_reads(description: GameDescription) -> list[str]:
    """The relations some rule body reads that no rule defines (a translator's slip: GDL reads
    them as false)."""
    defined = {r.head.name for r in description.rules}
    read = {atom.name for r in description.rules for lit in r.body for atom, _ in body_atoms(lit)}
    return sorted(read - defined - set(KEYWORDS) - {"true", "does", "distinct"})
