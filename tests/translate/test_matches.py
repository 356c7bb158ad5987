"""Our RECYCLE rulesheets (Agram, Kuhn, Leduc, Euchre, Santase) play to the end under ``ggp match``,
translated on the fly: between built-in players (each in a process of its own), and between
remote players (``ggp serve`` processes) that get the translated rules over HTTP in START.

Each match must finish with no error and no substituted move, and ``ggp replay`` of its record
must give the same goals. Kuhn runs in the default run; the longer games are slow-marked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from ggp.manager.record import read_record
from tests.conftest import RULESHEETS, ggp
from tests.server.support import REASONER, serve_process

#: Roles of each rulesheet's players and whether its match is slow-marked.
GAMES = {"kuhn": (2, False), "leduc": (2, True), "santase": (2, True), "agram": (4, True), "euchre": (4, True)}
PLAYERS = ("random", "legal")


def _params() -> list[object]:
    return [pytest.param(name, marks=[pytest.mark.slow] if slow else []) for name, (_, slow) in GAMES.items()]


def _play(env: dict[str, str], name: str, players: list[str], seed: int) -> dict[str, object]:
    """Host one match of a rulesheet with generous clocks; check it and its replay."""
    args = ["match", str(RULESHEETS / f"{name}.rcy"), "--startclock", "60", "--playclock", "20",
            "--seed", str(seed), "--reasoner", REASONER]
    for player in players:
        args += ["--player", player]
    result = ggp(env, *args, timeout=1800)
    assert result.returncode == 0, result.stderr[-2000:]
    summary = json.loads(result.stdout)
    assert summary["errors"] == [], summary["errors"][:3]
    record = read_record(str(summary["record"]))
    assert record.status == "finished"
    assert all(not step.substitutions for step in record.steps)
    assert set(summary["goals"]) == {f"player{i}" for i in range(len(players))}
    assert sum(summary["goals"].values()) > 0
    replay = ggp(env, "replay", str(summary["record"]), "--reasoner", REASONER, timeout=600)
    assert replay.returncode == 0, replay.stderr[-2000:]
    assert json.loads(replay.stdout)["goals"] == summary["goals"]
    return dict(summary)


@pytest.fixture(scope="module")
def servers() -> Iterator[list[str]]:
    """Four remote players: random and legal, alternately."""
    with ExitStack() as stack:
        yield [stack.enter_context(serve_process(PLAYERS[i % 2], 20 + i)) for i in range(4)]


@pytest.mark.parametrize("name", _params())
def test_built_in_players(env: dict[str, str], name: str) -> None:
    seats, _ = GAMES[name]
    _play(env, name, [PLAYERS[i % 2] for i in range(seats)], 1)


@pytest.mark.parametrize("name", _params())
def test_remote_players(env: dict[str, str], servers: list[str], name: str) -> None:
    seats, _ = GAMES[name]
    summary = _play(env, name, servers[:seats], 2)
    record = read_record(str(summary["record"]))
    assert list(record.players.values()) == servers[:seats]


def test_rulesheets_exist() -> None:
    assert sorted(p.stem for p in Path(RULESHEETS).glob("*.rcy")) == sorted(GAMES)
