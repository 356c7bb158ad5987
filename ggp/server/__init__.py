"""The player server: the protocol's player side (:mod:`.service`) behind HTTP (:mod:`.server`)."""

from __future__ import annotations

from ggp.server.server import PlayerServer
from ggp.server.service import Answer, PlayerService, SafetyMargin

__all__ = ["Answer", "PlayerServer", "PlayerService", "SafetyMargin"]
