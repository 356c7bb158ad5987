"""Where the project keeps files between runs: the data directory and the cache under it.

- ``DATA``: ``$GGP_DATA_DIR``, else ``$XDG_DATA_HOME/ggp``, else ``~/.local/share/ggp``;
- the cache: ``$GGP_CACHE_DIR``, else ``DATA/cache``.

A module of its own, below every package, so that any of them may find these places.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The directory for the match database, records and caches (see the module doc)."""
    explicit = os.environ.get("GGP_DATA_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "ggp"


def cache_dir() -> Path:
    """``$GGP_CACHE_DIR``, else ``DATA/cache``: files that can be rebuilt at any time."""
    explicit = os.environ.get("GGP_CACHE_DIR")
    return Path(explicit) if explicit else data_dir() / "cache"
