"""Every built-in searching player answers legally and in time, and uses the time it is given."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp.gdl.load import load_game
from ggp.gdl.terms import Constant, Term
from ggp.manager.record import MatchRecord
from ggp.reasoner import make_machine
from tests.conftest import RULESHEETS, SHARED
from tests.players.support import game, play_match
from tests.server.support import REASONER

PLAYERS = ["pimc", "ismcts", "iimc"]
CLOCK = 0.25

GAMES = [
    (RULESHEETS / "montyhall.kif", 1),
    (RULESHEETS / "exploding_bomb_tell.kif", 2),
    (RULESHEETS / "blind_tictactoe.kif", 2),
    (RULESHEETS / "tictactoe.kif", 2),  # no sees: GDL messages, the state is known
    (SHARED / "corpus" / "gdl2" / "kriegTTT_4x4.gdl", 2),
    (SHARED / "corpus" / "gdl2" / "kuleuven_ii_meier.gdl", 2),
]


def _check(record: MatchRecord, path: Path, clock: float) -> None:
    """No substitution, no error for a searching player; its every answer in time; a real
    choice used most of the clock.

    The ``random`` opponents are left out: with a 0.25 s clock on a loaded two-core machine one
    of them can miss a turn (its process not scheduled in time), which says nothing about the
    players under test; the manager substitutes and the match goes on.

    Some final positions of the corpus Krieg-TicTacToe give a role several goal values: every
    reasoner reads them as the GameController does (the first goal rule that holds), so those
    matches finish too.
    """
    tested = {role for role, spec in record.players.items() if spec != "random"}
    assert record.status == "finished", record.errors
    errors = [e for e in record.errors if not any(f": {role} (random): " in e for role in set(record.players) - tested)]
    assert not errors, errors
    assert not any(s.role in tested for step in record.steps for s in step.substitutions), record.errors
    machine = make_machine(load_game(path), REASONER)
    state = machine.initial_state()
    for step in record.steps:
        joint = tuple(Term.parse(m) for m in step.joint_move)
        for role, answer in step.answers.items():
            if role not in tested:
                continue
            assert answer.seconds <= clock + 0.3, (role, answer)
            choices = len(machine.legal_moves(state, Constant(role)))
            if choices > 1:
                assert answer.seconds >= 0.5 * clock, (step.turn, role, answer)
        state = machine.next_state(state, joint)
    assert machine.is_terminal(state)
    assert machine.goals(state), "no goal values at the end"


@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize("path, seats", GAMES, ids=[p.stem for p, _ in GAMES])
def test_players_answer_legally_and_in_time(player: str, path: Path, seats: int) -> None:
    if not path.exists():
        pytest.skip(f"needs {path} (the project's ../shared material), which is absent")
    specs = [player, "random"][:seats]
    record = play_match(path, specs, 3, CLOCK)
    _check(record, path, CLOCK)


def _recycle(name: str) -> Path:
    path = RULESHEETS / name
    game(path)  # translated once: the matches reuse it
    return path


def test_players_on_translated_kuhn_poker() -> None:
    path = _recycle("kuhn.rcy")
    for i, pair in enumerate((["pimc", "ismcts"], ["iimc", "pimc"])):
        _check(play_match(path, pair, i, 0.5), path, 0.5)


@pytest.mark.slow
def test_players_on_translated_agram() -> None:
    path = _recycle("agram.rcy")
    _check(play_match(path, ["pimc", "ismcts", "iimc", "random"], 1, 2.0), path, 2.0)
