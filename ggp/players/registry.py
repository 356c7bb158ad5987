"""Players by name: the registry behind ``ggp players``, ``ggp serve NAME`` and ``--player NAME``.

A player class registers itself with the :func:`register` decorator under its ``name``. A spec
is either such a name or ``module:Class`` naming any :class:`~ggp.players.base.Player` subclass
importable from the current directory or the Python path (a player written outside the project),
as ``uvicorn module:app`` finds its application.
"""

from __future__ import annotations

import importlib
import inspect
import os
import random
import sys
from typing import TypeVar

from ggp.errors import UnknownPlayerError
from ggp.players.base import Player

P = TypeVar("P", bound=type[Player])

#: Modules whose import registers the built-in players (later modules append themselves here).
BUILTIN_MODULES: list[str] = [
    "ggp.players.simple", "ggp.players.pimc", "ggp.players.ismcts", "ggp.players.iimc", "ggp.players.human",
    "ggp.web.player",
]

#: Players of optional extras: name -> (module, extra). Registered when their extra is installed.
OPTIONAL_PLAYERS: dict[str, tuple[str, str]] = {
    "cfr": ("ggp.spiel.players", "spiel"), "spiel_ismcts": ("ggp.spiel.players", "spiel"),
}

_REGISTRY: dict[str, type[Player]] = {}


def register(cls: P) -> P:
    """Class decorator: make ``cls`` available under ``cls.name`` (one word, lower case)."""
    name = cls.name
    if not name or not name.isidentifier() or name != name.lower():
        raise ValueError(f"a registered player needs a one-word lower-case name, not {name!r}")
    existing = _REGISTRY.get(name)
    if existing is not None and existing is not cls:
        raise ValueError(f"two players are called {name!r}: {existing.__qualname__} and {cls.__qualname__}")
    _REGISTRY[name] = cls
    return cls


def _load_builtins() -> None:
    for module in BUILTIN_MODULES:
        importlib.import_module(module)


def _load_optional() -> None:
    """Import the optional players' modules whose extra is installed (a costly import: only
    when every player is listed, or one of them is asked for)."""
    for module in sorted({m for m, _ in OPTIONAL_PLAYERS.values()}):
        try:
            importlib.import_module(module)
        except ImportError:
            pass  # the extra is not installed: player_class says so when such a player is asked for


def available_players() -> list[type[Player]]:
    """Every registered player class, sorted by name (optional players when installed)."""
    _load_builtins()
    _load_optional()
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def _from_module(spec: str) -> type[Player]:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UnknownPlayerError(f"player spec {spec!r} should be NAME or module:Class")
    if os.getcwd() not in sys.path and "" not in sys.path:  # a console script's path lacks it
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownPlayerError(f"cannot import module {module_name!r} for player {spec!r}: {exc}") from None
    obj = getattr(module, attr, None)
    if obj is None:
        raise UnknownPlayerError(f"module {module_name!r} has no {attr!r} (player spec {spec!r})")
    if not (isinstance(obj, type) and issubclass(obj, Player)):
        raise UnknownPlayerError(f"{spec!r} is not a subclass of ggp.players.base.Player")
    if inspect.isabstract(obj):
        raise UnknownPlayerError(f"{spec!r} is abstract: it must implement play()")
    return obj


def player_class(spec: str) -> type[Player]:
    """The player class named by ``spec``; raises :class:`UnknownPlayerError`."""
    if ":" in spec:
        return _from_module(spec)
    _load_builtins()
    cls = _REGISTRY.get(spec.lower())
    if cls is None and spec.lower() in OPTIONAL_PLAYERS:
        module, extra = OPTIONAL_PLAYERS[spec.lower()]
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise UnknownPlayerError(f"player {spec!r} needs the [{extra}] extra: pip install 'ggp[{extra}]' "
                                     f"({exc})") from None
        cls = _REGISTRY.get(spec.lower())
    if cls is None:
        names = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownPlayerError(f"unknown player {spec!r}; known players: {names} (or module:Class)")
    return cls


def create_player(spec: str, rng: random.Random | None = None, reasoner: str | None = None) -> Player:
    """A new player for ``spec`` with its random generator and reasoner."""
    return player_class(spec)(rng=rng, reasoner=reasoner)
