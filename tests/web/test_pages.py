"""``ggp view`` over a real loopback socket: the pages, their answers to bad input, escaping."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote

import pytest

from tests.web.browser import Served


def fetch(url: str, method: str = "GET", data: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
    """Status, body and headers of one request."""
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


def test_index_lists_the_matches(viewer: Served, store: dict[str, Any]) -> None:
    status, body, headers = fetch(viewer.url + "/")
    assert status == 200
    for match_id in store["ids"].values():
        assert f'href="/matches/{quote(match_id)}"' in body
    assert "player0 <b>" in body  # goals
    assert "script-src 'self'" in headers["content-security-policy"]
    status, by_game, _ = fetch(viewer.url + "/?sort=game&order=asc")
    assert status == 200
    games = [g for g in ("kuhn", "tictactoe", "xss")]
    positions = [by_game.index(f"<td>{g}</td>") for g in games]
    assert positions == sorted(positions)


def test_replay_page_names_the_cards(viewer: Served, store: dict[str, Any]) -> None:
    status, body, _ = fetch(f"{viewer.url}/matches/{store['ids']['kuhn']}?step=3")
    assert status == 200
    # the RECYCLE source's deck: RANK (JACK, QUEEN, KING); two dealt, one left in the stock
    names = sorted(part.split('"')[0] for part in body.split('data-name="')[1:])
    assert names == ["Jack", "King", "Queen"]


@pytest.mark.parametrize("path, status, words", [
    ("/matches/no.such.match", 404, "no match"),
    ("/matches/kuhn.test?step=999", 404, "no step 999"),
    ("/matches/kuhn.test?step=-1", 404, "no step -1"),
    ("/matches/kuhn.test?step=abc", 400, "whole number"),
    ("/matches/kuhn.test?step=1e3", 400, "whole number"),
    ("/matches/kuhn.test?view=nobody", 400, "not a role"),
    ("/matches/kuhn.test?view=%3Cscript%3E", 400, "not a role"),
    ("/?sort=evil", 400, "cannot sort"),
    ("/?page=0", 404, "no page 0"),
    ("/?page=x", 400, "whole number"),
    ("/nothing/here", 404, "no page at"),
])
def test_bad_requests_get_an_error_page(viewer: Served, path: str, status: int, words: str) -> None:
    got, body, headers = fetch(viewer.url + path)
    assert got == status
    assert words in body
    assert headers["content-type"].startswith("text/html")
    assert "Traceback" not in body and "<script>" not in body


def test_the_viewer_is_read_only(viewer: Served) -> None:
    for path in ("/", "/matches/kuhn.test"):
        status, body, _ = fetch(viewer.url + path, method="POST", data=b"x=1")
        assert status == 405, path
        assert "read-only" in body


def test_other_host_names_are_refused(viewer: Served) -> None:
    """Against DNS rebinding: a page asked for under another name is refused."""
    status, _, _ = fetch(viewer.url + "/", headers={"Host": "evil.example:80"})
    assert status == 400


def test_names_from_game_files_are_escaped(viewer: Served, store: dict[str, Any]) -> None:
    for step in (0, 1):
        status, body, _ = fetch(f"{viewer.url}/matches/{store['ids']['xss']}?step={step}")
        assert status == 200
        assert "<script>alert" not in body and "<img" not in body and "<i>pile" not in body
        assert "&lt;script&gt;alert.1&lt;/script&gt;" in body
        assert "&lt;img/src=x/onerror=alert.2&gt;" in body
    status, body, _ = fetch(f"{viewer.url}/")
    assert "<script>alert" not in body and "&lt;script&gt;alert.1&lt;/script&gt;" in body
