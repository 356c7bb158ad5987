"""The protocol's player side without HTTP: matches one after another, the safety margin."""

from __future__ import annotations

import threading
import time

from ggp.gdl.load import load_game
from ggp.gdl.terms import Term
from ggp.players.base import Player, StartView, TurnView
from ggp.protocol.messages import Start, Stop
from ggp.server.service import PlayerService, SafetyMargin
from tests.conftest import RULESHEETS
from tests.server.support import REASONER


class SlowToStop(Player):
    """Takes its time to wind down a match; logs when each event starts and ends."""

    name = "slowstop"

    def __init__(self) -> None:
        super().__init__(reasoner=REASONER)
        self.events: list[tuple[str, float]] = []
        self.lock = threading.Lock()

    def _log(self, what: str) -> None:
        with self.lock:
            self.events.append((what, time.monotonic()))

    def start(self, view: StartView) -> None:
        self._log(f"start {view.match.match_id}")

    def play(self, view: TurnView) -> Term:
        return view.legal_moves[0]

    def stop(self, view: TurnView) -> None:
        self._log("stop begins")
        time.sleep(0.4)
        self._log("stop ends")


def test_a_new_match_waits_for_the_player_to_finish_the_last() -> None:
    description = load_game(RULESHEETS / "tictactoe.kif")
    player = SlowToStop()
    service = PlayerService(player, reasoner=REASONER)
    assert service.handle(Start("m1", description.roles[0], description, 5, 0.2)).body == "ready"
    began = time.monotonic()
    assert service.handle(Stop("m1", None)).body == "done"
    assert time.monotonic() - began < 0.4  # the manager is not kept waiting past the clock
    assert service.handle(Start("m2", description.roles[0], description, 5, 1)).body == "ready"
    names = [name for name, _ in player.events]
    assert names == ["start m1", "stop begins", "stop ends", "start m2"]


def test_safety_margin_learns_from_late_answers() -> None:
    margin = SafetyMargin(base=0.05, cap_share=0.25, window=3)
    assert margin.seconds(10) == 0.05
    margin.record(0.1)
    assert abs(margin.seconds(10) - 0.25) < 1e-9
    assert margin.seconds(0.4) == 0.1  # never more than a quarter of the clock
    for _ in range(3):
        margin.record(0.0)  # the late answer has left the window
    assert margin.seconds(10) == 0.05
    margin.record(-1.0)  # early answers count as on time
    assert margin.seconds(10) == 0.05
