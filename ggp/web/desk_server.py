"""The server of the desks: the pages where people play as ``web`` players.

One server per process, started when the first ``web`` player takes a desk, on
``$GGP_WEB_HOST`` (default 127.0.0.1) and ``$GGP_WEB_PORT`` (default 0: a free port), in a
daemon thread. Each desk has a secret address, ``/desk/TOKEN``, printed on standard error when
the desk is made; the page follows ``/desk/TOKEN/state`` (long polling) and sends the person's
choice to ``/desk/TOKEN/move`` (``{"turn": N, "move": TEXT}``), the only thing a page can change:
a legal move of the open turn (400 for anything malformed or illegal, 409 when the turn is not
open, 404 for an unknown desk).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any

import uvicorn
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ggp.errors import GGPError
from ggp.web.common import PageError, make_app, open_socket, url_of
from ggp.web.desk import CHOOSING, Desk, DeskRegistry
from ggp.web.pages import layout, render

#: Longest wait of one long poll, seconds.
POLL_SECONDS = 20.0
#: Largest move request, bytes.
MAX_BODY = 4096


class DeskServer:
    """The desks of this process and the web server in front of them."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0):
        self.host = host
        self.registry = DeskRegistry()
        self._socket = open_socket(host, port)
        self.url = url_of(self._socket, host)
        app = make_app([
            Route("/", self.home, methods=["GET", "HEAD"]),
            Route("/desk/{token}", self.page, methods=["GET", "HEAD"]),
            Route("/desk/{token}/state", self.state, methods=["GET"]),
            Route("/desk/{token}/move", self.move, methods=["POST"]),
        ], host)
        self._server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]},
                                        name="web-desks", daemon=True)
        self._thread.start()

    def desk_url(self, desk: Desk) -> str:
        """The address of ``desk``'s page."""
        return f"{self.url}/desk/{desk.token}"

    def close(self) -> None:
        """Stop serving (waits at most a few seconds)."""
        self._server.should_exit = True
        self._thread.join(5.0)
        self._socket.close()

    # --- pages -----------------------------------------------------------------------------

    def _desk(self, request: Request) -> Desk:
        desk = self.registry.get(request.path_params["token"])
        if desk is None:
            raise PageError(404, "there is no such seat: use the address the web player printed")
        return desk

    def home(self, request: Request) -> HTMLResponse:
        """What the root says: the seats have addresses of their own."""
        return HTMLResponse(render("error.html", status=404, title="No seat here",
                                   message="This server hosts the seats of web players. Open the address "
                                   "that ggp printed for your seat (http://…/desk/…).",
                                   home="/", static="/static"), status_code=404)

    def page(self, request: Request) -> HTMLResponse:
        """The seat's page."""
        desk = self._desk(request)
        base = f"/desk/{desk.token}"
        return HTMLResponse(render("desk.html", number=desk.number, state_url=f"{base}/state",
                                   move_url=f"{base}/move", home="/", static="/static"))

    def state(self, request: Request) -> JSONResponse:
        """The desk's state, once it differs from version ``after`` (or after a while)."""
        desk = self._desk(request)
        after = request.query_params.get("after", "-1")
        if not after.lstrip("-").isdigit() or len(after) > 12:
            raise PageError(400, f"after must be a whole number, not {after[:40]!r}")
        version = desk.wait_change(int(after), POLL_SECONDS)
        body = snapshot(desk)
        desk.fetched(version)
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    async def move(self, request: Request) -> Response:
        """The person's choice."""
        desk = self._desk(request)
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return JSONResponse({"error": "the request is too large"}, status_code=400)
        try:
            if request.headers.get("content-type", "").startswith("application/json"):
                data = json.loads(raw.decode("utf-8"))
            else:
                form = await request.form()
                data = {"turn": int(str(form["turn"])), "move": form["move"]}
        except (ValueError, KeyError, UnicodeDecodeError):
            return JSONResponse({"error": "send JSON {\"turn\": N, \"move\": \"...\"}"}, status_code=400)
        if not isinstance(data, dict):
            return JSONResponse({"error": "send JSON {\"turn\": N, \"move\": \"...\"}"}, status_code=400)
        choice = desk.choose(data.get("turn"), data.get("move"))
        if not choice.accepted:
            return JSONResponse({"error": choice.message}, status_code=choice.status)
        return JSONResponse({"ok": True, "label": choice.label})


def snapshot(desk: Desk) -> dict[str, Any]:
    """What a page needs to show ``desk`` now (texts to be set as text; ``html`` escaped)."""
    scene = desk.scene
    remaining = None
    if desk.status == CHOOSING and scene.deadline is not None:
        remaining = round(max(0.0, scene.deadline - time.monotonic()), 2)
    html = render("table_fragment.html", table=scene.table, lay=layout(scene.table)) if scene.table is not None else None
    return {
        "version": desk.version, "status": desk.status, "turn": scene.turn, "match_id": scene.match_id,
        "role": scene.role, "game": scene.game, "play_clock": scene.clock, "html": html,
        "moves": [{"move": text, "label": label} for text, (_, label) in scene.moves.items()],
        "chosen": desk.chosen, "remaining": remaining, "message": scene.message, "warning": scene.warning,
        "log": [[heading, list(lines)] for heading, lines in scene.log],
        "goals": dict(scene.goals),
    }


class DeskServerError(GGPError):
    """The desk server cannot start (a bad address or port)."""


_SERVER: DeskServer | None = None
_LOCK = threading.Lock()


def desk_server() -> DeskServer:
    """This process's desk server, started on first use (see the module doc)."""
    global _SERVER
    with _LOCK:
        if _SERVER is None:
            host = os.environ.get("GGP_WEB_HOST", "127.0.0.1")
            port_text = os.environ.get("GGP_WEB_PORT", "0")
            try:
                port = int(port_text)
            except ValueError:
                raise DeskServerError(f"GGP_WEB_PORT must be a port number, not {port_text!r}") from None
            try:
                _SERVER = DeskServer(host, port)
            except OSError as exc:
                raise DeskServerError(f"the web player cannot listen on {host}:{port} "
                                      f"($GGP_WEB_HOST, $GGP_WEB_PORT): {exc.strerror or exc}") from None
            print(f"web players' seats served at {_SERVER.url}", file=sys.stderr, flush=True)
        return _SERVER
