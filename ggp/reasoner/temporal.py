"""The histories one role cannot tell apart, as an incremental answer-set program.

The game rules are stamped with time: ``true(F)`` at time ``T`` becomes ``_t_true__T(F)``,
``does(R,M)`` ``_t_does__T(R,M)``, every predicate that depends on them gets its own name at
each time, and ``next(F)`` at ``T`` defines ``_t_true__T+1(F)``; static predicates stay as they
are. (A name per time rather than a time argument: clingo's grounding of a new step then looks
only at that step's atoms, and costs the same at step 60 as at step 1; with a time argument it
grows with the number of steps.) The rules are split into three programs, the last two
instantiated for each time and grounded one step at a time (clingo's multi-shot solving):

``base``
    static rules and ``_t_true__0(F) :- init(F)``;
``state``
    what depends on the state only (``legal``, ``terminal``, ``goal``, derived predicates);
``transition``
    what depends on the joint move (``next``, ``sees``, derived predicates).

Each observed step ``k`` (1-based: the ``k``-th joint move, made at time ``k-1``) adds the
observing role's move as a fact, one legal move per other role (a choice rule), the game not
being over yet, and constraints that ``sees(me,P)`` holds exactly for the percepts received.
Every answer set is then one consistent history, and every consistent history is one answer
set: clingo finds one whenever one exists, and enumerates them all when asked.

What a query reports is switched on by ``#external`` atoms, so that brave and cautious
reasoning (the union and intersection of all answer sets) run over just the atoms asked for.
Clingo objects stay in this module: the interface takes and returns terms and tuples.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import clingo

from ggp.errors import GGPError, ReasonerError
from ggp.gdl.rules import Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, sort_key
from ggp.reasoner.asp import AspNames, rule_to_asp

Signature = tuple[str, int]
JointMove = tuple[Term, ...]
#: A move fixed in advance: (time, role, move); time 0 is the first joint move.
Fixed = tuple[int, Constant, Term]

_TRUE, _DOES, _NEXT = ("true", 1), ("does", 2), ("next", 1)
_STATE_KEYWORDS = {("legal", 2), ("terminal", 0), ("goal", 2)}
_TRANSITION_KEYWORDS = {_NEXT, ("sees", 2)}
_STATIC_KEYWORDS = {("role", 1), ("init", 1)}
_PREFIX = "_t_"
#: Placeholders for the time (and the time after it) in the programs instantiated per time.
_T, _T1 = "@T@", "@T1@"

_OUTPUT = """
#show _o_does/3. #show _o_legal/3. #show _o_nlegal/3. #show _o_true/2.
"""
_STATE_OUTPUT = """
#external _w_state(@T@).
_o_true(F,@T@) :- _t_true__@T@(F), _w_state(@T@).
#external _w_legal(R,@T@) : role(R).
_o_legal(R,M,@T@) :- _t_legal__@T@(R,M), _w_legal(R,@T@).
#external _w_nlegal(R,@T@) : role(R).
_o_nlegal(R,N,@T@) :- _w_nlegal(R,@T@), N = #count{ M : _t_legal__@T@(R,M) }.
"""
_TRANSITION_OUTPUT = """
#external _w_does(R,@T@) : role(R).
_o_does(R,M,@T@) :- _t_does__@T@(R,M), _w_does(R,@T@).
"""


class SolverTimeout(GGPError):
    """A solver call passed the solver's :attr:`HistorySolver.cutoff` (its answer is unknown)."""


class InconsistentObservationError(GGPError):
    """No history of the game explains a role's moves and percepts up to ``step`` (1-based)."""

    def __init__(self, role: Constant, step: int, move: Term, percepts: frozenset[Term], reason: str):
        self.role = role
        self.step = step
        self.move = move
        self.percepts = percepts
        self.reason = reason
        seen = "(" + " ".join(sorted(str(p) for p in percepts)) + ")" if percepts else "nil"
        super().__init__(f"step {step}: {role} played {move} and saw {seen}, but {reason}")


@dataclass(frozen=True)
class Snapshot:
    """A state in a consistent history: some roles' legal moves (sorted) and, if asked, the fluents."""

    legal: Mapping[Constant, tuple[Term, ...]]
    state: frozenset[Term] | None


