"""Compiling card collections: membership, sizes, sums, the top card.

- Membership of a card in a location is a fluent ``(at C LOC)``; unions, filters and
  intersections are conjunctions and auxiliary disjunctions of memberships.
- A size compared with 0 or 1 needs no counting (is there a member?); other sizes count with a
  chain over the cards that can be members (in card-id order), saturating just above the
  largest constant it is compared with. Sums of points chain the same way.
- The top of an ordered location is the fluent ``(ontop LOC C)``; when a shuffled pile's top is
  a random card of the heap, a step that takes it lets ``random`` choose (``(draw C)``).
- ``max``/``min`` are in :mod:`.extremes`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.integers import Interval
from translators.recycle.analysis.places import concrete
from translators.recycle.emit.contexts import Ctl, ParamCtl, Val
from translators.recycle.emit.literals import FALSE, lit_vars, positive_vars, substitute
from translators.recycle.emit.protocol import Compiler
from translators.recycle.emit.setdata import chosen_card, chosen_sum
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import filtered_pile, static_elements
from translators.recycle.ir.nodes import SEAT_PARAM, Env, Fixed, Sym, deref
from translators.recycle.rulebook.book import RuleBook, describe
from translators.recycle.symbols.vocabulary import (
    RANDOM,
    c,
    card_constant,
    does,
    f,
    name,
    num,
    nxt,
    rule,
    true,
)
from translators.recycle.symbols.vocabulary import loc as loc_of
from translators.recycle.syntax.nodes import (
    CardAt,
    CardLocation,
    CardsAgg,
    CollectionAt,
    ExtremeCard,
    Filter,
    Name,
    Others,
    RelativePlayer,
    RelativeTeam,
    SetOp,
    Slice,
    Sort,
    Subsets,
    Sum,
    Tuples,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: A seat parameter of a lifted chain: ("bind", literals reading the seat, the seat, the parameter).
SeatBind = tuple[str, list[Literal], Term, Variable]


def loc_term(cx: Compiler, node: Any, env: Env, ctl: Ctl) -> Val:
    """``(loc OWNER VIS NAME)`` of a location expression."""
    real, real_env = deref(node, env)
    if not isinstance(real, CardLocation):
        raise TranslationError(node, "a card location is expected here")
    lits, owner = cx.owner(real.owner, real_env, ctl)
    label, label_env = deref(real.name, real_env)
    nm: Term
    if isinstance(label, Name):
        nm = name(label.text)
    elif isinstance(label, Var) and isinstance(label_env.get(label.name), (Fixed, Sym)):
        binding = label_env.get(label.name)
        nm = binding.term if isinstance(binding, Fixed) else binding.var  # type: ignore[union-attr]
    else:
        raise TranslationError(real, "cannot tell which location this is")
    return lits, Function("loc", (owner, Constant(real.visibility), nm))


def member(cx: Compiler, coll: Any, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
    """Literals holding when ``card`` is in the collection."""
    real, real_env = deref(coll, env)
    if isinstance(real, CardLocation):
        lits, loc = loc_term(cx, real, real_env, ctl)
        fluent = "copy" if real.visibility == "mem" else "at"
        return lits + [true(f(fluent, card, loc))]
    if isinstance(real, Filter):
        inner = real_env.bind(real.var.name, _bind_card(card))
        return cx.member(real.collection, real_env, ctl, card) + cx.cond(real.condition, inner, ctl)
    if isinstance(real, Sort):
        return cx.member(real.cards, real_env, ctl, card)
    if isinstance(real, (SetOp, CardsAgg)):
        pieces = parts(cx, real, real_env)
        alts = [[lit for cond, cond_env in conds for lit in cx.cond(cond, cond_env, ctl)]
                + cx.member(part, part_env, ctl, card) for part, part_env, conds in pieces]
        if isinstance(real, SetOp) and real.op == "intersect":
            return [lit for alt in alts for lit in alt]
        card_var = [(card, "card")] if isinstance(card, Variable) else []
        if isinstance(real, SetOp) and real.op == "disjunction":
            # in exactly one of the parts (as CardStock counts them)
            alts = [alt + [lit for j, other in enumerate(alts) if j != i
                           for lit in cx.negate(other, real_env, real, card_var)]
                    for i, alt in enumerate(alts)]
        if len(alts) == 1:
            return alts[0]
        extra = [(card, "card")] if isinstance(card, Variable) and card not in {s.var for s in env.syms()} else []
        atom = cx.aux("in", alts, real_env, real, extra=extra,
                        key=("in", real, real_env, ctl.key, card if not extra else None))
        return [atom]
    if isinstance(real, Var):
        binding = real_env.get(real.name)
        if isinstance(binding, Sym) and binding.domain is not None:
            return cx.member(binding.domain.collection, binding.domain.env, ctl, card)
    if isinstance(real, ir.SlotSet):
        return cx.slot_member(real, real_env, ctl, card)
    if isinstance(real, ir.CardGroup):
        return group_card(cx, real, card)
    if isinstance(real, ir.ChosenSet):
        return chosen_card(cx, real, real_env, card)
    if isinstance(real, Slice):
        return cx.slice_member(real, real_env, ctl, card)
    if isinstance(real, CollectionAt):
        groups, groups_env = deref(real.groups, real_env)
        if isinstance(groups, Tuples) and real.position == "top":
            return top_tuple_member(cx, groups, groups_env, ctl, card)
        if isinstance(groups, Subsets):  # the engine lists the empty subset first, every card last
            if real.position == "top" or (real.position != "bottom" and static_int(real.position, real_env) == 0):
                return [FALSE]
            if real.position == "bottom":
                return cx.member(groups.cards, groups_env, ctl, card)
    if isinstance(real, Tuples):
        return top_tuple_member(cx, real, real_env, ctl, card)
    raise TranslationError(coll, f"cannot use `{describe(coll)}` as a card collection here")


def tuple_groups(cx: Compiler, node: Tuples, env: Env, ctl: Ctl) -> tuple[list[int], dict[int, Literal], list[tuple[Variable, str]]]:
    lifted = lift(cx, node, env, ctl)
    if lifted is not None:
        inner, pctl, binds = lifted
        values, quals, params = tuple_groups(cx, node, inner, pctl)
        bound = {value: cx.aux("tuplehere", [unlift(cx, binds, [q])], env, node) for value, q in quals.items()}
        return values, bound, [p for p in params if not str(p[0]).startswith("?cur_")]
    return _tuple_groups(cx, node, env, ctl)


def _tuple_groups(cx: Compiler, node: Tuples, env: Env, ctl: Ctl) -> tuple[list[int], dict[int, Literal], list[tuple[Variable, str]]]:
    """For each point value, a literal: at least N members score it (``tuples N``).

    ``(tuples N CARDS using P)`` is taken as one group per point value that at least N
    cards of CARDS have (the cards with that value); groups are ordered by value, the top
    group being the highest value.
    """
    key = ("tuples", node, env, ctl.key)
    if key not in cx.book.memo:
        n = tuple_size(node, env)
        quals: dict[int, Literal] = {}
        params: list[tuple[Variable, str]] = []
        for value, members in tuple_candidates(cx, node, env).items():
            items = tuple_items(cx, node, env, ctl, value, members)
            params = context_params(cx, env, items)
            heads = [p for p, _ in params]
            prefix = cx.book.name("tuple", node)
            m1, m2 = cx.fresh("n"), cx.fresh("n")
            capped = cx.book.name("sat")
            with cx.book.group(f"cards worth {value} in {describe(node)} (up to {n})", node):
                for x in range(n + 1):
                    cx.book.add(rule(f(capped, num(x), num(min(x + 1, n)))))
                cx.book.add(rule(f(prefix, *heads, num(0), num(0)), [cx.sort_literal(v, s) for v, s in params]))
                for i, lits in enumerate(items, start=1):
                    before = f(prefix, *heads, num(i - 1), m1)
                    cx.book.add(rule(f(prefix, *heads, num(i), m2), [before] + lits + [f(capped, m1, m2)]))
                    cx.book.add(rule(f(prefix, *heads, num(i), m1), [before] + cx.negate(lits, env, node)))
            quals[value] = f(prefix, *heads, num(len(items)), num(n))
        cx.book.memo[key] = (sorted(quals), quals, params)
    groups: tuple[list[int], dict[int, Literal], list[tuple[Variable, str]]] = cx.book.memo[key]
    return groups


def tuple_size(node: Tuples, env: Env) -> int:
    """N of ``(tuples N ...)``, a literal."""
    n = static_int(node.size, env)
    if n is None or n < 1:
        raise TranslationError(node, "`tuples` needs a literal size")
    return n


def tuple_candidates(cx: Compiler, node: Tuples, env: Env) -> dict[int, list[str]]:
    """By point value (ascending), the cards that can be members scoring it, for the values at
    least N cards can score."""
    n = tuple_size(node, env)
    by_value: dict[int, list[str]] = {}
    for cid in domain_cards(cx, node.cards, env):
        for value in cx.pointmaps.card_values(node.points, env, cid):
            by_value.setdefault(value, []).append(cid)
    return {value: by_value[value] for value in sorted(by_value) if len(by_value[value]) >= n}


def tuple_items(cx: Compiler, node: Tuples, env: Env, ctl: Ctl, value: int, members: list[str]) -> list[list[Literal]]:
    """For each of ``members`` that can score ``value``: it is a member and scores it."""
    items = []
    for cid in members:
        has = points_are(cx, node.points, env, ctl, card_constant(cx.model, cid), value)
        if FALSE not in has:
            items.append(cx.member(node.cards, env, ctl, card_constant(cx.model, cid)) + has)
    return items


def points_are(cx: Compiler, points: Any, env: Env, ctl: Ctl, card: Term, value: int) -> list[Literal]:
    """``card`` scores ``value`` by the point map ``points``."""
    plits, pts = cx.points(points, env, ctl, card)
    if isinstance(pts, Variable):
        return substitute(plits, pts, num(value))
    return plits if int(pts.name) == value else [FALSE]


def top_tuple_member(cx: Compiler, node: Tuples, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
    """Membership in the top group of ``tuples``: the highest value N cards share."""
    values, quals, params = tuple_groups(cx, node, env, ctl)
    v = cx.fresh("n")
    clauses: list[tuple[dict[Variable, Term], list[Literal]]] = []
    for i, value in enumerate(values):
        higher: list[Literal] = [Not(quals[w]) for w in values[i + 1:]]
        clauses.append(({v: num(value)}, [quals[value]] + higher))
    top = cx.define("toptuple", node, list(params) + [(v, "int:0:0")], clauses)
    plits, pts = cx.points(node.points, env, ctl, card)
    same = substitute(plits, pts, v) if isinstance(pts, Variable) else plits + [f(top.name, *top.args[:-1], pts)]
    member = cx.member(node.cards, env, ctl, card)
    return member + [top] + (same if isinstance(pts, Variable) else same[len(plits):])


def parts(cx: Compiler, node: Any, env: Env) -> list[tuple[Any, Env, list[tuple[Any, Env]]]]:
    """The collections a union (of collections, or of one ``all``) is made of, each with the
    conditions under which it is one (an ``all`` over a filter of a collection known before play)."""
    agg = node.parts if isinstance(node, SetOp) else node
    if isinstance(agg, tuple):
        return [(p, env, []) for p in agg]
    elements = static_elements(cx.model, agg.collection, env, agg)
    if elements is None:
        raise TranslationError(agg, "`all` in a union must range over players, teams, names or ranges")
    return [(agg.body, env.bind(agg.var.name, binding), conds) for binding, conds in elements]


def group_card(cx: Compiler, node: ir.CardGroup, card: Term) -> list[Literal]:
    """A card is one of a card group's (``analysis/picks.py``): a constant is or is not; a
    variable is one of the group's facts."""
    if not isinstance(card, Variable):
        return [] if card in {card_constant(cx.model, cid) for cid in node.cards} else [FALSE]
    key = ("cardgroup", node.cards)
    if key not in cx.book.memo:
        rel = cx.book.name("group")
        names = [card_constant(cx.model, cid) for cid in node.cards]
        with cx.book.group(f"the cards of a group: {', '.join(str(n) for n in names)}"):
            for constant in names:
                cx.book.add(rule(f(rel, constant)))
        cx.book.memo[key] = rel
    return [f(cx.book.memo[key], card)]


