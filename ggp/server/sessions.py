"""Several matches at once behind one player server: ``ggp serve --matches N``.

:class:`MatchSessions` holds ``N`` :class:`~ggp.server.service.PlayerService` s, each with a
player object of its own, and routes every message by its match id: a ``start`` goes to a
service with no match running (``busy`` when all ``N`` are playing), ``play``, ``stop`` and
``abort`` to the service playing that match. One session per match id, so two matches never
share a player, its history or its belief; the players share the process (and its
interpreter lock), so with searching players each match gets a share of the machine. ``(info)``
says ``available`` while a service is free and tells the capacity, ``(capacity N)``, which a
tournament reads to send this server at most ``N`` matches at once.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from ggp.players.base import Player
from ggp.protocol.messages import Abort, Info, InfoReply, Message, Preview, Start, parse_message
from ggp.server.service import REMEMBERED_MATCHES, Answer, PlayerService, SafetyMargin


class MatchSessions:
    """Up to ``matches`` matches at once, the ``i``-th service's player made by ``factory(i)``
    (see the module doc); answers as a :class:`PlayerService` does."""

    def __init__(self, factory: Callable[[int], Player], matches: int, name: str | None = None,
                 reasoner: str | None = None):
        if matches < 1:
            raise ValueError(f"the number of matches must be positive, not {matches}")
        #: One safety margin for all: the answers leave through the same server.
        self.margin = SafetyMargin()
        self.services = [PlayerService(factory(i), name=name, reasoner=reasoner, margin=self.margin)
                         for i in range(matches)]
        self.name = self.services[0].name
        self._lock = threading.Lock()
        self._routes: OrderedDict[str, PlayerService] = OrderedDict()
        self._starting: set[int] = set()  # services a start is being handed to

    @property
    def busy(self) -> bool:
        """True while every service plays a match."""
        return all(service.busy for service in self.services)

    def close(self) -> None:
        """Abort every running match."""
        for service in self.services:
            service.close()

    def handle_text(self, text: str, received_at: float | None = None) -> Answer:
        """Parse and answer one message (see :meth:`PlayerService.handle_text`)."""
        now = time.monotonic() if received_at is None else received_at
        message = parse_message(text)  # enough to find the match; its service reads it again
        if isinstance(message, (Start, Info, Preview, Abort)):
            return self.handle(message, now)
        return self._service_for(message.match_id).handle_text(text, now)

    def handle(self, message: Message, received_at: float | None = None) -> Answer:
        """Answer one message, routed by its match id."""
        now = time.monotonic() if received_at is None else received_at
        if isinstance(message, Info):
            status = "busy" if self.busy else "available"
            return Answer(str(InfoReply(self.name, status, len(self.services))))
        if isinstance(message, Preview):
            return Answer("ready")
        if isinstance(message, Start):
            return self._start(message, now)
        return self._service_for(message.match_id).handle(message, now)

    def _service_for(self, match_id: str) -> PlayerService:
        with self._lock:
            service = self._routes.get(match_id)
        # An unknown match: any service gives the protocol's answer (done, aborted, or an error).
        return service if service is not None else self.services[0]

    def _start(self, message: Start, received_at: float) -> Answer:
        with self._lock:
            service = self._routes.get(message.match_id)
            slot = None
            if service is None:
                slot = next((i for i, s in enumerate(self.services)
                             if i not in self._starting and not s.busy), None)
                if slot is None:
                    return Answer("busy")
                service = self.services[slot]
                self._starting.add(slot)
                self._routes[message.match_id] = service
                while len(self._routes) > REMEMBERED_MATCHES * len(self.services):
                    self._routes.popitem(last=False)
        try:
            return service.handle(message, received_at)
        finally:
            if slot is not None:
                with self._lock:
                    self._starting.discard(slot)


__all__ = ["MatchSessions"]
