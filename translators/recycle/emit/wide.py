"""Wide integers: storage cells whose updates would need huge unary tables, kept in decimal.

Most integers are single constants (``(sto OWNER NAME 7)``) updated through tables. A cell
family whose range is large *and* that is incremented by a value of large range (a score
increased by the points of a trick, the gift of Comet) would need a table of range x range
rows; such a family is kept as ``K`` decimal digits, ``(wsto OWNER NAME POS DIGIT)``, of the
value plus an offset ``5 x 10^(K-1)`` (so negative values are digits too, and the digits order
like the values). An increment is a ripple-carry adder (one small table, ``dadd``, of 200 rows),
the delta in ten's complement (for a unary delta, one table row per value); a read converts the
digits back to one integer constant with a table of one row per value of the cell's range.
A ``set`` whose value leaves the cell's range, or an addition whose result leaves the range of
its digits, ends the game with ``(failed overflow)``.
"""

from __future__ import annotations

from ggp.errors import GGPError
from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Term, Variable
from translators.recycle.analysis.integers import Interval
from translators.recycle.emit.arith import TABLE_LIMIT
from translators.recycle.emit.literals import FALSE
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.vocabulary import Fresh, c, f, name, num, rule, true

#: At most this many rows in a table converting a wide cell's digits to one number.
VALUE_ROWS = 400_001


class WideRead(GGPError, ValueError):
    """A wide cell read as one number over more values than :data:`VALUE_ROWS` (the emitter
    turns it into a located error)."""


def digits_for(span: Interval) -> int:
    """How many decimal digits a family needs (values within +-5 x 10^(K-1))."""
    top = max(abs(span[0]), abs(span[1]), 1)
    k = 1
    while 5 * 10 ** (k - 1) <= top:
        k += 1
    return k


