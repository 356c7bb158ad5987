"""``ggp match --watch``: each step printed as it happens, for a person at a terminal.

A step shows every role's move (the manager's substitute and why, when the player's answer
could not be used), the seconds each player took against the play clock, and what each role
saw (its percepts, as the game names them: cards, moves, scores). A card of a translated card
game, a constant ``X`` with a ``(card X)`` fact, is followed by the values of its ``(attr X KEY
VALUE)`` facts, e.g. ``c1[three red hearts]``, unless its name is made of those values (the
translator names cards so: ``three_hearts``). The end shows the status and the goals.
"""

from __future__ import annotations

import re
from typing import TextIO

from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Function
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord, Step


def card_names(description: GameDescription) -> dict[str, str]:
    """``{X: "X[V1 V2 ...]"}`` for every ``(card X)`` fact with ``(attr X KEY V)`` facts (values in
    the order of the rules), but for cards whose name already says their values
    (``three_hearts``)."""
    cards: list[str] = []
    values: dict[str, list[str]] = {}
    for rule in description.rules:
        head = rule.head
        if not rule.is_fact or not isinstance(head, Function) or not isinstance(head.args[0], Constant):
            continue
        if head.name == "card" and head.arity == 1:
            cards.append(head.args[0].name)
        elif head.name == "attr" and head.arity == 3:
            values.setdefault(head.args[0].name, []).append(str(head.args[2]))
    return {card: f"{card}[{' '.join(values[card])}]" for card in cards
            if card in values and not set(card.split("_")) <= set(values[card])}


class Watcher:
    """Prints the steps of one match to ``stream`` (see the module doc)."""

    def __init__(self, description: GameDescription, clocks: Clocks, stream: TextIO):
        self.description = description
        self.clocks = clocks
        self.stream = stream
        self._began = False
        self._cards = card_names(description)
        self._card = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, self._cards)) + r")(?![\w.-])") \
            if self._cards else None

    def _named(self, text: str) -> str:
        """``text`` with every card followed by what the game calls it."""
        if self._card is None:
            return text
        return self._card.sub(lambda m: self._cards[m.group(1)], text)

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
            line = f"  {role:<{width}}  {self._named(move)}"
            if role in substituted:
                sub = substituted[role]
                said = f" (answered {self._named(sub.reply)})" if sub.reply else ""
                line += f"   [played for it: {sub.reason}{said}: {sub.detail}]"
            if answer is not None:
                line += f"   {answer.seconds:.2f} s of {self.clocks.play:g} s"
            self._print(line)
        if not self.description.uses_sees:
            return
        for role, percepts in step.percepts.items():
            if role in record.players:
                seen = self._named(" ".join(percepts)) if percepts else "nothing"
                self._print(f"  {role:<{width}}  sees {seen}")

    def end(self, record: MatchRecord) -> None:
        """Print how the match ended."""
        if not self._began:
            self._header(record)
        goals = " ".join(f"{role}={value}" for role, value in record.goals.items()) or "none"
        self._print(f"{record.status} after {len(record.steps)} steps ({record.seconds:.1f} s); goals {goals}")
        for line in record.errors:
            self._print(f"  {line}")


__all__ = ["Watcher"]
