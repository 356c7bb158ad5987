"""The card game of seed chapter 17, exercise 3, cross-checked against a plain Python model.

The model below is written from the exercise's English rules (and the choices stated at the
top of ``card_game.kif``), without GDL. Seeded random playouts drive the reasoner; at every
step the model must agree on legal moves, percepts (so on who sees which card when), terminal
and goals, and on the players' totals held in the state.
"""

from __future__ import annotations

import itertools
import random

import pytest

from ggp.gdl.terms import Constant
from ggp.reasoner.play import random_joint_move
from tests.rulesheets.support import REASONER_PARAMS, machine

CARDS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace"]
PLAYERS = ("alice", "bob")


class CardGame:
    """The exercise-3 game: six rounds of bet/fold, fold/check/raise, fold/check."""

    def __init__(self) -> None:
        self.round = 1
        self.phase = "deal"
        self.deck = set(CARDS)
        self.hand: dict[str, str] = {}
        self.total = {"alice": 0, "bob": 0}
        self.endings: list[str] = []

    @property
    def first(self) -> str:
        return "alice" if self.round % 2 == 1 else "bob"

    @property
    def second(self) -> str:
        return "bob" if self.first == "alice" else "alice"

    def terminal(self) -> bool:
        return self.round > 6

    def legal(self, role: str) -> set[str]:
        if self.phase == "deal":
            if role == "random":
                return {f"(deal {a} {b})" for a, b in itertools.permutations(sorted(self.deck), 2)}
            return {"noop"}
        acting = {"open": self.first, "respond": self.second, "reraise": self.first}[self.phase]
        if role != acting:
            return {"noop"}
        choices = {"open": {"bet", "fold"}, "respond": {"fold", "check", "raise"}, "reraise": {"fold", "check"}}
        return choices[self.phase]

    def goals(self) -> dict[str, int]:
        a, b = self.total["alice"], self.total["bob"]
        return {"alice": 100 if a > b else 50 if a == b else 0, "bob": 100 if b > a else 50 if a == b else 0}

    def play(self, moves: dict[str, str]) -> dict[str, set[str]]:
        """Play one joint move; return what each role perceives."""
        seen: dict[str, set[str]] = {"alice": set(), "bob": set(), "random": set()}
        if self.phase == "deal":
            _, a, b = moves["random"].strip("()").split()
            self.hand = {"alice": a, "bob": b}
            self.deck -= {a, b}
            seen["alice"].add(f"(card {a})")
            seen["bob"].add(f"(card {b})")
            self.phase = "open"
            return seen
        for me, other in (("alice", "bob"), ("bob", "alice")):
            if moves[other] != "noop":
                seen[me].add(f"(move {other} {moves[other]})")
        higher = max(PLAYERS, key=lambda p: CARDS.index(self.hand[p]))
        first_move, second_move = moves[self.first], moves[self.second]
        if first_move == "bet":
            self.phase = "respond"
            return seen
        if second_move == "raise":
            self.phase = "reraise"
            return seen
        if first_move == "fold":
            self.total[self.second] += 5
        elif second_move == "check":
            self.total[higher] += 5
        elif first_move == "check":
            self.total[higher] += 10
        self.endings.append(f"{self.phase}/{first_move if self.phase != 'respond' else second_move}")
        if "check" in (first_move, second_move):
            seen["alice"].add(f"(opponent_card {self.hand['bob']})")
            seen["bob"].add(f"(opponent_card {self.hand['alice']})")
        self.round += 1
        self.phase = "deal"
        return seen


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_random_playouts_agree_with_the_python_model(reasoner: str) -> None:
    m = machine("card_game.kif", reasoner)
    names = [str(r) for r in m.roles]
    assert names == ["alice", "bob", "random"]
    rng = random.Random(17)
    endings: set[str] = set()
    for _ in range(12):
        model, state = CardGame(), m.initial_state()
        while True:
            assert m.is_terminal(state) == model.terminal()
            assert {str(r): v for r, v in m.goals(state).items()} == model.goals()
            totals = {str(f) for f in state.fluents if f.name == "total"}
            assert totals == {f"(total {p} {model.total[p]})" for p in PLAYERS}
            if model.terminal():
                break
            for role, legal in zip(names, m.all_legal_moves(state)):
                assert {str(mv) for mv in legal} == model.legal(role)
            joint = random_joint_move(m, state, rng)
            moves = {role: str(mv) for role, mv in zip(names, joint)}
            percepts = {str(r): {str(p) for p in ps} for r, ps in m.percepts(state, joint).items()}
            assert percepts == model.play(moves)
            state = m.next_state(state, joint)
        assert len([f for f in state.fluents if f.name == "indeck"]) == 1
        endings.update(model.endings)
    # every way a round can end occurred, with and without cards shown
    assert endings == {"open/fold", "respond/fold", "respond/check", "reraise/fold", "reraise/check"}


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_first_deal_has_13_times_12_outcomes(reasoner: str) -> None:
    m = machine("card_game.kif", reasoner)
    assert len(m.legal_moves(m.initial_state(), Constant("random"))) == 13 * 12
