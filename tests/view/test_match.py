"""Recorded matches seen step by step (ggp.view.match), and the console player's table."""

from __future__ import annotations

import io
import random

import pytest

from ggp.gdl.load import load_game
from ggp.manager.client import LocalPlayer
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.runner import MatchSettings, run_match
from ggp.players.human import HumanPlayer
from ggp.players.simple import RandomPlayer
from ggp.view.match import MatchView
from tests.conftest import RULESHEETS
from tests.view import support  # noqa: F401  (registers the RECYCLE card table)


def kuhn_record(seed: int, first: LocalPlayer | None = None) -> MatchRecord:
    clients = [first or LocalPlayer("random", RandomPlayer(random.Random(seed))),
               LocalPlayer("random", RandomPlayer(random.Random(seed + 1)))]
    record = run_match(load_game(RULESHEETS / "kuhn.rcy"), clients, MatchSettings(Clocks(10.0, 5.0, 0.5), seed))
    assert record.status == "finished", record.errors
    return record


@pytest.fixture(scope="module")
def kuhn() -> MatchView:
    return MatchView(kuhn_record(8))


def test_every_step_of_a_record(kuhn: MatchView) -> None:
    record = kuhn.record
    assert kuhn.steps == len(record.steps)
    start = kuhn.step(0)
    assert [c.name for c in start.table.area("game").piles[0].cards] and not start.moves  # type: ignore[union-attr]
    assert sum(p.size for a in start.table.areas for p in a.piles) == 3
    end = kuhn.step(kuhn.steps)
    assert end.table.terminal and dict(end.table.goals) == record.goals
    chosen = [m for n in range(1, kuhn.steps + 1) for m in kuhn.step(n).moves if m.role != "random"]
    assert {m.label for m in chosen} <= {"check", "bet", "fold", "call"} and chosen
    with pytest.raises(IndexError):
        kuhn.step(kuhn.steps + 1)
    with pytest.raises(KeyError):
        kuhn.step(0, "nobody")


def test_a_role_sees_its_own_moves_and_percepts_only(kuhn: MatchView) -> None:
    for n in range(1, kuhn.steps + 1):
        for role in ("player0", "player1"):
            seen = kuhn.step(n, role)
            assert all(m.role == role for m in seen.moves)
            assert [r for r, _ in seen.seen] == [role]
            assert seen.table.viewer == role
    deal = next(n for n in range(1, kuhn.steps + 1) if kuhn.step(n).table.to_move)  # both cards dealt
    own = kuhn.step(deal, "player0").table.area("player0")
    other = kuhn.step(deal, "player0").table.area("player1")
    assert own is not None and other is not None
    assert len(own.piles[0].cards) == 1 and other.piles[0].hidden == 1 and not other.piles[0].cards


def test_series_follow_the_chips(kuhn: MatchView) -> None:
    series = {s.name: s for s in kuhn.series()}
    assert "player0 chips" in series and "player0 goal" in series
    assert series["player0 chips"].values[0] == 0 and series["player0 chips"].values[-1] in (-2, -1, 1, 2)
    assert series["player0 goal"].values[-1] == kuhn.record.goals["player0"]


def test_the_console_player_shows_the_table_and_reads_labels() -> None:
    out = io.StringIO()
    human = HumanPlayer(random.Random(1), input=io.StringIO("bet\ncall\n"), output=out)
    record = kuhn_record(9, LocalPlayer("human", human))
    text = out.getvalue()
    assert "(choose" not in text and "(moved" not in text and "(loc" not in text
    assert "hand (seen by player0): " in text and "1 card face down" in text
    assert "  1  bet" in text and "  2  check" in text
    assert "you played bet" in text
    first = next(s for s in record.steps if s.joint_move[0] != "noop")
    assert first.joint_move[0] == "bet" and not first.substitutions  # "bet" typed, bet played
    assert f"player0 {record.goals['player0']}" in text
