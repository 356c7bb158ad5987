"""The player side of the GGP protocol, without transport: messages in, replies out.

:class:`PlayerService` plays one match at a time for one :class:`~ggp.players.base.Player`:
``start`` opens a :class:`~ggp.players.session.PlayerSession` (``busy`` while another match is
running), ``play``/``stop`` messages in any of their forms become
:class:`~ggp.belief.Observation` s for it, ``info`` reports the name and status. The
HTTP server (:mod:`ggp.server.server`) and the game manager's in-process players both use it,
so a player behaves the same in-process and over the network.

Deadlines are counted from when the request arrived (``received_at``, a monotonic time) minus a
safety margin that :class:`SafetyMargin` learns from how late answers actually leave.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from ggp.belief import Observation
from ggp.deadline import Deadline
from ggp.players.base import MatchInfo, Player
from ggp.players.session import PlayerSession
from ggp.protocol.messages import (
    Abort,
    Info,
    InfoReply,
    Message,
    Play,
    PlayII,
    Preview,
    ProtocolError,
    Start,
    Stop,
    StopII,
    parse_message,
)

log = logging.getLogger(__name__)

#: Seconds of silence, beyond twice the longer clock, after which a match counts as abandoned.
STALE_GRACE = 10.0
#: How many finished match ids are remembered (a repeated ``stop`` then still gets ``done``).
REMEMBERED_MATCHES = 64


class SafetyMargin:
    """How long before the clock runs out an answer should be ready, learned from experience.

    Each answer reports how long after its decision point (the deadline, or the moment the move
    was ready if earlier) it actually left; the margin is a base plus twice the worst recent
    delay, capped at a share of the clock.
    """

    def __init__(self, base: float = 0.05, cap_share: float = 0.25, window: int = 32):
        self.base = base
        self.cap_share = cap_share
        self._delays: deque[float] = deque(maxlen=window)
        self._lock = threading.Lock()

    def seconds(self, clock: float) -> float:
        """The margin to keep for a clock of ``clock`` seconds."""
        with self._lock:
            worst = max(self._delays, default=0.0)
        return min(self.base + 2 * worst, self.cap_share * clock)

    def record(self, delay: float) -> None:
        """Note that an answer left ``delay`` seconds after its decision point."""
        with self._lock:
            self._delays.append(max(0.0, delay))


@dataclass(frozen=True)
class Answer:
    """A reply body and the deadline it was computed for (None when no clock applied)."""

    body: str
    deadline: Deadline | None = None
    ready_at: float = field(default_factory=time.monotonic)


class _Match:
    """The service's bookkeeping for the running match."""

    def __init__(self, info: MatchInfo, session: PlayerSession):
        self.info = info
        self.session = session
        self.steps = 0  # transitions reported so far
        self.last_seen = time.monotonic()
        roles = info.roles
        self.index = roles.index(info.role)
        self.role_count = len(roles)

    def stale(self, now: float, grace: float) -> bool:
        clock = max(self.info.start_clock, self.info.play_clock)
        return now - self.last_seen > 2 * clock + grace


