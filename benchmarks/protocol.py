"""Benchmark: the GGP protocol's cost per step, and tic-tac-toe matches per minute in-process.

    python benchmarks/protocol.py [--matches N] [--reasoner fast|oracle] [--game FILE]

1. Protocol overhead per step: the same number of matches of random players (default:
   tic-tac-toe) once with both players in-process, once with each player in a process of its
   own behind a pipe (as ``ggp match`` seats them; the processes kept from match to match), and
   once with each player behind its own ``ggp serve`` process on loopback. Every step asks both
   players for a move, so the difference of the mean step times is what the transport, message
   printing and parsing, and the server's session cost per step. The round trip of a bare
   ``(info)`` request is shown too.
2. Matches per minute: complete tic-tac-toe matches between in-process random players (the
   rules read once; each match builds its state machines: the manager's and one per player).
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.manager.client import LocalPlayer, PlayerClient, RemotePlayer
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.runner import MatchSettings, run_match
from ggp.manager.seating import open_clients
from ggp.players.registry import create_player

CLOCKS = Clocks(start=10.0, play=5.0, slack=1.0)


@contextmanager
def serve(reasoner: str | None, seed: int) -> Iterator[str]:
    """A ``ggp serve random`` process; yields its URL."""
    cmd = [sys.executable, "-m", "ggp", "serve", "random", "--port", "0", "--seed", str(seed)]
    if reasoner:
        cmd += ["--reasoner", reasoner]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("listening on "):
            raise SystemExit(f"ggp serve did not start: {line!r}")
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait()


def play(game: GameDescription, clients: list[PlayerClient], seed: int, reasoner: str | None,
         close: bool = True) -> MatchRecord:
    record = run_match(game, clients, MatchSettings(CLOCKS, seed, "auto", reasoner), close_clients=close)
    if record.status != "finished":
        raise SystemExit(f"match {seed} ended with status {record.status}: {record.errors}")
    return record


def local_clients(count: int, seed: int, reasoner: str | None) -> list[PlayerClient]:
    return [LocalPlayer("random", create_player("random", rng=random.Random(f"{seed}/{i}"), reasoner=reasoner), reasoner)
            for i in range(count)]


def process_matches(game: GameDescription, count: int, matches: int, reasoner: str | None) -> list[MatchRecord]:
    """``matches`` matches with each player in a process of its own, seeded as in-process."""
    clients = open_clients(["random"] * count, [random.Random(f"0/{i}") for i in range(count)], reasoner)
    try:
        records = []
        for seed in range(matches):
            for i, client in enumerate(clients):
                client.new_match(random.Random(f"{seed}/{i}"))
            records.append(play(game, clients, seed, reasoner, close=False))
        return records
    finally:
        for client in clients:
            client.close()


def step_times(records: list[MatchRecord]) -> list[float]:
    return [step.seconds for record in records for step in record.steps]


def info_round_trip(url: str, count: int = 200) -> float:
    host, port = url.removeprefix("http://").split(":")
    body = b"POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 6\r\n\r\n(info)"
    began = time.perf_counter()
    for _ in range(count):
        with socket.create_connection((host, int(port))) as sock:
            sock.sendall(body)
            while sock.recv(65536):
                pass
    return (time.perf_counter() - began) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, metavar="N", help="matches per measurement (default 20)")
    parser.add_argument("--reasoner", choices=("fast", "oracle"), default=None, help="default: the project's")
    parser.add_argument("--game", default=str(ROOT / "rulesheets" / "tictactoe.kif"), metavar="FILE")
    args = parser.parse_args()
    game = load_game(args.game)
    roles = len([r for r in game.roles if r.name != "random"])
    print(f"game {Path(args.game).name}, {args.matches} matches per measurement, "
          f"reasoner {args.reasoner or 'default'}")

    # 1. protocol overhead per step
    local = [play(game, local_clients(roles, seed, args.reasoner), seed, args.reasoner) for seed in range(args.matches)]
    piped = process_matches(game, roles, args.matches, args.reasoner)
    with ExitStack() as stack:
        urls = [stack.enter_context(serve(args.reasoner, 100 + i)) for i in range(roles)]
        remote = [play(game, [RemotePlayer(u) for u in urls], seed, args.reasoner) for seed in range(args.matches)]
        info = info_round_trip(urls[0])
    local_steps, piped_steps, remote_steps = step_times(local), step_times(piped), step_times(remote)
    local_mean, piped_mean = statistics.mean(local_steps), statistics.mean(piped_steps)
    remote_mean = statistics.mean(remote_steps)
    print(f"in-process step:  {local_mean * 1000:8.2f} ms mean over {len(local_steps)} steps")
    print(f"process step:     {piped_mean * 1000:8.2f} ms mean over {len(piped_steps)} steps "
          f"({roles} players, each in its own process, one pipe message each, in parallel)")
    print(f"loopback step:    {remote_mean * 1000:8.2f} ms mean over {len(remote_steps)} steps "
          f"({roles} players, one HTTP request each, in parallel)")
    print(f"protocol overhead per step: {(remote_mean - local_mean) * 1000:.2f} ms "
          f"(ratio loopback/in-process {remote_mean / local_mean:.2f})")
    print(f"(info) round trip: {info * 1000:.2f} ms")

    # 2. matches per minute, in-process
    count = max(args.matches, 20)
    began = time.perf_counter()
    steps = 0
    tictactoe = load_game(ROOT / "rulesheets" / "tictactoe.kif")
    for seed in range(count):
        steps += len(play(tictactoe, local_clients(2, seed, args.reasoner), seed, args.reasoner).steps)
    elapsed = time.perf_counter() - began
    print(f"tic-tac-toe, in-process random players: {count / elapsed * 60:.0f} matches per minute "
          f"({elapsed / count * 1000:.1f} ms per match, {elapsed / steps * 1000:.2f} ms per step)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
