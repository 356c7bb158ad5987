"""Learned data of players, kept between matches under the data directory.

A player whose :meth:`~ggp.players.base.Player.persist` returns True keeps JSON values in its
``memory`` dict. The session loads it from ``DATA/players/NAME.json`` before the player's first
match and saves it after every match (``DATA`` as for match records: ``$GGP_DATA_DIR``, else
``$XDG_DATA_HOME/ggp``, else ``~/.local/share/ggp``; ``NAME`` the player's registered name, or
its module and class). :meth:`~ggp.players.base.Player.reset` (``ggp players --reset SPEC``)
clears it. Files are written atomically; an unreadable file is reported and ignored.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import weakref
from pathlib import Path
from typing import Any, Protocol

from ggp.paths import data_dir


class Remembering(Protocol):
    """What this module needs of a player (:class:`ggp.players.base.Player` is one)."""

    memory: dict[str, Any]

    @property
    def name(self) -> str:
        """The player's registered name."""

    def persist(self) -> bool:
        """True to keep :attr:`memory` between matches."""

log = logging.getLogger(__name__)

#: Players whose memory has been loaded in this process (loaded once, then kept in memory).
_LOADED: weakref.WeakSet[Remembering] = weakref.WeakSet()


def memory_path(player: Remembering) -> Path:
    """Where ``player``'s memory is saved."""
    cls = type(player)
    name = player.name or f"{cls.__module__}.{cls.__qualname__}"
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)
    return data_dir() / "players" / f"{safe}.json"


def load(player: Remembering) -> None:
    """Fill ``player.memory`` from its saved copy, once per player object (persistent players only)."""
    if player in _LOADED or not player.persist():
        return
    _LOADED.add(player)
    path = memory_path(player)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        log.warning("%s: cannot read the memory of %s (%s); starting afresh", path, player.name, exc)
        return
    if isinstance(data, dict):
        player.memory.clear()
        player.memory.update(data)
    else:
        log.warning("%s: memory is not a JSON object; starting afresh", path)


def save(player: Remembering) -> None:
    """Write ``player.memory`` (persistent players only); problems are logged, never raised."""
    if not player.persist():
        return
    path = memory_path(player)
    try:
        text = json.dumps(player.memory, sort_keys=True)
    except (TypeError, ValueError) as exc:
        log.warning("memory of %s is not JSON (%s); not saved", player.name, exc)
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("%s: cannot save the memory of %s: %s", path, player.name, exc)


def forget(player: Remembering) -> bool:
    """Delete ``player``'s saved memory; True when there was one."""
    try:
        memory_path(player).unlink()
    except FileNotFoundError:
        return False
    return True
