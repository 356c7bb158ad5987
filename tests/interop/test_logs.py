"""Reading a GameController's log for its faults (no Java needed: excerpts of real logs)."""

from __future__ import annotations

from ggp.peers.gamecontroller import read_log

#: UWA's manager on translated Kuhn before random saw its moves: random's local player found
#: no legal move at the second deal.
RANDOM_STUCK = """\
INFO(19:31:45.207): step:1
INFO(19:31:47.212): step:3
Nov 25, 2026 7:31:47 PM tud.gamecontroller.playerthreads.AbstractPlayerThread run
SEVERE: exception from player local(Random): java.lang.IllegalArgumentException: bound must be positive
java.lang.IllegalArgumentException: bound must be positive
\tat java.base/java.util.Random.nextInt(Random.java:322)
\tat tud.gamecontroller.players.RandomPlayer.getNextMove(RandomPlayer.java:45)
SEVERE(19:31:47.297): Illegal move "null" from local(Random) in step 3
SEVERE(19:31:47.297): Illegal move "null" from local(Random) in step 3
INFO(19:31:47.297): moves: (NOOP NOOP (DRAW C1))
INFO(19:31:47.299): step:4
INFO(19:31:52.101): Game over! results: 100 0 0 
"""

#: HyperPlay late at step 4, then its overlapping turns break it; at step 8 it chose no move.
HYPERPLAY = """\
INFO(19:48:57.240): step:4
SEVERE(19:48:57.237): player local(hyper) timed out!
SEVERE(19:48:57.238): Illegal move "null" from local(hyper) in step 4
SEVERE(19:48:57.238): Illegal move "null" from local(hyper) in step 4
INFO(19:48:57.240): step:5
SEVERE: exception from player local(hyper): java.util.ConcurrentModificationException
SEVERE(19:49:01.965): Illegal move "(CHOOSE 1 )" from local(hyper) in step 5
INFO(19:49:02.589): step:8
SEVERE(19:49:03.117): Illegal move "null" from local(hyper) in step 8
SEVERE(19:49:03.117): Illegal move "null" from local(hyper) in step 8
Key already contained
"""


def test_exception_and_its_substitute_are_one_fault() -> None:
    result = read_log("uwa", RANDOM_STUCK)
    assert result.finished and result.goals == [100, 0, 0] and result.steps == 4
    assert [(f.kind, f.player, f.step) for f in result.faults] == [("exception", "local(Random)", 3)]
    assert "bound must be positive" in result.faults[0].line
    assert not result.clean and "1 faults" in result.describe()


def test_fault_kinds() -> None:
    result = read_log("uwa", HYPERPLAY, returncode=0)
    assert not result.finished and result.steps == 8
    assert [(f.kind, f.step) for f in result.faults] == [
        ("timeout", 4), ("exception", 5), ("no move", 8), ("other", 8)]
    assert "no Game over (stopped at step 8" in result.describe()


def test_clean_match() -> None:
    result = read_log("dresden", "INFO(19:49:29.049): step:1\nINFO(19:49:39.813): step:9\n"
                                 "INFO(19:49:39.833): Game over! results: 0 100 0 \n")
    assert result.clean and result.goals == [0, 100, 0] and result.describe().endswith("no fault")
