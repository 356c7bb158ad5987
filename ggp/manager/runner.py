"""Running one match: the game manager's main loop.

The manager holds the true state. Each step it asks every player (all at once, each within the
play clock plus slack) for a move, plays ``random`` itself (uniformly, with the match's seeded
``random.Random``), and replaces any move it cannot use (no answer in time, no connection, an
answer that is not a move, an illegal move, a player that crashed) by a random legal move,
recording the reason. That move is what the player is told it played. GDL-II games get GDL-II
messages with each role's own percepts; games without ``sees`` get plain GDL messages (every
joint move), or with ``protocol="gdl2"`` GDL-II messages after the rule
``(<= (sees ?p (did ?q ?m)) (role ?p) (does ?q ?m))`` is added, as the Dresden manager does
for players registered as GDL-II. The match ends with ``stop`` (``abort`` on Ctrl-C). The
clients are closed at the end unless the caller keeps them for more matches (``close_clients``).
"""

from __future__ import annotations

import random
import re
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from ggp.deadline import Deadline
from ggp.errors import GGPError, ReasonerError
from ggp.gdl.kif import parse_kif
from ggp.gdl.rules import RANDOM, GameDescription
from ggp.gdl.terms import Constant, Term, sort_key
from ggp.manager.client import TIMEOUT, PlayerClient, Reply
from ggp.manager.clocks import Clocks
from ggp.manager.record import Answer, Event, MatchRecord, Step, Substitution
from ggp.protocol.messages import (
    Abort,
    Message,
    Play,
    PlayII,
    ProtocolError,
    Start,
    Stop,
    StopII,
    parse_move,
)
from ggp.reasoner import warm
from ggp.reasoner.machine import JointMove, State, StateMachine

#: The rule the Dresden manager adds to games without ``sees`` for GDL-II players.
DID_RULE = parse_kif("(<= (sees ?p (did ?q ?m)) (role ?p) (does ?q ?m))")
#: Message forms: ``auto`` (GDL-II only for games with ``sees``) or ``gdl2`` (always).
PROTOCOLS = ("auto", "gdl2")
#: Extra seconds the manager waits for an in-process answer beyond the deadline.
_GUARD = 0.5


class MatchSetupError(GGPError, ValueError):
    """A match that cannot begin: wrong number of players, unknown message form."""


@dataclass(frozen=True)
class MatchSettings:
    """How to run a match: clocks, seed, message form, reasoner, match id, step limit."""

    clocks: Clocks = field(default_factory=Clocks)
    seed: int | None = None
    protocol: str = "auto"
    reasoner: str | None = None
    match_id: str | None = None
    max_steps: int = 1000


def with_did_percepts(description: GameDescription) -> GameDescription:
    """``description`` plus the rule letting every role see every move (for GDL-II players)."""
    return GameDescription(description.rules + DID_RULE.rules, description.source)


def sent_description(description: GameDescription, protocol: str) -> GameDescription:
    """The rules the players receive for ``protocol``."""
    if protocol not in PROTOCOLS:
        raise MatchSetupError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    if protocol == "gdl2" and not description.uses_sees:
        return with_did_percepts(description)
    return description


