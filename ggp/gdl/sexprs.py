"""S-expressions as KIF text writes them, before they are read as terms (:mod:`ggp.gdl.kif`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from ggp.errors import Location
from ggp.gdl.terms import Constant, Variable


@dataclass(frozen=True)
class SList:
    """A parenthesised list of S-expressions, as read (not yet a term)."""

    items: tuple[SExpr, ...]
    loc: Location | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "(" + " ".join(str(i) for i in self.items) + ")"


SExpr = Union[Constant, Variable, SList]