class PlayerService:
    """Answers protocol messages for ``player``, one match at a time (see the module doc)."""

    def __init__(self, player: Player, name: str | None = None, reasoner: str | None = None,
                 margin: SafetyMargin | None = None, stale_grace: float = STALE_GRACE):
        self.player = player
        self.stale_grace = stale_grace
        self.name = _symbol(name or player.name or type(player).__name__.lower())
        self.reasoner = reasoner
        self.margin = margin or SafetyMargin()
        self._lock = threading.Lock()
        self._current: _Match | None = None
        self._previous: PlayerSession | None = None
        self._finished: OrderedDict[str, str] = OrderedDict()

    @property
    def busy(self) -> bool:
        """True while a match is running."""
        with self._lock:
            return self._current is not None and not self._current.stale(time.monotonic(), self.stale_grace)

    def close(self) -> None:
        """Abort the running match, if any (its player is told; waiting answers return)."""
        with self._lock:
            current, self._current = self._current, None
            if current is not None:
                self._previous = current.session
        if current is not None:
            current.session.abort()

    def handle_text(self, text: str, received_at: float | None = None) -> Answer:
        """Parse and answer one message; raises :class:`ProtocolError` for a bad message."""
        with self._lock:
            gdl2 = self._current is not None and self._current.info.uses_sees
        return self.handle(parse_message(text, gdl2=gdl2), received_at)

    def handle(self, message: Message, received_at: float | None = None) -> Answer:
        """Answer one message; raises :class:`ProtocolError` when it does not fit the match."""
        now = time.monotonic() if received_at is None else received_at
        if isinstance(message, Info):
            status = "busy" if self.busy else "available"
            return Answer(str(InfoReply(self.name, status)))
        if isinstance(message, Preview):
            return Answer("ready")
        if isinstance(message, Start):
            return self._start(message, now)
        if isinstance(message, Abort):
            return self._abort(message)
        return self._turn(message, now)

    def _deadline(self, received_at: float, clock: float) -> Deadline:
        return Deadline(received_at + clock - self.margin.seconds(clock))

    def _start(self, message: Start, received_at: float) -> Answer:
        roles = message.description.roles
        if message.role not in roles:
            known = " ".join(str(r) for r in roles) or "none"
            raise ProtocolError(f"role {message.role} is not a role of the game (roles: {known})")
        info = MatchInfo(message.match_id, message.role, message.description,
                         message.start_clock, message.play_clock)
        with self._lock:
            current = self._current
            if current is not None and current.info.match_id == message.match_id:
                return Answer("ready")
            if current is not None and not current.stale(received_at, self.stale_grace):
                return Answer("busy")
            if current is not None:
                log.warning("abandoning match %s (no message for a long time)", current.info.match_id)
                current.session.abort()
                self._previous = current.session
            previous, self._previous = self._previous, None
            session = PlayerSession(self.player, info, self.reasoner)
            self._current = _Match(info, session)
        deadline = self._deadline(received_at, message.start_clock)
        if previous is not None and not previous.wait_closed(deadline.share(0.5)):
            log.warning("%s: the player is still busy with its last match", message.match_id)
        session.start(deadline)
        log.info("%s: started as %s", message.match_id, message.role)
        return Answer("ready", deadline)

    def _abort(self, message: Abort) -> Answer:
        with self._lock:
            current = self._current
            if current is None or current.info.match_id != message.match_id:
                return Answer("aborted")
            self._current = None
            self._previous = current.session
            self._remember(message.match_id, "aborted")
        current.session.abort()
        log.info("%s: aborted", message.match_id)
        return Answer("aborted")

    def _remember(self, match_id: str, how: str) -> None:
        self._finished[match_id] = how
        while len(self._finished) > REMEMBERED_MATCHES:
            self._finished.popitem(last=False)

    def _turn(self, message: Play | PlayII | Stop | StopII, received_at: float) -> Answer:
        stop = isinstance(message, (Stop, StopII))
        with self._lock:
            match = self._current
            if match is None or match.info.match_id != message.match_id:
                if message.match_id in self._finished:
                    if stop:
                        return Answer("done")
                    raise ProtocolError(f"match {message.match_id} is already over")
                what = "stop" if stop else "play"
                raise ProtocolError(f"{what} for unknown match {message.match_id} (no start received)")
            observations, turn = self._observations(match, message)
            match.steps += len(observations)
            match.last_seen = received_at
            if stop:
                self._current = None
                self._previous = match.session
                self._remember(message.match_id, "done")
        deadline = self._deadline(received_at, match.info.play_clock)
        if stop:
            match.session.stop(observations, deadline)
            log.info("%s: stopped after %d steps", message.match_id, match.steps)
            return Answer("done", deadline)
        move = match.session.play(observations, deadline, turn)
        if move is None:
            log.warning("%s: no legal move known (%s); answering nil", message.match_id,
                        match.session.error or "out of time")
        return Answer("nil" if move is None else str(move), deadline)

    def _observations(self, match: _Match, message: Play | PlayII | Stop | StopII) -> tuple[list[Observation], int | None]:
        """The transitions a message reports that the session has not seen, and its turn number."""
        if isinstance(message, (Play, Stop)):
            if message.moves is None:
                return [], (0 if match.steps == 0 else None)
            if len(message.moves) != match.role_count:
                raise ProtocolError(f"the joint move {' '.join(map(str, message.moves))} has "
                                    f"{len(message.moves)} moves; the game has {match.role_count} roles")
            joint = message.moves
            return [Observation(joint[match.index], None, joint)], match.steps + 1
        if message.turn is None:  # the old (play ID (PERCEPTS)) form
            return [Observation(None, message.percepts)], None
        if message.turn <= match.steps:
            return [], message.turn  # a repeated message: the session repeats its answer
        unknown = [Observation(None, None)] * (message.turn - match.steps - 1)
        return unknown + [Observation(message.last_move, message.percepts)], message.turn


def _symbol(name: str) -> str:
    """``name`` made safe to send as one KIF symbol."""
    cleaned = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)
    return cleaned or "player"


__all__ = ["Answer", "PlayerService", "SafetyMargin"]
