"""Subcommands of this area (filled in by the issue that builds it)."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Add this module's subcommands to ``sub``."""