def domain_cards(cx: Compiler, coll: Any, env: Env) -> list[str]:
    """The cards that can be in a collection, in card-id order."""
    return cx.domains.ordered(coll, env)


def context_params(cx: Compiler, env: Env, lits_list: Sequence[Sequence[Literal]]) -> list[tuple[Variable, str]]:
    """The context variables some of the bodies use."""
    used: set[Variable] = set()
    for lits in lits_list:
        used |= lit_vars(lits)
    return [(s.var, s.sort) for s in env.syms() if s.var in used]


def exists(cx: Compiler, coll: Any, env: Env, ctl: Ctl) -> list[Literal]:
    """Literals holding when the collection has a member."""
    lifted = lift(cx, coll, env, ctl)
    if lifted is not None:
        inner, pctl, binds = lifted
        return unlift(cx, binds, cx.exists(coll, inner, pctl))
    card = cx.fresh("c")
    lits = cx.member(coll, env, ctl, card)
    atom = cx.aux("some", [lits], env, coll, key=("some", coll, env, ctl_key(cx, coll, env, ctl)))
    return [] if atom is not FALSE and not isinstance(atom, (Function, Constant)) else [atom]


def sum_value(cx: Compiler, node: Sum, env: Env, ctl: Ctl, cap: int | None = None) -> Val:
    """``(sum CARDS using P)`` with a chain over the possible members (saturating at ``cap``
    when only comparisons with smaller constants need it; points are never negative)."""
    real_cards, real_env = deref(node.cards, env)
    if isinstance(real_cards, ir.SlotSet):
        return cx.slot_sum(real_cards, node.points, real_env, ctl)
    if isinstance(real_cards, ir.CardGroup):
        scores = [cx.pointmaps.card_values(node.points, real_env, cid) for cid in real_cards.cards]
        if all(len(v) == 1 for v in scores):  # a static point map: the group's points are known
            return [], num(sum(min(v) for v in scores))
    if isinstance(real_cards, ir.ChosenSet):
        known = chosen_sum(cx, real_cards, real_env, node.points, env)
        if known is not None:
            return known
    lifted = lift(cx, node, env, ctl)
    if lifted is not None:
        inner, pctl, binds = lifted
        lits, value = sum_value(cx, node, inner, pctl, cap)
        return unlift(cx, binds, lits), value
    key = ("sum", node, env, ctl_key(cx, node, env, ctl), cap)
    if key not in cx.book.memo:
        cards = domain_cards(cx, node.cards, env)
        values = {cid: cx.pointmaps.card_values(node.points, env, cid) for cid in cards}
        cards = [cid for cid in cards if values[cid] != {0}]
        members = [cx.member(node.cards, env, ctl, card_constant(cx.model, cid)) for cid in cards]
        points = [cx.points(node.points, env, ctl, card_constant(cx.model, cid)) for cid in cards]
        params = context_params(cx, env, members + [p for p, _ in points])
        heads = [p for p, _ in params]
        prefix = cx.book.name("sum", node)
        links: list[SumLink] = []
        for cid, lits, (plits, pts) in zip(cards, members, points):
            vals = values[cid]
            spread = (min(vals), max(vals)) if isinstance(pts, Variable) else (int(pts.name), int(pts.name))
            links.append((lits + plits, pts, spread, partial(cx.negate, lits, env, node)))
        with cx.book.group(f"sum: {describe(node)}", node):
            sum_chain(cx, prefix, heads, params, links, cap)
        cx.book.memo[key] = (prefix, len(cards), heads)
    prefix, last, heads = cx.book.memo[key]
    v = cx.fresh("n")
    return [f(prefix, *heads, num(last), v)], v


