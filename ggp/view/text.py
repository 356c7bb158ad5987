"""A table as text, for a console: the ``human`` player and ``ggp match --watch``.

One block per area (the table's middle first, the viewer's own seat marked), each pile on one
line: its cards by name, then how many lie face down (and which cards they may be).
"""

from __future__ import annotations

from collections.abc import Mapping

from ggp.gdl.terms import Term
from ggp.view.table import Area, Pile, Table

#: At most this many possible cards are named for a face-down pile.
MAYBE_SHOWN = 6


def pile_text(pile: Pile) -> str:
    """One pile on one line: ``hand (seen by player0): Queen of hearts, King of spades``."""
    parts = [", ".join(card.name for card in pile.cards)] if pile.cards else []
    if pile.hidden:
        hidden = f"{pile.hidden} card{'s' if pile.hidden != 1 else ''} face down"
        if pile.maybe:
            named = ", ".join(f"{name} {p:.0%}" for name, p in pile.maybe[:MAYBE_SHOWN])
            more = ", ..." if len(pile.maybe) > MAYBE_SHOWN else ""
            hidden += f" (maybe {named}{more})"
        parts.append(hidden)
    return f"{pile.name} ({pile.seen_by}): {'; '.join(parts) if parts else 'empty'}"


def area_text(area: Area) -> list[str]:
    """The lines of one area."""
    title = f"{area.title} (you)" if area.you else area.title
    marks = []
    if area.to_move:
        marks.append("to move")
    if area.goal is not None:
        marks.append(f"goal {area.goal}")
    head = f"{title}" + (f"  [{', '.join(marks)}]" if marks else "")
    lines = [head]
    if area.values:
        lines.append("  " + ", ".join(f"{v.name} {v.value}" for v in area.values))
    lines.extend("  " + pile_text(pile) for pile in area.piles)
    return lines


def table_text(table: Table) -> str:
    """The whole table as text (see the module doc)."""
    lines: list[str] = []
    if table.card_game:
        for area in table.areas:
            if area.piles or area.values:
                lines.extend(area_text(area))
    else:
        for group in table.facts:
            rows = [" ".join(args) + ("" if p >= 1 else f" ({p:.0%})") for args, p in group.rows]
            lines.append(f"{group.relation}: " + "; ".join(rows))
        if table.to_move:
            lines.append("to move: " + ", ".join(table.to_move))
    if table.goals:
        lines.append("goals: " + ", ".join(f"{r} {g}" for r, g in table.goals.items()))
    return "\n".join(lines)


def moves_text(labels: Mapping[Term, str]) -> list[str]:
    """Numbered move labels, one per line (numbers from 1)."""
    return [f"  {i:>3}  {label}" for i, label in enumerate(labels.values(), 1)]
