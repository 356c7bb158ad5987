"""Running one match: the game manager's main loop.

The manager holds the true state. Each step it asks every player (all at once, each within the
play clock plus slack) for a move, plays ``random`` itself (uniformly, with the match's seeded
``random.Random``), and replaces any move it cannot use (no answer in time, no connection, an
answer that is not a move, an illegal move, a player that crashed) by a random legal move,
recording the reason. That move is what the player is told it played. GDL-II games get GDL-II
messages with each role's own percepts; games without ``sees`` get plain GDL messages (every
joint move), or with ``protocol="gdl2"`` GDL-II messages after the rule
``(<= (sees ?p (did ?q ?m)) (role ?p) (does ?q ?m))`` is added, as the Dresden manager does
for players registered as GDL-II. The match ends with ``stop`` (``abort`` on Ctrl-C or SIGTERM,
see :mod:`ggp.manager.stopping`). The clients are closed at the end unless the caller keeps them
for more matches (``close_clients``).

A player that answers ``busy`` to START, or does not answer ``ready``, is asked again until the
start clock runs out; if one still has not started then, the others are sent ``abort`` and the
match is recorded as not played (``not_played``, with the reason), never as a result. One
player server cannot hold two roles of a match (PLAY names no role): a URL given for two roles
is refused before anything is sent. A :class:`~ggp.manager.journal.Journal` receives the record
as it grows (step by step).
"""

from __future__ import annotations

import random
import re
import secrets
import signal
import threading
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
from ggp.manager.client import TIMEOUT, PlayerClient, RemotePlayer, Reply, same_endpoint
from ggp.manager.clocks import Clocks
from ggp.manager.journal import Journal
from ggp.manager.record import (
    ABORTED,
    ERROR,
    FINISHED,
    NOT_PLAYED,
    Answer,
    Event,
    MatchRecord,
    Step,
    Substitution,
)
from ggp.manager.stopping import Interrupted, describe_interrupt, exit_status
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
#: Seconds between two looks at a stop request while the manager waits for answers.
_POLL = 0.1
#: Seconds between two STARTs to a player that is busy or not reachable.
START_RETRY = 0.25


class NotStarted(GGPError):
    """A player did not answer ``ready`` within the start clock (the match is not played)."""


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


def check_endpoints(specs: Sequence[str], roles: Sequence[object]) -> None:
    """Raise :class:`MatchSetupError` when one player server (URL) is given for two roles."""
    remote = [(spec, role) for spec, role in zip(specs, roles) if spec.startswith(("http://", "https://"))]
    for i, (spec, role) in enumerate(remote):
        for other, other_role in remote[i + 1:]:
            if same_endpoint(spec, other):
                raise MatchSetupError(
                    f"{spec} is given for two roles ({role} and {other_role}): one player server cannot "
                    "hold two roles of a match (PLAY names no role); start one server per role")


