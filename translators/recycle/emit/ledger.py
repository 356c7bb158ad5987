"""What the rules of effects and the expression compiler tell each other while they are written.

- A value one step computes and a later step of the same block reads (a guard's outcome, a card
  of a parallel ``all``, the card an earlier effect moved or picked) is kept in a temporary
  fluent: :meth:`Ledger.need` records it, and :mod:`.effects` writes its keepers at the end.
- What ``random`` must choose in a step (a card drawn from a shuffled heap, a tie broken, a
  number), under which conditions.
- The failures to check (a value out of its range, too many members for the slots, the top of a
  pile whose order is not known), in a step or while control is resolved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ggp.gdl.rules import Literal
from ggp.gdl.terms import Function, Variable
from translators.recycle.emit.contexts import Ctl
from translators.recycle.symbols.vocabulary import c, f

#: What ``random`` chooses in a step: the kind of move (``draw``, ``pick``, ``num``), the
#: conditions of the step, the literals naming the candidates, the chosen value's variable.
ChanceUse = tuple[str, list[Literal], list[Literal], Variable]


@dataclass
class Temp:
    """A value kept from one batch to later ones of the same block."""

    fluent: Function
    anchor: str
    readers: set[str] = field(default_factory=set)
    #: For a card of a parallel ``all`` kept for later: (its domain, its binding).
    extra: Any = None


@dataclass
class Ledger:
    """The records (see the module doc)."""

    temps: dict[Any, Temp] = field(default_factory=dict)
    #: Per effect id: the relation of the cards it moved, and of the card it picked.
    moved: dict[int, str] = field(default_factory=dict)
    picks: dict[int, str] = field(default_factory=dict)
    #: Per batch id: what ``random`` chooses there.
    chance_uses: dict[str, list[ChanceUse]] = field(default_factory=dict)
    #: The conditions of the effect being written (a chance use inherits them).
    current_guards: list[Literal] = field(default_factory=list)
    #: (kind, body): the game fails when a body holds.
    failures: list[tuple[str, list[Literal]]] = field(default_factory=list)
    #: Per key of a control resolution (``SourceCtl.key``): (kind, body) of what fails while it
    #: is read; control adds the node the resolution is used from to each body.
    resolved_failures: dict[Any, list[tuple[str, list[Literal]]]] = field(default_factory=dict)
    #: (kind, body): the game fails in the state where a body holds (control is resolved in the
    #: state itself: a failure there ends the game at once, even where control reaches the end).
    failures_now: list[tuple[str, list[Literal]]] = field(default_factory=list)
    #: The groups a condition or a count reads that are made of fewer members than their
    #: collection can hold, by site: the collection and how many it can hold.
    short_groups: dict[tuple[int, int], tuple[Any, int]] = field(default_factory=dict)

    def fail_where_read(self, ctl: Ctl, kind: str, lits: list[Literal], in_batch: list[Literal]) -> None:
        """The game fails where ``lits`` hold as read under ``ctl``: in a step's effects, under
        ``in_batch``; in an option's legality, in the state of its decision, before a move is
        made; while control is resolved, where the resolution is used (:attr:`resolved_failures`);
        nowhere in the scoring."""
        if ctl.resolving:
            target, step = self.resolved_failures.setdefault(ctl.key, []), []
        elif ctl.batch is not None:
            target, step = self.failures, in_batch
        elif ctl.decision is not None:
            target, step = self.failures_now, [f("at_step", c(ctl.decision))]
        else:
            return
        failure = (kind, step + lits)
        if failure not in target:
            target.append(failure)

    def need(self, key: Any, fluent: Function, anchor: str, reader: str, extra: Any = None) -> None:
        """A temporary fluent written in batch ``anchor`` is read by batch ``reader``."""
        temp = self.temps.setdefault(key, Temp(fluent, anchor))
        temp.readers.add(reader)
        if extra is not None:
            temp.extra = extra

    def chance(self, batch: str | None, use: ChanceUse) -> None:
        """Batch ``batch`` needs ``random`` to choose (see :data:`ChanceUse`)."""
        self.chance_uses.setdefault(batch or "", []).append(use)


__all__ = ["ChanceUse", "Ledger", "Temp"]
