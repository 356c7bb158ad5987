"""Integer arithmetic for the rules: one successor table for the game, addition defined from it,
and small tables for what is left.

GDL has no numbers, only constants. The integers a game uses (the hull of its cells' ranges,
the values it adds and the results) get one static table ``(succ X Y)``, ``Y = X + 1``, and
``(plus X Y Z)``, ``Z = X + Y``, is defined from it by recursion over ``Y``, for the addends the
game needs only::

    (<= (number ?x) (succ ?x ?y))              (<= (number ?y) (succ ?x ?y))
    (<= (plus ?x 0 ?x) (number ?x))
    (<= (plus ?x ?y ?z) (addend ?y) (succ ?w ?y) (plus ?x ?w ?v) (succ ?v ?z))

Every addition and subtraction of the rules reads ``plus`` (``x - y = z`` is ``(plus z y x)``);
where a result must stay within a cell's range, a relation restricts it, and a write outside
the range is a failure (``(failed overflow)``): ``(<= (plus_in_0_36 ?x ?y ?z) (plus ?x ?y ?z)
(between_0_36 ?z))``, with the range itself a chain of two rules. Grounding computes the same
rows an explicit table would list, so reasoning is as fast, and the file stays small.

Multiplication, division, remainders, powers, ``tri``/``fib`` and comparisons stay explicit
tables restricted to the operand ranges found by :mod:`~translators.recycle.analysis.ranges`
(they are rare and small); so does an addition whose recursion would ground more than
:data:`RECURSION_LIMIT` rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ggp.gdl.rules import Distinct, Not
from ggp.gdl.terms import Variable
from translators.recycle.analysis.integers import Interval, apply, holds
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.vocabulary import f, num, rule

#: At most this many rows in one explicit table (a bigger one stops the translation with an error).
TABLE_LIMIT = 200_000
#: At most this many rows of ``plus`` (integers x addends) are left to grounding.
RECURSION_LIMIT = 400_000

_WORDS = {"+": "plus", "-": "minus", "*": "times", "//": "div", "%": "mod", "^": "pow",
          "==": "eq", "!=": "ne", "<": "lt", ">": "gt", "<=": "le", ">=": "ge"}

X, Y, Z, W, V = (Variable(n) for n in ("x", "y", "z", "w", "v"))


class Tables:
    """Makes (once) and names the arithmetic relations the rules use; :meth:`finish` writes
    the successor table and ``plus`` for every integer and addend asked for."""

    def __init__(self, book: RuleBook):
        self.book = book
        self.made: dict[tuple[object, ...], str | None] = {}
        self.hull: Interval | None = None  # the integers of the successor table
        self.addends: Interval = (0, 0)  # the addends ``plus`` is defined for

    # -- the shared successor and addition ---------------------------------------------------

    def cover(self, *spans: Interval | None) -> None:
        """Take the values of ``spans`` into the successor table."""
        self._cover(*spans)

    def _cover(self, *spans: Interval | None) -> None:
        for span in spans:
            if span is not None and span[0] <= span[1]:
                self.hull = span if self.hull is None else (min(self.hull[0], span[0]), max(self.hull[1], span[1]))

    def _plus_reach(self, addend: Interval, *spans: Interval | None) -> tuple[Interval, Interval] | None:
        """The successor table's integers and ``plus``'s addends were it to serve an addition
        with addends in ``addend`` and values in ``spans``; None when the rows it would ground
        pass :data:`RECURSION_LIMIT`."""
        hull = self.hull
        for span in (addend, (0, 0), *spans):
            if span is not None and span[0] <= span[1]:
                hull = span if hull is None else (min(hull[0], span[0]), max(hull[1], span[1]))
        addends = (min(self.addends[0], addend[0]), max(self.addends[1], addend[1]))
        assert hull is not None
        return None if _size(hull) * _size(addends) > RECURSION_LIMIT else (hull, addends)

    def _recursive(self, addend: Interval, *spans: Interval | None) -> bool:
        """Whether ``plus`` can serve an addition (:meth:`_plus_reach`); if so, take it in."""
        reach = self._plus_reach(addend, *spans)
        if reach is None:
            return False
        self.hull, self.addends = reach
        return True

    def _between(self, out: Interval, label: str | None = None) -> str:
        """``(NAME z)``: ``out[0] <= z <= out[1]``, as a chain over ``succ`` (named after the
        cell ``label`` whose range it is, when given)."""
        key = ("between", out)
        if key not in self.made:
            name = f"{label}_range" if label and ("named", f"{label}_range") not in self.made \
                else f"between_{_n(out[0])}_{_n(out[1])}"
            self.made[("named", name)] = name
            self._cover(out)
            with self.book.group(f"integers from {out[0]} to {out[1]}"):
                self.book.add(rule(f(name, num(out[0]))))
                if out[1] > out[0]:
                    self.book.add(rule(f(name, Y), f(name, X), f("succ", X, Y), Distinct(X, num(out[1]))))
            self.made[key] = name
        known = self.made[key]
        assert known is not None
        return known

    def _via_plus(self, key: tuple[object, ...], name: str, head: Sequence[Variable], body_plus: tuple[object, ...],
                  out: Interval | None, comment: str, label: str | None = None) -> str:
        """A relation ``(name head...)`` holding where ``(plus body_plus...)`` does, with its
        result ``Z`` within ``out``."""
        if key not in self.made:
            body = [f("plus", *body_plus)]  # type: ignore[arg-type]
            if out is not None:
                body.append(f(self._between(out, label), Z))
            with self.book.group(comment):
                self.book.add(rule(f(name, *head), body))
            self.made[key] = name
        known = self.made[key]
        assert known is not None
        return known

    # -- what the rules ask for -----------------------------------------------------------------

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

    def fits(self, op: str, a: Interval, b: Interval, out: Interval | None = None) -> bool:
        """Whether :meth:`binary` can serve ``op`` over ``a`` x ``b`` (through ``plus``, or a
        table within :data:`TABLE_LIMIT` rows)."""
        if op in ("+", "-") and self._plus_reach(b, a, out if out is not None else _span(op, a, b)) is not None:
            return True
        return _size(a) * _size(b) <= TABLE_LIMIT

    def binary_of(self, op: str, xs: Sequence[int], ys: Sequence[int], out: Interval | None = None) -> str | None:
        """``(NAME x y z)`` for x in ``xs``, y in ``ys``, z = x op y (within ``out`` when given):
        the rows of the values the operands can take, where their intervals' table would be too
        large (``(+ (* 1000 A) B)``: A's three values, not the 2,001 integers from 0 to 2,000)."""
        self.book.over_budget(f"a table of {len(xs)} x {len(ys)} rows", len(xs) * len(ys), TABLE_LIMIT)
        rows = []
        for x in xs:
            for y in ys:
                z = apply(op, x, y)
                if z is not None and (out is None or out[0] <= z <= out[1]):
                    rows.append((x, y, z))
        return self._facts(("binset", op, tuple(xs), tuple(ys), out), _WORDS[op], rows, f"table: z = x {op} y")

    def binary(self, op: str, a: Interval, b: Interval, out: Interval | None = None, label: str | None = None) -> str | None:
        """``(NAME x y z)`` for x in a, y in b, z = x op y (z within ``out`` when given: the
        range of the cell ``label``, which names the relation)."""
        if op in ("+", "-") and self._recursive(b, a, out if out is not None else _span(op, a, b)):
            word = "add_to" if op == "+" else "take_from"
            where = "" if out is None else (f"_{label}" if label else f"_in_{_n(out[0])}_{_n(out[1])}")
            within = "" if out is None else f", within {out[0]}..{out[1]}"
            if op == "+":
                return self._via_plus(("plus", out), f"{word}{where}" if out else "plus", [X, Y, Z], (X, Y, Z), out,
                                      "z = x + y" + within, label)
            return self._via_plus(("minus", out), f"{word}{where}" if out else "minus", [X, Y, Z], (Z, Y, X), out,
                                  "z = x - y" + within, label)
        self.check(a, b)
        rows = []
        for x in range(a[0], a[1] + 1):
            for y in range(b[0], b[1] + 1):
                z = apply(op, x, y)
                if z is not None and (out is None or out[0] <= z <= out[1]):
                    rows.append((x, y, z))
        return self._facts(("bin", op, a, b, out), _WORDS[op], rows, f"table: z = x {op} y")

    def shift(self, op: str, k: int, a: Interval, out: Interval | None = None, left: bool = False,
              label: str | None = None) -> str | None:
        """``(NAME x z)`` for z = x op k (or k op x when ``left``), z within ``out`` (the range
        of the cell ``label``, which names the relation) when given."""
        word = f"{_WORDS[op]}_{'l' if left else ''}{_n(k)}"
        if label and out is not None and k == 1 and not left and op in ("+", "-"):
            word = "increase" if op == "+" else "decrease"
        where = "" if out is None else (f"_{label}" if label else f"_in_{_n(out[0])}_{_n(out[1])}")
        comment = (f"z = {k} {op} x" if left else f"z = x {op} {k}") + ("" if out is None else f", within {out[0]}..{out[1]}")
        kk = num(k)
        if op == "+" and self._recursive((k, k), a, out if out is not None else (a[0] + k, a[1] + k)):
            return self._via_plus(("shift", op, k, out, False), word + where, [X, Z], (X, kk, Z), out, comment, label)
        if op == "-" and not left and self._recursive((k, k), a, out if out is not None else (a[0] - k, a[1] - k)):
            return self._via_plus(("shift", op, k, out, False), word + where, [X, Z], (Z, kk, X), out, comment, label)
        if op == "-" and left and self._recursive(a, (k, k), out if out is not None else (k - a[1], k - a[0])):
            return self._via_plus(("shift", op, k, out, True), word + where, [X, Z], (Z, X, kk), out, comment, label)
        rows = []
        for x in range(a[0], a[1] + 1):
            z = apply(op, k, x) if left else apply(op, x, k)
            if z is not None and (out is None or out[0] <= z <= out[1]):
                rows.append((x, z))
        return self._facts(("shift", op, k, a, out, left), word, rows,
                           f"table: z = {k} {op} x" if left else f"table: z = x {op} {k}")

    def defined(self, table: str) -> str:
        """``(NAME x y)`` when the three-place ``table`` has a row for x and y (for overflow
        checks: no row means the result leaves its range)."""
        key = ("defined", table)
        if key not in self.made:
            name = f"{table}_ok"
            with self.book.group(f"{table} has a result for x and y"):
                self.book.add(rule(f(name, X, Y), f(table, X, Y, Z)))
            self.made[key] = name
        known = self.made[key]
        assert known is not None
        return known

    def domain(self, table: str) -> str:
        """``(NAME x)`` when the two-place ``table`` has a row for x."""
        key = ("domain", table)
        if key not in self.made:
            name = f"{table}_ok"
            with self.book.group(f"{table} has a result for x"):
                self.book.add(rule(f(name, X), f(table, X, Z)))
            self.made[key] = name
        known = self.made[key]
        assert known is not None
        return known

    def capped(self, a: Interval, b: Interval, cap: int) -> str | None:
        """``(NAME x y z)``: z = min(x + y, cap), for x in a, y in b."""
        key = ("capped", cap)
        # every call widens ``plus`` to its own addends and sums (above the cap too: the rule
        # saturates a sum it has computed), the relation made by the first too
        if self._recursive(b, a, (min(a[0] + b[0], cap), max(a[1] + b[1], cap))):
            if key not in self.made:
                name = f"plus_upto_{_n(cap)}"
                # one relation for every call: no lower bound taken from the first call's ranges
                with self.book.group(f"z = min(x + y, {cap})"):
                    self.book.add(rule(f(name, X, Y, Z), f("plus", X, Y, Z), Not(f(self._above(cap), Z))))
                    self.book.add(rule(f(name, X, Y, num(cap)), f("plus", X, Y, W), f(self._above(cap), W)))
                self.made[key] = name
            return self.made[key]
        self.check(a, b)
        rows = [(x, y, min(x + y, cap)) for x in range(a[0], a[1] + 1) for y in range(b[0], b[1] + 1)]
        return self._facts(("capadd", a, b, cap), "addcap", rows, f"table: z = min(x + y, {cap})")

    def capped_times(self, a: Interval, b: Interval, cap: int) -> str | None:
        """``(NAME x y z)``: z = min(x * y, cap), for x in a, y in b."""
        self.check(a, b)
        rows = [(x, y, min(x * y, cap)) for x in range(a[0], a[1] + 1) for y in range(b[0], b[1] + 1)]
        return self._facts(("captimes", a, b, cap), "timescap", rows, f"table: z = min(x * y, {cap})")

    def _above(self, k: int) -> str:
        """``(NAME z)``: z > k (within the successor table)."""
        key = ("above", k)
        if key not in self.made:
            name = f"above_{_n(k)}"
            with self.book.group(f"integers above {k}"):
                self.book.add(rule(f(name, Y), f("succ", num(k), Y)))
                self.book.add(rule(f(name, Y), f(name, X), f("succ", X, Y)))
            self.made[key] = name
        known = self.made[key]
        assert known is not None
        return known

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

    def test_of(self, what: str, fn: Callable[[int], int], op: str, k: int, a: Interval) -> str | None:
        """``(NAME x)`` for x in a with fn(x) op k (``what`` names fn)."""
        rows = [(x,) for x in range(a[0], a[1] + 1) if holds(op, fn(x), k)]
        word = f"{what}_{_WORDS[op]}{k}".replace("-", "m")
        return self._facts(("testof", what, op, k, a), word, rows, f"table: ({what} x) {op} {k}")

    def unary(self, what: str, fn: Callable[[int], int], a: Interval) -> str | None:
        """``(NAME x z)`` for z = fn(x)."""
        rows = [(x, fn(x)) for x in range(a[0], a[1] + 1)]
        return self._facts(("un", what, a), what, rows, f"table: z = ({what} x)")

    def keys(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """The tables whose names hold numbers, as a family and the numbers that tell its
        members apart (for :func:`~translators.recycle.rulebook.steps.fold_steps`):
        ``between_0_36`` is ``(between 0 36 ?z)``, ``ge22_1`` (x >= 22 for x in 0..52) is
        ``(ge 22 0 52 ?x)``, ``above_23`` is ``(above 23 ?z)``, ``plus_upto_23`` is
        ``(plus_upto 23 ?x ?y ?z)``."""
        out: dict[str, tuple[str, tuple[str, ...]]] = {}
        for key, name in self.made.items():
            if name is None:
                continue
            kind = key[0]
            if kind == "between" and isinstance(key[1], tuple):
                low, high = key[1]
                if name == f"between_{_n(low)}_{_n(high)}":
                    out[name] = ("between", (str(low), str(high)))
            elif kind == "test":
                _, op, k, (low, high) = key  # type: ignore[misc]
                out[name] = (_WORDS[str(op)], (str(k), str(low), str(high)))
            elif kind == "above":
                out[name] = ("above", (str(key[1]),))
            elif kind == "capped" and name.startswith("plus_upto_"):
                out[name] = ("plus_upto", (str(key[1]),))
        return out

    # -- the end ---------------------------------------------------------------------------------

    def finish(self) -> None:
        """Write ``succ`` over every integer asked for, ``number`` and ``plus`` (when used)."""
        if self.hull is None:
            return
        low, high = self.hull
        uses_plus = any(isinstance(k, tuple) and k and k[0] in ("plus", "minus", "shift", "capped") for k in self.made)
        with self.book.group(f"the integers from {low} to {high}, in order"):
            for value in range(low, high):
                self.book.add(rule(f("succ", num(value), num(value + 1))))
            if low == high:
                self.book.add(rule(f("number", num(low))))
            else:
                self.book.add(rule(f("number", X), f("succ", X, Y)))
                self.book.add(rule(f("number", Y), f("succ", X, Y)))
        if not uses_plus:
            return
        alow, ahigh = self.addends
        with self.book.group(f"z = x + y, for the addends y from {alow} to {ahigh}"):
            self.book.add(rule(f("plus", X, num(0), X), f("number", X)))
            if ahigh > 0:
                self.book.add(rule(f("plus", X, Y, Z), f("addend", Y), f("succ", W, Y), f("plus", X, W, V),
                                   f("succ", V, Z)))
                self.book.add(rule(f("addend", num(1))))
                if ahigh > 1:
                    self.book.add(rule(f("addend", Y), f("addend", X), f("succ", X, Y), Distinct(X, num(ahigh))))
            if alow < 0:
                self.book.add(rule(f("plus", X, Y, Z), f("subtrahend", Y), f("succ", Y, W), f("plus", X, W, V),
                                   f("succ", Z, V)))
                self.book.add(rule(f("subtrahend", num(-1))))
                if alow < -1:
                    self.book.add(rule(f("subtrahend", X), f("subtrahend", Y), f("succ", X, Y), Distinct(Y, num(alow))))


def _span(op: str, a: Interval, b: Interval) -> Interval:
    return (a[0] + b[0], a[1] + b[1]) if op == "+" else (a[0] - b[1], a[1] - b[0])


def _size(a: Interval) -> int:
    return max(a[1] - a[0] + 1, 0)


def _n(value: int) -> str:
    return f"m{-value}" if value < 0 else str(value)


__all__ = ["RECURSION_LIMIT", "TABLE_LIMIT", "Tables"]