#: One link of a sum chain: the literals under which it adds, the value it adds and its range,
#: and (made when the link is written) the literals under which it adds nothing.
SumLink = tuple[list[Literal], Term, Interval, Callable[[], list[Literal]]]


def sum_chain(cx: Compiler, prefix: str, heads: list[Variable], params: list[tuple[Variable, str]],
              links: list[SumLink], cap: int | None) -> None:
    """``(PREFIX HEADS... I S)``: the first I links add up to S (saturating at ``cap``)."""
    s1, s2 = cx.fresh("n"), cx.fresh("n")
    cx.book.add(rule(f(prefix, *heads, num(0), num(0)), [cx.sort_literal(v, s) for v, s in params]))
    low = high = 0
    for i, (adds, value, (least, most), absent) in enumerate(links, start=1):
        before = f(prefix, *heads, num(i - 1), s1)
        table = capped_add(cx, (low, high), (least, most), cap)
        cx.book.add(rule(f(prefix, *heads, num(i), s2), [before] + adds + ([f(table, s1, value, s2)] if table else [FALSE])))
        cx.book.add(rule(f(prefix, *heads, num(i), s1), [before] + absent()))
        low, high = low + min(0, least), high + max(0, most)
        if cap is not None:
            low, high = min(low, cap), min(high, cap)


