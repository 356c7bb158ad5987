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

from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Term, Variable
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.places import concrete
from translators.recycle.analysis.rooms import short_site, site_room
from translators.recycle.emit.cardsets import order_read, pile_depths
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.literals import FALSE, substitute
from translators.recycle.emit.protocol import Compiler
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.groups import Member, Room, group_members, group_site
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.rulebook.book import describe
from translators.recycle.symbols.vocabulary import c, card_constant, f, num, rule, true
from translators.recycle.syntax.nodes import (
    CardLocation,
    Run,
    Runs,
    Slice,
    Subsets,
    Tuples,
)
from translators.recycle.translation_error import TranslationError

#: Up to this many cards, whether a group is a run is one lookup in a table of the runs' orders.
PERMUTED = 5


def groups_of(cx: Compiler, coll: Any, env: Env) -> list[Member] | None:
    """The groups of ``subsets``, ``runs`` or ``tuples`` (or a filter of them) as the elements
    of a condition's ``any``/``all`` or of a count (:func:`.groups.group_members`), over as many
    slots as the collection can hold (one per value for runs whose cards score apart; or the
    card sets a filter can pick: ``analysis/rooms.py``); None for another collection."""
    def room_of(real: Subsets | Runs | Tuples, real_env: Env, picker: ir.Picker | None) -> Room:
        use: list[ir.GroupUse] = [(real, real_env, picker)]
        most = short_site(use, cx.ranges)
        if most is not None:
            cx.ledger.short_groups[group_site(real)] = (real, most)
        return site_room(use, cx.ranges)

    return group_members(cx.model, coll, env, room_of)


def layout(node: ir.SlotSet | ir.SlotCheck) -> tuple[Any, int] | None:
    """How a group's slots hold the collection's members: by point value (the points, the
    value of slot 1), or None: in card-id order."""
    return None if node.low is None else (node.points, node.low)


def slots(cx: Compiler, base: Any, env: Env, ctl: Ctl, room: int,
          by: tuple[Any, int] | None = None) -> tuple[str, str | None]:
    """Relations ``(NAME J CARD)`` (slot J of ``room`` holds CARD) and ``OVER`` (too many members;
    None over valued slots, ``by`` points from a value, which never overflow)."""
    key = ("slots", base, env, room, by, cx.ctl_key(base, env, ctl))
    if key not in cx.book.memo:
        cards = cx.domain_cards(base, env)
        rel = cx.book.name("slot", base)
        if by is not None:
            points, low = by
            with cx.book.group(f"slots: the members of {describe(base)} by their value under {describe(points)}", base):
                for cid in cards:
                    (value,) = cx.pointmaps.card_values(points, env, cid)
                    lits = cx.member(base, env, ctl, card_constant(cx.model, cid))
                    cx.book.add(rule(f(rel, num(value - low + 1), card_constant(cx.model, cid)), lits))
            cx.book.memo[key] = (rel, None)
        else:
            m1, m2 = Variable("m1"), Variable("m2")
            with cx.book.group(f"slots: the members of {describe(base)} in card-id order", base):
                for x in range(room + 2):
                    cx.book.add(rule(f(f"{rel}_next", num(x), num(min(x + 1, room + 1)))))
                cx.book.add(rule(f(f"{rel}_n0", num(0))))
                for i, cid in enumerate(cards, start=1):
                    lits = cx.member(base, env, ctl, card_constant(cx.model, cid))
                    before = f(f"{rel}_n{i - 1}", m1)
                    cx.book.add(rule(f(f"{rel}_n{i}", m2), [before] + lits + [f(f"{rel}_next", m1, m2)]))
                    cx.book.add(rule(f(f"{rel}_n{i}", m1), [before] + cx.negate(lits, env, base)))
                    cx.book.add(rule(f(rel, m2, card_constant(cx.model, cid)), [before] + lits + [f(f"{rel}_next", m1, m2)]))
                cx.book.add(rule(c(f"{rel}_over"), f(f"{rel}_n{len(cards)}", num(room + 1))))
            cx.book.memo[key] = (rel, f"{rel}_over")
    made: tuple[str, str | None] = cx.book.memo[key]
    return made


