"""Ground a game once with clingo and capture the ground program as plain Python data.

``true/1`` and ``does/2`` become free choices over their reachable domains, so clingo grounds
every rule instance that can ever matter; a :class:`clingo.Observer` records the ground rules.
The result, a :class:`GroundProgram`, holds only ints and GDL terms: no clingo object leaves.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import clingo

from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Term
from ggp.reasoner.asp import AspNames, description_to_asp
from ggp.reasoner.domains import (
    DEFAULT_MAX_RULES,
    DEFAULT_MAX_SECONDS,
    RuleBudget,
    reachable_domains,
)

_CHOICES = """
{ true(F) } :- _dom_true(F).
{ does(R,M) } :- _dom_does(R,M).
"""

#: Predicates whose ground atoms the reasoner reads, with their arities.
INTERFACE = {("true", 1), ("does", 2), ("legal", 2), ("next", 1), ("sees", 2), ("goal", 2),
             ("terminal", 0), ("init", 1), ("role", 1)}


@dataclass
class GroundProgram:
    """A ground program: rules over integer atoms, and what the interface atoms mean.

    ``rules`` are ``(head, body)`` with body literals as signed atom ids (negative: ``not``).
    ``facts`` are interface atoms that hold unconditionally. ``interface`` maps atom ids of the
    interface predicates to ``(predicate, args)`` with the arguments as GDL terms.
    """

    rules: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    choices: set[int] = field(default_factory=set)
    interface: dict[int, tuple[str, tuple[Term, ...]]] = field(default_factory=dict)
    facts: list[tuple[str, tuple[Term, ...]]] = field(default_factory=list)
    seconds: float = 0.0
    fluent_domain: int = 0
    move_domain: int = 0


class _Recorder(RuleBudget):
    def __init__(self, max_rules: int, max_seconds: float) -> None:
        super().__init__("the ground game", max_rules, max_seconds)
        self.rules: list[tuple[int, tuple[int, ...]]] = []
        self.choices: set[int] = set()
        self.outputs: list[tuple[clingo.Symbol, int]] = []
        self.unsupported: list[str] = []

    def rule(self, choice: bool, head: Sequence[int], body: Sequence[int]) -> None:
        if choice:
            self.choices.update(head)
            return
        if len(head) != 1:
            self.unsupported.append("a disjunctive or headless rule")
            return
        super().rule(choice, head, body)
        self.rules.append((head[0], tuple(body)))

    def weight_rule(self, choice: bool, head: Sequence[int], lower_bound: int, body: Sequence[tuple[int, int]]) -> None:
        self.unsupported.append("a weight rule")

    def output_atom(self, symbol: clingo.Symbol, atom: int) -> None:
        self.outputs.append((symbol, atom))


def ground(
    description: GameDescription, max_rules: int = DEFAULT_MAX_RULES, max_seconds: float = DEFAULT_MAX_SECONDS
) -> GroundProgram:
    """Ground ``description`` over its reachable domains (see :mod:`ggp.reasoner.domains`).

    Raises :class:`~ggp.reasoner.domains.GroundingTooLarge` past ``max_rules`` ground rules or
    ``max_seconds`` of grounding (the two groundings share the budget).
    """
    start, cpu = time.perf_counter(), time.thread_time()
    names = AspNames()
    program = description_to_asp(description, names)
    domains = reachable_domains(description, names, RuleBudget("the reachable domain", max_rules, max_seconds))
    recorder = _Recorder(max_rules, max(max_seconds - (time.thread_time() - cpu), 0.001))
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=lambda _c, m: messages.append(m.strip()), message_limit=5)
    ctl.register_observer(recorder)
    try:
        ctl.add("base", [], program + domains.true_facts + domains.does_facts + _CHOICES)
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        raise ReasonerError(f"clingo cannot ground the rules: {'; '.join(messages) or exc}") from None
    if recorder.unsupported:
        raise ReasonerError(f"the ground program contains {recorder.unsupported[0]}, which GDL cannot produce")
    result = GroundProgram(recorder.rules, recorder.choices)
    for symbol, atom in recorder.outputs:
        key = (symbol.name, len(symbol.arguments))
        if key not in INTERFACE:
            continue
        value = (symbol.name, tuple(names.to_term(a) for a in symbol.arguments))
        if atom == 0:
            result.facts.append(value)
        else:
            result.interface[atom] = value
    result.seconds = time.perf_counter() - start
    result.fluent_domain = domains.fluents
    result.move_domain = domains.moves
    return result
