"""Where an expression is read, and so how ``(current player)`` and friends are read there.

In a step, a stage's seat is the step's resolved seat (``rseat``); while resolving control it is
a seat computed on the way; in scoring it is each seat in turn; inside a chain made once for
every seat, it is a parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ggp.gdl.rules import Literal
from ggp.gdl.terms import Term, Variable
from translators.recycle.symbols.vocabulary import Fresh, c, f
from translators.recycle.translation_error import TranslationError

#: A compiled value: literals that hold exactly when the value is the term.
Val = tuple[list[Literal], Term]


class Ctl:
    """How control values are read where an expression is evaluated."""

    key: Any = None
    #: The batch whose step this is (for chance and forwarded cards), or None.
    batch: str | None = None
    #: Whether a random choice may be read here (only in a step's effects).
    chance: bool = False
    #: Whether control is being resolved (a guard or an end condition read in the step before
    #: the one it decides): what fails here fails where the resolution is used.
    resolving: bool = False
    #: The decision step whose options' legality is read here (what fails here fails there), or None.
    decision: str | None = None
    #: Whether the parts of a sum, difference or product are kept in relations of their own (the
    #: scoring: one rule per seat would otherwise join every count it adds up, and a grounder
    #: multiplies the values each can take).
    keeps_parts: bool = False

    def seat(self, stage: str, fresh: Fresh) -> Val:
        """The current seat of a player stage."""
        raise NotImplementedError

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        """The next seat of a player stage (the queued one, else the following seat)."""
        raise NotImplementedError

    def team(self, stage: str, fresh: Fresh) -> Val:
        """The current team of a team stage."""
        raise NotImplementedError

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        """The next team of a team stage."""
        raise NotImplementedError


class StepCtl(Ctl):
    """In a step: the resolved control values of the step (``rseat``, ``rnext``...)."""

    def __init__(self, batch: str | None = None, chance: bool = False, decision: str | None = None):
        self.batch = batch
        self.chance = chance
        self.decision = decision
        self.key = ("step", batch, chance)

    # One variable per stage: every reading of a stage's seat in a rule is the same value, and
    # the grounder then joins them instead of multiplying them.

    def seat(self, stage: str, fresh: Fresh) -> Val:
        v = Variable(f"seat_{stage}")
        return [f("rseat", stage, v)], v

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        v = Variable(f"next_{stage}")
        return [f("rnext", stage, v)], v

    def team(self, stage: str, fresh: Fresh) -> Val:
        v = Variable(f"team_{stage}")
        return [f("rtseat", stage, v)], v

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        v = Variable(f"nextteam_{stage}")
        return [f("rtnext", stage, v)], v


class ParamCtl(Ctl):
    """Inside a chain made once for every seat: ``(current player)`` is a parameter ``?cur_S``."""

    def __init__(self, stages: tuple[str, ...]):
        self.stages = stages
        self.key = ("param", stages)

    def seat(self, stage: str, fresh: Fresh) -> Val:
        if stage not in self.stages:
            raise AssertionError(stage)
        return [], Variable(f"cur_{stage}")

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        raise AssertionError("lifted expressions do not read (next player)")

    def team(self, stage: str, fresh: Fresh) -> Val:
        raise AssertionError("lifted expressions do not read teams")

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        raise AssertionError("lifted expressions do not read teams")


class FixedSeatCtl(Ctl):
    """Scoring: ``(current player)`` is one given seat."""

    keeps_parts = True

    def __init__(self, seat: int, players: int):
        self.seat_index = seat
        self.players = players
        self.key = ("seat", seat)

    def seat(self, stage: str, fresh: Fresh) -> Val:
        return [], c(f"player{self.seat_index}")

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        return [], c(f"player{(self.seat_index + 1) % self.players}")

    def team(self, stage: str, fresh: Fresh) -> Val:
        v = fresh("t")
        return [f("teamof", c(f"player{self.seat_index}"), v)], v

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        raise TranslationError(None, "(next team) cannot be used in scoring")


class SourceCtl(Ctl):
    """While resolving control: each stage's seat is a relation computed on the way."""

    def __init__(self, sources: dict[str, Callable[[Fresh], Val]], key: Any, batch: str | None = None):
        self.sources = sources
        self.key = ("resolve", key)
        self.batch = batch
        self.resolving = True

    def seat(self, stage: str, fresh: Fresh) -> Val:
        return self.sources[stage](fresh)

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        return self.sources["next:" + stage](fresh)

    def team(self, stage: str, fresh: Fresh) -> Val:
        return self.sources[stage](fresh)

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        return self.sources["next:" + stage](fresh)


__all__ = ["Ctl", "FixedSeatCtl", "ParamCtl", "SourceCtl", "StepCtl", "Val"]
