"""Players keep pace with a long card game at tournament clocks: translated Agram (four players,
62 steps, a hidden deal) at a 1 s play clock and a 2 s start clock, every player in a process
of its own, through ``ggp tournament``'s machinery: not one fault (no substitution, no late or
missing answer, no failed start or stop). Late means past the manager's deadline, the play clock
plus the network slack real managers allow: on a loaded machine an answer may leave a fraction
of a second after the play clock itself, and the player's margin learns from it (see
:mod:`ggp.manager.process`); how close players come to the clock is not a test's business."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp.gdl.load import load_game
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.tournament import play_tournament
from tests.conftest import RULESHEETS

CLOCKS = Clocks(start=2.0, play=1.0, slack=1.0)


def _tournament(specs: list[str], matches: int, seed: int, tmp_path: Path) -> list[MatchRecord]:
    records: list[MatchRecord] = []
    result = play_tournament(load_game(RULESHEETS / "agram.rcy"), specs, matches, CLOCKS, seed,
                             progress=lambda i, record: records.append(record), db=tmp_path / "matches.db")
    assert result.matches == matches and not result.interrupted
    assert result.errors == [], result.errors[:10]
    return records


def _check(records: list[MatchRecord]) -> None:
    for record in records:
        assert record.status == "finished", record.errors
        assert not record.events and not any(step.substitutions for step in record.steps)
        assert len(record.steps) == 62
        for step in record.steps:
            for role, answer in step.answers.items():
                assert answer.failure is None and answer.seconds <= CLOCKS.play + CLOCKS.slack, (step.turn, role, answer)


def test_four_random_players(tmp_path: Path) -> None:
    _check(_tournament(["random"] * 4, 2, 14, tmp_path))


def test_searching_players_seated(tmp_path: Path) -> None:
    _check(_tournament(["pimc", "ismcts", "random", "random"], 1, 15, tmp_path))


@pytest.mark.slow
def test_twenty_matches_of_four_random_players(tmp_path: Path) -> None:
    _check(_tournament(["random"] * 4, 20, 16, tmp_path))


@pytest.mark.slow
def test_twenty_matches_with_searching_players(tmp_path: Path) -> None:
    _check(_tournament(["pimc", "ismcts", "random", "random"], 20, 17, tmp_path))
