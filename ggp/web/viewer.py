"""``ggp view``: the recorded matches in a browser (read-only).

``/`` lists the matches of the store (sortable, paginated); ``/matches/ID?step=N&view=ROLE``
replays one: the table after step ``N`` seen by everyone or by ``ROLE``, the moves of that step,
what each role saw, and plots of goals and of the players' stored numbers. Replays are kept for
the last few matches looked at (:data:`KEPT_REPLAYS`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from ggp.errors import GGPError
from ggp.manager.record import MatchRecord
from ggp.manager.store import MatchRow, MatchStore, StoreError
from ggp.view.match import MatchView
from ggp.web.common import PageError, make_app
from ggp.web.pages import layout, plot, render

#: Matches listed per page.
PAGE_SIZE = 50
#: Replays kept in memory.
KEPT_REPLAYS = 8
#: Columns of the list: key and title.
COLUMNS = (("id", "match"), ("game", "game"), ("players", "players"), ("goals", "goals"), ("steps", "steps"),
           ("date", "date"))
_SORT_KEYS: dict[str, Callable[[MatchRow], object]] = {
    "id": lambda r: r.match_id,
    "game": lambda r: (Path(r.game).name if r.game else ""),
    "players": lambda r: sorted(r.players.values()),
    "goals": lambda r: sorted(r.goals.values(), reverse=True),
    "steps": lambda r: r.steps,
    "date": lambda r: r.started,
}


def _game_name(source: str | None) -> str:
    return Path(source).stem if source else "game"


def _whole(request: Request, name: str, default: int) -> int:
    """A whole-number query parameter; 400 when it is not one."""
    text = request.query_params.get(name)
    if text is None or text == "":
        return default
    if not text.strip().lstrip("-").isdigit() or len(text) > 12:
        raise PageError(400, f"{name} must be a whole number, not {text[:40]!r}")
    return int(text)


class Viewer:
    """The viewer's state: the store's path and the replays kept."""

    def __init__(self, db: Path | None):
        self.db = db
        self._replays: OrderedDict[tuple[str, str, int], MatchView] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[tuple[str, str, int], threading.Lock] = {}

    def store(self) -> MatchStore:
        """The store, opened for one request."""
        try:
            return MatchStore(self.db)
        except StoreError as exc:
            raise PageError(500, str(exc)) from None

    def replay(self, record: MatchRecord) -> MatchView:
        """The replay of ``record`` (built once, kept while recently used)."""
        key = (record.match_id, record.finished, len(record.steps))
        with self._lock:
            if key in self._replays:
                self._replays.move_to_end(key)
                return self._replays[key]
            building = self._building.setdefault(key, threading.Lock())
        with building:
            with self._lock:
                if key in self._replays:
                    return self._replays[key]
            try:
                view = MatchView(record)
            except GGPError as exc:
                raise PageError(422, f"match {record.match_id} cannot be replayed: {exc}") from None
            with self._lock:
                self._replays[key] = view
                self._building.pop(key, None)
                while len(self._replays) > KEPT_REPLAYS:
                    self._replays.popitem(last=False)
            return view

    # --- pages ------------------------------------------------------------------------------

    def index(self, request: Request) -> HTMLResponse:
        """The list of matches."""
        sort = request.query_params.get("sort", "date")
        order = request.query_params.get("order", "desc" if sort in ("date", "goals") else "asc")
        if sort not in _SORT_KEYS:
            raise PageError(400, f"cannot sort by {sort[:40]!r}; choose one of {', '.join(_SORT_KEYS)}")
        if order not in ("asc", "desc"):
            raise PageError(400, f"order must be asc or desc, not {order[:40]!r}")
        page = _whole(request, "page", 1)
        with self.store() as store:
            rows = store.rows()
            db = str(store.path)
        rows.sort(key=_SORT_KEYS[sort], reverse=order == "desc")  # type: ignore[arg-type]
        pages = max(1, -(-len(rows) // PAGE_SIZE))
        if not 1 <= page <= pages:
            raise PageError(404, f"there is no page {page} (pages 1 to {pages})")
        shown = [_Row(r) for r in rows[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]]

        def sort_link(key: str) -> str:
            flip = "asc" if key == sort and order == "desc" else ("desc" if key == sort else
                                                                   ("desc" if key in ("date", "goals") else "asc"))
            return "?" + urlencode({"sort": key, "order": flip})

        def page_link(n: int) -> str:
            return "?" + urlencode({"sort": sort, "order": order, "page": n})

        return HTMLResponse(render("index.html", rows=shown, total=len(rows), db=db, page=page, pages=pages,
                                   sort=sort, order=order, columns=COLUMNS, sort_link=sort_link, page_link=page_link,
                                   home="/", static="/static"))

    def match(self, request: Request) -> HTMLResponse:
        """One match, one step, one viewpoint."""
        match_id = request.path_params["match_id"]
        with self.store() as store:
            try:
                record = store.get(match_id)
            except StoreError:
                raise PageError(404, f"there is no match {match_id[:120]!r} in the store") from None
        view = self.replay(record)
        step = _whole(request, "step", 0)
        if not 0 <= step <= view.steps:
            raise PageError(404, f"match {match_id} has no step {step}: its steps are 0 to {view.steps}")
        viewer = request.query_params.get("view") or None
        if viewer in ("all", "everyone"):
            viewer = None
        roles = [str(r) for r in view.players]
        if viewer is not None and viewer not in roles:
            raise PageError(400, f"{viewer[:40]!r} is not a role of this game (roles: {', '.join(roles)})")
        seen = view.step(step, viewer)
        series = view.series()
        goal_series = [s for s in series if s.name.endswith(" goal")]
        other = [s for s in series if not s.name.endswith(" goal")]
        plots = [p for p in (plot(goal_series, step, "goals"), plot(other, step, "scores")) if p is not None]

        def link(n: int, who: str | None = viewer) -> str:
            query = {"step": n, **({"view": who} if who else {})}
            return f"/matches/{match_id}?" + urlencode(query)

        def view_link(who: str | None) -> str:
            return link(step, who)

        return HTMLResponse(render(
            "match.html", match_id=record.match_id, game=_game_name(record.game_source), started=_date(record.started),
            players=record.players, status=record.status, step=step, steps=view.steps, viewer=viewer, roles=roles,
            table=seen.table, lay=layout(seen.table), moves=seen.moves, seen=seen.seen, plots=plots,
            errors=record.errors[:20], link=link, view_link=view_link, home="/", static="/static"))


class _Row:
    """A row of the list as the page shows it."""

    def __init__(self, row: MatchRow):
        self.match_id = row.match_id
        self.game_name = _game_name(row.game)
        self.players = row.players
        self.goals = row.goals
        self.steps = row.steps
        self.status = row.status
        self.started = row.started
        self.date = _date(row.started)


def _date(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def viewer_app(db: Path | None, host: str = "127.0.0.1") -> Starlette:
    """The ``ggp view`` application for the store at ``db`` (None: the default store)."""
    viewer = Viewer(db)
    return make_app([
        Route("/", viewer.index, methods=["GET", "HEAD"]),
        Route("/matches/{match_id}", viewer.match, methods=["GET", "HEAD"]),
    ], host)
