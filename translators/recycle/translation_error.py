"""The error raised when a RECYCLE game cannot be translated to GDL-II."""

from __future__ import annotations

from ggp.errors import InputError, Location


class TranslationError(InputError):
    """A construct the translator cannot express, at the RECYCLE line and column it starts.

    ``node`` is the syntax-tree node (anything with ``line`` and ``column``); the message says
    what is not supported and, where it helps, what would be.
    """

    def __init__(self, node: object, message: str, source: str | None = None):
        line = int(getattr(node, "line", 0) or 1)
        column = int(getattr(node, "column", 0) or 1)
        self.node = node
        super().__init__(message, Location(source or "<recycle>", line, column))


__all__ = ["TranslationError"]
