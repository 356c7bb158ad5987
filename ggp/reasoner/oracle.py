"""The clingo oracle: every state is a fresh clingo program, grounded and solved.

Slow (tens of playouts per second) but obviously right: the rules, the state's ``true`` facts
and the joint move's ``does`` atoms go to clingo as they are, and the unique answer set is read.
It is the reference the fast reasoner is checked against.

The rules are parsed once; each state gets one fresh :class:`clingo.Control` holding the rules
that can fire in it (:mod:`ggp.reasoner.relevance`; the others cannot change the answer set),
the state's ``true`` facts and an external ``does`` atom for every legal move. Solving with all
of them false gives ``legal``, ``terminal`` and ``goal``; solving with a joint move's atoms
set true gives its ``next`` and ``sees``. A joint move with an illegal move in it gets a
program of its own with ``does`` facts.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import clingo
from clingo import ast

from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.gdl.stratification import term_building_recursions
from ggp.gdl.terms import Constant, Term, sort_key
from ggp.reasoner.asp import AspNames, description_to_asp, does_facts, facts
from ggp.reasoner.domains import DEFAULT_MAX_RULES, RuleBudget
from ggp.reasoner.machine import FluentState, State, StateMachine, goal_value
from ggp.reasoner.relevance import Relevance
from ggp.reasoner.rule_reveals import rule_reveals

if TYPE_CHECKING:
    from ggp.reasoner.goal_order import GoalOrder

_CACHE_SIZE = 256
#: Grounded states kept for their transitions (each holds a clingo program in memory).
_GROUNDED_SIZE = 8
_STATE_SHOWS = "#show legal/2. #show terminal/0. #show goal/2. #show next/1. #show sees/2.\n"
_MOVES = "#external does(R,M) : legal(R,M).\n"
#: Seconds one grounding may take when the rules may not ground finitely.
STATE_GROUNDING_SECONDS = 120.0

Analysis = tuple[dict[Constant, tuple[Term, ...]], bool, dict[Constant, set[int]]]
Transition = tuple[frozenset[Term], dict[Constant, frozenset[Term]]]


class _Messages:
    """clingo's messages for one control, quoted when it rejects the program."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, _code: clingo.MessageCode, message: str) -> None:
        self.lines.append(message.strip())

    def error(self, exc: RuntimeError) -> ReasonerError:
        detail = "; ".join(self.lines) or str(exc)
        return ReasonerError(f"clingo cannot ground the rules: {detail}")


def _control(add: Callable[[clingo.Control], None], budget: clingo.Observer | None = None) -> clingo.Control:
    """A grounded control whose program ``add`` supplies (within ``budget``, when given)."""
    messages = _Messages()
    ctl = clingo.Control(["--models=2", "--warn=none"], logger=messages, message_limit=5)
    if budget is not None:
        ctl.register_observer(budget)
    try:
        add(ctl)
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        raise messages.error(exc) from None
    return ctl


def _unique_model(ctl: clingo.Control) -> list[clingo.Symbol]:
    """The shown atoms of the unique answer set."""
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


def solve_once(program: str, shows: str) -> list[clingo.Symbol]:
    """The shown atoms of the unique answer set of ``program``.

    Raises :class:`ReasonerError` when clingo rejects the program or it has no or several
    answer sets (a stratified GDL program has exactly one).
    """
    return _unique_model(_control(lambda ctl: ctl.add("base", [], program + shows)))


class ParsedProgram:
    """A program parsed by clingo once and added, without parsing again, to fresh controls."""

    def __init__(self, program: str):
        statements: list[ast.AST] = []
        messages = _Messages()
        try:
            ast.parse_string(program, statements.append, logger=messages, message_limit=5)
        except RuntimeError as exc:
            raise messages.error(exc) from None
        #: The program's statements, in order.
        self.statements = tuple(statements)
        #: Makes the budget of each grounding (None: unbounded; see :class:`OracleMachine`).
        self.budget: Callable[[], clingo.Observer] | None = None

    def grounded(self, extra: str, statements: Sequence[ast.AST] | None = None) -> clingo.Control:
        """A fresh control with the program (or those of its ``statements`` given) and ``extra``
        (text) grounded."""

        def add(ctl: clingo.Control) -> None:
            with ast.ProgramBuilder(ctl) as builder:
                for statement in self.statements if statements is None else statements:
                    builder.add(statement)
                ast.parse_string(extra, builder.add)

        return _control(add, self.budget() if self.budget is not None else None)


