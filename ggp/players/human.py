"""``human``: a person at the console chooses the moves.

Each turn it shows the role, the turn, what the role saw on the last transition in words, the
table as the role knows it (:mod:`ggp.view`: its hand, the piles it can see, face-down counts,
the scores; for games without cards, the facts it knows), the time left and the legal moves by
their readable labels, numbered; the person answers with a number, a label or the move's text
(case and spacing do not matter). A bad answer is explained and asked again, until the time is up; then
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
from ggp.view.glossary import Glossary, glossary
from ggp.view.knowledge import Knowledge
from ggp.view.moves import describe_percepts, move_labels, to_move
from ggp.view.table import build_table
from ggp.view.text import moves_text, table_text

#: States of the belief played through to label the moves.
LABEL_STATES = 6


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
        self._glossary: Glossary | None = None
        self._labels: dict[Term, str] = {}

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
        self._glossary = glossary(view.match.description)
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
        names = self._glossary or glossary(view.match.description)
        self._glossary = names
        self._say(f"\nturn {view.turn} ({view.role})")
        if view.turn:
            self._say(self._last_turn(view, names))
        if len(legal) == 1:  # nothing to decide: no table, no question
            return legal[0]
        distribution = view.belief.distribution()
        likely = sorted(distribution, key=lambda s: -distribution[s])[:LABEL_STATES]
        self._say(table_text(build_table(names, Knowledge.of_belief(view.belief),
                                         to_move=to_move(view.machine, likely[0]))))
        labels = move_labels(view.machine, names, likely, view.role, legal, viewer=view.role)
        self._labels = labels
        self._say(f"time left: {view.deadline.remaining():.0f} s. Your moves:")
        for entry in moves_text({m: labels[m] for m in legal}):
            self._say(entry)
        stop = view.deadline.at - 0.05
        while True:
            self.output.write("your move (number, name or text): ")
            self.output.flush()
            line = self._next_line(stop)
            if line is None:
                self._timed_out = True
                self._say("\n(no answer in time: a legal move is played for you)")
                return legal[self.rng.randrange(len(legal))]
            understood = _understand(line, legal, labels)
            if isinstance(understood, str):
                self._say(understood)
                continue
            return understood

    def stop(self, view: TurnView) -> None:
        """Show the last turn and the table at the end."""
        names = self._glossary or glossary(view.match.description)
        self._say(f"\nthe match is over. {self._last_turn(view, names)}")
        self._say(table_text(build_table(names, Knowledge.of_belief(view.belief))))

    def _last_turn(self, view: TurnView, names: Glossary) -> str:
        """The move played last turn and what it showed, in words."""
        move = view.last_move
        played = self._labels.get(move) if move is not None else None
        if played is None and move is not None and move != Constant("noop"):
            played = names.text(move, str(view.role))
        self._labels = {}
        seen = describe_percepts(names, view.last_percepts, view.role)
        return (f"you played {played}; " if played else "") + "you saw: " + ("; ".join(seen) if seen else "nothing")

    def on_match_end(self, view: TurnView, goals: dict[Constant, float]) -> None:
        """Show the goals as far as the role can know them."""
        shown = ", ".join(f"{role} {value:g}" for role, value in goals.items())
        self._say(f"goals: {shown or 'unknown'}")

    def on_substitution(self, view: TurnView, answered: Term, played: Term) -> None:
        """Say that the manager played another move."""
        names = self._glossary or glossary(view.match.description)
        you = str(view.role)
        self._say(f"(the manager played {names.text(played, you)} for you instead of {names.text(answered, you)})")

    def abort(self, match: MatchInfo) -> None:
        """Say the match was cancelled."""
        self._say(f"\nmatch {match.match_id} was aborted")


def _understand(line: str, legal: tuple[Term, ...], labels: dict[Term, str] | None = None) -> Term | str:
    """The move ``line`` names (a number from 1, a move's label or its text), or why it names none."""
    text = line.strip()
    if not text:
        return "type the number of a move, its name, or the move itself"
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return f"{n} is not a move number: choose from 1 to {len(legal)}"
    wanted = " ".join(text.lower().split())
    named = [m for m in legal if labels and " ".join(labels.get(m, "").lower().split()) == wanted]
    if len(named) == 1:
        return named[0]
    try:
        move = parse_term(text)
    except (GGPError, ValueError) as exc:
        return f"cannot read {text!r} as a move: {exc}"
    if move in legal:
        return move
    return f"{move} is not a legal move now"
