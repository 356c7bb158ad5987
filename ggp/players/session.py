"""One match of one player: its history, its belief about the state, and a move in time, always.

:class:`PlayerSession` sits between a transport (the HTTP player server, or the game manager's
in-process client) and a :class:`~ggp.players.base.Player`. Every call into the player and every
reasoner query runs on the session's own worker thread, one task after another, so the player
and its state machine are never used from two threads at once. The transport waits for the
answer until the deadline it was given; if the strategy is still thinking then, it gets the
move the strategy proposed so far, or else a legal move chosen before the strategy started.

Each observation updates the role's :class:`~ggp.belief.Belief` within a share of the turn (an
update's cost does not grow with the match; rejuvenating particles is what takes time, and the
belief stops it at its deadline); the legal moves are then known and a fallback move is ready
for the transport before the strategy starts; then the player's hooks run (percepts, a
substituted move), then :meth:`~ggp.players.base.Player.play`. The answer is never a move of an
earlier turn: when not even the legal moves are known in time (the rules are still being
prepared) the session says so and the manager substitutes. A persistent player's memory is
loaded before its first match and saved after each (:mod:`ggp.players.memory`).
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, InvalidStateError
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import ExitStack
from typing import Any, TypeVar

from ggp.belief import Belief, BeliefSettings, Observation
from ggp.collector import keep_out
from ggp.deadline import Deadline
from ggp.errors import GGPError
from ggp.gdl.terms import Constant, Term
from ggp.gdl.validate import prepare
from ggp.players import memory
from ggp.players.base import MatchInfo, Player, StartView, TurnView, _Proposal
from ggp.reasoner import make_machine
from ggp.reasoner.machine import JointMove, StateMachine

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Share of a turn's time that updating the belief may use before the strategy starts.
TRACKING_SHARE = 0.5
#: Share of the start clock a game's compilation may take before the fast reasoner plays the
#: match (the compiler goes on for the next one; the rest of the clock is for the belief and the
#: player's own start).
COMPILE_SHARE = 0.5


class _Worker:
    """One daemon thread running tasks in order; closing it releases everyone waiting.

    A daemon, so that a strategy that never returns cannot keep the process alive.
    """

    def __init__(self, name: str):
        self._tasks: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._pending: set[Future[Any]] = set()
        self._lock = threading.Lock()
        self._closed = False
        self.finished = threading.Event()
        threading.Thread(target=self._run, name=name, daemon=True).start()

    def submit(self, task: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        with self._lock:
            if self._closed:
                future.set_exception(GGPError("the session is closed"))
                return future
            self._pending.add(future)
        self._tasks.put((task, future))
        return future

    def close(self, last: Callable[[], Any] | None = None) -> None:
        """Accept no more tasks; whoever waits for one gets an error at once. ``last`` still
        runs, after the task in progress."""
        with self._lock:
            self._closed = True
            pending, self._pending = self._pending, set()
        for future in pending:
            _settle(future, exception=GGPError("the session was closed"))
        if last is not None:
            self._tasks.put((last, Future()))
        self._tasks.put(None)

    def _run(self) -> None:
        while (item := self._tasks.get()) is not None:
            task, future = item
            if future.done() or not future.set_running_or_notify_cancel():
                continue
            try:
                result = task()
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting transport
                _settle(future, exception=exc)
            else:
                _settle(future, result=result)
            with self._lock:
                self._pending.discard(future)
        self.finished.set()


def _settle(future: Future[Any], result: Any = None, exception: BaseException | None = None) -> None:
    """Complete ``future`` unless it is already complete (closing may have failed it)."""
    try:
        if exception is not None:
            future.set_exception(exception)
        else:
            future.set_result(result)
    except InvalidStateError:
        pass


class _Turn:
    """What the worker hands back to the transport for one turn: proposals and the fallback."""

    def __init__(self) -> None:
        self.proposal = _Proposal()
        self.legal: tuple[Term, ...] | None = None
        self.fallback: Term | None = None


class PlayerSession:
    """A player in one match (see the module doc). Not reusable: one session per match."""

    def __init__(self, player: Player, match: MatchInfo, reasoner: str | None = None,
                 rng: random.Random | None = None):
        self.player = player
        self.match = match
        self.reasoner = reasoner if reasoner is not None else player.reasoner
        self.rng = rng if rng is not None else random.Random(player.rng.getrandbits(64))
        self.machine: StateMachine | None = None
        self.belief: Belief | None = None
        self.error: str | None = None
        self.moves: list[Term | None] = []
        self.percepts: list[frozenset[Term] | None] = []
        self.joints: list[JointMove] | None = []
        self.answers: dict[int, Term] = {}
        self._answered: Term | None = None
        self.closed = False
        self._kept = ExitStack()
        self._worker = _Worker(f"player-{match.match_id}")

    # --- the four events, called by the transport ---------------------------------------------

    def start(self, deadline: Deadline) -> None:
        """Build the state machine and let the player prepare, waiting at most until ``deadline``."""
        self._wait(self._submit(lambda: self._start_task(deadline)), deadline)

    def play(self, observations: Sequence[Observation], deadline: Deadline,
             turn: int | None = None) -> Term | None:
        """Record ``observations`` (the transitions since the last call) and return a move.

        Answers by ``deadline``: the strategy's move, else its proposal, else a move legal in
        every state the belief holds; None when not even the legal moves are known in time
        (the rules could not be read, or are still being prepared). With a ``turn`` number
        already answered, the same answer is given again.
        """
        if turn is not None and turn in self.answers:
            return self.answers[turn]
        slot = _Turn()
        answered = self._answered
        future = self._submit(lambda: self._play_task(list(observations), slot, deadline, answered))
        move = self._wait(future, deadline)
        if move is not None and (slot.legal is None or move in slot.legal):
            chosen: Term | None = move
        else:
            if move is not None:
                log.warning("%s: player proposed the illegal move %s", self.match.match_id, move)
            proposed = slot.proposal.get()
            chosen = proposed if proposed is not None and slot.legal and proposed in slot.legal else slot.fallback
        if chosen is None:
            log.info("%s: the legal moves were not known in time", self.match.match_id)
        elif turn is not None:
            self.answers[turn] = chosen
        # what the strategy chose (even if illegal), to tell it later when another move was played
        self._answered = move if move is not None else (slot.proposal.get() or chosen)
        return chosen

    def stop(self, observations: Sequence[Observation], deadline: Deadline) -> None:
        """Record the last transition, tell the player the match is over, then close."""
        answered = self._answered
        self._wait(self._submit(lambda: self._stop_task(list(observations), deadline, answered)), deadline)
        self.close()

    def abort(self) -> None:
        """Close, then tell the player the match was cancelled (once it is not busy)."""
        self.closed = True
        self._kept.close()
        self._worker.close(last=self._abort_task)

    def close(self) -> None:
        """Stop accepting work and release waiting transports; a running task ends unobserved."""
        self.closed = True
        self._kept.close()
        self._worker.close()

    def wait_closed(self, deadline: Deadline) -> bool:
        """Wait until the player is done with this match (at most until ``deadline``)."""
        return self._worker.finished.wait(deadline.remaining())

    # --- worker tasks -----------------------------------------------------------------------

    def _submit(self, task: Callable[[], T]) -> Future[T]:
        return self._worker.submit(task)

    def _wait(self, future: Future[T], deadline: Deadline) -> T | None:
        try:
            return future.result(timeout=deadline.remaining())
        except FutureTimeout:
            return None
        except Exception as exc:  # noqa: BLE001 - the strategy's bug must not cost the answer
            if not self.closed:  # an aborted match releases its waiting turn: nothing to report
                log.warning("%s: %s: %s", self.match.match_id, type(exc).__name__, exc)
            return None

    def _start_task(self, deadline: Deadline) -> None:
        try:
            description, _ = prepare(self.match.description)
            if self.reasoner in (None, "auto"):
                self.machine = make_machine(description, budget=deadline.remaining() * COMPILE_SHARE)
            else:
                self.machine = make_machine(description, self.reasoner)
            settings = BeliefSettings(particles=max(1, self.player.particles))
            self.belief = Belief(self.machine, self.match.role, description=description,
                                 rng=random.Random(self.rng.getrandbits(64)), settings=settings)
            _warm_up(self.machine, self.match.role)
            self._kept.enter_context(keep_out())  # the match's long-lived objects, out of full collections
            if self.closed:  # closed meanwhile, from the transport's thread
                self._kept.close()
        except (GGPError, ValueError, RuntimeError) as exc:
            self.error = f"cannot reason about these rules: {exc}"
            log.error("%s: %s", self.match.match_id, self.error)
            return
        memory.load(self.player)
        self.player.start(StartView(self.match, self.machine, deadline))

    def _abort_task(self) -> None:
        try:
            self.player.abort(self.match)
        finally:
            memory.save(self.player)

    def _observe(self, observations: list[Observation], deadline: Deadline, live: bool,
                 slot: _Turn | None = None) -> bool:
        """Add observations to the history and the belief; False when the session cannot reason
        any more. ``slot`` gets the legal moves (and a fallback move) as soon as they are known.
        """
        for obs in observations:
            self.moves.append(obs.move)
            self.percepts.append(obs.percepts)
            if self.joints is not None:
                self.joints = self.joints + [obs.joint] if obs.joint is not None else None
        if self.belief is None:
            return False
        try:
            for i, obs in enumerate(observations):
                last = i == len(observations) - 1
                self.belief.update(obs, live or not last, deadline.share(1 / (len(observations) - i)))
            if slot is not None and live:
                self._offer(slot, self.belief.legal_moves())
        except GGPError as exc:
            self.error = str(exc)
            self.belief = None
            log.error("%s: %s", self.match.match_id, exc)
        return self.belief is not None

    def _offer(self, slot: _Turn, legal: tuple[Term, ...]) -> None:
        """Give the transport the legal moves and a fallback among them, as soon as they are known."""
        slot.legal = legal
        slot.fallback = legal[self.rng.randrange(len(legal))] if legal else None

    def _view(self, deadline: Deadline, slot: _Turn, legal: tuple[Term, ...]) -> TurnView:
        assert self.machine is not None and self.belief is not None
        return TurnView(
            self.match, self.machine, len(self.moves), tuple(self.moves), tuple(self.percepts),
            tuple(self.joints) if self.joints is not None else None, self.belief, legal, deadline,
            _proposal=slot.proposal,
        )

    def _hooks(self, view: TurnView, observations: list[Observation], answered: Term | None) -> None:
        """Tell the player about the new percepts and a substituted move (its bugs are logged)."""
        try:
            if observations:
                last = observations[-1]
                if answered is not None and last.move is not None and last.move != answered:
                    self.player.on_substitution(view, answered, last.move)
                if last.percepts:
                    self.player.on_percepts(view, last.percepts)
        except Exception as exc:  # noqa: BLE001 - an informational hook must not cost the move
            log.warning("%s: hook failed: %s: %s", self.match.match_id, type(exc).__name__, exc)

    def _play_task(self, observations: list[Observation], slot: _Turn, deadline: Deadline,
                   answered: Term | None) -> Term | None:
        if not self._observe(observations, deadline.share(TRACKING_SHARE), live=True, slot=slot):
            return None
        legal = slot.legal or ()
        if deadline.expired or not legal:
            return None
        view = self._view(deadline, slot, legal)
        self._hooks(view, observations, answered)
        if deadline.expired:
            return None
        return self.player.play(view)

    def _stop_task(self, observations: list[Observation], deadline: Deadline, answered: Term | None) -> None:
        try:
            if self._observe(observations, deadline.share(TRACKING_SHARE), live=False):
                view = self._view(deadline, _Turn(), ())
                self._hooks(view, observations, answered)
                self.player.stop(view)
                self.player.on_match_end(view, self._outcome(view))
        finally:
            memory.save(self.player)

    def _outcome(self, view: TurnView) -> dict[Constant, float]:
        """Each role's goal averaged over the final states still possible (roles without one left out)."""
        values: dict[Constant, dict[float, float]] = {}  # role -> goal -> weight
        for state, weight in view.belief.distribution().items():
            try:
                goals = view.machine.goals(state)
            except GGPError:
                continue
            for role, value in goals.items():
                seen = values.setdefault(role, {})
                seen[float(value)] = seen.get(float(value), 0.0) + weight
        out: dict[Constant, float] = {}
        for role in view.match.roles:
            found = values.get(role)
            if found:
                total = sum(found.values())
                out[role] = next(iter(found)) if len(found) == 1 else sum(v * w for v, w in found.items()) / total
        return out


def _warm_up(machine: StateMachine, role: Constant) -> None:
    """Ask the machine once for what a belief update needs (legal moves, the role's percepts),
    so that code it compiles on first use is ready before the first turn."""
    initial = machine.initial_state()
    try:
        if not machine.is_terminal(initial):
            joint = tuple(moves[0] for moves in machine.all_legal_moves(initial))
            machine.role_percepts(initial, joint, role)
            machine.next_state(initial, joint)
    except (GGPError, IndexError):
        pass