class _GroundedState:
    """One state's program, grounded once: its analysis, and its transitions by solving."""

    def __init__(self, machine: OracleMachine, fluents: frozenset[Term]):
        self.ctl = machine.rules.grounded(facts("true", fluents, machine.names) + _MOVES + _STATE_SHOWS,
                                          machine._relevant_statements(fluents))
        self.moves: dict[tuple[Term, Term], clingo.Symbol] = {}
        for atom in self.ctl.symbolic_atoms.by_signature("does", 2):
            role, move = (machine.names.to_term(a) for a in atom.symbol.arguments)
            self.moves[(role, move)] = atom.symbol

    def solve(self, joint: Iterable[tuple[Term, Term]] = ()) -> list[clingo.Symbol] | None:
        """The answer set with the ``does`` atoms of ``joint`` true (the others false, as they are
        between solves); None when a move is not legal."""
        symbols = []
        for pair in joint:
            symbol = self.moves.get(pair)
            if symbol is None:
                return None
            symbols.append(symbol)
        for symbol in symbols:
            self.ctl.assign_external(symbol, True)
        try:
            return _unique_model(self.ctl)
        finally:
            for symbol in symbols:
                self.ctl.assign_external(symbol, False)


class OracleMachine(StateMachine):
    """A state machine that asks clingo afresh for every state.

    With ``cut`` (the default) a state's program holds only the rules that can fire in it (see
    :mod:`ggp.reasoner.relevance`); without, the whole program, which only costs more.
    """

    def __init__(self, description: GameDescription, cut: bool = True):
        self.description = description
        self.cut = cut
        self.names = AspNames()
        self.program = description_to_asp(description, self.names)
        self.rules = ParsedProgram(self.program)
        builders = term_building_recursions(list(description.rules))
        if builders:  # the rules may not ground finitely: each grounding gets a budget
            rule, built = builders[0]
            where = f" at {rule.loc}" if rule.loc else ""
            what = f"grounding the rules (the recursion{where} builds ever larger terms such as {built})"
            self.rules.budget = lambda: RuleBudget(what, DEFAULT_MAX_RULES, STATE_GROUNDING_SECONDS)
        self._relevance = Relevance(self.rules.statements)
        symbols = _unique_model(self.rules.grounded("#show role/1. #show init/1.\n"))
        self._init = frozenset(self.names.to_term(s.arguments[0]) for s in symbols if s.name == "init")
        declared = description.roles
        found = {self.names.to_term(s.arguments[0]) for s in symbols if s.name == "role"}
        self.roles = tuple(r for r in declared if r in found)
        self._atoms: dict[clingo.Symbol, tuple[str, tuple[Term, ...]]] = {}
        self._grounded: OrderedDict[frozenset[Term], _GroundedState] = OrderedDict()
        self._lock = threading.Lock()  # a grounded state's control solves one query at a time
        self._order: GoalOrder | None = None
        self._state_cache: OrderedDict[frozenset[Term], Analysis] = OrderedDict()
        self._move_cache: OrderedDict[tuple[frozenset[Term], tuple[Term, ...]], Transition] = OrderedDict()

    def initial_state(self) -> State:
        """The ``init`` fluents."""
        return FluentState(self._init)

    def state_from_fluents(self, fluents: Iterable[Term]) -> State:
        """A state holding exactly ``fluents``."""
        return FluentState(fluents)

    def _relevant_statements(self, fluents: Iterable[Term]) -> list[ast.AST]:
        """The program's statements that can fire when exactly ``fluents`` are true (all of them
        without the cut): what a state's program holds."""
        if not self.cut:
            return list(self.rules.statements)
        return self._relevance.relevant(map(self.names.symbol, fluents))

    def relevant(self, fluents: Iterable[Term]) -> tuple[str, ...]:
        """The clingo text of the statements that can fire when exactly ``fluents`` are true."""
        return tuple(str(s) for s in self._relevant_statements(fluents))

    def _atom(self, symbol: clingo.Symbol) -> tuple[str, tuple[Term, ...]]:
        """An answer-set atom's predicate and arguments as terms (remembered: the same atoms come
        back state after state, and reading a clingo symbol costs a call per part)."""
        atom = self._atoms.get(symbol)
        if atom is None:
            atom = self._atoms[symbol] = (symbol.name, tuple(self.names.to_term(a) for a in symbol.arguments))
        return atom

    def _ground(self, key: frozenset[Term]) -> _GroundedState:
        grounded = self._grounded.get(key)
        if grounded is None:
            grounded = self._grounded[key] = _GroundedState(self, key)
            if len(self._grounded) > _GROUNDED_SIZE:
                self._grounded.popitem(last=False)
        else:
            self._grounded.move_to_end(key)
        return grounded

    def _analyse(self, state: State) -> Analysis:
        key = state.fluents
        cached = self._state_cache.get(key)
        if cached is not None:
            return cached
        with self._lock:
            symbols = self._ground(key).solve()
        assert symbols is not None
        legal: dict[Constant, list[Term]] = {r: [] for r in self.roles}
        goals: dict[Constant, set[int]] = {}
        terminal = False
        for name, args in map(self._atom, symbols):
            if name == "terminal":
                terminal = True
            elif name == "legal" and len(args) == 2:
                if args[0] in legal:
                    legal[args[0]].append(args[1])  # type: ignore[index]
            elif name == "goal" and len(args) == 2 and args[0] in legal:
                goals.setdefault(args[0], set()).add(goal_value(args[0], args[1]))  # type: ignore[arg-type]
        result = ({r: tuple(sorted(ms, key=sort_key)) for r, ms in legal.items()}, terminal, goals)
        self._state_cache[key] = result
        if len(self._state_cache) > _CACHE_SIZE:
            self._state_cache.popitem(last=False)
        return result

    def _transition(self, state: State, joint: Sequence[Term]) -> Transition:
        key = (state.fluents, tuple(joint))
        cached = self._move_cache.get(key)
        if cached is not None:
            return cached
        if len(joint) != len(self.roles):
            raise ReasonerError(f"a joint move needs {len(self.roles)} moves, got {len(joint)}")
        with self._lock:
            symbols = self._ground(key[0]).solve(zip(self.roles, joint))
        if symbols is None:  # an illegal move: no external stands for it
            program = facts("true", key[0], self.names) + does_facts(self.roles, joint, self.names)
            symbols = _unique_model(self.rules.grounded(program + _STATE_SHOWS, self._relevant_statements(key[0])))
        nxt: set[Term] = set()
        seen: dict[Constant, set[Term]] = {r: set() for r in self.roles}
        for name, args in map(self._atom, symbols):
            if name == "next" and len(args) == 1:
                nxt.add(args[0])
            elif name == "sees" and len(args) == 2 and args[0] in seen:
                seen[args[0]].add(args[1])  # type: ignore[index]
        result = (frozenset(nxt), {r: frozenset(p) for r, p in seen.items()})
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
                result[role] = self._goal_order().value(state.fluents, role, values)
            else:
                result[role] = next(iter(values))
        return result

    def _goal_order(self) -> GoalOrder:
        """The reading of several goal values for one role (made when first needed)."""
        from ggp.reasoner.goal_order import GoalOrder

        with self._lock:
            if self._order is None:
                self._order = GoalOrder(self.description)
            return self._order

    def next_state(self, state: State, joint: Sequence[Term]) -> State:
        """The ``next`` atoms for the joint move."""
        return FluentState(self._transition(state, joint)[0])

    def percepts(self, state: State, joint: Sequence[Term]) -> dict[Constant, frozenset[Term]]:
        """The ``sees`` atoms for the joint move, per role."""
        return dict(self._transition(state, joint)[1])

    def percept_moves(self, role: Constant) -> Mapping[Term, tuple[frozenset[Term] | None, ...]]:
        """Per percept of ``role``, the moves it reveals, read from the rules: each computed on its
        first lookup and kept, so iteration covers only the percepts looked up so far (see
        :mod:`ggp.reasoner.rule_reveals`)."""
        return rule_reveals(self).percept_moves(role)
