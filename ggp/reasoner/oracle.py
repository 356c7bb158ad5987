"""The clingo oracle: every query is a fresh clingo program, grounded and solved.

Slow (tens of playouts per second) but obviously right: the rules, the state's ``true`` facts
and the joint move's ``does`` facts go to clingo as they are, and the unique answer set is read.
It is the reference the fast reasoner is checked against.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Iterable, Sequence

import clingo

from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term, sort_key
from ggp.reasoner.asp import AspNames, description_to_asp, does_facts, facts
from ggp.reasoner.machine import FluentState, State, StateMachine

_CACHE_SIZE = 256


def solve_once(program: str, shows: str) -> list[clingo.Symbol]:
    """The shown atoms of the unique answer set of ``program``.

    Raises :class:`ReasonerError` when clingo rejects the program or it has no or several
    answer sets (a stratified GDL program has exactly one).
    """
    messages: list[str] = []

    def logger(_code: clingo.MessageCode, message: str) -> None:
        messages.append(message.strip())

    ctl = clingo.Control(["--models=2", "--warn=none"], logger=logger, message_limit=5)
    try:
        ctl.add("base", [], program + shows)
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        detail = "; ".join(messages) or str(exc)
        raise ReasonerError(f"clingo cannot ground the rules: {detail}") from None
    models: list[list[clingo.Symbol]] = []
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            models.append(model.symbols(shown=True))
            if len(models) > 1:
                break
    if len(models) != 1:
        what = "no answer set" if not models else "several answer sets"
        raise ReasonerError(f"the rules have {what} here (GDL requires exactly one; is negation stratified?)")
    return models[0]


class OracleMachine(StateMachine):
    """A state machine that asks clingo afresh for every state and transition."""

    def __init__(self, description: GameDescription):
        self.description = description
        self.names = AspNames()
        self.program = description_to_asp(description, self.names)
        symbols = solve_once(self.program, "#show role/1. #show init/1.\n")
        self._init = frozenset(self.names.to_term(s.arguments[0]) for s in symbols if s.name == "init")
        declared = description.roles
        found = {self.names.to_term(s.arguments[0]) for s in symbols if s.name == "role"}
        self.roles = tuple(r for r in declared if r in found)
        self._state_cache: OrderedDict[frozenset[Term], tuple[dict[Constant, tuple[Term, ...]], bool, dict[Constant, set[int]]]] = OrderedDict()
        self._move_cache: OrderedDict[tuple[frozenset[Term], tuple[Term, ...]], tuple[frozenset[Term], dict[Constant, frozenset[Term]]]] = OrderedDict()

    def initial_state(self) -> State:
        """The ``init`` fluents."""
        return FluentState(self._init)

    def state_from_fluents(self, fluents: Iterable[Term]) -> State:
        """A state holding exactly ``fluents``."""
        return FluentState(fluents)

    def _analyse(self, state: State) -> tuple[dict[Constant, tuple[Term, ...]], bool, dict[Constant, set[int]]]:
        key = state.fluents
        cached = self._state_cache.get(key)
        if cached is not None:
            return cached
        symbols = solve_once(
            self.program + facts("true", key, self.names), "#show legal/2. #show terminal/0. #show goal/2.\n"
        )
        legal: dict[Constant, list[Term]] = {r: [] for r in self.roles}
        goals: dict[Constant, set[int]] = {}
        terminal = False
        for s in symbols:
            if s.name == "terminal":
                terminal = True
            elif s.name == "legal":
                role = self.names.to_term(s.arguments[0])
                if role in legal:
                    legal[role].append(self.names.to_term(s.arguments[1]))  # type: ignore[index]
            elif s.name == "goal":
                role = self.names.to_term(s.arguments[0])
                if role not in legal:
                    continue
                value = self.names.to_term(s.arguments[1])
                if not value.name.isdigit():
                    raise ReasonerError(f"goal value {value} of {role} is not a number")
                goals.setdefault(role, set()).add(int(value.name))  # type: ignore[arg-type]
        result = ({r: tuple(sorted(ms, key=sort_key)) for r, ms in legal.items()}, terminal, goals)
        self._state_cache[key] = result
        if len(self._state_cache) > _CACHE_SIZE:
            self._state_cache.popitem(last=False)
        return result

    def _transition(self, state: State, joint: Sequence[Term]) -> tuple[frozenset[Term], dict[Constant, frozenset[Term]]]:
        key = (state.fluents, tuple(joint))
        cached = self._move_cache.get(key)
        if cached is not None:
            return cached
        if len(joint) != len(self.roles):
            raise ReasonerError(f"a joint move needs {len(self.roles)} moves, got {len(joint)}")
        symbols = solve_once(
            self.program + facts("true", key[0], self.names) + does_facts(self.roles, joint, self.names),
            "#show next/1. #show sees/2.\n",
        )
        nxt = frozenset(self.names.to_term(s.arguments[0]) for s in symbols if s.name == "next")
        seen: dict[Constant, set[Term]] = {r: set() for r in self.roles}
        for s in symbols:
            if s.name == "sees" and len(s.arguments) == 2:
                role = self.names.to_term(s.arguments[0])
                if role in seen:
                    seen[role].add(self.names.to_term(s.arguments[1]))  # type: ignore[index]
        result = (nxt, {r: frozenset(p) for r, p in seen.items()})
        self._move_cache[key] = result
        if len(self._move_cache) > _CACHE_SIZE:
            self._move_cache.popitem(last=False)
        return result

    def legal_moves(self, state: State, role: Constant) -> tuple[Term, ...]:
        """``legal`` atoms of the role, sorted."""
        return self._analyse(state)[0][role]

    def is_terminal(self, state: State) -> bool:
        """Whether ``terminal`` is in the answer set."""
        return self._analyse(state)[1]

    def goals(self, state: State) -> dict[Constant, int]:
        """``goal`` atoms per role."""
        result: dict[Constant, int] = {}
        found = self._analyse(state)[2]
        for role in self.roles:
            values = found.get(role)
            if not values:
                continue
            if len(values) > 1:
                raise ReasonerError(f"role {role} has several goal values: {sorted(values)}")
            result[role] = next(iter(values))
        return result

    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The ``next`` atoms for the joint move."""
        return FluentState(self._transition(state, joint)[0])

    def percepts(self, state: State, joint: Sequence[Term]) -> dict[Constant, frozenset[Term]]:
        """The ``sees`` atoms for the joint move, per role."""
        return dict(self._transition(state, joint)[1])
