"""The player interface: what a strategy implements and what it is told.

A :class:`Player` answers four events, as the GGP protocol's messages do: :meth:`Player.start`
(the rules, its role and the clocks), :meth:`Player.play` (choose a move), :meth:`Player.stop`
(the match ended) and :meth:`Player.abort`. It never sees HTTP, match ids of other matches or
the true state of a GDL-II game: each turn it gets a :class:`TurnView` with only what its role
was told (its own moves and percepts, or every joint move in a fully observed GDL game), its
:class:`~ggp.belief.Belief` (what is certain, probable, where each card may be; weighted
particles to search), the moves legal in every state it holds, and the
:class:`~ggp.deadline.Deadline` by which it must answer.

A strategy that searches should call :meth:`TurnView.propose` whenever it finds a better move;
if it is still thinking when the time is up, the proposed move (or else a legal move) is sent
for it (see :mod:`ggp.players.session`). Randomness comes from the ``rng`` passed in.

Besides the four events a player may override informational hooks (:meth:`Player.on_percepts`,
:meth:`Player.on_substitution`, :meth:`Player.on_match_end`) and keep learned data in
:attr:`Player.memory` across matches when :meth:`Player.persist` says so (saved under the data
directory, see :mod:`ggp.players.memory`; :meth:`Player.reset` forgets it).
"""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ggp.belief import Belief, Particles
from ggp.deadline import Deadline
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.players.memory import forget
from ggp.reasoner.machine import JointMove, State, StateMachine


@dataclass(frozen=True)
class MatchInfo:
    """What a ``start`` message tells a player: match id, role, rules and clocks (seconds)."""

    match_id: str
    role: Constant
    description: GameDescription
    start_clock: float
    play_clock: float

    @property
    def roles(self) -> tuple[Constant, ...]:
        """Every role of the game, in the order of its ``role`` facts."""
        return self.description.roles

    @property
    def uses_sees(self) -> bool:
        """True for GDL-II rules (with ``sees``), where a player sees only its percepts."""
        return self.description.uses_sees


@dataclass(frozen=True)
class StartView:
    """What :meth:`Player.start` gets: the match, a state machine for its rules, the deadline."""

    match: MatchInfo
    machine: StateMachine
    deadline: Deadline

    @property
    def role(self) -> Constant:
        """The player's role."""
        return self.match.role


class _Proposal:
    """The best move a strategy has proposed so far in one turn (shared with the session)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._move: Term | None = None

    def set(self, move: Term) -> None:
        with self._lock:
            self._move = move

    def get(self) -> Term | None:
        with self._lock:
            return self._move


@dataclass(frozen=True, eq=False)
class TurnView:
    """Everything a player knows when it must move (or when the match ends).

    ``moves[i]`` and ``percepts[i]`` are the player's own move and percepts of turn ``i`` as the
    manager reported them (None when not reported). ``joint_moves`` holds every joint move when
    the manager told them (GDL messages); then the belief holds the true state alone.
    ``belief`` is the role's belief after the last step, and ``legal_moves`` the moves legal in
    every state it holds (empty at the end of the match).
    """

    match: MatchInfo
    machine: StateMachine
    turn: int
    moves: tuple[Term | None, ...]
    percepts: tuple[frozenset[Term] | None, ...]
    joint_moves: tuple[JointMove, ...] | None
    belief: Belief
    legal_moves: tuple[Term, ...]
    deadline: Deadline
    _proposal: _Proposal = field(default_factory=_Proposal, repr=False)

    @property
    def role(self) -> Constant:
        """The player's role."""
        return self.match.role

    @property
    def last_move(self) -> Term | None:
        """The player's move in the previous turn as executed (None on the first turn)."""
        return self.moves[-1] if self.moves else None

    @property
    def last_percepts(self) -> frozenset[Term]:
        """What the player saw on the previous transition (empty on the first turn)."""
        return (self.percepts[-1] or frozenset()) if self.percepts else frozenset()

    @property
    def fully_observed(self) -> bool:
        """True when every joint move so far is known, so :attr:`state` is the true state."""
        return self.joint_moves is not None

    @property
    def state(self) -> State:
        """The most probable state (the true state when fully observed)."""
        return self.belief.state

    @property
    def consistent(self) -> bool:
        """True when every state the belief holds explains everything the role saw."""
        return self.belief.consistent

    def particles(self, k: int | None = None) -> Particles:
        """Weighted states of :attr:`machine` that the role considers possible, with histories:
        the belief's (weights summing to one), or ``k`` of them drawn in proportion to their
        weights (equally weighted)."""
        return self.belief.particles(k)

    def propose(self, move: Term) -> None:
        """Record ``move`` as the best found so far; it is sent if time runs out."""
        self._proposal.set(move)

    @property
    def proposed(self) -> Term | None:
        """The move last passed to :meth:`propose`, if any."""
        return self._proposal.get()


