"""The reasoners on a machine without a C compiler: ``auto`` falls back to the fast reasoner with
one warning, ``compiled`` is a clear error, never a crash."""

from __future__ import annotations

import logging
from collections import OrderedDict

import pytest

from ggp import reasoner as reasoners
from ggp.cli import main
from ggp.errors import ReasonerError
from ggp.gdl.load import load_game
from ggp.reasoner import make_machine
from ggp.reasoner.fast import FastMachine
from tests.conftest import RULESHEETS


def test_without_a_compiler_auto_falls_back_with_one_warning(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, no_compiler: None) -> None:
    monkeypatch.setattr(reasoners, "_SHARED", OrderedDict())
    with caplog.at_level(logging.WARNING, logger="ggp.reasoner"):
        first = make_machine(load_game(RULESHEETS / "montyhall.kif"))
        second = make_machine(load_game(RULESHEETS / "tictactoe.kif"))
    assert isinstance(first, FastMachine) and isinstance(second, FastMachine)
    warnings = [r.getMessage() for r in caplog.records if "compiled reasoner is unavailable" in r.getMessage()]
    assert len(warnings) == 1 and "no C compiler found" in warnings[0]
    with pytest.raises(ReasonerError, match="compiled reasoner is unavailable: no C compiler"):
        make_machine(load_game(RULESHEETS / "montyhall.kif"), "compiled")


def test_without_a_compiler_the_command_says_so(capsys: pytest.CaptureFixture[str], no_compiler: None) -> None:
    path = str(RULESHEETS / "montyhall.kif")
    assert main(["playout", path, "--count", "3", "--reasoner", "compiled"]) == 1
    assert "no C compiler found" in capsys.readouterr().err
    assert main(["verify", path, "--count", "2"]) == 0
    assert capsys.readouterr().out.startswith("ok: fast and oracle agree")
