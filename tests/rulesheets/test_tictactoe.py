"""Tic-tac-toe perft, on our rulesheet and on the corpus's, and through ``ggp perft``."""

from __future__ import annotations

import json

import pytest

from ggp.cli import main
from ggp.gdl.terms import Term
from ggp.reasoner.play import perft
from tests.conftest import RULESHEETS, shared_path
from tests.rulesheets.support import HAS_FAST, REASONER_PARAMS, machine

#: Joint-move sequences of tic-tac-toe at depths 1 to 5 (9, 9*8, 9*8*7, ...).
PERFT = {1: 9, 2: 72, 3: 504, 4: 3024, 5: 15120}

#: Depth 5 takes several seconds with the clingo oracle.
DEPTHS = [
    pytest.param(d, id=f"depth{d}", marks=[pytest.mark.slow] if d == 5 else [])
    for d in PERFT
]


#: ``ggp perft`` validates the file first.
NEEDS_VALIDATE = "ggp perft validates first; ggp/gdl/validate.py not written yet"


def _game(which: str) -> str:
    if which == "ours":
        return str(RULESHEETS / "tictactoe.kif")
    return str(shared_path("corpus", "gdl", "ggporg_ticTacToe.kif"))


@pytest.mark.parametrize("which", ["ours", "corpus"])
@pytest.mark.parametrize("depth", DEPTHS)
def test_perft_oracle(which: str, depth: int) -> None:
    assert perft(machine(_game(which), "oracle"), depth) == PERFT[depth]


@pytest.mark.skipif(not HAS_FAST, reason="ggp/reasoner/fast.py not written yet")
@pytest.mark.parametrize("which", ["ours", "corpus"])
@pytest.mark.parametrize("depth", list(PERFT))
def test_perft_fast(which: str, depth: int) -> None:
    assert perft(machine(_game(which), "fast"), depth) == PERFT[depth]


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_cli_perft(reasoner: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ggp.gdl.validate", reason=NEEDS_VALIDATE)
    status = main(["perft", str(RULESHEETS / "tictactoe.kif"), "--depth", "3", "--reasoner", reasoner])
    out = capsys.readouterr().out
    assert status == 0
    assert json.loads(out) == {"depth": 3, "nodes": 504}


@pytest.mark.skipif(not HAS_FAST, reason="ggp/reasoner/fast.py not written yet")
def test_cli_perft_default_reasoner(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ggp.gdl.validate", reason=NEEDS_VALIDATE)
    assert main(["perft", str(RULESHEETS / "tictactoe.kif"), "--depth", "3"]) == 0
    assert capsys.readouterr().out.strip() == '{"depth": 3, "nodes": 504}'


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
def test_goals_of_finished_games(reasoner: str) -> None:
    """A row for x, a column for o, and a full board without a line (a draw)."""
    m = machine(str(RULESHEETS / "tictactoe.kif"), reasoner)

    def play(cells: list[tuple[int, int]]) -> dict[str, int]:
        state = m.initial_state()
        for i, (r, c) in enumerate(cells):
            assert not m.is_terminal(state)
            move = Term.parse(f"(mark {r} {c})")
            noop = Term.parse("noop")
            state = m.next_state(state, (move, noop) if i % 2 == 0 else (noop, move))
        assert m.is_terminal(state)
        return {str(k): v for k, v in m.goals(state).items()}

    assert play([(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]) == {"x": 100, "o": 0}
    assert play([(1, 1), (1, 2), (2, 1), (2, 2), (3, 3), (3, 2)]) == {"x": 0, "o": 100}
    draw = [(1, 1), (2, 2), (1, 2), (1, 3), (3, 1), (2, 1), (2, 3), (3, 2), (3, 3)]
    assert play(draw) == {"x": 50, "o": 50}