class Player(ABC):
    """Base class of every player: override :meth:`play`, and :meth:`start`, :meth:`stop`,
    :meth:`abort` when needed. One instance may play many matches, one after another.

    ``name`` (the registry key, one word), ``summary`` (one line for ``ggp players``),
    ``particles`` (how many its belief carries) and ``in_process`` are class attributes.
    ``rng`` is the player's only source of randomness; ``reasoner`` names the state machine to
    use (None: the project default).
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    #: How many particles (weighted states) the player's belief carries once its information
    #: set is too large to keep whole; a player that only needs the legal moves asks for few
    #: and saves the time.
    particles: ClassVar[int] = 64
    #: True for a player that must run in the game manager's own process (one that talks to
    #: the console); the others each run in a process of their own.
    in_process: ClassVar[bool] = False

    def __init__(self, rng: random.Random | None = None, reasoner: str | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.reasoner = reasoner
        #: Learned data kept across matches when :meth:`persist` is True (JSON values only).
        self.memory: dict[str, Any] = {}

    def start(self, view: StartView) -> None:
        """Prepare for a match before ``view.deadline`` (default: nothing to prepare)."""

    @abstractmethod
    def play(self, view: TurnView) -> Term:
        """Choose a move before ``view.deadline``; it should be one of ``view.legal_moves``."""

    def move_probabilities(self, view: TurnView) -> dict[Term, float] | None:
        """The probability with which :meth:`play` would choose each of ``view.legal_moves``,
        for a player that knows its mixed strategy; None (the default) when it cannot tell:
        tools that measure a policy (``ggp exploitability``) then ask :meth:`play` instead."""
        return None

    def stop(self, view: TurnView) -> None:
        """The match is over; ``view`` holds the final move and percepts (default: nothing)."""

    def abort(self, match: MatchInfo) -> None:
        """The match was cancelled (default: nothing)."""

    # --- informational hooks (default: nothing) ----------------------------------------------

    def on_percepts(self, view: TurnView, percepts: frozenset[Term]) -> None:
        """The last transition brought ``percepts`` (called before :meth:`play` or :meth:`stop`)."""

    def on_substitution(self, view: TurnView, answered: Term, played: Term) -> None:
        """``played`` was played for the player instead of the move it chose, ``answered`` (its
        answer was late, lost or illegal), before :meth:`play` or :meth:`stop`."""

    def on_match_end(self, view: TurnView, goals: dict[Constant, float]) -> None:
        """After :meth:`stop`: each role's goal, averaged over the final states still possible
        (exact when the final state is known or every possible one agrees)."""

    # --- learning across matches ------------------------------------------------------------

    def persist(self) -> bool:
        """True to keep :attr:`memory` between matches: it is loaded before the first match and
        saved after each one (default False: nothing is saved)."""
        return False

    def reset(self) -> None:
        """Forget everything learned: clear :attr:`memory` and the saved copy."""
        self.memory.clear()
        forget(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
