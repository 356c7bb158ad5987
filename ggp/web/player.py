"""``web``: a person plays from a browser page.

Each ``web`` player takes a desk (:mod:`ggp.web.desk`) on this process's desk server
(:mod:`ggp.web.desk_server`), whose address it prints on standard error when the desk is new:
the person opens it once and plays there, match after match. Each turn the page shows the table
as the role knows it (its belief: its own cards, the piles it can see, face-down counts for the
others), the log of its moves and what it saw, and, when the role has a choice, its legal moves
by their readable labels with the play clock counting down. When the time runs out a legal
move is played for the person (drawn with the player's ``rng``) and the page says which. A
turn with a single legal move is played at once. The player runs in the manager's process
(``in_process``), like ``human``.
"""

from __future__ import annotations

import random
import sys
import time

from ggp.gdl.terms import Constant, Term
from ggp.players.base import MatchInfo, Player, StartView, TurnView
from ggp.players.registry import register
from ggp.view.glossary import Glossary, glossary
from ggp.view.knowledge import Knowledge
from ggp.view.moves import describe_percepts, move_labels, to_move
from ggp.view.table import Table, build_table
from ggp.web import require_web

#: Seconds before the deadline at which a choice is no longer waited for.
MARGIN = 0.1
#: Seconds the player waits at the end of a match for the page to fetch the final table.
FAREWELL = 3.0
#: States of the belief played through to label the moves.
LABEL_STATES = 6


@register
class WebPlayer(Player):
    """A person at a browser page (see the module doc)."""

    name = "web"
    summary = "a person in a web browser: prints the address of a page showing the table and the moves"
    particles = 16
    in_process = True

    def __init__(self, rng: random.Random | None = None, reasoner: str | None = None):
        super().__init__(rng, reasoner)
        require_web()
        from ggp.web.desk_server import desk_server

        server = desk_server()
        self.desk, new = server.registry.claim(self)
        self.address = server.desk_url(self.desk)
        if new:
            print(f"web player: a person plays seat {self.desk.number} at {self.address}", file=sys.stderr, flush=True)
        self._glossary: Glossary | None = None
        self._labels: dict[Term, str] = {}
        self._late = False  # the last choice was made for the person

    # --- what the page shows --------------------------------------------------------------------

    def _table(self, view: TurnView, knowledge: Knowledge, goals: dict[Constant, int] | None = None) -> Table:
        assert self._glossary is not None
        distribution = view.belief.distribution()
        likely = max(distribution, key=lambda s: distribution[s])
        terminal = view.machine.is_terminal(likely) if goals is not None else False
        return build_table(self._glossary, knowledge, to_move=() if terminal else to_move(view.machine, likely),
                           terminal=terminal, goals=goals)

    def _note_last(self, view: TurnView) -> None:
        """Log the last turn: the move played and what it showed."""
        if not view.turn or self._glossary is None:
            return
        move = view.last_move
        seen = describe_percepts(self._glossary, view.last_percepts, view.role)
        if move is not None and move in self._labels and self._late:
            heading = f"turn {view.turn - 1}: time ran out; {self._labels[move]} was played for you"
        elif move is not None and move in self._labels:
            heading = f"turn {view.turn - 1}: you played {self._labels[move]}"
        else:
            heading = f"turn {view.turn - 1}"
        if seen or heading.count(":"):
            self.desk.note(heading, seen)
        self._labels = {}
        self._late = False

    # --- the events ---------------------------------------------------------------------------

    def start(self, view: StartView) -> None:
        """Show the table at the start."""
        from ggp.web.desk import WATCHING

        self._glossary = glossary(view.match.description)
        source = view.match.description.source
        game = source.rsplit("/", 1)[-1].rsplit(".", 1)[0] if source else "a match"
        initial = view.machine.initial_state()
        table = build_table(self._glossary, Knowledge(initial.fluents, view.role),
                            to_move=to_move(view.machine, initial))
        self.desk.show(WATCHING, match_id=view.match.match_id, role=str(view.role), game=game, turn=None,
                       table=table, log=[], goals={}, clock=view.match.play_clock, warning=False,
                       message=f"The match begins: you play {view.role}, {view.match.play_clock:g} s per move.")

    def play(self, view: TurnView) -> Term:
        """Show the table and wait for the person's choice (a legal move is played when the time is up)."""
        from ggp.web.desk import CHOOSING, WATCHING

        if self._glossary is None:
            self._glossary = glossary(view.match.description)
        self._note_last(view)
        legal = view.legal_moves
        table = self._table(view, Knowledge.of_belief(view.belief))
        if len(legal) == 1:
            self.desk.show(WATCHING, turn=view.turn, table=table, warning=False,
                           message="Waiting for the others to move.")
            return legal[0]
        distribution = view.belief.distribution()
        likely = sorted(distribution, key=lambda s: -distribution[s])[:LABEL_STATES]
        self._labels = move_labels(view.machine, self._glossary, likely, view.role, legal, viewer=view.role)
        until = view.deadline.at - MARGIN
        self.desk.show(CHOOSING, turn=view.turn, table=table, deadline=until, warning=False,
                       moves={str(m).lower(): (m, self._labels[m]) for m in legal}, message="")
        choice = self.desk.wait_choice(until)
        if choice is None or choice not in legal:
            choice = legal[self.rng.randrange(len(legal))]
            self._late = True
            self.desk.show(WATCHING, turn=view.turn, table=table, warning=True,
                           message=f"Time ran out: {self._labels[choice]} was played for you.")
        else:
            self.desk.show(WATCHING, turn=view.turn, table=table, warning=False,
                           message=f"You played {self._labels[choice]}. Waiting for the others.")
        return choice

    def on_substitution(self, view: TurnView, answered: Term, played: Term) -> None:
        """Say that the manager played another move."""
        if self._glossary is not None:
            self.desk.note(f"turn {view.turn - 1}: your answer came too late; the manager played "
                           f"{self._glossary.text(played, str(view.role))} for you", [])

    def stop(self, view: TurnView) -> None:
        """Log the last turn."""
        self._note_last(view)

    def on_match_end(self, view: TurnView, goals: dict[Constant, float]) -> None:
        """Show the final table and the goals, give the page a moment to fetch them, free the desk."""
        from ggp.web.desk import OVER

        whole = {role: round(value) for role, value in goals.items()}
        table = self._table(view, Knowledge.of_belief(view.belief), whole)
        mine = whole.get(view.role)
        shown = ", ".join(f"{'you' if r == view.role else r} {g}" for r, g in whole.items())
        self.desk.show(OVER, turn=None, table=table, goals={str(r): g for r, g in whole.items()}, warning=False,
                       message=f"The match is over: {shown or 'goals unknown'}."
                       + (f" You scored {mine}." if mine is not None else ""))
        until = min(time.monotonic() + FAREWELL, view.deadline.at - MARGIN)
        self.desk.wait_seen(self.desk.version, until)
        self._leave()

    def abort(self, match: MatchInfo) -> None:
        """Say the match was stopped, and free the desk."""
        from ggp.web.desk import OVER

        self.desk.show(OVER, turn=None, warning=True, message=f"The match {match.match_id} was aborted.")
        self._leave()

    def _leave(self) -> None:
        from ggp.web.desk_server import desk_server

        desk_server().registry.release(self.desk)
