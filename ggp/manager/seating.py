"""Seating players: which client a ``--player`` spec gets, and clients kept between matches.

``http://HOST:PORT`` is a :class:`~ggp.manager.client.RemotePlayer`; a registered player or
``module:Class`` runs in a process of its own (:class:`~ggp.manager.process.ProcessPlayer`),
so players share an interpreter lock neither with the manager nor with each other. Players
that must stay in the manager's process (``Player.in_process``: ``human`` reads the manager's
console), and every player when ``in_process`` is asked for (debugging), are
:class:`~ggp.manager.client.LocalPlayer` s.

A child process takes about half a second to start (interpreter and imports), so clients are
started in parallel (:func:`open_clients`) before the match, and reused from match to match
with a fresh player for each (:meth:`~ggp.manager.client.PlayerClient.new_match`, or a
:class:`ClientPool`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import TracebackType

from ggp.manager.client import LocalPlayer, PlayerClient, RemotePlayer
from ggp.manager.process import ProcessPlayer
from ggp.players.base import Player
from ggp.players.registry import player_class

def make_client(spec: str, rng: random.Random, reasoner: str | None = None, *,
                in_process: bool = False, wait: bool = True) -> PlayerClient:
    """A client for ``spec`` whose player is seeded by ``rng`` (see the module doc).

    Raises :class:`~ggp.errors.UnknownPlayerError` for an unknown player (before any process
    starts) and :class:`~ggp.manager.client.PlayerSpecError` for a bad URL. With ``wait``
    False a process client is not yet ready: call :func:`wait_ready`.
    """
    if spec.startswith(("http://", "https://")):
        return RemotePlayer(spec)
    cls = player_class(spec)
    if in_process or cls.in_process:
        def factory(fresh: random.Random) -> Player:
            return cls(rng=fresh, reasoner=reasoner)

        return LocalPlayer(spec, factory(rng), reasoner, factory)
    return ProcessPlayer(spec, rng, reasoner, wait=wait)


def wait_ready(clients: Sequence[PlayerClient]) -> None:
    """Wait until every process client is ready (see :meth:`ProcessPlayer.wait_ready`)."""
    for client in clients:
        if isinstance(client, ProcessPlayer):
            client.wait_ready()


def close_all(clients: Sequence[PlayerClient]) -> None:
    """Close every client (each at most once is harmless: closing is idempotent)."""
    for client in clients:
        client.close()


def open_clients(specs: Sequence[str], rngs: Sequence[random.Random], reasoner: str | None = None, *,
                 in_process: bool = False, wait: bool = True) -> list[PlayerClient]:
    """One client per spec (``rngs[i]`` seeds ``specs[i]``), their processes started in
    parallel; ready unless ``wait`` is False. On any failure the clients made so far are
    closed and the error is raised."""
    clients: list[PlayerClient] = []
    try:
        for spec, rng in zip(specs, rngs, strict=True):
            clients.append(make_client(spec, rng, reasoner, in_process=in_process, wait=False))
        if wait:
            wait_ready(clients)
    except BaseException:
        close_all(clients)
        raise
    return clients


class ClientPool:
    """Clients kept between matches, by spec: :meth:`take` hands out idle ones (with a fresh
    player seeded as asked) or starts new ones, :meth:`give_back` returns them; at most
    ``keep`` idle clients are kept (the oldest are closed). A context manager: closes all."""

    def __init__(self, reasoner: str | None = None, *, in_process: bool = False, keep: int = 8):
        self.reasoner = reasoner
        self.in_process = in_process
        self.keep = keep
        self._idle: list[PlayerClient] = []  # oldest first

    def take(self, specs: Sequence[str], rngs: Sequence[random.Random]) -> list[PlayerClient]:
        """Ready clients for ``specs`` in order, the player of ``specs[i]`` seeded by ``rngs[i]``."""
        clients: list[PlayerClient] = []
        try:
            for spec, rng in zip(specs, rngs, strict=True):
                idle = next((c for c in self._idle if c.spec == spec), None)
                if idle is None:
                    clients.append(make_client(spec, rng, self.reasoner, in_process=self.in_process, wait=False))
                else:
                    self._idle.remove(idle)
                    clients.append(idle)
                    idle.new_match(rng)
            wait_ready(clients)
        except BaseException:
            close_all(clients)
            raise
        return clients

    def give_back(self, clients: Sequence[PlayerClient]) -> None:
        """Keep ``clients`` for later matches."""
        self._idle.extend(clients)
        while len(self._idle) > self.keep:
            self._idle.pop(0).close()

    def close(self) -> None:
        """Close every idle client."""
        idle, self._idle = self._idle, []
        close_all(idle)

    def __enter__(self) -> ClientPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


__all__ = ["ClientPool", "close_all", "make_client", "open_clients", "wait_ready"]
