"""Which fluents can ever hold and which moves can ever be played: a relaxed reachability fixpoint.

Dropping every negative literal makes the rules monotone; adding ``true(F) :- init(F)``,
``true(F) :- next(F)`` and ``does(R, M) :- legal(R, M)`` then gives, in clingo's least model,
a superset of every fluent reachable in play and every move ever legal. The fast reasoner
grounds the real rules over these domains once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import clingo

from ggp.errors import ReasonerError
from ggp.gdl.rules import Distinct, GameDescription, Literal, Not, Or, Rule
from ggp.reasoner.asp import AspNames, rule_to_asp

#: Ground rules a game may produce before the fast reasoner gives up on it.
DEFAULT_MAX_RULES = 2_000_000
#: Seconds of CPU (of the grounding thread: the same verdict on a loaded machine as on an idle
#: one) the grounding of a game may take before the fast reasoner gives up on it.
DEFAULT_MAX_SECONDS = 20.0


class GroundingTooLarge(ReasonerError):
    """The game grounds to more rules than the budget allows; use the clingo oracle instead."""


class GroundingTooSlow(GroundingTooLarge):
    """The game takes longer to ground than the time budget allows (CPU seconds of the thread
    grounding it: a verdict that depends on the machine, unlike the rule count, but not on its
    load)."""


class RuleBudget(clingo.Observer):
    """Counts ground rules as clingo emits them and stops grounding past the budget."""

    def __init__(self, what: str, max_rules: int, max_seconds: float):
        self.what = what
        self.max_rules = max_rules
        self.deadline = time.thread_time() + max_seconds
        self.max_seconds = max_seconds
        self.count = 0

    def rule(self, choice: bool, head: Sequence[int], body: Sequence[int]) -> None:
        """Count one rule."""
        self.count += 1
        if self.count > self.max_rules:
            raise GroundingTooLarge(f"{self.what} exceeds {self.max_rules:,} ground rules")
        if not self.count & 0x3FF and time.thread_time() > self.deadline:
            raise GroundingTooSlow(f"{self.what} takes more than {self.max_seconds:g} s to ground")


_CLOSURE = """
true(F) :- init(F).
true(F) :- next(F).
does(R,M) :- legal(R,M).
"""


def _relax_literal(literal: Literal) -> Literal | None:
    """The literal with negation dropped (``None`` when nothing of it stays)."""
    if isinstance(literal, Not):
        inner = literal.literal
        if isinstance(inner, Distinct):
            return literal
        return None
    if isinstance(literal, Or):
        parts = [_relax_literal(lit) for lit in literal.literals]
        if any(p is None for p in parts):
            return None
        return Or(tuple(p for p in parts if p is not None), literal.loc)
    return literal


def relax(description: GameDescription) -> list[Rule]:
    """The rules with every negative literal removed (negated ``distinct`` kept: it is static)."""
    relaxed = []
    for rule in description.rules:
        body = tuple(lit for lit in (_relax_literal(b) for b in rule.body) if lit is not None)
        relaxed.append(Rule(rule.head, body, rule.loc))
    return relaxed


@dataclass(frozen=True)
class Domains:
    """Clingo text of the reachable ``true`` and ``does`` atoms, as facts of ``_dom_true/1``, ``_dom_does/2``."""

    true_facts: str
    does_facts: str
    fluents: int
    moves: int


def reachable_domains(
    description: GameDescription, names: AspNames, budget: RuleBudget | None = None
) -> Domains:
    """The relaxed reachability fixpoint of ``description``, spelt with ``names``.

    Raises :class:`GroundingTooLarge` when computing it exceeds the ``budget``.
    """
    lines = [text for rule in relax(description) for text in rule_to_asp(rule, names)]
    program = "\n".join(lines) + _CLOSURE + "#show true/1. #show does/2.\n"
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=lambda _c, m: messages.append(m.strip()), message_limit=5)
    ctl.register_observer(budget or RuleBudget("the reachable domain", DEFAULT_MAX_RULES, DEFAULT_MAX_SECONDS))
    try:
        ctl.add("base", [], program)
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        raise ReasonerError(f"clingo cannot ground the relaxed rules: {'; '.join(messages) or exc}") from None
    true_atoms: list[str] = []
    does_atoms: list[str] = []
    for atom in ctl.symbolic_atoms:
        if not atom.is_fact:
            continue
        sym = atom.symbol
        if sym.name == "true" and len(sym.arguments) == 1:
            true_atoms.append(f"_dom_true({sym.arguments[0]}).")
        elif sym.name == "does" and len(sym.arguments) == 2:
            does_atoms.append(f"_dom_does({sym.arguments[0]},{sym.arguments[1]}).")
    return Domains("\n".join(true_atoms) + "\n", "\n".join(does_atoms) + "\n", len(true_atoms), len(does_atoms))
