"""A recorded match seen step by step: the table after each step, for everyone or for one role.

:class:`MatchView` plays a :class:`~ggp.manager.record.MatchRecord` again with its own rules and
gives, for step ``n`` (0 is the start; ``n`` is after the ``n``-th joint move), the table
(:class:`~ggp.view.table.Table`) and the moves that led there. The omniscient view shows the
true state and every role's move. A role's view shows only what that role knew: its belief
(:class:`~ggp.belief.Belief`) is updated with the role's own moves and percepts as recorded,
seeded, so the same record always gives the same view; the others' moves stay hidden. The
series of goal values and of the players' stored numbers (chips, points) over the match feed a
plot.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from ggp.belief import Belief, Observation
from ggp.errors import GGPError
from ggp.gdl.kif import parse_term
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant, Term
from ggp.manager.record import MatchRecord
from ggp.manager.replay import ReplayError, record_description
from ggp.reasoner import make_machine
from ggp.reasoner.machine import JointMove, State
from ggp.view import scheme
from ggp.view.cards import words
from ggp.view.glossary import Glossary, glossary
from ggp.view.knowledge import Knowledge
from ggp.view.moves import describe_percepts, move_labels, to_move
from ggp.view.table import Table, build_table

#: States of a role's belief played through to label its own moves.
LABEL_STATES = 6


@dataclass(frozen=True)
class MoveLine:
    """One role's move in a step: its label (``None`` when the viewer did not see it), the term,
    and whether the manager played it for a late or illegal answer."""

    role: str
    label: str | None
    term: str
    substituted: str | None = None


@dataclass(frozen=True)
class StepView:
    """Step ``step`` of a match as one viewer sees it."""

    step: int
    viewer: str | None
    table: Table
    moves: tuple[MoveLine, ...]
    seen: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Series:
    """A value over the match: one entry per step (None where it has none)."""

    name: str
    owner: str
    values: tuple[float | None, ...]


@dataclass
class _Track:
    """A role's belief followed through the match, with what it knew after each step."""

    belief: Belief
    known: list[tuple[Knowledge, tuple[Constant, ...], tuple[State, ...]]]


