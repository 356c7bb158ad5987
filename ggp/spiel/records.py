"""What a role has seen, step by step, and the information-state keys made from it.

A role's *record* of one GDL step is what the GDL-II semantics tell it: its own move and its
percepts (the ``sees`` terms, sorted), or, in a GDL game without ``sees``, the whole joint move.
Its information state is the sequence of its records, plus the legal moves it is offered when
it must choose. :class:`ObservationTrie` numbers the sequences met in a game tree and keeps each
one's text; :func:`information_key` spells the same text from a player's own view of a match,
so a policy learned on the tree (``cfr``) is looked up with what a player was told.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Union

from ggp.gdl.terms import Constant, Term, sort_key

#: One step as a role saw it: ``(own move, sorted percepts)`` in GDL-II, the joint move in GDL.
Record = Union[tuple[Term, tuple[Term, ...]], tuple[Term, ...]]

#: Separates the steps of an information-state key.
SEPARATOR = " | "


def seen_record(move: Term, percepts: Iterable[Term]) -> Record:
    """A GDL-II record: the role's move and its percepts in term order."""
    return (move, tuple(sorted(percepts, key=sort_key)))


def record_text(record: Record, sees: bool) -> str:
    """A record as text: ``MOVE: PERCEPT PERCEPT ...`` (GDL-II) or the joint move's moves."""
    if sees:
        move, percepts = record
        assert isinstance(percepts, tuple)
        return f"{move}: " + " ".join(str(p) for p in percepts) if percepts else f"{move}:"
    return " ".join(str(m) for m in record)


def legal_text(legal: Iterable[Term]) -> str:
    """The suffix a key gets where its role must choose: ``legal: M1 M2 ...``."""
    return "legal: " + " ".join(str(m) for m in legal)


def information_key(role: Constant, records: Sequence[Record], sees: bool,
                    legal: Sequence[Term] | None = None) -> str:
    """The information-state key of ``role`` after ``records``; with ``legal``, the key of its
    decision among those moves (the same text :class:`ObservationTrie` builds)."""
    text = str(role) + "".join(SEPARATOR + record_text(r, sees) for r in records)
    return text if legal is None else text + SEPARATOR + legal_text(legal)


class ObservationTrie:
    """Every record sequence of one role met so far, numbered from 0 (the empty sequence)."""

    __slots__ = ("_index", "lengths", "parents", "records", "role", "sees", "texts")

    def __init__(self, role: Constant, sees: bool):
        self.role = role
        self.sees = sees
        self._index: dict[tuple[int, Record], int] = {}
        self.parents: list[int] = [-1]
        self.records: list[Record | None] = [None]
        self.texts: list[str | None] = [str(role)]  # kept only for the sequences asked for
        self.lengths: list[int] = [0]

    def child(self, parent: int, record: Record) -> int:
        """The number of sequence ``parent`` followed by ``record`` (made on first use)."""
        key = (parent, record)
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.parents)
            self.parents.append(parent)
            self.records.append(record)
            self.texts.append(None)
            self.lengths.append(self.lengths[parent] + 1)
        return found

    def text(self, number: int) -> str:
        """The key of sequence ``number``: the role, then each record (see :func:`information_key`)."""
        found = self.texts[number]
        if found is None:
            chain = []
            ancestor = number
            while self.texts[ancestor] is None:
                chain.append(ancestor)
                ancestor = self.parents[ancestor]
            found = self.texts[ancestor]
            assert found is not None
            for step in reversed(chain):
                record = self.records[step]
                assert record is not None
                found = found + SEPARATOR + record_text(record, self.sees)
            self.texts[number] = found
        return found

    def sequence(self, number: int) -> list[Record]:
        """The records of sequence ``number``, first step first."""
        out: list[Record] = []
        while number > 0:
            record = self.records[number]
            assert record is not None
            out.append(record)
            number = self.parents[number]
        out.reverse()
        return out

    def __len__(self) -> int:
        return len(self.parents)
