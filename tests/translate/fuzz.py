"""Seeded mutations of RECYCLE texts, and the pipeline they must get through (for
``test_fuzz.py``).

A mutant is the text with one edit at the level of its forms: a balanced subform deleted,
duplicated, swapped with another or put in another's place, a NAME or an integer replaced by
another from the same file (or an extreme integer), a word replaced by another word of the file,
or one parenthesis dropped or added (:func:`semantic_mutant`: an edit that keeps it a game,
for replays against the engine). :func:`outcome` runs parse -> check -> translate and says
how it ended: ``translated``, ``located`` (a project error with a file, line and column, which
``ggp translate`` prints as ``FILE:LINE:COL: message``), or raises whatever else escaped.
"""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ggp.errors import GGPError, InputError
from translators.recycle import check, parse_recycle
from translators.recycle.translate import compile_game

TOKEN = re.compile(r"(?P<comment>;[^\n]*)|(?P<space>[\s,]+)|(?P<open>\()|(?P<close>\))|(?P<atom>[^\s(),;]+)")
INTEGER = re.compile(r"-?\d+")
NAME = re.compile(r"[A-Z][A-Z0-9_]*")
WORD = re.compile(r"[a-z][a-z0-9_-]*")
#: Integers tried beside the file's own: zero, negatives, one past a deck, a huge range.
EXTREMES = ("0", "-1", "1", "53", "10000000")


@dataclass(frozen=True)
class Token:
    """An atom or a parenthesis of the text, at ``start`` (its matching parenthesis for
    parentheses, once matched)."""

    kind: str
    text: str
    start: int

    @property
    def end(self) -> int:
        """Where the token ends in the text."""
        return self.start + len(self.text)


def tokens(text: str) -> list[Token]:
    """The atoms and parentheses of ``text`` (comments, spaces and commas skipped)."""
    out = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup or "atom"
        if kind not in ("comment", "space"):
            out.append(Token(kind, m.group(), m.start()))
    return out


def forms(toks: list[Token]) -> list[tuple[int, int]]:
    """The (start, end) text spans of the balanced parenthesised forms."""
    spans, stack = [], []
    for t in toks:
        if t.kind == "open":
            stack.append(t.start)
        elif t.kind == "close" and stack:
            spans.append((stack.pop(), t.end))
    return spans


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One mutant of ``text`` and a short description of the edit."""
    toks = tokens(text)
    spans = forms(toks)[:-1] or forms(toks)  # not the whole game
    atoms = [t for t in toks if t.kind == "atom"]
    names = [t for t in atoms if NAME.fullmatch(t.text)]
    integers = [t for t in atoms if INTEGER.fullmatch(t.text)]
    words = [t for t in atoms if WORD.fullmatch(t.text)]
    parens = [t for t in toks if t.kind in ("open", "close")]

    def replace(start: int, end: int, new: str) -> str:
        return text[:start] + new + text[end:]

    def delete() -> tuple[str, str]:
        a, b = rng.choice(spans)
        return replace(a, b, ""), f"delete {text[a:b][:40]!r}"

    def duplicate() -> tuple[str, str]:
        a, b = rng.choice(spans)
        return replace(b, b, " " + text[a:b]), f"duplicate {text[a:b][:40]!r}"

    def transplant() -> tuple[str, str]:
        (a, b), (c, d) = rng.choice(spans), rng.choice(spans)
        return replace(a, b, text[c:d]), f"put {text[c:d][:40]!r} in place of {text[a:b][:40]!r}"

    def swap() -> tuple[str, str]:
        (a, b), (c, d) = sorted((rng.choice(spans), rng.choice(spans)))
        if c < b:  # overlapping: one inside the other
            return transplant()
        return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:], f"swap {text[a:b][:30]!r} and {text[c:d][:30]!r}"

    def atom(pool: list[Token], extra: tuple[str, ...] = ()) -> tuple[str, str]:
        if not pool:
            return delete()
        t = rng.choice(pool)
        new = rng.choice([p.text for p in pool] + list(extra))
        return replace(t.start, t.end, new), f"{t.text!r} -> {new!r} at {t.start}"

    def paren() -> tuple[str, str]:
        t = rng.choice(parens)
        if rng.random() < 0.5:
            return replace(t.start, t.end, ""), f"drop {t.text!r} at {t.start}"
        return replace(t.start, t.start, t.text), f"double {t.text!r} at {t.start}"

    edits: list[Callable[[], tuple[str, str]]] = [
        delete, duplicate, swap, transplant, lambda: atom(names), lambda: atom(integers, EXTREMES),
        lambda: atom(words), paren]
    return rng.choice(edits)()


#: Words a semantic mutant swaps for another of their group: the mutant is most often a valid
#: game of its own, to be played by the engine and the translation alike.
SWAPS = (("top", "bottom"), ("vloc", "hloc", "iloc"), ("any", "all"), ("max", "min"), ("<", ">", "<=", ">="),
         ("==", "!="), ("next", "previous", "current"), ("and", "or"), ("+", "-", "*"), ("largest", "all"))


def semantic_mutant(text: str, seed: int) -> tuple[str, str]:
    """``text`` with one edit that keeps it a game (``random.Random(seed)``): a word swapped for
    another of its group (:data:`SWAPS`), a NAME for another NAME of the text, or an integer
    moved by -1, 1 or 2; and a description of the edit."""
    rng = random.Random(seed)
    atoms = [t for t in tokens(text) if t.kind == "atom"]
    kind = rng.choice(["swap", "swap", "swap", "name", "int"])
    pool = [(t, group) for t in atoms for group in SWAPS if t.text in group] if kind == "swap" else []
    if pool:
        t, group = rng.choice(pool)
        new = rng.choice([word for word in group if word != t.text])
    else:
        names = [t for t in atoms if (NAME if kind == "name" else INTEGER).fullmatch(t.text)]
        if not names:
            return text, "none"
        t = rng.choice(names)
        if kind == "name":
            new = rng.choice([n.text for n in names if n.text != t.text] or [t.text])
        else:
            new = str(max(0, int(t.text) + rng.choice([-1, 1, 2])))
    line = text.count("\n", 0, t.start) + 1
    return text[:t.start] + new + text[t.end:], f"{t.text!r} -> {new!r} at line {line}"


def mutants(text: str, seed: int, count: int) -> Iterator[tuple[int, str, str]]:
    """``count`` mutants of ``text``: (seed, mutant, edit); mutant ``i`` is drawn from
    ``random.Random(seed + i)``, one or (a quarter of the time) two edits."""
    for i in range(count):
        rng = random.Random(seed + i)
        mutant, edit = mutate(text, rng)
        if rng.random() < 0.25:
            mutant, second = mutate(mutant, rng)
            edit += "; " + second
        yield seed + i, mutant, edit


class Hang(Exception):
    """An input took longer than its budget."""


@contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread when the block runs longer than ``seconds``."""

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"over {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def outcome(text: str, source: str = "mutant.rcy") -> str:
    """``translated`` or ``located`` (see the module doc); any other exception propagates, and
    a project error without a location raises ``AssertionError``."""
    try:
        game = parse_recycle(text, source)
        if any(p.is_error for p in check(game)):
            return "located"  # check's problems are Problems: located by construction
        compile_game(game)
        return "translated"
    except InputError as exc:
        assert exc.location is not None and exc.location.line >= 1, f"no location: {exc!r}"
        return "located"
    except GGPError as exc:
        raise AssertionError(f"a project error that is not an input error: {exc!r}") from exc


__all__ = ["SWAPS", "Hang", "budget", "forms", "mutants", "mutate", "outcome", "semantic_mutant", "tokens"]