def capped_add(cx: Compiler, a: Interval, b: Interval, cap: int | None) -> str | None:
    """``(NAME x y z)``: z = x + y, or min(x + y, cap)."""
    if cap is None:
        return cx.tables.binary("+", a, b)
    return cx.tables.capped(a, b, cap)


def lift(cx: Compiler, node: Any, env: Env, ctl: Ctl) -> tuple[Env, Ctl, list[SeatBind]] | None:
    """When an expression depends on the control context only through the current (or
    previous) player, the chain computing it is made once with the seat as a parameter
    ``?cur_S``; this gives the environment and context to compile it in, and the literals
    binding the parameter here. None when it cannot (or need not) be lifted."""
    if isinstance(ctl, ParamCtl):
        return None
    stage = env.player_stage().id
    uses = False
    for sub in _deep(node, env):
        if isinstance(sub, RelativePlayer):
            if sub.which == "next":
                return None
            uses = True
        elif isinstance(sub, (RelativeTeam, Others, CardAt, ExtremeCard, ir.MovedCard, ir.PickedCard,
                              ir.SlotSet, ir.SlotCheck, ir.CardGroup, ir.CardsIn, ir.ChosenSet,
                              ir.ChosenSetIn)):
            return None  # slots are made per control context, with no seat parameter
    if not uses:
        return None
    var = Variable(f"cur_{stage}")
    lits, term = ctl.seat(stage, cx.fresh)
    inner = env.bind(SEAT_PARAM + stage, Sym(var, "player", "seat"))
    return inner, ParamCtl((stage,)), [("bind", lits, term, var)]


