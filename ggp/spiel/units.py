"""The units a bridged game's returns are counted in: the game's own score where the rules
have one, else the GDL goal values.

A RECYCLE game translated by :mod:`translators.recycle` defines ``(score ROLE N)``, each
player's raw scoring value (the chips of a poker game, the points of a trick-taking game),
beside its goals, which only rank the players (100 for the best, 0 for the worst). The bridge
reads that relation from the rules alone: :func:`scored` replaces the ``goal`` rules by
``(<= (goal ?r ?n) (score ?r ?n))``, so any reasoner of the rewritten rules answers the
score as the goal value, in the game's own units.
"""

from __future__ import annotations

from ggp.errors import GGPError
from ggp.gdl.rules import GameDescription, Rule
from ggp.gdl.terms import Function, Variable

#: The relation naming each role's raw score in a translated card game.
SCORE = ("score", 2)
#: Accepted values of the ``returns`` parameter.
RETURNS = ("auto", "score", "goals")


def scored(description: GameDescription) -> GameDescription | None:
    """The rules with every ``goal`` rule replaced by the role's ``score``, or None when the
    rules define no ``(score ROLE N)``."""
    if SCORE not in description.relations():
        return None
    role, value = Variable("r"), Variable("n")
    kept = tuple(rule for rule in description.rules if rule.head.name != "goal")
    bridge = Rule(Function("goal", (role, value)), (Function("score", (role, value)),))
    return GameDescription(kept + (bridge,), description.source)


def returns_rules(description: GameDescription, returns: str = "auto") -> tuple[GameDescription, str]:
    """The rules whose goal values are the returns, and their units (``score`` or ``goals``).

    ``auto`` takes the score where the rules define one; ``score`` insists on it.
    """
    if returns not in RETURNS:
        raise GGPError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
    if returns == "goals":
        return description, "goals"
    rewritten = scored(description)
    if rewritten is not None:
        return rewritten, "score"
    if returns == "score":
        raise GGPError(f"{description.source or 'the rules'} define no (score ROLE N): "
                       "returns=score needs a translated card game's score")
    return description, "goals"
