"""Translated card games under real third-party game managers, read from their own logs.

The Dresden GameController seats the project's player servers (``ggp serve``) and HyperPlay
through ``interop``'s AgentServer; UWA's GameController its own local agents. Each match must end
with ``Game over`` and no fault in the manager's log (no substituted move, time-out or
exception). Kuhn runs in the default test run, one match per manager and kind of player; Agram,
Euchre and Santase are slow-marked (``pytest -m slow tests/interop``).

This is the contract a translation keeps: rules a simpler prover than clingo (the
GameController's, top-down) evaluates correctly and fast enough for the managers' own players.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest

from ggp.peers.agent import AgentProcess
from ggp.peers.build import Peers
from ggp.peers.gamecontroller import Fault, GCMatch, Seat, run_match
from tests.interop.conftest import Translations
from tests.server.support import serve_process

#: HyperPlay's own defect, not the game's: its move selection starts the best value at
#: Float.MIN_VALUE (the least positive float), so when every move is worth 0 in every
#: hypergame (say Kuhn's Jack facing a bet) it chooses no move, and the manager substitutes one.
HYPERPLAY_NO_MOVE = "no move"


def faults(result: GCMatch, allowed: tuple[str, ...] = ()) -> list[Fault]:
    """The faults of ``result`` other than the ``allowed`` kinds."""
    return [f for f in result.faults if f.kind not in allowed]


def assert_clean(result: GCMatch, allowed: tuple[str, ...] = ()) -> None:
    """The match ended with Game over and no fault other than the ``allowed`` kinds."""
    assert result.finished, result.describe() + "\n" + result.log[-3000:]
    assert not faults(result, allowed), result.describe()


@contextmanager
def remote_seats(peers: Peers, specs: list[str]) -> Iterator[list[Seat]]:
    """Remote seats for the Dresden manager: ``uwa:AGENT`` through AgentServer, else ``ggp serve SPEC``."""
    with ExitStack() as stack:
        seats = []
        for i, spec in enumerate(specs):
            if spec.startswith("uwa:"):
                url = stack.enter_context(AgentProcess(peers, spec[4:])).url
            else:
                url = stack.enter_context(serve_process(spec, i + 1))
            seats.append(Seat.remote(url, spec.replace(":", "-")))
        yield seats


def test_kuhn_uwa_random(peers: Peers, translations: Translations) -> None:
    """UWA's manager, its random agents in both seats (and its random player for ``random``):
    before the translation let ``random`` see every move, ``random`` found no legal move at the
    second deal (``IllegalArgumentException: bound must be positive``)."""
    result = run_match(peers, "uwa", translations["kuhn"], [Seat("random"), Seat("random")],
                       play_clock=10, time_limit=300)
    assert_clean(result)


def test_kuhn_uwa_hyperplay(peers: Peers, translations: Translations) -> None:
    """UWA's manager, HyperPlay in both seats, at a 10 s play clock."""
    result = run_match(peers, "uwa", translations["kuhn"], [Seat("hyper"), Seat("hyper")],
                       play_clock=10, time_limit=600)
    assert_clean(result, allowed=(HYPERPLAY_NO_MOVE,))


def test_kuhn_dresden_project_players(peers: Peers, translations: Translations) -> None:
    """The Dresden manager with two of the project's player servers (``random``, ``pimc``)."""
    with remote_seats(peers, ["random", "pimc"]) as seats:
        result = run_match(peers, "dresden", translations["kuhn"], seats, play_clock=2, time_limit=300)
    assert_clean(result)


def test_kuhn_dresden_hyperplay(peers: Peers, translations: Translations) -> None:
    """The Dresden manager with HyperPlay (served by AgentServer) against the project's ``random``."""
    with remote_seats(peers, ["uwa:hyper", "random"]) as seats:
        result = run_match(peers, "dresden", translations["kuhn"], seats, play_clock=10, time_limit=600)
    assert_clean(result, allowed=(HYPERPLAY_NO_MOVE,))


LARGE = ("agram", "euchre", "santase", "leduc")
SEATS = {"agram": 4, "euchre": 4, "santase": 2, "leduc": 2}


@pytest.mark.slow
@pytest.mark.parametrize("name", LARGE)
def test_large_dresden_project_players(peers: Peers, translations: Translations, name: str) -> None:
    """The larger rulesheets under the Dresden manager with the project's players."""
    specs = ["pimc", "random", "ismcts", "random"][: SEATS[name]]
    with remote_seats(peers, specs) as seats:
        result = run_match(peers, "dresden", translations[name], seats, start_clock=60, play_clock=2,
                           time_limit=1800)
    assert_clean(result)


HYPERPLAY_TOO_SLOW = (
    "HyperPlay keeps 16 hypergames and values each move by 6 random playouts in each, on the "
    "GameController's top-down prover: a translated card game costs that prover 20-30 ms per step "
    "(docs/interop.md), so HyperPlay's first decisions, and the deals it must explain, take "
    "minutes; it misses the clock, and UWA's manager then runs its next turn beside the unfinished "
    "one (HyperPlay's state breaks: EmptyStackException, 'Key already contained'). Passes once a "
    "translation costs the prover about 1 ms per step (translators/recycle, issue 15).")


@pytest.mark.slow
@pytest.mark.xfail(reason=HYPERPLAY_TOO_SLOW, strict=False)
@pytest.mark.parametrize("agent", ["hyper", "imprandom"])
@pytest.mark.parametrize("name", LARGE)
def test_large_uwa_hyperplay(peers: Peers, translations: Translations, name: str, agent: str) -> None:
    """The larger rulesheets under UWA's manager, HyperPlay (or UWA's improved random player, which
    keeps hypergames as HyperPlay does) in every seat, 10 s play clock. (UWA's plain random and
    legal players cannot take a seat there in any translation: docs/interop.md, cause 3.)"""
    result = run_match(peers, "uwa", translations[name], [Seat(agent)] * SEATS[name], play_clock=10,
                       time_limit=1800, stop_on_fault=True)
    assert_clean(result, allowed=(HYPERPLAY_NO_MOVE,))


@pytest.mark.slow
@pytest.mark.xfail(reason=HYPERPLAY_TOO_SLOW, strict=False)
@pytest.mark.parametrize("name", LARGE)
def test_large_dresden_hyperplay(peers: Peers, translations: Translations, name: str) -> None:
    """The larger rulesheets under the Dresden manager, HyperPlay in the first seat, the project's
    ``random`` in the others, 10 s play clock."""
    specs = ["uwa:hyper"] + ["random"] * (SEATS[name] - 1)
    with remote_seats(peers, specs) as seats:
        result = run_match(peers, "dresden", translations[name], seats, play_clock=10, time_limit=1800,
                           stop_on_fault=True)
    assert_clean(result, allowed=(HYPERPLAY_NO_MOVE,))