def unlift(cx: Compiler, binds: list[SeatBind], lits: list[Literal]) -> list[Literal]:
    """The lifted chain's literals with its seat parameter replaced by the seat read here."""
    (_, seat_lits, term, var), = binds
    return list(seat_lits) + substitute(lits, var, term)


def ctl_key(cx: Compiler, node: Any, env: Env, ctl: Ctl) -> Any:
    """The part of a control context an expression depends on (None when it reads no seat
    and no top of a pile)."""
    for sub in _deep(node, env):
        if isinstance(sub, (RelativePlayer, RelativeTeam, Others, CardAt, ExtremeCard)):
            return ctl.key
    return None


def order_read(cx: Compiler, ctl: Ctl, lits: list[Literal], loc: Term) -> None:
    """The order of pile ``loc`` is read where it may not be known (not kept, or lost by a bulk
    move onto it): the game fails visibly when it is not (see docs/translation.md, the order of
    piles), in the step that reads it (control reads guards and end conditions in the step
    before theirs)."""
    in_batch = cx.ledger.current_guards or [f("at_step", c(ctl.batch or ""))]
    cx.ledger.fail_where_read(ctl, "order", lits + [f("lostread", loc)], in_batch)


def pile_depths(book: RuleBook, end: str, k: int) -> str:
    """``(pdepth L C D)`` (``end`` top) or ``(pheight L C D)`` (bottom): card ``C`` is the
    ``D``-th of pile ``L`` from that end (0 the end card), for ``D`` under ``k``, along the
    ``under`` links of a pile whose whole order is kept."""
    rel = "pdepth" if end == "top" else "pheight"
    made: int = book.memo.get(("depths", end), 0)
    if k > made:
        L, C, D = Variable("l"), Variable("c"), Variable("d")
        with book.group(f"the place of a card from the {end} of a pile whose order is kept"):
            if made == 0:
                first = true(f("ontop", L, C)) if end == "top" else f("bottomcard", L, C)
                book.add(rule(f(rel, L, C, num(0)), f("linked", L), first))
            for depth in range(max(made, 1), k):
                if end == "top":  # the card under the one above it
                    book.add(rule(f(rel, L, D, num(depth)), f(rel, L, C, num(depth - 1)), true(f("under", L, C, D))))
                else:  # the card over the one below it
                    book.add(rule(f(rel, L, C, num(depth)), f(rel, L, D, num(depth - 1)), true(f("under", L, C, D))))
        book.memo[("depths", end)] = k
    return rel


