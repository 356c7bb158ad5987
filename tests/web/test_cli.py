"""``ggp view`` on the command line, and what the web parts say when their packages are missing."""

from __future__ import annotations

import socket
import sys
from typing import Any

import pytest

from ggp.web import WebUnavailable, require_web
from tests.conftest import ggp


def test_view_help_and_a_busy_port(store: dict[str, Any]) -> None:
    shown = ggp(store["env"], "view", "--help")
    assert shown.returncode == 0 and "Read-only" in shown.stdout and "127.0.0.1" in shown.stdout
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = ggp(store["env"], "view", "--db", str(store["db"]), "--port", str(port), timeout=60)
    assert result.returncode == 1 and "cannot listen on 127.0.0.1" in result.stderr and "Traceback" not in result.stderr


def test_a_missing_web_package_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)
    with pytest.raises(WebUnavailable, match=r"starlette: pip install 'ggp\[web\]'"):
        require_web()