def slot_values(cx: Compiler, base: Any, points: Any, env: Env, ctl: Ctl, room: int,
                by: tuple[Any, int] | None = None) -> str:
    """``(NAME J V)``: slot J holds a card worth V."""
    key = ("slotv", base, points, env, room, by, cx.ctl_key(base, env, ctl))
    if key not in cx.book.memo:
        rel, _ = slots(cx, base, env, ctl, room, by)
        name = cx.book.name("slotv", base)
        card = Variable("c")
        plits, pts = cx.points(points, env, ctl, card)
        with cx.book.group(f"slot values under {describe(points)}", base):
            cx.book.add(rule(f(name, Variable("j"), pts), [f(rel, Variable("j"), card)] + plits))
        cx.book.memo[key] = name
    made: str = cx.book.memo[key]
    return made


def slot_member(cx: Compiler, node: ir.SlotSet, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
    """A card is in a group of slots."""
    rel, _ = slots(cx, node.base, env, ctl, node.room, layout(node))
    alts: list[list[Literal]] = [[f(rel, num(j), card)] for j in node.slots]
    if len(alts) == 1:
        return alts[0]
    extra = [(card, "card")] if isinstance(card, Variable) else []
    ctl_part = cx.ctl_key(node.base, env, ctl)
    return [cx.aux("inslots", alts, env, node, extra=extra, key=("inslots", node, env, card if not extra else None, ctl_part))]


def slot_sum(cx: Compiler, node: ir.SlotSet, points: Any, env: Env, ctl: Ctl) -> Val:
    """The points of a group of slots (extending the sum of the group without its last slot)."""
    chosen = node.slots
    if not chosen:  # the empty subset
        return [], num(0)
    values = slot_values(cx, node.base, points, env, ctl, node.room, layout(node))
    key = ("slotsum", node.base, points, env, chosen, node.room, layout(node), cx.ctl_key(node.base, env, ctl))
    if key not in cx.book.memo:
        rel = cx.book.name("slotsum")
        s, v, t = Variable("s"), Variable("v"), Variable("t")
        if len(chosen) == 1:
            cx.book.add(rule(f(rel, v), f(values, num(chosen[0]), v)))
        else:
            parent = ir.SlotSet(node.base, chosen[:-1], node.room, node.points, node.low)
            plits, pterm = slot_sum(cx, parent, points, env, ctl)
            cards = cx.domain_cards(node.base, env)
            top = max((max(cx.pointmaps.card_values(points, env, cid)) for cid in cards), default=0)
            table = cx.tables.binary("+", (0, top * (len(chosen) - 1)), (0, top))
            assert isinstance(pterm, Variable) and table is not None  # a fresh variable; 0 + 0 is a row
            cx.book.add(rule(f(rel, t), substitute(plits, pterm, s) + [f(values, num(chosen[-1]), v), f(table, s, v, t)]))
        cx.book.memo[key] = rel
    out = cx.fresh("n")
    return [f(cx.book.memo[key], out)], out


def slot_check(cx: Compiler, node: ir.SlotCheck, env: Env, ctl: Ctl) -> list[Literal]:
    """``exist``, ``vacant``, ``run`` or ``largest`` of a group of slots."""
    rel, over = slots(cx, node.base, env, ctl, node.room, layout(node))
    if over is not None:
        cx.ledger.fail_where_read(ctl, "slots", [c(over)], [f("at_step", c(ctl.batch or ""))])
    if node.kind == "exist":
        return [filled(cx, rel, j) for j in node.slots]
    if node.kind == "vacant":
        return [Not(filled(cx, rel, j)) for j in node.slots]
    if node.kind == "run":
        return [is_run(cx, node, env, ctl)]
    return [is_run(cx, node, env, ctl, largest=True)]


def filled(cx: Compiler, rel: str, j: int) -> Literal:
    """Slot J of the slots ``rel`` holds a card."""
    atom = c(f"{rel}_filled{j}")
    if ("filled", rel, j) not in cx.book.memo:
        cx.book.memo[("filled", rel, j)] = atom
        cx.book.add(rule(atom, f(rel, num(j), Variable("c"))))
    return atom


def is_run(cx: Compiler, node: ir.SlotCheck, env: Env, ctl: Ctl, largest: bool = False) -> Literal:
    """The group's card values are consecutive and distinct; ``largest``: and no member of the
    collection is worth one less than the least or one more than the most, a stretch the
    engine's sorted walk (``runs largest``) closes at a gap at both ends."""
    values = slot_values(cx, node.base, node.points, env, ctl, node.room)
    key = ("isrun", node.base, node.points, env, node.slots, node.room, largest, cx.ctl_key(node.base, env, ctl))
    if key not in cx.book.memo:
        span = value_span(cx, node.base, node.points, env)
        rel = cx.book.name("largestrun" if largest else "isrun")
        vs = [Variable(f"v{j}") for j in node.slots]
        read: list[Literal] = [f(values, num(j), v) for j, v in zip(node.slots, vs)]
        below, above = Variable("b"), Variable("a")
        outside: list[Literal] = []
        if largest:
            held = held_values(cx, node.base, node.points, env, ctl, node.room)
            outside = [Not(f(held, below)), Not(f(held, above))]
        k = len(node.slots)
        if k <= PERMUTED:
            table = run_table(cx, k, span, ends=largest)
            cx.book.add(rule(c(rel), read + [f(table, *vs, *([below, above] if largest else []))] + outside))
        else:  # one rule for each slot that may hold the least value; the others above it, distinct
            window, ends = window_table(cx, k, span)
            for least in vs:
                others = [v for v in vs if v is not least]
                body = read + [f(window, least, v) for v in others]
                body += [Distinct(a, b) for i, a in enumerate(others) for b in others[i + 1:]]
                cx.book.add(rule(c(rel), body + ([f(ends, least, below, above)] + outside if largest else [])))
        cx.book.memo[key] = c(rel)
    made: Literal = cx.book.memo[key]
    return made


def held_values(cx: Compiler, base: Any, points: Any, env: Env, ctl: Ctl, room: int) -> str:
    """``(NAME V)``: a member of the collection is worth V."""
    values = slot_values(cx, base, points, env, ctl, room)
    key = ("heldv", values)
    if key not in cx.book.memo:
        rel = cx.book.name("held")
        cx.book.add(rule(f(rel, Variable("v")), f(values, Variable("j"), Variable("v"))))
        cx.book.memo[key] = rel
    made: str = cx.book.memo[key]
    return made


def value_span(cx: Compiler, base: Any, points: Any, env: Env) -> tuple[int, int]:
    """The least and the most points the collection's cards can be worth (1..13 when unknown)."""
    values = {v for cid in cx.domain_cards(base, env) for v in cx.pointmaps.card_values(points, env, cid)}
    return (min(values), max(values)) if values else (1, 13)


def window_table(cx: Compiler, length: int, span: tuple[int, int]) -> tuple[str, str]:
    """``(NAME LO V)``: V is one of the ``length - 1`` values above LO in a run of ``length``
    starting at LO, within ``span``; and ``(ENDS LO BELOW ABOVE)``: the values just outside it."""
    key = ("window", length, span)
    if key not in cx.book.memo:
        rel, ends = cx.book.name("runwindow"), cx.book.name("runends")
        low, high = span
        with cx.book.group(f"table: runs of {length} values of {low}..{high} by their least value"):
            for first in range(low, high - length + 2):
                for v in range(first + 1, first + length):
                    cx.book.add(rule(f(rel, num(first), num(v))))
                cx.book.add(rule(f(ends, num(first), *_outside(first, length))))
        cx.book.memo[key] = (rel, ends)
    made: tuple[str, str] = cx.book.memo[key]
    return made


def _outside(first: int, length: int) -> list[Term]:
    """The values just below and just above a run of ``length`` from ``first`` (points are
    never negative: below 0 is ``none``)."""
    return [num(first - 1) if first > 0 else c("none"), num(first + length)]


def run_table(cx: Compiler, length: int, span: tuple[int, int], ends: bool = False) -> str:
    """``(NAME V1 ... Vk)``: k values within ``span`` that are k consecutive numbers in any
    order; with ``ends``, two more columns: one less than the least, one more than the most."""
    key = ("runtable", length, span, ends)
    if key not in cx.book.memo:
        rel = cx.book.name("runends" if ends else "runof")
        low, high = span
        with cx.book.group(f"table: {length} consecutive values of {low}..{high}, in any order"):
            for first in range(low, high - length + 2):
                extra = _outside(first, length) if ends else []
                for perm in permutations(range(first, first + length)):
                    cx.book.add(rule(f(rel, *[num(x) for x in perm], *extra)))
        cx.book.memo[key] = rel
    made: str = cx.book.memo[key]
    return made


def mem_top(cx: Compiler, loc: Any, env: Env, ctl: Ctl) -> Val:
    """The last copy remembered in a memory location."""
    lits, term = cx.loc_term(loc, env, ctl)
    v = cx.fresh("c")
    return lits + [f("ctop", term, v)], v


def slice_member(cx: Compiler, node: Slice, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
    """A card among the top (bottom) K of a location: its depth from that end is under K; a
    memory location counts its copies (``cdepth`` from the last, ``cpos`` from the first), a
    pile the ``under`` links its whole order is kept by (``analysis/order.py``)."""
    real, real_env = deref(node.cards, env)
    if not isinstance(real, CardLocation):
        raise TranslationError(node, f"`({node.end} N LOCATION)` needs a card location")
    lits, term = cx.loc_term(real, real_env, ctl)
    d = cx.fresh("n")
    most = len(cx.model.cards)
    k = static_int(node.count, env)
    if k is not None:
        table = cx.tables.test("<", k, (0, most))
        below: Literal = f(table, d) if table else FALSE
    else:  # a computed N: depths under its value
        count_lits, count = cx.int_(node.count, env, ctl)
        low, high = cx.interval(node.count, env)
        k = max(0, min(high, most))
        table = cx.tables.compare("<", (0, most), (low, high))
        lits = lits + count_lits
        below = f(table, d, count) if table else FALSE
    if real.visibility == "mem":
        return lits + [f("cdepth", term, card, d) if node.end == "top" else true(f("cpos", term, card, d)), below]
    if any(p in cx.unkept for p in concrete(real, real_env, cx.model)):
        order_read(cx, ctl, lits, term)
    return lits + [f(pile_depths(cx.book, node.end, min(k, len(cx.model.cards))), term, card, d), below]


def run_length(cx: Compiler, node: Run, env: Env, ctl: Ctl) -> Val:
    """``(size (run top|bottom N LOC using P))``: the most cards from that end of the pile (N or
    more) that make a run, else 0 (``GameIterator``'s run sequence: sorted, each one more than
    the one before). A memory location's copies are read by their places, another pile along
    its kept order (``analysis/order.py`` keeps it)."""
    real, real_env = deref(node.cards, env)
    least = static_int(node.length, env)
    if least is None or not isinstance(real, CardLocation):
        raise TranslationError(node, "`(run top|bottom N LOC using P)` needs a literal N and a card location")
    values = {v for cid in cx.domain_cards(real, real_env) for v in cx.pointmaps.card_values(node.points, real_env, cid)}
    low, high = (min(values), max(values)) if values else (1, 13)
    if high - low > 51:
        raise TranslationError(node, f"the points of a run sequence span {low}..{high}: at most 52 values are read")
    low, high = min(low, 1), max(high, 13)
    key = ("runlen", node, env, cx.ctl_key(node, env, ctl))
    if key not in cx.book.memo:
        lits, term = cx.loc_term(real, real_env, ctl)
        rel = cx.book.name("toprun", node)
        most = high - low + 1
        q, n, v = Variable("q"), Variable("n"), Variable("v")
        card = Variable("c")
        plits, pts = cx.points(node.points, real_env, ctl, card)
        scored = substitute(plits, pts, v) if isinstance(pts, Variable) else plits
        if real.visibility != "mem":
            depths = pile_depths(cx.book, node.end, most)
            if any(p in cx.unkept for p in concrete(real, real_env, cx.model)):
                order_read(cx, ctl, lits, term)
        with cx.book.group(f"the longest run at the {node.end} of {describe(real)}", node):
            # value of the i-th card (copy) from the end
            for i in range(1, most + 1):
                if real.visibility != "mem":
                    place = [f(depths, term, card, num(i - 1))]
                elif node.end == "top":
                    place = [true(f("ccount", term, n)), f("minus_count", n, num(i), q), true(f("cpos", term, card, q))]
                else:
                    place = [true(f("cpos", term, card, num(i - 1)))]
                cx.book.add(rule(f(f"{rel}_v{i}", v), lits + place + scored))
            m1, m2, x = Variable("m1"), Variable("m2"), Variable("x")
            for a in range(low, high + 1):
                for b in range(low, high + 1):
                    cx.book.add(rule(f(f"{rel}_min", num(a), num(b), num(min(a, b)))))
                    cx.book.add(rule(f(f"{rel}_max", num(a), num(b), num(max(a, b)))))
                    if b >= a:
                        cx.book.add(rule(f(f"{rel}_span", num(a), num(b), num(b - a + 1))))
            for i in range(1, most + 1):
                here = f(f"{rel}_v{i}", v)
                if i == 1:
                    cx.book.add(rule(f(f"{rel}_lo1", v), here))
                    cx.book.add(rule(f(f"{rel}_hi1", v), here))
                    cx.book.add(rule(f(f"{rel}_seen1", v), here))
                else:
                    cx.book.add(rule(f(f"{rel}_lo{i}", m2), f(f"{rel}_lo{i - 1}", m1), here, f(f"{rel}_min", m1, v, m2)))
                    cx.book.add(rule(f(f"{rel}_hi{i}", m2), f(f"{rel}_hi{i - 1}", m1), here, f(f"{rel}_max", m1, v, m2)))
                    cx.book.add(rule(f(f"{rel}_seen{i}", v), f(f"{rel}_seen{i - 1}", v)))
                    cx.book.add(rule(f(f"{rel}_seen{i}", v), here))
                    cx.book.add(rule(c(f"{rel}_dup{i}"), f(f"{rel}_seen{i - 1}", v), here))
                    cx.book.add(rule(c(f"{rel}_dup{i}"), c(f"{rel}_dup{i - 1}")))
                if i >= least:
                    cx.book.add(rule(c(f"{rel}_ok{i}"), f(f"{rel}_lo{i}", m1), f(f"{rel}_hi{i}", m2),
                                       f(f"{rel}_span", m1, m2, num(i)), f(f"{rel}_v{i}", x),
                                       *([Not(c(f"{rel}_dup{i}"))] if i > 1 else [])))
            for i in range(least, most + 1):
                longer: list[Literal] = [Not(c(f"{rel}_ok{j}")) for j in range(i + 1, most + 1)]
                cx.book.add(rule(f(rel, num(i)), [c(f"{rel}_ok{i}")] + longer))
            cx.book.add(rule(f(rel, num(0)), [Not(c(f"{rel}_ok{i}")) for i in range(least, most + 1)]))
        minus_count(cx)
        cx.book.memo[key] = rel
    out = cx.fresh("n")
    return [f(cx.book.memo[key], out)], out


def minus_count(cx: Compiler) -> None:
    """``(minus_count N I Q)``: Q = N - I, for positions."""
    if ("minus_count",) not in cx.book.memo:
        cx.book.memo[("minus_count",)] = True
        with cx.book.group("table: q = n - i"):
            for n in range(1, 53):
                for i in range(1, n + 1):
                    cx.book.add(rule(f("minus_count", num(n), num(i), num(n - i))))
