"""Players of optional extras: named in the registry, loaded only when asked for, and a clear
error when their extra is not installed."""

from __future__ import annotations

import pytest

from ggp.errors import UnknownPlayerError
from ggp.players import registry


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.OPTIONAL_PLAYERS, "ghost", ("no_such_module_for_tests", "ghosts"))
    with pytest.raises(UnknownPlayerError, match=r"needs the \[ghosts\] extra: pip install 'ggp\[ghosts\]'"):
        registry.player_class("ghost")
    assert "ghost" not in {cls.name for cls in registry.available_players()}


def test_spiel_players_are_optional() -> None:
    assert registry.OPTIONAL_PLAYERS["cfr"] == ("ggp.spiel.players", "spiel")
    assert registry.OPTIONAL_PLAYERS["spiel_ismcts"] == ("ggp.spiel.players", "spiel")
    assert not set(registry.OPTIONAL_PLAYERS) & {m.rsplit(".", 1)[-1] for m in registry.BUILTIN_MODULES}