@dataclass(frozen=True)
class HistoryRecord:
    """One consistent history: the joint moves (role order) and what its weights need.

    ``legal_counts[t][r]`` is the number of legal moves of each unobserved role ``r`` at time
    ``t``; ``legal`` and ``states`` (states ``0..n``) are present only when asked for; ``end``
    is the final state.
    """

    joints: tuple[JointMove, ...]
    legal_counts: tuple[Mapping[Constant, int], ...]
    legal: tuple[Mapping[Constant, tuple[Term, ...]], ...] | None
    states: tuple[frozenset[Term], ...] | None
    end: frozenset[Term]


def _signature(atom: Term) -> Signature:
    return (atom.name, len(atom.args) if isinstance(atom, Function) else 0)


def _atoms(literal: Literal) -> Iterable[Term]:
    if isinstance(literal, Not):
        yield from _atoms(literal.literal)
    elif isinstance(literal, Or):
        for lit in literal.literals:
            yield from _atoms(lit)
    elif not isinstance(literal, Distinct):
        yield literal


def _closure(start: set[Signature], depends: Mapping[Signature, set[Signature]]) -> set[Signature]:
    """Every signature that depends, directly or not, on one in ``start`` (``start`` included)."""
    found = set(start)
    changed = True
    while changed:
        changed = False
        for head, body in depends.items():
            if head not in found and body & found:
                found.add(head)
                changed = True
    return found


def classify(description: GameDescription) -> tuple[set[Signature], set[Signature]]:
    """The predicates that depend on the state, and those that depend on the joint move.

    Raises :class:`ReasonerError` when the rules break GDL's layering (``legal``, ``goal`` or
    ``terminal`` depending on ``does``; ``init`` or ``role`` depending on the state; a rule
    defining ``true`` or ``does``).
    """
    depends: dict[Signature, set[Signature]] = {}
    for rule in description:
        head = _signature(rule.head)
        if head in (_TRUE, _DOES):
            raise ReasonerError(f"a rule defines {head[0]}, which only the game state may do: {rule}")
        depends.setdefault(head, set()).update(_signature(a) for lit in rule.body for a in _atoms(lit))
    transition = _closure({_DOES} | _TRANSITION_KEYWORDS, depends)
    dynamic = _closure({_TRUE} | _STATE_KEYWORDS | transition, depends)
    for bad in sorted((_STATE_KEYWORDS & transition) | (_STATIC_KEYWORDS & dynamic)):
        raise ReasonerError(f"{bad[0]}/{bad[1]} depends on {'does' if bad in transition else 'true'}, which GDL forbids")
    return dynamic - transition, transition


def _conjunctions(literal: Literal, negated: bool) -> list[list[tuple[bool, Literal]]]:
    """A literal in disjunctive normal form: alternatives of (positive?, atom-or-distinct)."""
    if isinstance(literal, Not):
        return _conjunctions(literal.literal, not negated)
    if isinstance(literal, Or):
        parts = [_conjunctions(lit, negated) for lit in literal.literals]
        if not negated:
            return [conj for part in parts for conj in part]
        return [list(itertools.chain.from_iterable(combo)) for combo in itertools.product(*parts)]
    return [[(not negated, literal)]]


class _Stamper:
    """Prints rules with the time placeholder in the names of the dynamic atoms."""

    def __init__(self, names: AspNames, dynamic: set[Signature]):
        self.names = names
        self.dynamic = dynamic

    def atom(self, atom: Constant | Function, variables: dict[str, str]) -> str:
        sig = _signature(atom)
        if sig not in self.dynamic and sig != _NEXT:
            return self.names.atom(atom, variables)
        args = [self.names.term(a, variables) for a in atom.args]
        if sig == _NEXT:
            return _timed("true", _T1, args)
        return _timed(self.names.function(atom.name), _T, args)

    def rule(self, rule: Rule) -> list[str]:
        out = []
        for combo in itertools.product(*(_conjunctions(lit, False) for lit in rule.body)):
            variables: dict[str, str] = {}
            head = self.atom(rule.head, variables)
            positives, others = [], []
            for conj in combo:
                for positive, lit in conj:
                    if isinstance(lit, Distinct):
                        op = "!=" if positive else "="
                        others.append(f"{self.names.term(lit.left, variables)}{op}{self.names.term(lit.right, variables)}")
                        continue
                    assert isinstance(lit, (Constant, Function))
                    if positive:
                        positives.append(self.atom(lit, variables))
                    else:
                        others.append("not " + self.atom(lit, variables))
            body = positives + others
            out.append(head + (" :- " + ", ".join(body) if body else "") + ".")
        return out