def numbered_card(cx: Compiler, node: CardAt, real: CardLocation, env: Env, ctl: Ctl) -> Val:
    """``(N LOC)``: the card N places above the bottom one (0 the bottom card; CardStock's
    ``cardList.Get(N)``): a memory location's N-th copy (``cpos``), else the card at that height
    of a pile whose whole order is kept (``analysis/order.py``). No card when the pile is lower."""
    lits, loc = loc_term(cx, real, env, ctl)
    fixed = static_int(node.position, env)
    place_lits, place = ([], num(fixed)) if fixed is not None else cx.int_(node.position, env, ctl)
    v = cx.fresh("c")
    if real.visibility == "mem":
        return lits + place_lits + [true(f("cpos", loc, v, place))], v
    if fixed is not None and fixed < 0:
        return [FALSE], v
    if any(p in cx.unkept for p in concrete(real, env, cx.model)):
        order_read(cx, ctl, lits, loc)
    height = fixed + 1 if fixed is not None else len(cx.model.cards)
    return lits + place_lits + [f(pile_depths(cx.book, "bottom", min(height, len(cx.model.cards))), loc, v, place)], v


def card_at(cx: Compiler, node: CardAt, env: Env, ctl: Ctl) -> Val:
    """``(top LOC)``: the known top card, or a random card of a shuffled heap."""
    real, real_env = deref(node.cards, env)
    if node.position == "bottom" and isinstance(real, CardLocation):
        lits, loc = loc_term(cx, real, real_env, ctl)
        v = cx.fresh("c")
        if real.visibility == "mem":  # the first copy remembered
            return lits + [true(f("cpos", loc, v, num(0)))], v
        return lits + [f("bottomcard", loc, v)], v
    if node.position not in ("top", "bottom") and isinstance(real, CardLocation):
        return numbered_card(cx, node, real, real_env, ctl)
    if node.position == "bottom" and (isinstance(real, ir.SlotSet) and real.points is not None
                                      or isinstance(real, CollectionAt) or filtered_pile(real, real_env) is not None):
        return virtual_top(cx, node, real, real_env, ctl)
    if node.position != "top":
        raise TranslationError(node, f"the {'bottom' if node.position == 'bottom' else 'numbered'} card of "
                                     f"`{describe(node.cards)}` cannot be read: only of a location, a filter "
                                     "of one, or a run")
    if isinstance(real, Tuples):
        real = CollectionAt("top", real, line=node.line, column=node.column)
    if not isinstance(real, CardLocation):
        return virtual_top(cx, node, real, real_env, ctl)
    if real.visibility == "mem":
        return cx.mem_top(real, real_env, ctl)
    lits, loc = loc_term(cx, real, real_env, ctl)
    v = cx.fresh("c")
    known = lits + [true(f("ontop", loc, v))]
    places = concrete(real, real_env, cx.model)
    if any(p not in cx.linked or p in cx.unkept for p in places):
        order_read(cx, ctl, lits, loc)
    if not ctl.chance or not any(p in cx.heapy for p in places):
        return known, v
    cx.ledger.chance(ctl.batch, ("draw", cx.ledger.current_guards + lits + [f("heaptop", loc)], [true(f("at", v, loc))], v))
    if ("topcard",) not in cx.book.memo:
        cx.book.memo[("topcard",)] = True
        where, card = Variable("l"), Variable("c")
        with cx.book.group("the top card of a pile: the known top, or the card random draws from a shuffled heap"):
            cx.book.add(rule(f("topcard", where, card), true(f("ontop", where, card))))
            cx.book.add(rule(f("topcard", where, card), f("heaptop", where), does(RANDOM, f("draw", card))))
        if cx.peeked:
            with cx.book.group("a card drawn from a heap whose top is read in place, and left there, is its "
                               "known top from then on"):
                for place in sorted(cx.peeked):
                    cx.book.add(rule(f("peeked", loc_of(place))))
                cx.book.add(rule(nxt(f("ontop", where, card)), f("peeked", where), does(RANDOM, f("draw", card)),
                                 true(f("at", card, where)), f("heaptop", where), Not(f("leave", where, card)),
                                 Not(f("pushed", where)), Not(f("reorder", where))))
    return lits + [f("topcard", loc, v)], v


