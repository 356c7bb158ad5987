"""Moves and percepts in words: the labels a person picks from, and what a step showed.

A move whose term reads well (``(mark 1 1)``, ``(draw c3)`` with the card's name) is shown as
its term in words. A translated choice, ``(choose K ...)``, says nothing of what it does, so
its label comes from its *effect*: the move is played in each state the viewer considers
possible, against the same moves of the others, and what it changes that the other legal moves
do not (a card moved, a value set) is put in words: Kuhn poker's ``(choose 0)`` reads ``check``.
Only the changes that hold in every state considered are used, so a label never tells more than
the viewer knows. Labels of one turn are distinct.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ggp.errors import GGPError
from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant, Function, Term, sort_key
from ggp.reasoner.machine import State, StateMachine
from ggp.view import scheme
from ggp.view.cards import words
from ggp.view.glossary import Glossary

NOOP = Constant("noop")
#: At most this many states are played through to label a role's moves.
STATES_FOR_LABELS = 6


def to_move(machine: StateMachine, state: State) -> tuple[Constant, ...]:
    """The roles other than ``random`` that choose in ``state``: more than one legal move, or
    one that is not ``noop``."""
    if machine.is_terminal(state):
        return ()
    out = []
    for role, legal in zip(machine.roles, machine.all_legal_moves(state)):
        if role != RANDOM and (len(legal) > 1 or (legal and legal[0] != NOOP)):
            out.append(role)
    return tuple(out)


@dataclass(frozen=True)
class _Effect:
    """One thing a move does: a card moved (``card`` None where the states disagree on it), a
    value stored, or another fact made true."""

    kind: str
    key: tuple[str, ...]
    card: Term | None = None
    term: Term | None = None


def _effects(before: State, after: State, common: frozenset[Term]) -> dict[tuple[str, tuple[str, ...]], _Effect]:
    """What ``after`` adds to ``before`` beyond ``common``, as effects by key."""
    where = {}
    for fluent in before.fluents:
        placed = scheme.card_place(fluent)
        if placed is not None and isinstance(fluent, Function) and fluent.name == scheme.AT:
            where[placed[0]] = placed[1]
    out: dict[tuple[str, tuple[str, ...]], _Effect] = {}
    for fluent in after.fluents - before.fluents - common:
        placed = scheme.card_place(fluent)
        if placed is not None:
            card, target = placed
            source = where.get(card)
            key = ("card", (str(source.term) if source else "", str(target.term)))
            effect = _Effect("card", key[1], card, target.term)
            if key in out and out[key].card != card:
                effect = _Effect("card", key[1], None, target.term)
            out[key] = effect
            continue
        stored = scheme.stored_values([fluent])
        if len(stored) == 1 and isinstance(fluent, Function) and fluent.name != scheme.WSTO:
            s = stored[0]
            kind = "number" if s.number else "string"
            out[(kind, (s.owner, s.name, s.value))] = _Effect(kind, (s.owner, s.name, s.value))
        elif not scheme.is_bookkeeping(fluent):
            out[("fact", (str(fluent),))] = _Effect("fact", (str(fluent),), term=fluent)
    return out


def move_labels(machine: StateMachine, glossary: Glossary, states: Sequence[State], role: Constant,
                moves: Sequence[Term] | None = None, *, others: Sequence[Term] | None = None,
                viewer: Constant | None = None) -> dict[Term, str]:
    """A distinct label for each of ``role``'s ``moves`` (default: its legal moves in the first
    state), from the ``states`` the viewer considers possible; ``others`` is the joint move whose
    other entries are held fixed (default: each other role's first legal move); ``viewer`` is
    addressed as "you"."""
    if not states:
        return {}
    you = str(viewer) if viewer is not None else None
    if moves is None:
        moves = machine.legal_moves(states[0], role)
    labels: dict[Term, str] = {}
    choices = [m for m in moves if scheme.is_choice(m)] if glossary.card_game else []
    for move in moves:
        if move not in choices:
            labels[move] = glossary.text(move, you)
    if choices:
        labels.update(_choice_labels(machine, glossary, states[:STATES_FOR_LABELS], role, choices, others, you))
    return _distinct(labels, glossary, you)


def _choice_labels(machine: StateMachine, glossary: Glossary, states: Sequence[State], role: Constant,
                   moves: Sequence[Term], others: Sequence[Term] | None, you: str | None) -> dict[Term, str]:
    index = machine.role_index(role)
    merged: dict[Term, dict[tuple[str, tuple[str, ...]], _Effect] | None] = {m: None for m in moves}
    for state in states:
        try:
            legal = machine.legal_moves(state, role)
            joint = list(others) if others is not None else [ms[0] if ms else NOOP for ms in machine.all_legal_moves(state)]
            afters = {}
            for move in legal:
                joint[index] = move
                afters[move] = machine.next_state(state, joint)
        except (GGPError, IndexError):
            continue
        if not afters:
            continue
        common = frozenset.intersection(*(a.fluents - state.fluents for a in afters.values()))
        for move in moves:
            if move not in afters:
                continue
            found = _effects(state, afters[move], common)
            seen = merged[move]
            if seen is None:
                merged[move] = found
                continue
            for key in list(seen):
                if key not in found:
                    del seen[key]
                elif seen[key].card != found[key].card:
                    seen[key] = _Effect("card", key[1], None, seen[key].term)
    return {move: _words(glossary, effects or {}, move, you) for move, effects in merged.items()}


def _words(glossary: Glossary, effects: Mapping[tuple[str, tuple[str, ...]], _Effect], move: Term,
           you: str | None) -> str:
    """The effects of a move in words (its term in words when it has none)."""
    cards, strings, numbers, facts = [], [], [], []
    for (kind, _), effect in sorted(effects.items()):
        if kind == "card" and effect.term is not None:
            target = scheme.location(effect.term)
            place = glossary.place(target, you) if target is not None else glossary.text(effect.term, you)
            name = glossary.text(effect.card, you) if effect.card is not None else "a card"
            cards.append(f"{name} → {place}")
        elif kind == "string":
            strings.append(words(effect.key[2]))
        elif kind == "number":
            numbers.append(f"{words(effect.key[1])} {effect.key[2]}")
        elif effect.term is not None:
            facts.append(glossary.text(effect.term, you))
    for part in (cards, list(dict.fromkeys(strings)), numbers, facts):
        if part:
            return ", ".join(part)
    return glossary.text(move, you)


def _distinct(labels: dict[Term, str], glossary: Glossary, you: str | None) -> dict[Term, str]:
    """``labels`` with each label shared by several moves followed by the move's term in words."""
    count: dict[str, int] = {}
    for label in labels.values():
        count[label] = count.get(label, 0) + 1
    out = {}
    for move, label in labels.items():
        out[move] = label if count[label] == 1 else f"{label} ({glossary.text(move, you)})"
    return dict(sorted(out.items(), key=lambda item: sort_key(item[0])))


def describe_percepts(glossary: Glossary, percepts: Iterable[Term], viewer: Constant | None = None) -> list[str]:
    """What ``percepts`` showed, in words, one line per thing seen (cards moved face down
    between the same places counted together)."""
    you = str(viewer) if viewer is not None else None
    hidden: dict[tuple[str, str], int] = {}
    lines: list[str] = []
    for percept in sorted(percepts, key=sort_key):
        moved = scheme.moved_percept(percept)
        if moved is not None:
            route = f"{glossary.place(moved.source, you)} → {glossary.place(moved.target, you)}"
            if moved.card is None:
                hidden[("", route)] = hidden.get(("", route), 0) + 1
            else:
                lines.append(f"{glossary.text(moved.card, you)}: {route}")
            continue
        mixed = scheme.shuffled(percept)
        if mixed is not None:
            lines.append(f"{glossary.place(mixed, you)} shuffled")
            continue
        if scheme.is_bookkeeping(percept):
            continue
        stored = scheme.stored_percept(percept)
        if stored is not None:
            owner = "" if stored.owner == scheme.GAME else ("your " if stored.owner == you else f"{stored.owner}'s ")
            lines.append(f"{owner}{words(stored.name)}: {words(stored.value)}")
            continue
        lines.append(glossary.text(percept, you))
    for (_, route), n in hidden.items():
        lines.append(f"{'a card' if n == 1 else f'{n} cards'} face down: {route}")
    return lines