def _timed(name: str, time: str | int, args: Sequence[str] = ()) -> str:
    """A dynamic atom at ``time`` (a number or a placeholder)."""
    atom = f"{_PREFIX}{name}__{time}"
    return f"{atom}({','.join(args)})" if args else atom


def at_time(template: str, t: int) -> str:
    """A ``state`` or ``transition`` program of :func:`temporal_program` instantiated at ``t``."""
    return template.replace(_T1, str(t + 1)).replace(_T, str(t))


def temporal_program(description: GameDescription, names: AspNames) -> dict[str, str]:
    """The ``base`` program and the ``state`` and ``transition`` templates (see :func:`at_time`)
    as text."""
    state, transition = classify(description)
    stamper = _Stamper(names, state | transition)
    parts: dict[str, list[str]] = {"base": [], "state": [], "transition": []}
    for rule in description:
        sig = _signature(rule.head)
        if sig in transition:
            parts["transition"].extend(stamper.rule(rule))
        elif sig in state:
            parts["state"].extend(stamper.rule(rule))
        else:
            parts["base"].extend(rule_to_asp(rule, names))
    parts["base"].append(f"{_timed('true', 0, ['F'])} :- init(F).")
    return {
        "base": "\n".join(parts["base"]) + _OUTPUT,
        "state": "\n".join(parts["state"]) + _STATE_OUTPUT,
        "transition": "\n".join(parts["transition"]) + _TRANSITION_OUTPUT,
    }


