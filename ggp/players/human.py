"""``human``: a person at the console chooses the moves.

Each turn it shows the role, the turn, what the role saw on the last transition, the time left
and the legal moves, numbered; the person answers with a number or the move's text (case and
spacing do not matter). A bad answer is explained and asked again, until the time is up; then
the session answers for the person (with a legal move) and the prompt says so. A single legal
move is played without asking. Lines are read by a background thread, so a person who types
nothing never holds up the match; lines typed after a turn's time was up are discarded at the
next prompt (lines typed ahead otherwise are kept).

``ggp serve human`` or ``--player human`` use standard input and standard error; tests and
other front ends pass their own streams.
"""

from __future__ import annotations

import queue
import random
import sys
import threading
import time
from typing import TextIO

from ggp.errors import GGPError
from ggp.gdl.kif import parse_term
from ggp.gdl.terms import Constant, Term
from ggp.players.base import MatchInfo, Player, StartView, TurnView
from ggp.players.registry import register


@register
class HumanPlayer(Player):
    """A person choosing moves at a console (see the module doc)."""

    name = "human"
    summary = "a person at the console: shows percepts and legal moves, reads a choice"
    particles = 4
    in_process = True

    def __init__(self, rng: random.Random | None = None, reasoner: str | None = None,
                 input: TextIO | None = None, output: TextIO | None = None):
        super().__init__(rng, reasoner)
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stderr
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._timed_out = False

    def _say(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def _read_lines(self) -> None:
        for line in self.input:
            self._lines.put(line)
        self._lines.put(None)

    def _next_line(self, deadline: float) -> str | None:
        """The next line typed before ``deadline`` (monotonic), or None (time up or input closed)."""
        if self._reader is None:
            self._reader = threading.Thread(target=self._read_lines, name="human-input", daemon=True)
            self._reader.start()
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)  # input closed: stays closed
        return line

    def start(self, view: StartView) -> None:
        """Say which role the person plays."""
        roles = " ".join(str(r) for r in view.match.roles)
        self._say(f"match {view.match.match_id}: you play {view.role} (roles: {roles}); "
                  f"{view.match.play_clock:g} s per move")

    def play(self, view: TurnView) -> Term:
        """Show the situation and read the person's choice."""
        if self._timed_out:  # lines typed after the last prompt gave up were meant for it
            self._timed_out = False
            while True:
                try:
                    if self._lines.get_nowait() is None:
                        self._lines.put(None)
                        break
                except queue.Empty:
                    break
        legal = view.legal_moves
        self._say(f"\nturn {view.turn} ({view.role})")
        if view.turn:
            self._say(f"you played {view.last_move}; you saw: {_percepts(view.last_percepts)}")
        if len(legal) == 1:
            self._say(f"your only legal move: {legal[0]}")
            return legal[0]
        self._say(f"time left: {view.deadline.remaining():.0f} s. Legal moves:")
        for i, move in enumerate(legal, 1):
            self._say(f"  {i:>3}  {move}")
        stop = view.deadline.at - 0.05
        while True:
            self.output.write("your move (number or text): ")
            self.output.flush()
            line = self._next_line(stop)
            if line is None:
                self._timed_out = True
                self._say("\n(no answer in time: a legal move is played for you)")
                return legal[self.rng.randrange(len(legal))]
            understood = _understand(line, legal)
            if isinstance(understood, str):
                self._say(understood)
                continue
            return understood

    def stop(self, view: TurnView) -> None:
        """Show the last percepts."""
        self._say(f"\nthe match is over; you played {view.last_move} and saw: {_percepts(view.last_percepts)}")

    def on_match_end(self, view: TurnView, goals: dict[Constant, float]) -> None:
        """Show the goals as far as the role can know them."""
        shown = ", ".join(f"{role} {value:g}" for role, value in goals.items())
        self._say(f"goals: {shown or 'unknown'}")

    def on_substitution(self, view: TurnView, answered: Term, played: Term) -> None:
        """Say that the manager played another move."""
        self._say(f"(the manager played {played} for you instead of {answered})")

    def abort(self, match: MatchInfo) -> None:
        """Say the match was cancelled."""
        self._say(f"\nmatch {match.match_id} was aborted")


def _percepts(percepts: frozenset[Term]) -> str:
    return " ".join(sorted(str(p) for p in percepts)) or "nothing"


def _understand(line: str, legal: tuple[Term, ...]) -> Term | str:
    """The move ``line`` names (a number from 1 or a move's text), or why it names none."""
    text = line.strip()
    if not text:
        return "type the number of a move, or the move itself"
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return f"{n} is not a move number: choose from 1 to {len(legal)}"
    try:
        move = parse_term(text)
    except (GGPError, ValueError) as exc:
        return f"cannot read {text!r} as a move: {exc}"
    if move in legal:
        return move
    return f"{move} is not a legal move now"