class MatchRunner:
    """One match of ``description`` between ``clients`` (one per non-random role, in order);
    closes them at the end when ``close_clients``. ``journal`` receives the record as it grows;
    ``on_step`` is called after each step with the record and the step. ``machine``: the state
    machine of the rules as sent (see :meth:`machine_for`), to reuse one from match to match."""

    def __init__(self, description: GameDescription, clients: Sequence[PlayerClient],
                 settings: MatchSettings = MatchSettings(),
                 progress: Callable[[str], None] | None = None, close_clients: bool = True,
                 journal: Journal | None = None,
                 on_step: Callable[[MatchRecord, Step], None] | None = None,
                 machine: StateMachine | None = None):
        self.settings = settings
        self.journal = journal
        self.on_step = on_step
        self.close_clients = close_clients
        self.original = description
        self.description = sent_description(description, settings.protocol)
        self.gdl2 = self.description.uses_sees
        # Built (and, for the fast reasoner, stored in the disk cache) before START, so the
        # players' processes load the machine instead of building it on the start clock.
        if machine is None:
            machine = warm(self.description, settings.reasoner) if settings.reasoner else warm(self.description)
        self.machine: StateMachine = machine
        self.seats = [r for r in self.machine.roles if r != RANDOM]
        if len(clients) != len(self.seats):
            raise MatchSetupError(f"the game has {len(self.seats)} player roles "
                                  f"({' '.join(map(str, self.seats))}) but {len(clients)} players were given")
        check_endpoints([c.spec for c in clients if isinstance(c, RemotePlayer)],
                        [r for r, c in zip(self.seats, clients) if isinstance(c, RemotePlayer)])
        self.clients = dict(zip(self.seats, clients))
        self.rng = random.Random(settings.seed)
        self.match_id = settings.match_id or new_match_id(description.source)
        self.progress = progress or (lambda line: None)
        self._pools = {role: ThreadPoolExecutor(1, thread_name_prefix=f"seat-{role}") for role in self.seats}
        self._ready: list[Constant] = []  # the roles that answered ready to START
        self._unstarted: set[Constant] = set()  # the roles that said busy or were not reached
        self._stop = threading.Event()
        self._stop_signal: int = signal.SIGTERM
        #: The exit status an interrupt calls for (130 for SIGINT, 143 for SIGTERM), once one came.
        self.interrupt_status: int | None = None
        clocks = settings.clocks
        self.record = MatchRecord(
            self.match_id, description.source, self.description.to_kif(), self.description.digest(),
            [str(r) for r in self.machine.roles], {str(r): c.spec for r, c in self.clients.items()},
            clocks.start, clocks.play, clocks.slack, settings.seed, settings.protocol,
        )

    @staticmethod
    def machine_for(description: GameDescription, settings: MatchSettings) -> StateMachine:
        """The manager's state machine for ``description`` under ``settings`` (built, and for the
        fast reasoner stored in the disk cache, now)."""
        sent = sent_description(description, settings.protocol)
        return warm(sent, settings.reasoner) if settings.reasoner else warm(sent)

    # --- the match ----------------------------------------------------------------------------

    def run(self) -> MatchRecord:
        """Play the match to the end (or until Ctrl-C or SIGTERM) and return its record."""
        record = self.record
        record.started = _now()
        began = time.monotonic()
        try:
            if self.journal is not None:
                self.journal.begin(record)
            self._check_stop()
            state = self._play_all(self._start_all())
            record.goals = {str(r): v for r, v in self.machine.goals(state).items()}
            record.status = FINISHED
        except KeyboardInterrupt as exc:
            record.status = ABORTED
            self.interrupt_status = exit_status(exc)
            record.errors.append(f"interrupted ({describe_interrupt(exc)}): sent abort to every player")
            self._abort_all()
        except NotStarted as exc:
            record.status = NOT_PLAYED
            record.errors.append(f"not played: {exc}")
            # Those that said busy or could not be reached hold no session of this match.
            self._abort_all([role for role in self.seats if role not in self._unstarted])
        except ReasonerError as exc:
            record.status = ERROR
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
            if self.journal is not None:
                self.journal.end(record)
        return record

    def _start_all(self) -> State:
        """Send START to every player, again to those that are busy or unreachable, until the
        start clock runs out; raises :class:`NotStarted` naming those that never started."""
        clocks = self.settings.clocks
        deadline = clocks.start_deadline()
        self._ready = []
        waiting = list(self.seats)
        failed: dict[Constant, tuple[str, str]] = {}
        tries = 0
        while waiting:
            tries += 1
            messages: dict[Constant, Message] = {
                role: Start(self.match_id, role, self.description, clocks.start, clocks.play) for role in waiting
            }
            for role, reply in self._broadcast(messages, deadline).items():
                if reply.text is not None and reply.text.strip().lower() == "ready":
                    self._ready.append(role)
                    failed.pop(role, None)
                elif reply.text is not None:
                    failed[role] = ("busy" if reply.text.strip().lower() == "busy" else "unexpected",
                                    f"answered {reply.text.strip()[:80]!r}, not ready")
                else:
                    failed[role] = (reply.failure or "error", reply.detail)
            waiting = [role for role in waiting if role not in self._ready]
            if not waiting or deadline.remaining() <= START_RETRY:
                break
            self._stop.wait(START_RETRY)
            self._check_stop()
        if waiting:
            self._unstarted = {role for role in waiting if failed[role][0] in ("busy", "refused")}
            for role in waiting:
                reason, detail = failed[role]
                self.record.events.append(Event("start", str(role), reason, detail))
            named = "; ".join(f"{role} ({self.clients[role].spec}): {failed[role][0]}: {failed[role][1]}"
                              for role in waiting)
            raise NotStarted(f"{named} (no ready within the start clock of {clocks.start:g} s, "
                             f"{tries} {'try' if tries == 1 else 'tries'})")
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
            if self.journal is not None:
                self.journal.step(self.record, step)
            if self.on_step is not None:
                self.on_step(self.record, step)
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

    def _abort_all(self, roles: Sequence[Constant] | None = None) -> None:
        """Send ABORT to ``roles`` (default: every player), waiting at most a second for answers."""
        roles = list(self.seats if roles is None else roles)
        if not roles:
            return
        deadline = Deadline.after(min(1.0, self.settings.clocks.play + self.settings.clocks.slack))
        with ThreadPoolExecutor(len(roles), thread_name_prefix="abort") as pool:
            # Fresh threads: a seat's own thread may still wait for an answer to ``play``.
            replies = self._broadcast({role: Abort(self.match_id) for role in roles}, deadline, pool)
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
        end = deadline.at + _GUARD
        for role, future in futures.items():
            while role not in replies:
                if pool is None:
                    self._check_stop()
                try:
                    replies[role] = future.result(timeout=min(_POLL, max(0.0, end - time.monotonic())))
                except FutureTimeout:
                    if time.monotonic() >= end:
                        future.cancel()
                        replies[role] = Reply(None, time.monotonic() - sent, TIMEOUT, "no answer within the clock")
                except Exception as exc:  # noqa: BLE001 - a client's bug must not stop the match
                    replies[role] = Reply(None, time.monotonic() - sent, "error", f"{type(exc).__name__}: {exc}")
        return replies

    def stop(self, signum: int = signal.SIGTERM) -> None:
        """Ask the match to stop (from any thread): within a tenth of a second it sends ABORT
        and ends as if ``signum`` had arrived (status ``aborted``)."""
        self._stop_signal = signum
        self._stop.set()

    def _check_stop(self) -> None:
        if self._stop.is_set():
            raise Interrupted(self._stop_signal)


def run_match(description: GameDescription, clients: Sequence[PlayerClient],
              settings: MatchSettings = MatchSettings(),
              progress: Callable[[str], None] | None = None, close_clients: bool = True,
              journal: Journal | None = None) -> MatchRecord:
    """Play one match and return its record (see :class:`MatchRunner`); the clients are closed
    at the end unless ``close_clients`` is False (to reuse them: ``new_match`` in between),
    also when the match cannot begin."""
    try:
        runner = MatchRunner(description, clients, settings, progress, close_clients, journal)
    except BaseException:
        if close_clients:
            for client in clients:
                client.close()
        raise
    return runner.run()
