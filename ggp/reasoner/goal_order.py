"""Several goal values for one role: the first goal rule that holds gives the value.

GDL requires one goal value per role and state, but real files break it: in the corpus
Krieg-TicTacToe ``(goal xplayer 50)`` when both players have a line comes before ``(goal xplayer
100)`` when ``xplayer`` has one, and both hold when both have. The Dresden GameController asks for
the first solution of ``(goal ROLE ?v)``, the value of the first rule (in source order) whose
body holds. :class:`GoalOrder` gives the reasoners that reading where they find several values
(rarely: it grounds the rules for the state once more, with a marker per goal rule), and logs a
warning naming the rule once per game and role.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable

import clingo

from ggp.errors import ReasonerError
from ggp.gdl.rules import GameDescription, Rule
from ggp.gdl.terms import Constant, Function, Term, integer_value
from ggp.reasoner.asp import AspNames, facts, rule_to_asp

log = logging.getLogger(__name__)

_MARK = "goal_rule__"


class GoalOrder:
    """The GameController's reading of a role's several goal values (see the module doc)."""

    def __init__(self, description: GameDescription):
        self.description = description
        self.names = AspNames()
        self.goal_rules: list[Rule] = [r for r in description.rules if r.head.name == "goal"
                                       and isinstance(r.head, Function) and r.head.arity == 2]
        lines: list[str] = []
        for rule in description.rules:
            lines.extend(rule_to_asp(rule, self.names))
        for index, rule in enumerate(self.goal_rules):
            assert isinstance(rule.head, Function)
            marked = Rule(Function(_MARK, (Constant(str(index)), *rule.head.args)), rule.body, rule.loc)
            lines.extend(rule_to_asp(marked, self.names))
        self.program = "\n".join(lines) + "\n"
        self._warned: set[Constant] = set()
        self._lock = threading.Lock()

    def value(self, fluents: Iterable[Term], role: Constant, values: Iterable[int]) -> int:
        """The value of the first goal rule (in source order) that holds for ``role`` in the
        state where exactly ``fluents`` hold, among ``values`` (the values the reasoner found)."""
        found = sorted(values)
        symbols = _solve(self.program + facts("true", fluents, self.names) + f"#show {_MARK}/3.\n")
        best: tuple[int, int] | None = None
        for symbol in symbols:
            index, who, value = (self.names.to_term(a) for a in symbol.arguments)
            number = integer_value(value)
            if who != role or number is None or number not in found:
                continue
            position = int(str(index))
            if best is None or position < best[0]:
                best = (position, number)
        if best is None:
            raise ReasonerError(f"role {role} has several goal values: {found}")
        with self._lock:
            if role not in self._warned:
                self._warned.add(role)
                rule = self.goal_rules[best[0]]
                where = f"{rule.loc}" if rule.loc else self.description.source or "the rules"
                log.warning("%s: role %s has several goal values %s in a state; the first goal rule that holds "
                            "(%s) gives %d, as in the GameController (GDL requires one value)",
                            self.description.source or "game", role, found, where, best[1])
        return best[1]


def _solve(program: str) -> list[clingo.Symbol]:
    """The shown atoms of the program's first answer set (a stratified program has one)."""
    ctl = clingo.Control(["--warn=none"])
    try:
        ctl.add("base", [], program)
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        raise ReasonerError(f"clingo cannot ground the rules: {exc}") from None
    shown: list[clingo.Symbol] = []
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            shown = model.symbols(shown=True)
            break
    return shown


__all__ = ["GoalOrder"]
