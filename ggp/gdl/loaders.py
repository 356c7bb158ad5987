"""Loaders for game languages other than GDL, chosen by file suffix.

A loader is a function ``path -> (GameDescription, problems)``: it reads a game written in
another language and returns its GDL-II rules and the problems met (located in the original
file). Loaders come from two places:

- the Python entry points of group ``ggp.loaders``, read once with :mod:`importlib.metadata`:
  the entry point's name is the suffix without its dot, its value the function. The project's
  RECYCLE translator registers ``rcy`` this way in ``pyproject.toml``; a third party adds a
  language by declaring an entry point in its own package;
- :func:`register`, for code that composes the parts itself.

The core never imports a translator: it only looks loaders up here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path

from ggp.errors import Problem
from ggp.gdl.rules import GameDescription

log = logging.getLogger(__name__)

#: The entry-point group loaders are declared in.
GROUP = "ggp.loaders"

#: A loader: a file's path to its rules and the problems met.
Loader = Callable[[Path], tuple[GameDescription, list[Problem]]]

_registered: dict[str, Loader] = {}
_declared: dict[str, object] | None = None  # suffix -> entry point, read once


def _suffix(suffix: str) -> str:
    return "." + suffix.lower().lstrip(".")


def register(suffix: str, loader: Loader) -> None:
    """Load files ending in ``suffix`` (``".rcy"`` or ``"rcy"``) with ``loader``; it takes
    precedence over an entry point for the same suffix."""
    _registered[_suffix(suffix)] = loader


def _entry_points() -> dict[str, object]:
    global _declared
    if _declared is None:
        _declared = {_suffix(ep.name): ep for ep in entry_points(group=GROUP)}
    return _declared


def loader_for(path: Path) -> Loader | None:
    """The loader for ``path``'s suffix, or None when GDL is to be read (no loader claims it,
    or the one declared cannot be imported: logged)."""
    suffix = path.suffix.lower()
    if not suffix:
        return None
    found = _registered.get(suffix)
    if found is not None:
        return found
    declared = _entry_points().get(suffix)
    if declared is None:
        return None
    try:
        loader = declared.load()  # type: ignore[attr-defined]
    except (ImportError, AttributeError) as exc:
        log.warning("the loader for %s files (%s) cannot be loaded: %s", suffix, declared, exc)
        return None
    _registered[suffix] = loader
    return loader  # type: ignore[no-any-return]


def suffixes() -> list[str]:
    """Every suffix some loader claims, sorted."""
    return sorted(set(_registered) | set(_entry_points()))