def virtual_top(cx: Compiler, node: CardAt, coll: Any, env: Env, ctl: Ctl) -> Val:
    """The top of a virtual collection: its member with the highest card id (its bottom: of a
    filter of a pile too large to keep in order, or of a group, the lowest); of a run (whose
    members score apart), its member with the most points, and its bottom the least."""
    cards = domain_cards(cx, coll, env)
    if isinstance(coll, ir.SlotSet) and coll.points is not None:
        values = {cid: cx.pointmaps.card_values(coll.points, env, cid) for cid in cards}
        if all(len(v) == 1 for v in values.values()):  # a static point map: the order is the rules'
            cards = sorted(cards, key=lambda cid: min(values[cid]), reverse=node.position == "bottom")
        elif node.position == "bottom":
            raise TranslationError(node, "the bottom card of a run under a point map set in play cannot be read")
    elif node.position == "bottom":
        cards = cards[::-1]
    v = cx.fresh("c")
    members = [cx.member(coll, env, ctl, card_constant(cx.model, cid)) for cid in cards]
    params = context_params(cx, env, members)
    above = _above(cx, node, params, [card_constant(cx.model, cid) for cid in cards], members)
    clauses: list[tuple[dict[Variable, Term], list[Literal]]] = []
    for i, lits in enumerate(members):
        card = card_constant(cx.model, cards[i])
        clauses.append(({v: card}, lits + ([Not(above(card))] if i + 1 < len(cards) else [])))
    head = cx.define("vtop", node, params + [(v, "card")], clauses)
    return [head], v


def _above(cx: Compiler, node: Any, params: list[tuple[Variable, str]], cards: list[Constant],
           members: list[list[Literal]]) -> Callable[[Term], Function | Constant]:
    """``(vabove ... C)``: a member of the collection comes after card C in ``cards`` (the order
    read from the top), by a chain from each card to the next: linear in the cards (the
    negation of every later member, clause by clause, was quadratic: 676 cards, 60 s)."""
    rel = cx.book.name("vabove", node)

    def above(card: Term) -> Function | Constant:
        return f(rel, *[var for var, _ in params], card)

    with cx.book.group(f"vabove: {describe(node)}", node):
        for i in range(len(cards) - 1):
            for body in (members[i + 1], [above(cards[i + 1])] if i + 2 < len(cards) else None):
                if body is None or FALSE in body:
                    continue
                extra = [cx.sort_literal(var, sort) for var, sort in params if var not in positive_vars(body)]
                cx.book.add(rule(above(cards[i]), list(body) + extra))
    return above


def _deep(node: Any, env: Env) -> list[Any]:
    """Every node of an expression, through ``let`` aliases."""
    out: list[Any] = []
    stack = [(node, env)]
    seen: set[int] = set()
    while stack:
        item, item_env = stack.pop()
        if id(item) in seen or not hasattr(item, "subnodes"):
            continue
        seen.add(id(item))
        out.append(item)
        if isinstance(item, Var):
            real, real_env = deref(item, item_env)
            if real is not item:
                stack.append((real, real_env))
        for child in item.subnodes():
            stack.append((child, item_env))
    return out


def _bind_card(card: Term) -> Any:
    if isinstance(card, Variable):
        return Sym(card, "card", "card")
    return Fixed(card, "card")


def is_card_collection(node: Any) -> bool:
    """Whether a (dereferenced) expression is a collection of cards the domains know."""
    return isinstance(node, (CardLocation, Filter, SetOp, Sort, CardsAgg, Var, Slice, CollectionAt))
