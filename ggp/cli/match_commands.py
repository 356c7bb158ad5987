"""Subcommands for hosting and serving matches: ``serve``, ``match``, ``matches``, ``replay``."""

from __future__ import annotations

import argparse
import json
import logging
import random
import secrets
import sys
from typing import Any

from ggp.reasoner import REASONERS


def register(sub: Any) -> None:
    """Add the match subcommands to ``sub``."""
    p = sub.add_parser(
        "serve",
        help="serve a player over the GGP HTTP protocol",
        description="Run PLAYER (a registered name or module:Class) as a GGP player server. Prints "
        "'listening on http://HOST:PORT' once ready, then answers game managers until Ctrl-C.",
    )
    p.add_argument("player", metavar="PLAYER")
    p.add_argument("--port", type=int, default=9147, help="TCP port (default 9147; 0 picks a free port)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--name", help="name given in answers to (info) (default: the player's name)")
    p.add_argument("--seed", type=int, help="seed of the player's random generator")
    p.add_argument("--matches", type=int, default=1, metavar="N",
                   help="play up to N matches at once, one player object per match (default 1); a start "
                   "beyond that gets busy, and (info) tells the capacity")
    _reasoner_option(p)
    p.add_argument("--verbose", "-v", action="store_true", help="log every message to stderr")
    p.set_defaults(run=run_serve)

    p = sub.add_parser(
        "match",
        help="host a match between local and remote players",
        description="Run one match of FILE. Give one --player per non-random role, in the order of "
        "the role facts: a registered player name or module:Class (each run in a process of its "
        "own) or http://HOST:PORT (a remote GGP player). Prints one JSON object: goals, record "
        "path and errors.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--player", action="append", required=True, metavar="SPEC", help="a player (repeat per role)")
    p.add_argument("--startclock", type=float, default=10.0, metavar="S", help="start clock, seconds (default 10)")
    p.add_argument("--playclock", type=float, default=5.0, metavar="S", help="play clock, seconds (default 5)")
    p.add_argument("--slack", type=float, default=1.0, metavar="S",
                   help="network allowance added to each clock, seconds (default 1)")
    p.add_argument("--seed", type=int, metavar="N", help="seed for random's moves and substitutions (default: drawn and recorded)")
    p.add_argument("--record", metavar="PATH", help="where to write the match record (default: the data directory)")
    p.add_argument("--db", metavar="PATH", help="match database (default: $GGP_MATCH_DB or the data directory)")
    p.add_argument("--protocol", choices=("auto", "gdl2"), default="auto",
                   help="auto: GDL messages for games without sees; gdl2: GDL-II messages always")
    p.add_argument("--match-id", metavar="ID", help="the match id (default: game name, time and random digits)")
    _reasoner_option(p)
    in_process_option(p)
    p.add_argument("--watch", action="store_true",
                   help="print each step to stderr as it happens: moves by role, each role's percepts, "
                   "clocks used (the JSON summary still ends the output)")
    p.add_argument("--verbose", "-v", action="store_true", help="print each step's joint move to stderr")
    p.set_defaults(run=run_match_command)

    p = sub.add_parser("matches", help="list or show recorded matches",
                       description="Read the match database (--db, $GGP_MATCH_DB or the data directory).")
    msub = p.add_subparsers(dest="action", metavar="ACTION")
    msub.required = True
    q = msub.add_parser("list", help="one line per match, oldest first")
    q.add_argument("--db", metavar="PATH", help="match database")
    q.add_argument("--tournament", metavar="ID", help="only the matches of tournament ID")
    q.set_defaults(run=run_matches_list)
    q = msub.add_parser("show", help="print a match record as JSON")
    q.add_argument("match_id", metavar="ID")
    q.add_argument("--db", metavar="PATH", help="match database")
    q.set_defaults(run=run_matches_show)

    p = sub.add_parser(
        "replay",
        help="re-check a match record against its rules",
        description="Replay RECORD: every move must be legal, every percept as recorded, the goals "
        "as recorded. Prints {\"goals\": ..., \"steps\": N}; exits 1 naming the first disagreement.",
    )
    p.add_argument("record", metavar="RECORD")
    _reasoner_option(p)
    p.set_defaults(run=run_replay)


def _reasoner_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reasoner", choices=REASONERS, default=None,
                   help="state machine for the rules (default: the project's default reasoner)")


