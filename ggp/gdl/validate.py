"""Validation of GDL and GDL-II game descriptions: every problem at once, each with its location.

:func:`validate` runs every check and returns the problems sorted by position: errors for what
makes a game meaningless, warnings for slips whose meaning is clear (the game still plays, as
:func:`prepare` repairs them). :func:`ggp.gdl.load.validate_file` also reports what reading the
file found.

The checks live in their own modules: :mod:`ggp.gdl.normalise` (safety, negated ``distinct``),
:mod:`ggp.gdl.keywords`, :mod:`ggp.gdl.relations` (arities, undefined relations) and
:mod:`ggp.gdl.stratification` (recursion through ``not``, the recursion restriction).
"""

from __future__ import annotations


from ggp.errors import InvalidGameError, Problem
from ggp.gdl.dependencies import DependencyGraph
from ggp.gdl.keywords import INPUTS, keyword_problems, state_dependent_declarations
from ggp.gdl.normalise import drop_relations, normalise
from ggp.gdl.relations import name_problems
from ggp.gdl.rules import GameDescription
from ggp.gdl.stratification import negation_problems, recursion_problems


def _order(problem: Problem) -> tuple[int, int, int, str]:
    loc = problem.location
    return (loc.line, loc.column, 0 if problem.is_error else 1, problem.message)


def unique_problems(problems: list[Problem]) -> list[Problem]:
    """``problems`` without repeats, in source order."""
    return sorted(dict.fromkeys(problems), key=_order)


def _repair(description: GameDescription, graph: DependencyGraph) -> tuple[GameDescription, list[Problem]]:
    """The repaired rules and the problems met repairing (see :mod:`ggp.gdl.normalise`)."""
    ignored = state_dependent_declarations(graph) | {r.head.name for r in description.rules if r.head.name in INPUTS}
    repaired, problems = normalise(drop_relations(description, ignored))
    if not any(p.is_error for p in problems) and repaired != description:
        after = DependencyGraph.build(repaired.rules)
        problems += [Problem(p.location, f"the unsafe variables cannot be repaired here: {p.message}")
                     for p in negation_problems(list(repaired.rules), after) if p.is_error]
    return repaired, problems


def _check(description: GameDescription, complete: bool) -> tuple[GameDescription, list[Problem]]:
    graph = DependencyGraph.build(description.rules)
    rules = list(description.rules)
    repaired, repairs = _repair(description, graph)
    problems = (repairs + keyword_problems(description, graph, complete) + name_problems(description, graph, complete)
                + negation_problems(rules, graph) + recursion_problems(rules, graph))
    return repaired, unique_problems(problems)


def validate(description: GameDescription, complete: bool = True) -> list[Problem]:
    """Every problem of ``description`` (errors and warnings), in source order.

    With ``complete=False`` (some rules could not be read) the checks that need every rule
    (missing roles, ``terminal``, ``legal`` or ``goal``; relations defined nowhere) are skipped.
    """
    return _check(description, complete)[1]


def prepare(description: GameDescription) -> tuple[GameDescription, list[Problem]]:
    """The description ready to play, with every clear slip repaired, and the warnings.

    Raises :class:`~ggp.errors.InvalidGameError` with every error when the game is not playable.
    """
    repaired, problems = _check(description, complete=True)
    errors = [p for p in problems if p.is_error]
    if errors:
        raise InvalidGameError(errors)
    return repaired, problems
