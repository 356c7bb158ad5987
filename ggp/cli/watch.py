"""``ggp match --watch``: each step printed as it happens, for a person at a terminal.

A step shows every role's move (the manager's substitute and why, when the player's answer
could not be used), the seconds each player took against the play clock, and what each role
saw (its percepts, as the game names them: cards, moves, scores). The end shows the status and
the goals.
"""

from __future__ import annotations

from typing import TextIO

from ggp.gdl.rules import GameDescription
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord, Step


class Watcher:
    """Prints the steps of one match to ``stream`` (see the module doc)."""

    def __init__(self, description: GameDescription, clocks: Clocks, stream: TextIO):
        self.description = description
        self.clocks = clocks
        self.stream = stream
        self._began = False

    def _print(self, line: str = "") -> None:
        self.stream.write(line + "\n")
        self.stream.flush()

    def _header(self, record: MatchRecord) -> None:
        self._began = True
        self._print(f"match {record.match_id}: {record.game_source or 'rules'}")
        for role in record.roles:
            self._print(f"  {role}: {record.players.get(role, 'played by the manager')}")
        self._print(f"  clocks: start {self.clocks.start:g} s, play {self.clocks.play:g} s "
                    f"(+{self.clocks.slack:g} s slack), seed {record.seed}")

    def step(self, record: MatchRecord, step: Step) -> None:
        """Print ``step`` (the header before the first)."""
        if not self._began:
            self._header(record)
        self._print(f"turn {step.turn} ({step.seconds:.2f} s)")
        width = max(len(r) for r in record.roles)
        substituted = {s.role: s for s in step.substitutions}
        for role, move in zip(record.roles, step.joint_move):
            answer = step.answers.get(role)
            line = f"  {role:<{width}}  {move}"
            if role in substituted:
                sub = substituted[role]
                said = f" (answered {sub.reply})" if sub.reply else ""
                line += f"   [played for it: {sub.reason}{said}: {sub.detail}]"
            if answer is not None:
                line += f"   {answer.seconds:.2f} s of {self.clocks.play:g} s"
            self._print(line)
        if not self.description.uses_sees:
            return
        for role, percepts in step.percepts.items():
            if role in record.players:
                self._print(f"  {role:<{width}}  sees {' '.join(percepts) if percepts else 'nothing'}")

    def end(self, record: MatchRecord) -> None:
        """Print how the match ended."""
        if not self._began:
            self._header(record)
        goals = " ".join(f"{role}={value}" for role, value in record.goals.items()) or "none"
        self._print(f"{record.status} after {len(record.steps)} steps ({record.seconds:.1f} s); goals {goals}")
        for line in record.errors:
            self._print(f"  {line}")


__all__ = ["Watcher"]