def encode(value: int, k: int) -> list[int]:
    """The digits (least significant first) of ``value`` plus the offset."""
    stored = value + 5 * 10 ** (k - 1)
    return [(stored // 10**i) % 10 for i in range(k)]


def complement(value: int, k: int) -> list[int]:
    """The digits (least significant first) of ``value`` in ten's complement."""
    stored = value % 10**k
    return [(stored // 10**i) % 10 for i in range(k)]


def digit_adder(book: RuleBook) -> str:
    """``(dadd A B CIN SUM COUT)``: one decimal digit of an addition (a table made once)."""
    if ("dadd",) not in book.memo:
        book.memo[("dadd",)] = True
        with book.group("table: one decimal digit of an addition (a + b + carry)"):
            for a in range(10):
                for b in range(10):
                    for cin in (0, 1):
                        total = a + b + cin
                        book.add(rule(f("dadd", num(a), num(b), num(cin), num(total % 10), num(total // 10))))
    return "dadd"


def digit_less(book: RuleBook) -> str:
    """``(dless A B)``: decimal digits, A < B (a table made once)."""
    if ("dless",) not in book.memo:
        book.memo[("dless",)] = True
        with book.group("table: one decimal digit below another"):
            for a in range(10):
                for b in range(a + 1, 10):
                    book.add(rule(f("dless", num(a), num(b))))
    return "dless"


class Wide:
    """Tables and rules for the wide cell families of one game."""

    def __init__(self, book: RuleBook, families: dict[tuple[str, str], Interval]):
        self.book = book
        self.families = families
        self.k = {fam: digits_for(span) for fam, span in families.items()}

    def is_wide(self, family: tuple[str, str]) -> bool:
        """Whether a family is kept in digits."""
        return family in self.families

    def dadd(self) -> str:
        """``(dadd A B CIN SUM COUT)``: one decimal digit of an addition."""
        return digit_adder(self.book)

    def value_table(self, family: tuple[str, str], span: Interval | None = None) -> str:
        """``(wval_F V D0 D1 ...)``: a value of the family's range (within ``span``, when given)
        and its stored digits; at most :data:`VALUE_ROWS` rows (a bigger one is an error)."""
        low, high = self.families[family]
        if span is not None:
            low, high = max(low, span[0]), min(high, span[1])
        key = ("wval", family, low, high)
        if key not in self.book.memo:
            if high - low + 1 > VALUE_ROWS:
                raise WideRead(f"reading ({family[0]} sto {family[1]}) as one number needs a table of "
                               f"{high - low + 1} values ({low} to {high}); at most {VALUE_ROWS} are supported "
                               "(comparisons with constants, increments and the scoring read its digits directly)")
            rel = self.book.name("wval")
            self.book.memo[key] = rel
            k = self.k[family]
            with self.book.group(f"table: the decimal digits of ({family[0]} sto {family[1]}) values {low} to {high}"):
                for v in range(low, high + 1):
                    self.book.add(rule(f(rel, num(v), *[num(d) for d in encode(v, k)])))
        table: str = self.book.memo[key]
        return table

    def compare_const(self, owner: Term, family: tuple[str, str], op: str, value: int) -> list[Literal]:
        """``(OWNER sto NAME) op value`` on the stored digits, most significant first (no table
        of the cell's values)."""
        k = self.k[family]
        limit = 5 * 10 ** (k - 1)
        if value >= limit:  # above every value the digits hold
            return [] if op in ("<", "<=", "!=") else [FALSE]
        if value < -limit:
            return [] if op in (">", ">=", "!=") else [FALSE]
        key = ("wcmp", family, value)
        if key not in self.book.memo:
            digits = encode(value, k)
            less, same = self.book.name("wbelow"), self.book.name("wequal")
            o, d = Variable("o"), Variable("d")
            dlt = self.digit_less()
            label = _name(family)
            with self.book.group(f"({family[0]} sto {family[1]}) against {value}, digit by digit"):
                top = k - 1
                self.book.add(rule(f(same, o, num(top)), true(f("wsto", o, label, num(top), num(digits[top])))))
                self.book.add(rule(f(less, o), true(f("wsto", o, label, num(top), d)), f(dlt, d, num(digits[top]))))
                for i in range(top - 1, -1, -1):
                    self.book.add(rule(f(same, o, num(i)), f(same, o, num(i + 1)),
                                       true(f("wsto", o, label, num(i), num(digits[i])))))
                    self.book.add(rule(f(less, o), f(same, o, num(i + 1)), true(f("wsto", o, label, num(i), d)),
                                       f(dlt, d, num(digits[i]))))
            self.book.memo[key] = (less, same)
        less, same = self.book.memo[key]
        below, equal = f(less, owner), f(same, owner, num(0))
        if op == "<":
            return [below]
        if op == ">=":
            return [Not(below)]
        if op == "==":
            return [equal]
        if op == "!=":
            return [Not(equal)]
        if op == ">":
            return [Not(below), Not(equal)]
        key = ("wle", family, value)
        if key not in self.book.memo:  # <=: below or equal
            rel = self.book.name("wupto")
            o = Variable("o")
            self.book.add(rule(f(rel, o), f(less, o)))
            self.book.add(rule(f(rel, o), f(same, o, num(0))))
            self.book.memo[key] = rel
        return [f(self.book.memo[key], owner)]

    def digit_less(self) -> str:
        """``(dless A B)``: decimal digits, A < B."""
        return digit_less(self.book)

    def delta_table(self, span: Interval, k: int, negate: bool) -> str:
        """``(wdelta_N V CARRY D0 D1 ...)``: a delta (negated for ``dec``) in ten's complement,
        with the final carry an addition of it must produce (1 for a negative delta)."""
        key = ("wdelta", span, k, negate)
        if key not in self.book.memo:
            # a row per value of the span: too many is told before they are made
            self.book.over_budget(f"a table of {span[1] - span[0] + 1} deltas", span[1] - span[0] + 1, TABLE_LIMIT)
            rel = self.book.name("wdelta")
            self.book.memo[key] = rel
            with self.book.group(f"table: deltas {span} in ten's complement{' (negated)' if negate else ''}"):
                for v in range(span[0], span[1] + 1):
                    d = -v if negate else v
                    self.book.add(rule(f(rel, num(v), num(1 if d < 0 else 0), *[num(x) for x in complement(d, k)])))
        table: str = self.book.memo[key]
        return table

    def init(self, family: tuple[str, str], owner: str) -> None:
        """Initial digits (value 0)."""
        for pos, digit in enumerate(encode(0, self.k[family])):
            self.book.add(rule(f("init", f("wsto", c(owner), _name(family), num(pos), num(digit)))))

    def read(self, owner: Term, family: tuple[str, str], fresh: Fresh) -> tuple[list[Literal], Term]:
        """A wide cell read as one integer constant."""
        k = self.k[family]
        v = fresh("n")
        ds = [fresh("d") for _ in range(k)]
        lits: list[Literal] = [f(self.value_table(family), v, *ds)]
        lits += [true(f("wsto", owner, _name(family), num(i), ds[i])) for i in range(k)]
        return lits, v

    def set(self, base: list[Literal], owner: Term, family: tuple[str, str], value_lits: list[Literal],
            value: Term, fresh: Fresh, span: Interval | None = None) -> list[tuple[str, list[Literal]]]:
        """Rules writing a unary value (within ``span``) into a wide cell; returns overflow conditions."""
        k = self.k[family]
        if not isinstance(value, Variable):
            written = int(value.name)
            low, high = self.families[family]
            if not low <= written <= high:
                return [("overflow", base + value_lits)]
            for i, digit in enumerate(encode(written, k)):
                self.book.add(rule(f("wstoset", owner, _name(family), num(i), num(digit)), base + value_lits))
            return []
        ds = [fresh("d") for _ in range(k)]
        table = self.value_table(family, span)
        conv = f(table, value, *ds)
        for i in range(k):
            self.book.add(rule(f("wstoset", owner, _name(family), num(i), ds[i]), base + value_lits + [conv]))
        fits = self.book.name("wfits")
        self.book.add(rule(f(fits, value) if isinstance(value, Variable) else c(fits), base + value_lits + [conv]))
        check = Not(f(fits, value)) if isinstance(value, Variable) else Not(c(fits))
        return [("overflow", base + value_lits + [check])]

    def add(self, base: list[Literal], owner: Term, family: tuple[str, str], delta: tuple[list[Literal], Term],
            span: Interval, negate: bool, fresh: Fresh, wide_delta: tuple[Term, tuple[str, str]] | None = None) -> list[tuple[str, list[Literal]]]:
        """An ``inc``/``dec``: a ripple-carry adder over the digits; returns overflow conditions."""
        k = self.k[family]
        label = _name(family)
        dadd = self.dadd()
        rel = self.book.name("wadd")
        o = Variable("o")
        a, b, ci, s, co = (Variable(x) for x in ("a", "b", "ci", "s", "co"))
        value_lits, value = delta
        ds = [fresh("d") for _ in range(k)]
        expect = fresh("x")
        if wide_delta is None:
            table = self.delta_table(span, k, negate)
            conv: list[Literal] = [f(table, value, expect, *ds)]
            init_carry = num(0)
        else:
            other_owner, other = wide_delta
            if self.k[other] != k:
                raise ValueError("wide additions need equal widths")
            conv = [true(f("wsto", other_owner, _name(other), num(i), ds[i])) for i in range(k)]
            top = ds[-1]
            flip = self.book.name("wflip")
            with self.book.group("table: offset digit to ten's complement digit, with the sign"):
                for d in range(10):
                    tc = (d + 5) % 10
                    digit = 9 - tc if negate else tc
                    carry = (1 if d >= 5 else 0) if negate else (1 if d < 5 else 0)
                    self.book.add(rule(f(flip, num(d), num(digit), num(carry))))
            top_tc = fresh("d")
            conv = conv + [f(flip, top, top_tc, expect)]
            ds = ds[:-1] + [top_tc]
            if negate:
                nine = self.book.name("wnine")
                for d in range(10):
                    self.book.add(rule(f(nine, num(d), num(9 - d))))
                comp = [fresh("d") for _ in range(k - 1)]
                conv = conv + [f(nine, ds[i], comp[i]) for i in range(k - 1)]
                ds = comp + [top_tc]
            init_carry = num(1 if negate else 0)
        for i in range(k):
            self.book.add(rule(f(f"{rel}_digit", owner, num(i), ds[i]), base + value_lits + conv))
        self.book.add(rule(f(f"{rel}_x", owner, expect), base + value_lits + conv))
        self.book.add(rule(f(f"{rel}_carry", owner, num(0), init_carry), base + value_lits + conv))
        for i in range(k):
            body: list[Literal] = [f(f"{rel}_carry", o, num(i), ci), true(f("wsto", o, label, num(i), a)),
                                   f(f"{rel}_digit", o, num(i), b), f(dadd, a, b, ci, s, co)]
            self.book.add(rule(f(f"{rel}_carry", o, num(i + 1), co), body))
            self.book.add(rule(f("wstoset", o, label, num(i), s), body))
        # a carry out of the top digit other than the one expected: out of the digits' range
        e = Variable("e")
        over: list[Literal] = [f(f"{rel}_carry", o, num(k), co), f(f"{rel}_x", o, e), Distinct(co, e)]
        return [("overflow", over)]


def _name(family: tuple[str, str]) -> Term:
    return name(family[1])


__all__ = ["VALUE_ROWS", "Wide", "WideRead", "complement", "digit_adder", "digit_less", "digits_for", "encode"]