def new_match_id(source: str | None) -> str:
    """A fresh match id such as ``tictactoe.20250101t120000.a1b2c3`` (a valid KIF name)."""
    stem = re.sub(r"[^a-z0-9_-]+", "_", Path(source).stem.lower()) if source else "match"
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dt%H%M%S")
    return f"{stem or 'match'}.{stamp}.{secrets.token_hex(3)}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class MatchRunner:
    """One match of ``description`` between ``clients`` (one per non-random role, in order);
    closes them at the end when ``close_clients``."""

    def __init__(self, description: GameDescription, clients: Sequence[PlayerClient],
                 settings: MatchSettings = MatchSettings(),
                 progress: Callable[[str], None] | None = None, close_clients: bool = True):
        self.settings = settings
        self.close_clients = close_clients
        self.original = description
        self.description = sent_description(description, settings.protocol)
        self.gdl2 = self.description.uses_sees
        # Built (and, for the fast reasoner, stored in the disk cache) before START, so the
        # players' processes load the machine instead of building it on the start clock.
        self.machine: StateMachine = (warm(self.description, settings.reasoner) if settings.reasoner
                                      else warm(self.description))
        self.seats = [r for r in self.machine.roles if r != RANDOM]
        if len(clients) != len(self.seats):
            raise MatchSetupError(f"the game has {len(self.seats)} player roles "
                                  f"({' '.join(map(str, self.seats))}) but {len(clients)} players were given")
        self.clients = dict(zip(self.seats, clients))
        self.rng = random.Random(settings.seed)
        self.match_id = settings.match_id or new_match_id(description.source)
        self.progress = progress or (lambda line: None)
        self._pools = {role: ThreadPoolExecutor(1, thread_name_prefix=f"seat-{role}") for role in self.seats}
        clocks = settings.clocks
        self.record = MatchRecord(
            self.match_id, description.source, self.description.to_kif(), self.description.digest(),
            [str(r) for r in self.machine.roles], {str(r): c.spec for r, c in self.clients.items()},
            clocks.start, clocks.play, clocks.slack, settings.seed, settings.protocol,
        )

    # --- the match ----------------------------------------------------------------------------

    def run(self) -> MatchRecord:
        """Play the match to the end (or until Ctrl-C) and return its record."""
        record = self.record
        record.started = _now()
        began = time.monotonic()
        try:
            state = self._play_all(self._start_all())
            record.goals = {str(r): v for r, v in self.machine.goals(state).items()}
            record.status = "finished"
        except KeyboardInterrupt:
            record.status = "aborted"
            record.errors.append("interrupted: sent abort to every player")
            self._abort_all()
        except ReasonerError as exc:
            record.status = "error"
            record.errors.append(f"the rules failed: {exc}")
            self._abort_all()
        finally:
            record.finished = _now()
            record.seconds = round(time.monotonic() - began, 6)
            for pool in self._pools.values():
                pool.shutdown(wait=False)
            if self.close_clients:
                for client in self.clients.values():
                    client.close()
        return record

    def _start_all(self) -> State:
        clocks = self.settings.clocks
        messages: dict[Constant, Message] = {
            role: Start(self.match_id, role, self.description, clocks.start, clocks.play) for role in self.seats
        }
        for role, reply in self._broadcast(messages, clocks.start_deadline()).items():
            self._expect(reply, "ready", "start", role)
        return self.machine.initial_state()

    def _play_all(self, state: State) -> State:
        joint: JointMove | None = None
        percepts: dict[Constant, frozenset[Term]] = {}
        turn = 0
        while not self.machine.is_terminal(state):
            if turn >= self.settings.max_steps:
                raise ReasonerError(f"no terminal state after {turn} steps (the limit)")
            began = time.monotonic()
            messages = {role: self._turn_message(role, turn, joint, percepts, stop=False) for role in self.seats}
            replies = self._broadcast(messages, self.settings.clocks.play_deadline())
            step = Step(turn, [], {})
            moves = []
            for role, legal in zip(self.machine.roles, self.machine.all_legal_moves(state)):
                if not legal:
                    raise ReasonerError(f"role {role} has no legal move in a non-terminal state")
                if role == RANDOM:
                    moves.append(self._pick(legal))
                    continue
                reply = replies[role]
                step.answers[str(role)] = Answer(reply.text, round(reply.seconds, 6), reply.failure, reply.detail)
                moves.append(self._judge(step, role, reply, legal))
            joint = tuple(moves)
            percepts = self.machine.percepts(state, joint)
            state = self.machine.next_state(state, joint)
            step.joint_move = [str(m) for m in joint]
            step.percepts = {str(r): sorted((str(p) for p in percepts.get(r, ())), key=str)
                             for r in self.machine.roles}
            step.seconds = round(time.monotonic() - began, 6)
            self.record.steps.append(step)
            self.progress(f"turn {turn}: {' '.join(step.joint_move)}")
            turn += 1
        messages = {role: self._turn_message(role, turn, joint, percepts, stop=True) for role in self.seats}
        for role, reply in self._broadcast(messages, self.settings.clocks.stop_deadline()).items():
            self._expect(reply, "done", "stop", role)
        return state

    def _turn_message(self, role: Constant, turn: int, joint: JointMove | None,
                      percepts: dict[Constant, frozenset[Term]], stop: bool) -> Message:
        if not self.gdl2:
            return (Stop if stop else Play)(self.match_id, joint)
        last = joint[self.machine.role_index(role)] if joint is not None else None
        return (StopII if stop else PlayII)(self.match_id, turn, last, percepts.get(role, frozenset()))

    def _abort_all(self) -> None:
        deadline = Deadline.after(min(2.0, self.settings.clocks.play + self.settings.clocks.slack))
        with ThreadPoolExecutor(len(self.seats), thread_name_prefix="abort") as pool:
            # Fresh threads: a seat's own thread may still wait for an answer to ``play``.
            replies = self._broadcast({role: Abort(self.match_id) for role in self.seats}, deadline, pool)
        for role, reply in replies.items():
            self._expect(reply, "aborted", "abort", role)

    # --- answers ------------------------------------------------------------------------------

    def _pick(self, legal: Sequence[Term]) -> Term:
        return legal[self.rng.randrange(len(legal))] if len(legal) > 1 else legal[0]

    def _judge(self, step: Step, role: Constant, reply: Reply, legal: Sequence[Term]) -> Term:
        """The reply's move if it is legal, else a random legal move recorded as a substitution."""
        if reply.text is None:
            reason, detail = reply.failure or "error", reply.detail
        else:
            try:
                move = parse_move(reply.text)
            except ProtocolError as exc:
                reason, detail = "garbled", f"not a move: {exc.message}"
            else:
                if move in legal:
                    return move
                reason = "illegal"
                detail = f"{move} is not legal; legal: {' '.join(str(m) for m in sorted(legal, key=sort_key)[:8])}" + (
                    " ..." if len(legal) > 8 else "")
        substitute = self._pick(legal)
        step.substitutions.append(Substitution(str(role), str(substitute), reason, detail, reply.text))
        self.record.errors.append(f"turn {step.turn}: {role} ({self.clients[role].spec}): {reason}: {detail}; "
                                  f"played {substitute} instead")
        return substitute

    def _expect(self, reply: Reply, wanted: str, phase: str, role: Constant) -> None:
        if reply.text is not None and reply.text.strip().lower() == wanted:
            return
        if reply.text is None:
            reason, detail = reply.failure or "error", reply.detail
        else:
            reason, detail = "unexpected", f"answered {reply.text[:80]!r}, not {wanted}"
        self.record.events.append(Event(phase, str(role), reason, detail))
        self.record.errors.append(f"{phase}: {role} ({self.clients[role].spec}): {reason}: {detail}")

    def _broadcast(self, messages: dict[Constant, Message], deadline: Deadline,
                   pool: ThreadPoolExecutor | None = None) -> dict[Constant, Reply]:
        """Send every message at once; every answer by ``deadline`` (in-process: plus a guard)."""
        sent = time.monotonic()
        futures: dict[Constant, Future[Reply]] = {
            role: (pool or self._pools[role]).submit(self.clients[role].send, message, deadline)
            for role, message in messages.items()
        }
        replies: dict[Constant, Reply] = {}
        for role, future in futures.items():
            try:
                replies[role] = future.result(timeout=deadline.remaining() + _GUARD)
            except FutureTimeout:
                future.cancel()
                replies[role] = Reply(None, time.monotonic() - sent, TIMEOUT, "no answer within the clock")
            except Exception as exc:  # noqa: BLE001 - a client's bug must not stop the match
                replies[role] = Reply(None, time.monotonic() - sent, "error", f"{type(exc).__name__}: {exc}")
        return replies


def run_match(description: GameDescription, clients: Sequence[PlayerClient],
              settings: MatchSettings = MatchSettings(),
              progress: Callable[[str], None] | None = None, close_clients: bool = True) -> MatchRecord:
    """Play one match and return its record (see :class:`MatchRunner`); the clients are closed
    at the end unless ``close_clients`` is False (to reuse them: ``new_match`` in between),
    also when the match cannot begin."""
    try:
        runner = MatchRunner(description, clients, settings, progress, close_clients)
    except BaseException:
        if close_clients:
            for client in clients:
                client.close()
        raise
    return runner.run()
