"""What the viewer and the desk servers share: error pages, security headers, static files,
and starting uvicorn."""

from __future__ import annotations

import ipaddress
import logging
import socket
from collections.abc import MutableMapping, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ggp.web.pages import HERE, render

log = logging.getLogger(__name__)

#: Headers on every answer: nothing from elsewhere runs in the pages, which no other site frames,
#: and addresses with a seat's secret are not passed on.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
TITLES = {400: "Bad request", 404: "Not found", 405: "Method not allowed", 409: "Conflict",
          422: "Cannot be shown", 500: "Server error"}


class PageError(Exception):
    """An answer other than 200: its status and a message for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def error_page(request: Request, status: int, message: str) -> Response:
    """An error as a page (or as JSON for requests that ask for JSON)."""
    if "application/json" in request.headers.get("accept", "") or request.url.path.endswith(("/state", "/move")):
        return JSONResponse({"error": message}, status_code=status)
    html = render("error.html", status=status, title=TITLES.get(status, "Error"), message=message,
                  home=str(request.scope.get("root_path", "")) + "/", static="/static")
    return HTMLResponse(html, status_code=status)


async def _page_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PageError)
    return error_page(request, exc.status, exc.message)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: f"there is no page at {request.url.path}",
               405: f"{request.method} is not allowed here: these pages are read-only"}.get(exc.status_code, exc.detail)
    return error_page(request, exc.status_code, message)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return error_page(request, 500, f"the page could not be made ({type(exc).__name__}); the server's log says more")


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every answer."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for key, value in SECURITY_HEADERS.items():
                    if key.lower().encode() not in present:
                        headers.append((key.lower().encode(), value.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, sending)


def allowed_hosts(host: str) -> list[str]:
    """Host names a page may be asked for (against DNS rebinding): the loopback names, or any
    when serving on every address."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    return ["127.0.0.1", "localhost", "[::1]", "::1", host, f"[{host}]"]


def make_app(routes: Sequence[BaseRoute], host: str) -> Starlette:
    """A Starlette app with ``routes``, the static files, error pages and security headers."""
    return Starlette(
        routes=[*routes, Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static")],
        middleware=[Middleware(SecurityHeaders), Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(host))],
        exception_handlers={PageError: _page_error, HTTPException: _http_error, Exception: _server_error},
    )


def is_loopback(host: str) -> bool:
    """True for an address only this machine reaches."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def open_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port); raises OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock: socket.socket, host: str) -> str:
    """The address of the server listening on ``sock``."""
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"
