"""The player server: the protocol's player side (:mod:`.service`; :mod:`.sessions` for several
matches at once) behind HTTP (:mod:`.server`)."""

from __future__ import annotations

from ggp.server.server import PlayerServer
from ggp.server.service import Answer, PlayerService, SafetyMargin
from ggp.server.sessions import MatchSessions

__all__ = ["Answer", "MatchSessions", "PlayerServer", "PlayerService", "SafetyMargin"]
