"""Integer arithmetic as generated finite tables, restricted to the operand ranges needed.

GDL has no numbers, only constants; every operation the translated game does on integers is a
static relation listing its rows, e.g. ``(plus_3 4 2 6)``. Each table is made for the ranges
of its operands (found by :mod:`.ranges`), so a big range never meets another big range in one
table unless the program adds two such values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from translators.recycle.analysis.integers import Interval, apply, holds
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.vocabulary import f, num, rule

#: At most this many rows in one table (a bigger one stops the translation with an error).
TABLE_LIMIT = 200_000

_WORDS = {"+": "plus", "-": "minus", "*": "times", "//": "div", "%": "mod", "^": "pow",
          "==": "eq", "!=": "ne", "<": "lt", ">": "gt", "<=": "le", ">=": "ge"}


class Tables:
    """Makes (once) and names the static tables the rules use."""

    def __init__(self, book: RuleBook):
        self.book = book
        self.made: dict[tuple[object, ...], str | None] = {}

    def check(self, a: Interval, b: Interval = (0, 0)) -> None:
        """Stop with an error naming the construct when a table over ``a`` x ``b`` is too big."""
        self.book.over_budget(f"a table of {_size(a)} x {_size(b)} rows", _size(a) * _size(b), TABLE_LIMIT)

    def _facts(self, key: tuple[object, ...], prefix: str, rows: Sequence[tuple[int, ...]], comment: str) -> str | None:
        if key in self.made:
            return self.made[key]
        if not rows:
            self.made[key] = None
            return None
        name = self.book.name(prefix)
        with self.book.group(comment):
            for row in rows:
                self.book.add(rule(f(name, *[num(v) for v in row])))
        self.made[key] = name
        return name

    def binary(self, op: str, a: Interval, b: Interval, out: Interval | None = None) -> str | None:
        """``(NAME x y z)`` for x in a, y in b, z = x op y (z within ``out`` when given)."""
        self.check(a, b)
        rows = []
        for x in range(a[0], a[1] + 1):
            for y in range(b[0], b[1] + 1):
                z = apply(op, x, y)
                if z is not None and (out is None or out[0] <= z <= out[1]):
                    rows.append((x, y, z))
        return self._facts(("bin", op, a, b, out), _WORDS[op], rows, f"table: z = x {op} y")

    def shift(self, op: str, k: int, a: Interval, out: Interval | None = None, left: bool = False) -> str | None:
        """``(NAME x z)`` for z = x op k (or k op x when ``left``)."""
        rows = []
        for x in range(a[0], a[1] + 1):
            z = apply(op, k, x) if left else apply(op, x, k)
            if z is not None and (out is None or out[0] <= z <= out[1]):
                rows.append((x, z))
        word = f"{_WORDS[op]}_{'l' if left else ''}{k}".replace("-", "m")
        return self._facts(("shift", op, k, a, out, left), word, rows,
                           f"table: z = {k} {op} x" if left else f"table: z = x {op} {k}")

    def defined(self, op: str, a: Interval, b: Interval, out: Interval) -> str | None:
        """``(NAME x y)`` when x op y falls inside ``out`` (for overflow checks)."""
        self.check(a, b)
        rows = [(x, y) for x in range(a[0], a[1] + 1) for y in range(b[0], b[1] + 1)
                if (z := apply(op, x, y)) is not None and out[0] <= z <= out[1]]
        return self._facts(("def", op, a, b, out), f"{_WORDS[op]}ok", rows, f"table: x {op} y is in range")

    def compare(self, op: str, a: Interval, b: Interval) -> str | None:
        """``(NAME x y)`` for x in a, y in b with x op y."""
        self.check(a, b)
        rows = [(x, y) for x in range(a[0], a[1] + 1) for y in range(b[0], b[1] + 1) if holds(op, x, y)]
        return self._facts(("cmp", op, a, b), _WORDS[op], rows, f"table: x {op} y")

    def test(self, op: str, k: int, a: Interval) -> str | None:
        """``(NAME x)`` for x in a with x op k."""
        rows = [(x,) for x in range(a[0], a[1] + 1) if holds(op, x, k)]
        word = f"{_WORDS[op]}{k}".replace("-", "m")
        return self._facts(("test", op, k, a), word, rows, f"table: x {op} {k}")

    def unary(self, what: str, fn: Callable[[int], int], a: Interval) -> str | None:
        """``(NAME x z)`` for z = fn(x)."""
        rows = [(x, fn(x)) for x in range(a[0], a[1] + 1)]
        return self._facts(("un", what, a), what, rows, f"table: z = ({what} x)")


def _size(a: Interval) -> int:
    return max(a[1] - a[0] + 1, 0)


__all__ = ["TABLE_LIMIT", "Tables"]
