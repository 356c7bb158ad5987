"""The player side without sockets: registry, built-in players, sessions."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from ggp.belief import Belief, Observation
from ggp.deadline import Deadline
from ggp.errors import UnknownPlayerError
from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.players.base import MatchInfo, Player, TurnView
from ggp.players.registry import available_players, create_player, player_class
from ggp.players.session import PlayerSession
from ggp.players.simple import LegalPlayer, RandomPlayer
from ggp.reasoner import make_machine
from tests.conftest import RULESHEETS, shared_path
from tests.server.support import REASONER

T = Term.parse


def game(path: Path) -> GameDescription:
    return load_game(path)


class SlowPlayer(Player):
    """Proposes its first legal move, then thinks far past the deadline."""

    name = "slow"

    def play(self, view: TurnView) -> Term:
        view.propose(view.legal_moves[-1])
        time.sleep(view.deadline.remaining() + 1.0)
        return view.legal_moves[0]


class SilentSlowPlayer(Player):
    """Thinks past the deadline without proposing anything."""

    def play(self, view: TurnView) -> Term:
        time.sleep(view.deadline.remaining() + 1.0)
        return view.legal_moves[0]


class CheatingPlayer(Player):
    """Answers a move that is never legal."""

    def play(self, view: TurnView) -> Term:
        return T("(mark 9 9)")


class BrokenPlayer(Player):
    """Crashes when asked to move."""

    def play(self, view: TurnView) -> Term:
        raise RuntimeError("bug in the strategy")


class Abstract(Player):
    """Does not implement play."""


NOT_A_PLAYER = 42


# --- registry ----------------------------------------------------------------------------------


def test_registry_names_and_module_specs() -> None:
    names = [cls.name for cls in available_players()]
    assert {"random", "legal"} <= set(names) and names == sorted(names)
    assert player_class("random") is RandomPlayer and player_class("LEGAL") is LegalPlayer
    assert player_class("tests.server.test_players:SlowPlayer") is SlowPlayer
    player = create_player("random", rng=random.Random(3), reasoner="oracle")
    assert isinstance(player, RandomPlayer) and player.reasoner == "oracle"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", "unknown player 'nobody'; known players: "),
        ("no.such.module:Player", "cannot import module 'no.such.module'"),
        ("tests.server.test_players:Missing", "has no 'Missing'"),
        ("tests.server.test_players:NOT_A_PLAYER", "is not a subclass"),
        ("tests.server.test_players:Abstract", "is abstract"),
        (":Player", "should be NAME or module:Class"),
    ],
)
def test_registry_errors(spec: str, message: str) -> None:
    with pytest.raises(UnknownPlayerError, match=message.replace("(", r"\(")):
        player_class(spec)


# --- sessions -------------------------------------------------------------------------------------


def _session(player: Player, path: Path = RULESHEETS / "tictactoe.kif", role: int = 0,
             clock: float = 0.5) -> PlayerSession:
    description = game(path)
    info = MatchInfo("m1", description.roles[role], description, 5.0, clock)
    session = PlayerSession(player, info, REASONER, random.Random(7))
    session.start(Deadline.after(5))
    return session


def test_session_answers_in_time_with_the_proposal() -> None:
    session = _session(SlowPlayer(random.Random(1)))
    began = time.monotonic()
    move = session.play([], Deadline.after(0.4), turn=0)
    assert time.monotonic() - began < 0.4 + 0.3
    legal = make_machine(game(RULESHEETS / "tictactoe.kif"), REASONER).legal_moves(
        make_machine(game(RULESHEETS / "tictactoe.kif"), REASONER).initial_state(), Constant("x"))
    assert move == legal[-1]
    assert session.play([], Deadline.after(0.4), turn=0) == move  # a repeated turn gets the same answer
    session.close()


@pytest.mark.parametrize("player", [SilentSlowPlayer(), CheatingPlayer(), BrokenPlayer()])
def test_session_falls_back_on_a_legal_move(player: Player) -> None:
    session = _session(player)
    machine = make_machine(game(RULESHEETS / "tictactoe.kif"), REASONER)
    legal = machine.legal_moves(machine.initial_state(), Constant("x"))
    began = time.monotonic()
    move = session.play([], Deadline.after(0.4))
    assert time.monotonic() - began < 0.4 + 0.3
    assert move in legal
    session.close()


def test_session_after_an_overrun_still_answers() -> None:
    session = _session(SilentSlowPlayer())
    first = session.play([], Deadline.after(0.3))
    assert first is not None
    # The strategy is still asleep; the next turn's answer is due anyway.
    joint = (first, Constant("noop"))
    began = time.monotonic()
    session.play([Observation(first, None, joint)], Deadline.after(0.3))
    assert time.monotonic() - began < 0.3 + 0.3
    session.close()


class Recorder(Player):
    """Plays the first legal move and keeps every view it was given."""

    def __init__(self) -> None:
        super().__init__(random.Random(0))
        self.views: list[TurnView] = []
        self.stopped = threading.Event()

    def play(self, view: TurnView) -> Term:
        self.views.append(view)
        return view.legal_moves[0]

    def stop(self, view: TurnView) -> None:
        self.views.append(view)
        self.stopped.set()


def test_session_views_hold_only_what_the_role_was_told() -> None:
    player = Recorder()
    session = _session(player, shared_path("corpus", "gdl2", "montyhall.gdl"))
    assert session.play([], Deadline.after(5)) == T("(choose 1)")
    chose = frozenset({T("(does candidate (choose 1))")})
    assert session.play([Observation(T("(choose 1)"), chose)], Deadline.after(5)) == T("noop")
    opened = frozenset({T("(does candidate noop)"), T("(open_door 3)")})
    assert session.play([Observation(T("noop"), opened)], Deadline.after(5)) in (T("noop"), T("switch"))
    view = player.views[-1]
    assert view.turn == 2 and view.last_move == T("noop") and view.last_percepts == opened
    assert view.moves == (T("(choose 1)"), T("noop")) and view.percepts == (chose, opened)
    assert not view.fully_observed and view.consistent and view.state is not None
    fluents = view.state.fluents
    assert T("(chosen 1)") in fluents and T("(car 3)") not in fluents and T("(closed 3)") not in fluents
    session.stop([Observation(T("switch"), frozenset({T("(does candidate switch)"), T("(car 2)")}))],
                 Deadline.after(5))
    assert player.stopped.is_set()
    final = player.views[-1]
    assert final.legal_moves == () and final.state is not None and T("(car 2)") in final.state.fluents


def test_a_session_never_answers_with_an_earlier_turns_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the belief cannot be brought up to date by the deadline, the session says it has no
    move (the manager substitutes one) rather than sending a move legal a turn ago."""
    session = _session(RandomPlayer(random.Random(1)), clock=0.3)
    first = session.play([], Deadline.after(0.5), turn=0)
    assert first is not None
    slow = Belief.update

    def stalled(self: Belief, *args: object, **kwargs: object) -> object:
        time.sleep(0.8)
        return slow(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Belief, "update", stalled)
    joint = (first, Constant("noop"))
    assert session.play([Observation(first, None, joint)], Deadline.after(0.3), turn=1) is None
    session.close()
