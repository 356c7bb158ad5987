"""UWA's agents as GGP HTTP players (``interop``'s AgentServer), seated by ``ggp match``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest

from ggp.peers.agent import AgentProcess
from ggp.peers.build import PeerError, Peers
from tests.conftest import RULESHEETS, ggp
from tests.server.support import exchange, post, split_response

#: Our manager's account of HyperPlay's own defect (see test_managers.HYPERPLAY_NO_MOVE).
NO_MOVE = "the agent chose no move"


@pytest.fixture(scope="module")
def hyper(peers: Peers) -> Iterator[AgentProcess]:
    """HyperPlay served on a free port, for the whole module (one match at a time)."""
    with AgentProcess(peers, "hyper") as agent:
        yield agent


def address(agent: AgentProcess) -> tuple[str, int]:
    url = urlparse(agent.url)
    assert url.hostname is not None and url.port is not None
    return url.hostname, url.port


def play(env: dict[str, str], game: str, *players: str, clock: float = 10, seed: int = 1,
         protocol: str = "auto") -> dict[str, Any]:
    done = ggp(env, "match", game, *[a for p in players for a in ("--player", p)], "--playclock", str(clock),
               "--seed", str(seed), "--protocol", protocol, timeout=900)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def hyperplay_errors(result: dict[str, Any]) -> list[str]:
    """The match's errors other than HyperPlay choosing no move."""
    return [e for e in result["errors"] if NO_MOVE not in e]


def test_protocol(hyper: AgentProcess) -> None:
    """``(info)``, bad messages, other methods: answered as a GGP player server answers them."""
    where = address(hyper)
    assert post(where, "(info)") == (200, "((name uwa-hyper) (status available))")
    status, body = post(where, "(play nosuchmatch 0 nil nil)")
    assert status == 400 and "no match nosuchmatch" in body
    status, body = post(where, "(start m1 nosuchrole ((role a)) 10 10")
    assert status == 400 and "unbalanced" in body
    status, body = post(where, "(start m1 nosuchrole ((role a) (init (p)) (<= terminal (true (p))) (legal a noop) "
                               "(goal a 100)) 10 10)")
    assert status == 400 and "nosuchrole is not a role" in body
    status, _ = split_response(exchange(where, b"GET / HTTP/1.0\r\n\r\n"))
    assert status == 405


def test_unknown_agent(peers: Peers) -> None:
    with pytest.raises(PeerError, match="unknown UWA agent"):
        AgentProcess(peers, "nosuchagent")


@pytest.mark.slow
def test_montyhall(hyper: AgentProcess, env: dict[str, str]) -> None:
    """HyperPlay plays Monty Hall through ``ggp match`` without a fault."""
    result = play(env, str(RULESHEETS / "montyhall.kif"), hyper.url, clock=5)
    assert result["errors"] == []
    assert set(result["goals"]) == {"candidate"}


def test_kuhn_against_project_player(hyper: AgentProcess, env: dict[str, str]) -> None:
    """HyperPlay against the project's ``random`` on translated Kuhn (GDL-II messages)."""
    result = play(env, str(RULESHEETS / "kuhn.rcy"), "random", hyper.url, seed=2)
    assert hyperplay_errors(result) == []
    assert sorted(result["goals"].values()) == [0, 100]


@pytest.mark.parametrize("protocol", ["auto", pytest.param("gdl2", marks=pytest.mark.slow)])
def test_gdl_game_messages(hyper: AgentProcess, env: dict[str, str], protocol: str) -> None:
    """A game without ``sees``, sent as GDL (joint moves: the server turns them into the
    ``(did ROLE MOVE)`` percepts of the rule it adds) or as GDL-II (the manager adds the rule)."""
    result = play(env, str(RULESHEETS / "tictactoe.kif"), hyper.url, "random", clock=5, protocol=protocol)
    assert hyperplay_errors(result) == []
