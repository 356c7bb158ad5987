"""The project's exceptions, all rooted at :class:`GGPError`, and source locations.

Errors about bad input (rules, RECYCLE programs, protocol messages) subclass both
:class:`GGPError` and :class:`ValueError`, quote the offending text and say where it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, order=True)
class Location:
    """A position in a source text: file name (or None), 1-based line and column."""

    file: str | None
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file or '<input>'}:{self.line}:{self.column}"

    def with_file(self, file: str | None) -> Location:
        """The same position in another file."""
        return Location(file, self.line, self.column)


Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """One finding about an input: where, what, and whether it stops the input being used."""

    location: Location
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{self.location}: {prefix}{self.message}"

    @property
    def is_error(self) -> bool:
        """True when the problem makes the input unusable."""
        return self.severity == "error"


class GGPError(Exception):
    """Root of every exception raised by this project."""


class InputError(GGPError, ValueError):
    """Bad input text: carries the location and the offending text."""

    def __init__(self, message: str, location: Location | None = None, text: str | None = None):
        self.message = message
        self.location = location
        self.text = text
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.message}"

    def as_problem(self) -> Problem:
        """This error as a :class:`Problem` (at line 1 column 1 when it has no location)."""
        return Problem(self.location or Location(None, 1, 1), self.message)


class GDLSyntaxError(InputError):
    """A GDL or GDL-II text that does not parse."""


class InvalidGameError(GGPError, ValueError):
    """Game rules that parse but break GDL's restrictions; holds every problem found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class ReasonerError(GGPError):
    """The rules give no well-defined answer for a query (no or several answer sets, ...)."""


class UnknownPlayerError(GGPError, ValueError):
    """A player name or ``module:Class`` spec that names no player."""
