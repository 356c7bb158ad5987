"""The web front end: ``ggp view`` (recorded matches in a browser) and the ``web`` player (a
person plays a match from a browser page).

The pages draw the tables of :mod:`ggp.view`; this package only serves them (Starlette on
uvicorn, templates by Jinja2: the optional extra ``pip install 'ggp[web]'``). Everything a page
shows from a game file is escaped.
"""

from __future__ import annotations

from ggp.errors import GGPError


class WebUnavailable(GGPError):
    """The web extra (Starlette, uvicorn, Jinja2) is not installed."""


def require_web() -> None:
    """Raise :class:`WebUnavailable`, saying how to install them, unless the web packages are there."""
    missing = []
    for module in ("starlette", "uvicorn", "jinja2"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise WebUnavailable(f"the web pages need {', '.join(missing)}: pip install 'ggp[web]'")