class MatchView:
    """A record replayed for viewing (see the module doc). Thread-safe."""

    def __init__(self, record: MatchRecord, reasoner: str | None = None):
        self.record = record
        self.description = record_description(record)
        self.machine = make_machine(self.description, reasoner) if reasoner else make_machine(self.description)
        self.glossary: Glossary = glossary(self.description)
        self.roles = tuple(self.machine.roles)
        if [str(r) for r in self.roles] != record.roles:
            raise ReplayError(f"the record's roles {record.roles} are not the game's roles")
        self.joints: list[JointMove] = []
        self.states: list[State] = [self.machine.initial_state()]
        for step in record.steps:
            try:
                joint = tuple(parse_term(m) for m in step.joint_move)
                self.states.append(self.machine.next_state(self.states[-1], joint))
            except (GGPError, ValueError) as exc:
                raise ReplayError(f"turn {step.turn}: the record cannot be replayed: {exc}") from None
            self.joints.append(joint)
        self._lock = threading.Lock()
        self._tracks: dict[Constant, _Track] = {}
        self._labels: dict[int, dict[Constant, str]] = {}

    @property
    def steps(self) -> int:
        """The number of steps (joint moves) in the match."""
        return len(self.joints)

    @property
    def players(self) -> tuple[Constant, ...]:
        """The roles other than ``random``."""
        return tuple(r for r in self.roles if r != RANDOM)

    def step(self, n: int, viewer: str | None = None) -> StepView:
        """Step ``n`` (0 to :attr:`steps`) seen by everyone (``viewer`` None) or by role ``viewer``."""
        if not 0 <= n <= self.steps:
            raise IndexError(f"step {n} is not in 0..{self.steps}")
        with self._lock:
            if viewer is None:
                return self._omniscient(n)
            role = Constant(viewer)
            if role not in self.roles:
                raise KeyError(viewer)
            return self._of_role(n, role)

    def _goals(self, state: State) -> dict[Constant, int]:
        if not self.machine.is_terminal(state):
            return {}
        try:
            return self.machine.goals(state)
        except GGPError:
            return {}

    def _omniscient(self, n: int) -> StepView:
        state = self.states[n]
        table = build_table(self.glossary, Knowledge.of_state(state), to_move=to_move(self.machine, state),
                            terminal=self.machine.is_terminal(state), goals=self._goals(state))
        moves: tuple[MoveLine, ...] = ()
        seen: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if n:
            labels = self._step_labels(n)
            moves = tuple(self._line(n, role, labels.get(role)) for role in self.roles
                          if role in labels or self.joints[n - 1][self.machine.role_index(role)] != Constant("noop"))
            percepts = self.record.steps[n - 1].percepts
            seen = tuple((str(r), tuple(describe_percepts(self.glossary, self._percepts(n, r), r)))
                         for r in self.players if percepts.get(str(r)))
        return StepView(n, None, table, moves, seen)

    def _line(self, n: int, role: Constant, label: str | None) -> MoveLine:
        move = self.joints[n - 1][self.machine.role_index(role)]
        why = next((s.reason for s in self.record.steps[n - 1].substitutions if s.role == str(role)), None)
        return MoveLine(str(role), label if label is not None else self.glossary.text(move), str(move), why)

    def _step_labels(self, n: int) -> dict[Constant, str]:
        """The label of each choosing role's move in step ``n`` (played from the true state)."""
        if n not in self._labels:
            before, joint = self.states[n - 1], self.joints[n - 1]
            out = {}
            for role in to_move(self.machine, before) or ():
                move = joint[self.machine.role_index(role)]
                labels = move_labels(self.machine, self.glossary, [before], role, others=joint)
                out[role] = labels.get(move, self.glossary.text(move))
            if RANDOM in self.roles:
                move = joint[self.machine.role_index(RANDOM)]
                if move != Constant("noop"):
                    out[RANDOM] = self.glossary.text(move)
            self._labels[n] = out
        return self._labels[n]

    def _percepts(self, n: int, role: Constant) -> frozenset[Term]:
        return frozenset(parse_term(p) for p in self.record.steps[n - 1].percepts.get(str(role), []))

    def _track(self, role: Constant, n: int) -> _Track:
        track = self._tracks.get(role)
        if track is None:
            belief = Belief(self.machine, role, description=self.description,
                            rng=random.Random(f"view/{self.record.match_id}/{role}"))
            track = self._tracks[role] = _Track(belief, [self._snapshot(belief, self.states[0])])
        index = self.machine.role_index(role)
        full = not self.description.uses_sees
        while len(track.known) <= n:
            k = len(track.known)
            joint = self.joints[k - 1]
            percepts = None if full else self._percepts(k, role)
            observation = Observation(joint[index], percepts, joint if full else None)
            track.belief.update(observation, live=k < self.steps)
            track.known.append(self._snapshot(track.belief, self.states[k]))
        return track

    def _snapshot(self, belief: Belief, true: State) -> tuple[Knowledge, tuple[Constant, ...], tuple[State, ...]]:
        distribution = belief.distribution()
        likely = tuple(sorted(distribution, key=lambda s: -distribution[s])[:LABEL_STATES])
        return Knowledge.of_belief(belief), to_move(self.machine, likely[0]), likely

    def _of_role(self, n: int, role: Constant) -> StepView:
        track = self._track(role, n)
        knowledge, movers, _ = track.known[n]
        state = self.states[n]
        terminal = self.machine.is_terminal(state)
        table = build_table(self.glossary, knowledge, to_move=movers, terminal=terminal, goals=self._goals(state))
        moves: tuple[MoveLine, ...] = ()
        seen: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if n:
            move = self.joints[n - 1][self.machine.role_index(role)]
            _, before_movers, likely = track.known[n - 1]
            label = None
            if role in before_movers:
                label = move_labels(self.machine, self.glossary, list(likely), role, viewer=role).get(move)
            moves = (self._line(n, role, label),) if label is not None or move != Constant("noop") else ()
            seen = ((str(role), tuple(describe_percepts(self.glossary, self._percepts(n, role), role))),)
        return StepView(n, str(role), table, moves, seen)

    def series(self) -> list[Series]:
        """Goal values (where the rules define them in every state) and the players' stored
        numbers that change during the match, per step."""
        out: list[Series] = []
        goals: list[dict[Constant, int] | None] = []
        for state in self.states:
            try:
                goals.append(self.machine.goals(state))
            except GGPError:
                goals.append(None)
        if all(g is not None for g in goals) and len(goals) > 1:
            for role in self.players:
                out.append(Series(f"{role} goal", str(role), tuple(float(g[role]) if g and role in g else None
                                                                  for g in goals)))
        owners = {str(r) for r in self.players}
        numbers: dict[tuple[str, str], list[float | None]] = {}
        for i, state in enumerate(self.states):
            for stored in scheme.stored_values(state.fluents):
                if stored.number and stored.owner in owners:
                    numbers.setdefault((stored.owner, stored.name), [None] * len(self.states))[i] = float(stored.value)
        for (owner, name), values in sorted(numbers.items()):
            if len({v for v in values if v is not None}) > 1:
                out.append(Series(f"{owner} {words(name)}", owner, tuple(values)))
        return out
