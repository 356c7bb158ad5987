"""Small groups of cards: the subsets and runs of a collection, and memory piles read in order.

- ``(subsets CARDS)`` and ``(runs largest|all N CARDS using P)`` are enumerated over *slots*:
  slot j holds the j-th member of CARDS in card-id order (``(slot_K J CARD)``); a group is a set
  of slots, so ``all`` over the groups unrolls statically (see :mod:`.lower`). Sums over a group
  extend the sum of the group without its last slot; whether a group is a run is one lookup in
  a table of the runs of each length. A collection with more members than slots makes the game
  end with ``(failed slots)``.
- A memory location keeps its copies' order: ``(cpos LOC CARD N)`` (the N-th copy remembered)
  and ``(ccount LOC N)``; ``(top K LOC)`` holds the copies from N - K up, and ``(run top N LOC
  using P)`` is the longest run formed by the top copies.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Term, Variable
from translators.recycle.emit.arith import FALSE
from translators.recycle.emit.expressions import CoreCompiler, Ctl, Val, substitute
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.lower import SLOTS
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import c, f, num, rule, true
from translators.recycle.syntax.nodes import CardLocation, Run, Slice
from translators.recycle.translation_error import TranslationError


class GroupMixin(CoreCompiler):
    """Slots, memory order, slices and runs for the compiler."""

    # -- slots ------------------------------------------------------------------------------------

    def slots(self, base: Any, env: Env, ctl: Ctl) -> tuple[str, str]:
        """Relations ``(NAME J CARD)`` (slot J holds CARD) and ``OVER`` (too many members)."""
        key = ("slots", base, env, self.ctl_key(base, env, ctl))
        if key not in self.book.memo:
            cards = self.domain_cards(base, env)
            rel = self.book.name("slot", base)
            m1, m2 = Variable("m1"), Variable("m2")
            with self.book.group(f"slots: the members of {describe(base)} in card-id order", base):
                for x in range(SLOTS + 2):
                    self.book.add(rule(f(f"{rel}_next", num(x), num(min(x + 1, SLOTS + 1)))))
                self.book.add(rule(f(f"{rel}_n0", num(0))))
                for i, cid in enumerate(cards, start=1):
                    lits = self.member(base, env, ctl, c(cid))
                    before = f(f"{rel}_n{i - 1}", m1)
                    self.book.add(rule(f(f"{rel}_n{i}", m2), [before] + lits + [f(f"{rel}_next", m1, m2)]))
                    self.book.add(rule(f(f"{rel}_n{i}", m1), [before] + self.negate(lits, env, base)))
                    self.book.add(rule(f(rel, m2, c(cid)), [before] + lits + [f(f"{rel}_next", m1, m2)]))
                self.book.add(rule(c(f"{rel}_over"), f(f"{rel}_n{len(cards)}", num(SLOTS + 1))))
            self.book.memo[key] = (rel, f"{rel}_over")
        made: tuple[str, str] = self.book.memo[key]
        return made

    def slot_values(self, base: Any, points: Any, env: Env, ctl: Ctl) -> str:
        """``(NAME J V)``: slot J holds a card worth V."""
        key = ("slotv", base, points, env, self.ctl_key(base, env, ctl))
        if key not in self.book.memo:
            rel, _ = self.slots(base, env, ctl)
            name = self.book.name("slotv", base)
            card = Variable("c")
            plits, pts = self.points(points, env, ctl, card)
            with self.book.group(f"slot values under {describe(points)}", base):
                self.book.add(rule(f(name, Variable("j"), pts), [f(rel, Variable("j"), card)] + plits))
            self.book.memo[key] = name
        made: str = self.book.memo[key]
        return made

    def slot_member(self, node: ir.SlotSet, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """A card is in a group of slots."""
        rel, _ = self.slots(node.base, env, ctl)
        alts: list[list[Literal]] = [[f(rel, num(j), card)] for j in node.slots]
        if len(alts) == 1:
            return alts[0]
        extra = [(card, "card")] if isinstance(card, Variable) else []
        ctl_part = self.ctl_key(node.base, env, ctl)
        return [self.aux("inslots", alts, env, node, extra=extra, key=("inslots", node, env, card if not extra else None, ctl_part))]

    def slot_sum(self, node: ir.SlotSet, points: Any, env: Env, ctl: Ctl) -> Val:
        """The points of a group of slots (extending the sum of the group without its last slot)."""
        values = self.slot_values(node.base, points, env, ctl)
        slots = node.slots
        key = ("slotsum", node.base, points, env, slots, self.ctl_key(node.base, env, ctl))
        if key not in self.book.memo:
            rel = self.book.name("slotsum")
            s, v, t = Variable("s"), Variable("v"), Variable("t")
            if len(slots) == 1:
                self.book.add(rule(f(rel, v), f(values, num(slots[0]), v)))
            else:
                parent = ir.SlotSet(node.base, slots[:-1])
                plits, pterm = self.slot_sum(parent, points, env, ctl)
                cards = self.domain_cards(node.base, env)
                top = max((max(self.card_values(points, env, cid)) for cid in cards), default=0)
                table = self.tables.binary("+", (0, top * (len(slots) - 1)), (0, top))
                assert isinstance(pterm, Variable) and table is not None  # a fresh variable; 0 + 0 is a row
                self.book.add(rule(f(rel, t), substitute(plits, pterm, s) + [f(values, num(slots[-1]), v), f(table, s, v, t)]))
            self.book.memo[key] = rel
        out = self.fresh("n")
        return [f(self.book.memo[key], out)], out

    def slot_check(self, node: ir.SlotCheck, env: Env, ctl: Ctl) -> list[Literal]:
        """``exist``, ``run`` or ``largest`` of a group of slots."""
        rel, over = self.slots(node.base, env, ctl)
        if ctl.batch is not None:
            self.emitter.failures.append(("slots", [f("at_step", c(ctl.batch)), c(over)]))
        if node.kind == "exist":
            out: list[Literal] = []
            for j in node.slots:
                atom = c(f"{rel}_filled{j}")
                if ("filled", rel, j) not in self.book.memo:
                    self.book.memo[("filled", rel, j)] = atom
                    self.book.add(rule(atom, f(rel, num(j), Variable("c"))))
                out.append(atom)
            return out
        if node.kind == "run":
            return [self.is_run(node, env, ctl)]
        lengths = [k for k in range(node.length + 1, SLOTS + 1)]
        return [self.has_run(node, node.length, env, ctl)] + [Not(self.has_run(node, k, env, ctl)) for k in lengths]

    def is_run(self, node: ir.SlotCheck, env: Env, ctl: Ctl) -> Literal:
        """The group's card values are consecutive and distinct."""
        values = self.slot_values(node.base, node.points, env, ctl)
        key = ("isrun", node.base, node.points, env, node.slots, self.ctl_key(node.base, env, ctl))
        if key not in self.book.memo:
            table = self.run_table(len(node.slots))
            rel = self.book.name("isrun")
            vs = [Variable(f"v{j}") for j in node.slots]
            body: list[Literal] = [*(f(values, num(j), v) for j, v in zip(node.slots, vs)), f(table, *vs)]
            self.book.add(rule(c(rel), body))
            self.book.memo[key] = c(rel)
        made: Literal = self.book.memo[key]
        return made

    def has_run(self, node: ir.SlotCheck, length: int, env: Env, ctl: Ctl) -> Literal:
        """Some group of ``length`` filled slots is a run."""
        from itertools import combinations

        key = ("hasrun", node.base, node.points, env, length, self.ctl_key(node.base, env, ctl))
        if key not in self.book.memo:
            rel = self.book.name("hasrun")
            for slots in combinations(range(1, SLOTS + 1), length):
                check = ir.SlotCheck("run", node.base, slots, node.points, length)
                self.book.add(rule(c(rel), [self.is_run(check, env, ctl)]))
            self.book.memo[key] = c(rel)
        made: Literal = self.book.memo[key]
        return made

    def run_table(self, length: int) -> str:
        """``(NAME V1 ... Vk)``: k values (1 to 13) that are k consecutive numbers in any order."""
        key = ("runtable", length)
        if key not in self.book.memo:
            rel = self.book.name("runof")
            with self.book.group(f"table: {length} consecutive values, in any order"):
                for low in range(1, 14 - length + 1):
                    for perm in permutations(range(low, low + length)):
                        self.book.add(rule(f(rel, *[num(x) for x in perm])))
            self.book.memo[key] = rel
        made: str = self.book.memo[key]
        return made

    # -- memory locations kept in order -------------------------------------------------------------

    def mem_top(self, loc: Any, env: Env, ctl: Ctl) -> Val:
        """The last copy remembered in a memory location."""
        lits, term = self.loc_term(loc, env, ctl)
        v = self.fresh("c")
        return lits + [f("ctop", term, v)], v

    def slice_member(self, node: Slice, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """A copy among the top K of a memory location."""
        real, real_env = deref(node.cards, env)
        k = self.constant_int(node.count, env)
        if node.end != "top" or k is None or not isinstance(real, CardLocation) or real.visibility != "mem":
            raise TranslationError(node, "only `(top N MEMORY)` slices are supported")
        lits, term = self.loc_term(real, real_env, ctl)
        d = self.fresh("n")
        table = self.tables.test("<", k, (0, len(self.model.cards)))
        return lits + [f("cdepth", term, card, d), f(table, d) if table else FALSE]

    def run_length(self, node: Run, env: Env, ctl: Ctl) -> Val:
        """``(size (run top N MEMORY using P))``: the longest run (at least N long) formed by the
        top copies, else 0."""
        real, real_env = deref(node.cards, env)
        least = self.constant_int(node.length, env)
        if node.end != "top" or least is None or not isinstance(real, CardLocation) or real.visibility != "mem":
            raise TranslationError(node, "only `(run top N MEMORY using P)` is supported")
        key = ("runlen", node, env, self.ctl_key(node, env, ctl))
        if key not in self.book.memo:
            lits, term = self.loc_term(real, real_env, ctl)
            rel = self.book.name("toprun", node)
            most = 13
            q, n, v = Variable("q"), Variable("n"), Variable("v")
            card = Variable("c")
            plits, pts = self.points(node.points, real_env, ctl, card)
            with self.book.group(f"the longest run at the top of {describe(real)}", node):
                # value of the i-th copy from the top
                for i in range(1, most + 1):
                    self.book.add(rule(f(f"{rel}_v{i}", v), lits + [true(f("ccount", term, n)), f("minus_count", n, num(i), q),
                                                                  true(f("cpos", term, card, q))]
                                       + (substitute(plits, pts, v) if isinstance(pts, Variable) else plits)))
                m1, m2, x = Variable("m1"), Variable("m2"), Variable("x")
                for a in range(1, 14):
                    for b in range(1, 14):
                        self.book.add(rule(f(f"{rel}_min", num(a), num(b), num(min(a, b)))))
                        self.book.add(rule(f(f"{rel}_max", num(a), num(b), num(max(a, b)))))
                        if b >= a:
                            self.book.add(rule(f(f"{rel}_span", num(a), num(b), num(b - a + 1))))
                for i in range(1, most + 1):
                    here = f(f"{rel}_v{i}", v)
                    if i == 1:
                        self.book.add(rule(f(f"{rel}_lo1", v), here))
                        self.book.add(rule(f(f"{rel}_hi1", v), here))
                        self.book.add(rule(f(f"{rel}_seen1", v), here))
                    else:
                        self.book.add(rule(f(f"{rel}_lo{i}", m2), f(f"{rel}_lo{i - 1}", m1), here, f(f"{rel}_min", m1, v, m2)))
                        self.book.add(rule(f(f"{rel}_hi{i}", m2), f(f"{rel}_hi{i - 1}", m1), here, f(f"{rel}_max", m1, v, m2)))
                        self.book.add(rule(f(f"{rel}_seen{i}", v), f(f"{rel}_seen{i - 1}", v)))
                        self.book.add(rule(f(f"{rel}_seen{i}", v), here))
                        self.book.add(rule(c(f"{rel}_dup{i}"), f(f"{rel}_seen{i - 1}", v), here))
                        self.book.add(rule(c(f"{rel}_dup{i}"), c(f"{rel}_dup{i - 1}")))
                    if i >= least:
                        self.book.add(rule(c(f"{rel}_ok{i}"), f(f"{rel}_lo{i}", m1), f(f"{rel}_hi{i}", m2),
                                           f(f"{rel}_span", m1, m2, num(i)), f(f"{rel}_v{i}", x),
                                           *([Not(c(f"{rel}_dup{i}"))] if i > 1 else [])))
                for i in range(least, most + 1):
                    longer: list[Literal] = [Not(c(f"{rel}_ok{j}")) for j in range(i + 1, most + 1)]
                    self.book.add(rule(f(rel, num(i)), [c(f"{rel}_ok{i}")] + longer))
                self.book.add(rule(f(rel, num(0)), [Not(c(f"{rel}_ok{i}")) for i in range(least, most + 1)]))
            self.minus_count()
            self.book.memo[key] = rel
        out = self.fresh("n")
        return [f(self.book.memo[key], out)], out

    def minus_count(self) -> None:
        """``(minus_count N I Q)``: Q = N - I, for positions."""
        if ("minus_count",) not in self.book.memo:
            self.book.memo[("minus_count",)] = True
            with self.book.group("table: q = n - i"):
                for n in range(1, 53):
                    for i in range(1, n + 1):
                        self.book.add(rule(f("minus_count", num(n), num(i), num(n - i))))


__all__ = ["GroupMixin"]
