"""Beliefs followed through whole seeded matches: every particle that claims to be consistent is
a history the clingo oracle replays to its state and that explains everything the role saw, and
the moves the belief calls legal are the legal moves of the true state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ggp.belief import Belief, BeliefSettings, Observation
from ggp.gdl.load import load_game
from ggp.gdl.terms import Constant, Term
from ggp.reasoner import make_machine
from ggp.reasoner.machine import StateMachine
from ggp.reasoner.play import random_joint_move
from tests.conftest import RULESHEETS, shared_path
from tests.server.support import REASONER

T = Term.parse


def _replays(oracle: StateMachine, history: tuple[tuple[Term, ...], ...], told: list[Observation],
             index: int, role: Constant) -> frozenset[Term]:
    """The fluents at the end of ``history``, checking that it explains ``told`` step by step."""
    state = oracle.initial_state()
    assert len(history) == len(told)
    for observation, joint in zip(told, history):
        assert not oracle.is_terminal(state)
        assert joint[index] == observation.move
        assert all(m in legal for m, legal in zip(joint, oracle.all_legal_moves(state)))
        assert oracle.percepts(state, joint)[role] == observation.percepts
        state = oracle.next_state(state, joint)
    return state.fluents


def follow(path: Path, role: str, seed: int, steps: int = 1000, particles: int = 32) -> Belief:
    """Follow ``role`` through a seeded random match, checking the belief's legal moves after
    every step and some of its consistent particles every eighth step and at the end."""
    description = load_game(path)
    machine, oracle = make_machine(description, REASONER), make_machine(description, "oracle")
    me = Constant(role)
    index = machine.role_index(me)
    belief = Belief(machine, me, description=description, rng=random.Random(seed),
                    settings=BeliefSettings(particles=particles))
    rng = random.Random(seed)
    state = machine.initial_state()
    told: list[Observation] = []
    while not machine.is_terminal(state) and len(told) < steps:
        joint = random_joint_move(machine, state, rng)
        told.append(Observation(joint[index], machine.percepts(state, joint)[me]))
        state = machine.next_state(state, joint)
        live = not machine.is_terminal(state)
        belief.update(told[-1], live)
        if len(told) % 8 == 0 or not live:  # the oracle replays a few particles now and then
            for particle in [p for p in belief.particles() if p.consistent][:4]:
                assert _replays(oracle, particle.history, told, index, me) == particle.state.fluents
        if live:
            assert belief.legal_moves() == machine.legal_moves(state, me), len(told)
    return belief


@pytest.mark.parametrize("seed", range(3))
def test_krieg_tictactoe(seed: int) -> None:
    follow(shared_path("corpus", "gdl2", "kriegTTT_4x4.gdl"), "oplayer", seed, 12)


def test_meier() -> None:
    follow(shared_path("corpus", "gdl2", "kuleuven_ii_meier.gdl"), "p1", 5, 12)


@pytest.mark.parametrize("seed", range(3))
def test_translated_kuhn_poker(seed: int) -> None:
    belief = follow(RULESHEETS / "kuhn.rcy", "player1", seed)
    assert belief.exact


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("role", ["player0", "player2"])
def test_translated_agram(role: str, seed: int) -> None:
    """Four players, 62 steps; the cards each player lays reveal the deal, which the particles
    had guessed: they are repaired (no longer consistent histories) and the legal moves stay
    right at every step."""
    follow(RULESHEETS / "agram.rcy", role, seed, particles=8)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5, 15))
@pytest.mark.parametrize("role", ["player0", "player1", "player2", "player3"])
def test_translated_agram_many_matches(role: str, seed: int) -> None:
    follow(RULESHEETS / "agram.rcy", role, seed, particles=8)


@pytest.mark.slow
@pytest.mark.parametrize("role", ["player0", "player1"])
def test_go_fish(role: str) -> None:
    """Go Fish from the CardStock corpus: asking for a rank shows the asker holds one, and the
    answer ("go fish") that the asked player holds none; the repairs keep the legal moves right.
    The first 100 of the match's 334 steps for player0, player1's whole match. Slow: building
    Go Fish's reasoner alone takes 15 s (the default run follows Agram's players, whose laid
    cards reveal what the particles guessed, and Krieg-TicTacToe's, told what they may not do)."""
    steps = 100 if role == "player0" else 1000
    follow(shared_path("corpus", "recycle", "GoFish2.rcy"), role, 1, steps, particles=8)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["CrazyEights4", "Hearts4", "Euchre4", "GoFish4"])
def test_corpus_card_games(game: str) -> None:
    follow(shared_path("corpus", "recycle", f"{game}.rcy"), "player0", 1, particles=8)
