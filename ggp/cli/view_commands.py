"""The ``ggp view`` subcommand (recorded matches in a browser), and the composition that lets
every view name the cards of RECYCLE games from their source (the translator's card table)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ggp.view.glossary import CardTable, register_card_table


def recycle_card_table(path: Path) -> CardTable | None:
    """The cards of a RECYCLE game as the translator names them, with their attributes."""
    try:
        from translators.recycle.symbols.model import build_model
        from translators.recycle.symbols.vocabulary import card_constant
        from translators.recycle.syntax.parser import parse_recycle
    except ImportError:
        return None
    game = parse_recycle(path.read_text(encoding="utf-8-sig"), str(path))
    model = build_model(game)
    return {card_constant(model, card.id).name: [(key.lower(), value.lower()) for key, value in card.attrs]
            for card in model.cards}


def register(sub: Any) -> None:
    """Add ``view`` to ``sub`` (and the RECYCLE card table to the views)."""
    register_card_table(".rcy", recycle_card_table)
    p = sub.add_parser(
        "view",
        help="watch recorded matches in a web browser",
        description="Serve a web page listing the recorded matches of the match database (--db, "
        "$GGP_MATCH_DB or the data directory) and replaying any of them step by step: the card "
        "table (or the state's facts) as everyone or as one role saw it, the moves, and plots of "
        "goals and scores. Read-only. Prints 'serving http://HOST:PORT' once ready; Ctrl-C stops. "
        "Needs the web extra: pip install 'ggp[web]'.",
    )
    p.add_argument("--db", metavar="PATH", help="match database (default: $GGP_MATCH_DB or the data directory)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every address)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0 picks a free port)")
    p.set_defaults(run=run_view)


def run_view(args: argparse.Namespace) -> int:
    """Serve the viewer until interrupted."""
    from ggp.web import require_web

    require_web()
    import uvicorn

    from ggp.manager.store import MatchStore
    from ggp.web.common import is_loopback, open_socket, url_of
    from ggp.web.viewer import viewer_app

    db = Path(args.db) if args.db else None
    with MatchStore(db) as store:  # a clear error now for a database that cannot be opened
        path = store.path
    try:
        sock = open_socket(args.host, args.port)
    except OSError as exc:
        print(f"ggp view: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if not is_loopback(args.host):
        print(f"ggp view: serving on {args.host}: every machine that reaches it can read the match records",
              file=sys.stderr)
    app = viewer_app(path, args.host)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    print(f"serving {url_of(sock, args.host)} (matches of {path})", flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    return 0