def in_process_option(p: argparse.ArgumentParser) -> None:
    """Add ``--in-process`` to ``p``."""
    p.add_argument("--in-process", action="store_true",
                   help="run the players in this process instead of one process each (for debugging: "
                   "they then share one interpreter, and one player's thinking slows the others)")


def _logging(verbose: bool) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s: %(message)s")


def run_serve(args: argparse.Namespace) -> int:
    """Serve a player until interrupted."""
    from ggp.players.base import Player
    from ggp.players.registry import create_player
    from ggp.server import MatchSessions, PlayerServer, PlayerService
    from ggp.server.server import Service

    _logging(args.verbose)
    if args.matches < 1:
        print(f"ggp serve: --matches must be 1 or more, not {args.matches}", file=sys.stderr)
        return 2
    service: Service
    if args.matches == 1:
        rng = random.Random(args.seed) if args.seed is not None else random.Random()
        service = PlayerService(create_player(args.player, rng=rng, reasoner=args.reasoner), name=args.name,
                                reasoner=args.reasoner)
    else:
        def factory(slot: int) -> Player:
            rng = random.Random(f"{args.seed}/{slot}") if args.seed is not None else random.Random()
            return create_player(args.player, rng=rng, reasoner=args.reasoner)

        service = MatchSessions(factory, args.matches, name=args.name, reasoner=args.reasoner)
    try:
        server = PlayerServer(service, args.host, args.port)
    except OSError as exc:
        print(f"ggp serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"listening on {server.url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def run_match_command(args: argparse.Namespace) -> int:
    """Host one match, write its record step by step, print the summary."""
    from ggp.cli.watch import Watcher
    from ggp.gdl.load import load_game
    from ggp.manager.clocks import Clocks
    from ggp.manager.journal import StoreJournal
    from ggp.manager.record import FINISHED, NOT_PLAYED
    from ggp.manager.runner import MatchRunner, MatchSettings
    from ggp.manager.seating import close_all, open_clients, wait_ready
    from ggp.manager.stopping import exit_status, stop_on_signals

    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    clocks = Clocks(args.startclock, args.playclock, args.slack)
    rngs = [random.Random(f"{seed}/{i}") for i in range(len(args.player))]
    settings = MatchSettings(clocks, seed, args.protocol, args.reasoner, args.match_id)
    progress = (lambda line: print(line, file=sys.stderr, flush=True)) if args.verbose and not args.watch else None
    journal = StoreJournal(args.db, args.record)
    watcher: Watcher | None = None
    with stop_on_signals():
        try:
            # The players' processes start while the rules are read and the manager's machine
            # is built; the match closes them.
            clients = open_clients(args.player, rngs, args.reasoner, in_process=args.in_process, wait=False)
            try:
                description = load_game(args.file)
                watcher = Watcher(description, clocks, sys.stderr) if args.watch else None
                runner = MatchRunner(description, clients, settings, progress, journal=journal,
                                     on_step=watcher.step if watcher else None)
                wait_ready(clients)
            except BaseException:
                close_all(clients)
                raise
            record = runner.run()
        except KeyboardInterrupt as exc:  # before the match began: nothing to record
            print("ggp match: interrupted before the match began", file=sys.stderr)
            return exit_status(exc)
    if watcher is not None:
        watcher.end(record)
    print(json.dumps({"goals": record.goals, "status": record.status, "record": str(journal.path),
                      "errors": record.errors}))
    if record.status == FINISHED:
        return 0
    if record.status == NOT_PLAYED:
        return 1
    return runner.interrupt_status or 1


def run_matches_list(args: argparse.Namespace) -> int:
    """Print one line per stored match."""
    from ggp.manager.store import MatchStore

    with MatchStore(args.db) as store:
        for row in store.rows(args.tournament):
            print(row)
    return 0


def run_matches_show(args: argparse.Namespace) -> int:
    """Print one stored record as JSON."""
    from ggp.manager.store import MatchStore

    with MatchStore(args.db) as store:
        record = store.get(args.match_id)
    print(json.dumps(record.to_json(), indent=1))
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """Re-check a record; print the goals."""
    from ggp.manager.record import read_record
    from ggp.manager.replay import replay

    record = read_record(args.record)
    result = replay(record, args.reasoner)
    print(json.dumps({"goals": result.goals, "steps": result.steps, "status": record.status}))
    return 0
