"""Integers as the game computes them: intervals, RECYCLE's operators and the sequences it names
(``tri``, ``fib``). Shared by the range analysis and the tables the rules use."""

from __future__ import annotations

import operator
from collections.abc import Callable

#: A closed interval of integers, (low, high).
Interval = tuple[int, int]

_BINARY: dict[str, Callable[[int, int], int | None]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": lambda a, b: a // b if b else None,
    "%": lambda a, b: a % b if b else None,
    "^": lambda a, b: a**b if b >= 0 and abs(a) ** b < 10**9 else None,
}
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
    "<=": operator.le, ">=": operator.ge,
}


#: A comparison with its sides swapped (``(< A B)`` is ``(> B A)``), and its negation.
FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
NEGATED = {"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "=="}


def apply(op: str, a: int, b: int) -> int | None:
    """``a op b`` (None when undefined, e.g. division by zero)."""
    return _BINARY[op](a, b)


def holds(op: str, a: int, b: int) -> bool:
    """Whether ``a op b`` for a comparison operator."""
    return _COMPARE[op](a, b)


def tri(n: int) -> int:
    """The n-th triangular number."""
    return n * (n + 1) // 2


def fib(n: int) -> int:
    """The n-th Fibonacci number (fib 0 = 0, fib 1 = 1)."""
    a, b = 0, 1
    for _ in range(max(n, 0)):
        a, b = b, a + b
    return a


__all__ = ["FLIPPED", "NEGATED", "Interval", "apply", "fib", "holds", "tri"]