class HistorySolver:
    """The consistent histories of a game for ``role``, grown by one observed step at a time.

    ``extend(move, percepts)`` adds the role's next move and the percepts it brought; the other
    methods answer questions about all histories consistent with what was added so far.
    """

    def __init__(self, description: GameDescription, role: Constant):
        self.description = description
        self.roles = description.roles
        if role not in self.roles:
            raise ReasonerError(f"{role} is not a role of the game (roles: {' '.join(map(str, self.roles))})")
        self.role = role
        self.others = tuple(r for r in self.roles if r != role)
        self.horizon = 0
        #: When set (a :func:`time.monotonic` time), every solver call past it is cancelled and
        #: raises :class:`SolverTimeout`.
        self.cutoff: float | None = None
        self._names = AspNames()
        self._messages: list[str] = []
        self._ctl = clingo.Control(["--warn=none"], logger=self._log, message_limit=5)
        self._terms: dict[clingo.Symbol, Term] = {}
        self._active: set[clingo.Symbol] = set()
        self._mode = ""
        self._limit = -1
        self._literals: dict[Fixed, int] = {}
        self._externals: dict[clingo.Symbol, int] = {}
        self._outputs: dict[clingo.Symbol, tuple[Term, ...]] = {}
        self._broken: InconsistentObservationError | None = None
        try:
            self._templates = temporal_program(description, self._names)
            self._ctl.add("base", [], self._templates["base"])
            self._ctl.add("state0", [], at_time(self._templates["state"], 0))
            self._ctl.ground([("base", []), ("state0", [])])
        except RuntimeError as exc:
            raise ReasonerError(f"clingo cannot ground the rules: {'; '.join(self._messages) or exc}") from None

    def _log(self, _code: clingo.MessageCode, message: str) -> None:
        self._messages.append(message.strip())

    # -- symbols and terms --------------------------------------------------------------

    def _term(self, symbol: clingo.Symbol) -> Term:
        term = self._terms.get(symbol)
        if term is None:
            term = self._names.to_term(symbol)
            self._terms[symbol] = term
        return term

    def _switch(self, name: str, *args: clingo.Symbol) -> clingo.Symbol:
        return clingo.Function(name, list(args))

    # -- growing the histories ----------------------------------------------------------

    def extend(self, move: Term, percepts: Iterable[Term]) -> None:
        """Add the role's move at the next step and the percepts that step brought it.

        Raises :class:`InconsistentObservationError` naming the step when no history explains
        the moves and percepts so far; the solver cannot be used after that.
        """
        self.extend_many([(move, frozenset(percepts))])

    def extend_many(self, steps: Sequence[tuple[Term, frozenset[Term]]], check: bool = True) -> None:
        """Add several steps (the role's move and percepts of each) with one grounding call:
        each grounding call costs time in proportion to the whole program so far, so catching
        up many steps at once is far cheaper than one by one. With ``check``, raises
        :class:`InconsistentObservationError` naming the last step when no history explains
        them (the step at fault is named exactly when there is one step)."""
        self._check_usable()
        if not steps:
            return
        first = self.horizon
        parts: dict[str, str] = {}
        for offset, (move, seen) in enumerate(steps):
            t = first + offset
            parts[f"transition{t}"] = at_time(self._templates["transition"], t)
            parts[f"step{t + 1}"] = self._observed(t, move, seen)
            parts[f"state{t + 1}"] = at_time(self._templates["state"], t + 1)
        try:
            for name, text in parts.items():
                self._ctl.add(name, [], text)
            self._ctl.ground([(name, []) for name in parts])
        except RuntimeError as exc:
            raise ReasonerError(f"clingo cannot ground steps {first + 1} to {first + len(steps)}: "
                                f"{'; '.join(self._messages) or exc}") from None
        self.horizon = first + len(steps)
        last = self.horizon - 1
        for t in range(first, self.horizon):
            self._ctl.assign_external(self._switch("_seen", clingo.Number(t)), True)
        if not check or self.consistent():
            return
        move, seen = steps[-1]
        self._ctl.assign_external(self._switch("_seen", clingo.Number(last)), False)
        if len(steps) > 1:
            reason = "no history of the game explains the moves and percepts of the last steps"
        elif self.consistent():
            reason = "no history of the game explains these percepts"
        else:
            reason = "no history consistent with the earlier steps lets the role make this move (illegal, or the game was over)"
        self._broken = InconsistentObservationError(self.role, last + 1, move, seen, reason)
        raise self._broken

    def _observed(self, t: int, move: Term, seen: frozenset[Term]) -> str:
        """The program part fixing the role's move at time ``t`` and what it saw."""
        g = self._names.ground
        me = g(self.role)
        lines = [f"{_timed('does', t, [me, g(move)])}.", f":- not {_timed('legal', t, [me, g(move)])}.",
                 f":- {_timed('terminal', t)}."]
        lines += [f"1 {{ {_timed('does', t, [g(r), 'M'])} : {_timed('legal', t, [g(r), 'M'])} }} 1." for r in self.others]
        lines += [f"_obs__{t}({g(p)})." for p in sorted(seen, key=str)]
        lines += [
            f"#external _seen({t}).",
            f":- {_timed('sees', t, [me, 'P'])}, not _obs__{t}(P), _seen({t}).",
            f":- _obs__{t}(P), not {_timed('sees', t, [me, 'P'])}, _seen({t}).",
        ]
        return "\n".join(lines) + "\n"

    def _check_usable(self) -> None:
        if self._broken is not None:
            raise InconsistentObservationError(
                self.role, self._broken.step, self._broken.move, self._broken.percepts, self._broken.reason
            )

    # -- solving ------------------------------------------------------------------------

    def _literal(self, item: Fixed) -> int:
        """The solver literal of a move at a time (0 when the move cannot happen there)."""
        literal = self._literals.get(item)
        if literal is None:
            t, role, move = item
            atom = self._ctl.symbolic_atoms[
                clingo.Function(f"{_PREFIX}does__{t}", [self._names.symbol(role), self._names.symbol(move)])
            ]
            literal = self._literals[item] = 0 if atom is None else atom.literal
        return literal

    def _assumptions(self, fixed: Iterable[Fixed]) -> list[int] | None:
        """Solver literals for the fixed moves; None when one of them can never happen."""
        literals = [self._literal(item) for item in fixed]
        return None if 0 in literals else literals

    def _solve(
        self,
        fixed: Iterable[Fixed],
        outputs: Iterable[clingo.Symbol] | None,
        mode: str = "auto",
        limit: int = 1,
        on_model: Callable[[clingo.Model], bool | None] | None = None,
        budget: float | None = None,
    ) -> list[Sequence[clingo.Symbol]] | None:
        """The shown atoms of the models found, None when there is none.

        ``outputs`` are the ``_w_`` switches to turn on (None: leave them as they are). Brave and
        cautious modes keep only the last model (the consequences); ``limit`` 0 means no limit;
        an ``on_model`` callback replaces the collection of models (and may stop the search by
        returning False). With a ``budget`` (seconds) the search is cut off then, keeping what
        it found (waiting past the budget for the first model, if need be).
        """
        self._check_usable()
        assumptions = self._assumptions(fixed)
        if assumptions is None:
            return None
        if outputs is not None:
            self._show(outputs)
        config = self._ctl.configuration.solve
        assert isinstance(config, clingo.Configuration)
        if mode != self._mode:
            config.enum_mode = mode
            self._mode = mode
        if limit != self._limit:
            config.models = str(limit)
            self._limit = limit
        models: list[Sequence[clingo.Symbol]] = []

        def collect(model: clingo.Model) -> None:
            if mode == "auto":
                models.append(model.symbols(shown=True))
            else:
                models[:] = [model.symbols(shown=True)]

        if budget is None and self.cutoff is None:
            result = self._ctl.solve(assumptions=assumptions, on_model=on_model or collect)
            assert isinstance(result, clingo.SolveResult)
            return None if result.unsatisfiable else models
        if budget is None:
            assert self.cutoff is not None
            with self._ctl.solve(assumptions=assumptions, on_model=on_model or collect, async_=True) as handle:
                assert isinstance(handle, clingo.SolveHandle)
                if not handle.wait(max(0.0, self.cutoff - time.monotonic())):
                    handle.cancel()
                    handle.wait()
                    raise SolverTimeout("the solver ran out of time")
                result = handle.get()
            return None if result.unsatisfiable else models
        with self._ctl.solve(assumptions=assumptions, on_model=on_model or collect, async_=True) as handle:
            assert isinstance(handle, clingo.SolveHandle)
            finished = handle.wait(max(budget, 0.0))
            while not finished and not models:  # past the budget, but nothing to answer yet
                finished = handle.wait(0.01)
            if not finished:
                handle.cancel()
            handle.wait()
            result = handle.get()
        return None if result.unsatisfiable else models

    def _show(self, outputs: Iterable[clingo.Symbol]) -> None:
        """Turn on exactly the ``_w_`` switches in ``outputs``."""
        wanted = set(outputs)
        for symbol in self._active - wanted:
            self._ctl.assign_external(self._external(symbol), False)
        for symbol in wanted - self._active:
            self._ctl.assign_external(self._external(symbol), True)
        self._active = wanted

    def _external(self, symbol: clingo.Symbol) -> int:
        literal = self._externals.get(symbol)
        if literal is None:
            atom = self._ctl.symbolic_atoms[symbol]
            assert atom is not None, symbol
            literal = self._externals[symbol] = atom.literal
        return literal

    def _output(self, symbol: clingo.Symbol) -> tuple[Term, ...]:
        """The terms of a shown ``_o_`` atom's arguments but the time (cached)."""
        terms = self._outputs.get(symbol)
        if terms is None:
            args = symbol.arguments
            terms = self._outputs[symbol] = tuple(self._term(a) for a in args[:-1])
        return terms

    def consistent(self, fixed: Iterable[Fixed] = ()) -> bool:
        """Whether some consistent history makes the ``fixed`` moves."""
        return self._solve(fixed, None, on_model=lambda _model: False) is not None

    def snapshot(self, fixed: Sequence[Fixed], time: int, roles: Sequence[Constant] = (), state: bool = False) -> Snapshot | None:
        """The legal moves of ``roles`` (and the fluents, with ``state``) at ``time`` in a history
        making the ``fixed`` moves; None when no consistent history makes them.

        The ``fixed`` moves should determine the state at ``time`` (every unobserved role's move
        before it); otherwise the answer is that of one of the histories.
        """
        n = clingo.Number(time)
        outputs = [self._switch("_w_legal", self._names.symbol(r), n) for r in roles]
        if state:
            outputs.append(self._switch("_w_state", n))
        models = self._solve(fixed, outputs)
        if models is None:
            return None
        legal: dict[Term, list[Term]] = {r: [] for r in roles}
        fluents = []
        for symbol in models[0]:
            terms = self._output(symbol)
            if symbol.name == "_o_true":
                fluents.append(terms[0])
            else:
                legal[terms[0]].append(terms[1])
        return Snapshot({r: tuple(sorted(legal[r], key=sort_key)) for r in roles}, frozenset(fluents) if state else None)

    def feasible(
        self, fixed: Sequence[Fixed], time: int, role: Constant, candidates: Sequence[Term], limit: int | None = None
    ) -> tuple[Term, ...] | None:
        """The ``candidates`` (the role's legal moves at ``time``) that some consistent history
        making the ``fixed`` moves makes (in the order given), or None when more than ``limit`` are.

        One model per feasible move: each model found forbids its move for the rest of the search.
        """
        literals = [(literal, move) for move in candidates if (literal := self._literal((time, role, move)))]
        found: set[Term] = set()

        def on_model(model: clingo.Model) -> bool:
            for literal, move in literals:
                if model.is_true(literal):
                    found.add(move)
                    model.context.add_nogood([literal])
                    break
            return limit is None or len(found) <= limit

        self._solve(fixed, None, limit=0, on_model=on_model)
        if limit is not None and len(found) > limit:
            return None
        return tuple(m for m in candidates if m in found)

    def histories(self, limit: int, detail: bool = False) -> list[HistoryRecord] | None:
        """Every consistent history, or None when there are more than ``limit``.

        With ``detail`` each record also carries every state and the other roles' legal moves.
        """
        n = self.horizon
        outputs = [self._switch("_w_state", clingo.Number(n))]
        for t in range(n):
            time = clingo.Number(t)
            outputs += [self._switch("_w_does", self._names.symbol(r), time) for r in self.roles]
            outputs += [self._switch("_w_nlegal", self._names.symbol(r), time) for r in self.others]
            if detail:
                outputs += [self._switch("_w_legal", self._names.symbol(r), time) for r in self.others]
                outputs.append(self._switch("_w_state", time))
        models = self._solve((), outputs, limit=limit + 1)
        if models is None:
            return []
        if len(models) > limit:
            return None
        return [self._record(model, detail) for model in models]

    def _record(self, symbols: Sequence[clingo.Symbol], detail: bool) -> HistoryRecord:
        n = self.horizon
        moves: list[dict[Term, Term]] = [{} for _ in range(n)]
        counts: list[dict[Constant, int]] = [{} for _ in range(n)]
        legal: list[dict[Constant, list[Term]]] = [{r: [] for r in self.others} for _ in range(n)]
        states: list[set[Term]] = [set() for _ in range(n + 1)]
        for symbol in symbols:
            args = symbol.arguments
            if symbol.name == "_o_true":
                states[args[1].number].add(self._term(args[0]))
                continue
            role = self._term(args[0])
            assert isinstance(role, Constant)
            t = args[2].number
            if symbol.name == "_o_does":
                moves[t][role] = self._term(args[1])
            elif symbol.name == "_o_nlegal":
                counts[t][role] = args[1].number
            else:
                legal[t][role].append(self._term(args[1]))
        return HistoryRecord(
            tuple(tuple(joint[r] for r in self.roles) for joint in moves),
            tuple(counts),
            tuple({r: tuple(ms) for r, ms in step.items()} for step in legal) if detail else None,
            tuple(frozenset(s) for s in states) if detail else None,
            frozenset(states[n]),
        )

    def consequences(self, what: str, cautious: bool, role: Constant | None = None,
                     budget: float | None = None) -> frozenset[Term]:
        """Fluents (``what="true"``) or legal moves of ``role`` (``what="legal"``) in the final
        state of every consistent history (``cautious``) or of some (brave).

        Cautious reasoning can take exponentially long to prove its answer; with a ``budget``
        (seconds) it is cut off then and answers for the histories it met so far (a superset of
        the cautious answer, a subset of the brave one).
        """
        n = clingo.Number(self.horizon)
        if what == "true":
            outputs = [self._switch("_w_state", n)]
        elif what == "legal":
            outputs = [self._switch("_w_legal", self._names.symbol(role or self.role), n)]
        else:
            raise ValueError(f"what must be 'true' or 'legal', not {what!r}")
        models = self._solve((), outputs, "cautious" if cautious else "brave", limit=0, budget=budget)
        if models is None:  # pragma: no cover - extend() keeps the histories consistent
            return frozenset()
        pick = 0 if what == "true" else 1
        return frozenset(self._term(s.arguments[pick]) for s in models[-1])
