"""Compiling RECYCLE expressions to GDL rule bodies.

An expression in an :class:`~.ir.Env` compiles to a list of body literals and a term: the
literals hold exactly when the expression has that value in the current state (``true``
fluents, derived relations, static tables). Conditions compile to literal lists. Disjunction
and negation of compound conditions go through auxiliary relations, whose arguments are the
GDL variables of the enclosing context (choice forks, cards of a parallel ``all``).

The control context (:class:`Ctl`) says how ``(current player)`` is read: in a step it is the
resolved seat of the innermost player stage (``rseat``), while resolving control it is a seat
computed on the way, and in scoring it is each seat in turn (:mod:`.contexts`).

:class:`Expressions` compiles conditions and scalar values itself and hands card collections,
groups and point maps to the plain functions of :mod:`.cardsets`, :mod:`.groups` and
:mod:`.pointmaps`, which reach back through the :class:`~.protocol.Compiler` interface it
implements. It is built once, from the finished analyses, and writes into one rule book.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.integers import Interval
from translators.recycle.analysis.places import CardDomains
from translators.recycle.analysis.pointmaps import PointMaps
from translators.recycle.analysis.ranges import Ranges
from translators.recycle.emit import (
    cardsets,
    conditions,
    extremes,
    filterends,
    groups,
    pointmaps,
    sizes,
    values,
)
from translators.recycle.emit.arith import Tables
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.copies import memory_sum
from translators.recycle.emit.ledger import Ledger
from translators.recycle.emit.literals import (
    ALWAYS,
    FALSE,
    lit_vars,
    positive_vars,
)
from translators.recycle.emit.wide import Wide
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import storage_family
from translators.recycle.ir.nodes import Env, Fixed, Sym, deref
from translators.recycle.ir.setchoice import is_set_sort
from translators.recycle.rulebook.book import RuleBook, describe
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.symbols.vocabulary import (
    Fresh,
    c,
    card_constant,
    f,
    name,
    num,
    rule,
    true,
)
from translators.recycle.syntax.nodes import (
    ActualCard,
    CardAt,
    ExtremeCard,
    GameOwner,
    IntStorage,
    Name,
    OwnerOf,
    PlayerAt,
    RelativePlayer,
    RelativeTeam,
    Run,
    Slice,
    Sum,
    TeamAt,
    TeamOf,
    Var,
)
from translators.recycle.translation_error import TranslationError


class Expressions:
    """The expression compiler of one game (implements :class:`~.protocol.Compiler`)."""

    def __init__(self, model: GameModel, program: ir.Program, book: RuleBook, domains: CardDomains,
                 pointmaps: PointMaps, ranges: Ranges, wide: Wide, order: tuple[set[Location], set[Location], set[Location]],
                 batch_of: dict[int, str]):
        self.model = model
        self.program = program
        self.book = book
        self.domains = domains
        self.pointmaps = pointmaps
        self.ranges = ranges
        self.wide = wide
        self.ordered, self.heapy, self.linked = order
        self.peeked: set[Location] = set()
        #: The integer cells the game never reads: their changes make no rules.
        self.unread: frozenset[tuple[str, str]] = frozenset()
        self.unkept: set[Location] = set()
        #: The piles that keep the card under their known top too (``analysis/crowding.py``).
        self.second: set[Location] = set()
        self.batch_of = batch_of
        self.fresh = Fresh(program.variables)
        self.tables = Tables(book)
        self.ledger = Ledger()
        self.sorts: dict[str, Literal] = {}

    def interval(self, node: Any, env: Env) -> Interval:
        """The static range of an integer expression."""
        return self.ranges.of(node, env)

    # -- conditions and values: their modules -----------------------------------------------------

    def cond(self, node: Any, env: Env, ctl: Ctl) -> list[Literal]:
        """A condition as a conjunction of literals."""
        return conditions.cond(self, node, env, ctl)

    def elem_member(self, coll: Any, env: Env, ctl: Ctl, term: Term, kind: str) -> list[Literal]:
        """Membership of a value in any collection (cards, or a static one)."""
        return conditions.elem_member(self, coll, env, ctl, term, kind)

    def int_(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """An integer expression."""
        return values.int_(self, node, env, ctl)

    def str_(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A string expression (may fail to have a value: ``cardatt`` of no card)."""
        return values.str_(self, node, env, ctl)

    def str_total(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A string expression that always has a value (``unset`` where ``cardatt`` has none)."""
        return values.str_total(self, node, env, ctl)

    # -- card collections, groups and point maps: their modules ----------------------------------

    def loc_term(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """``(loc OWNER VIS NAME)`` of a location expression."""
        return cardsets.loc_term(self, node, env, ctl)

    def member(self, coll: Any, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """Literals holding when ``card`` is in the collection."""
        return cardsets.member(self, coll, env, ctl, card)

    def exists(self, coll: Any, env: Env, ctl: Ctl) -> list[Literal]:
        """Literals holding when the collection has a member."""
        return cardsets.exists(self, coll, env, ctl)

    def domain_cards(self, coll: Any, env: Env) -> list[str]:
        """The cards that can be in a collection, in card-id order."""
        return cardsets.domain_cards(self, coll, env)

    def ctl_key(self, node: Any, env: Env, ctl: Ctl) -> Any:
        """The part of a control context an expression depends on."""
        return cardsets.ctl_key(self, node, env, ctl)

    def card_at(self, node: CardAt, env: Env, ctl: Ctl) -> Val:
        """``(top CARDS)`` and friends."""
        ended = filterends.filter_end(self, node, env, ctl)
        return ended if ended is not None else cardsets.card_at(self, node, env, ctl)

    def extreme(self, node: ExtremeCard, env: Env, ctl: Ctl) -> Val:
        """``(max CARDS using P)``: the best card."""
        return extremes.extreme(self, node, env, ctl)

    def extreme_value(self, node: ExtremeCard, env: Env, ctl: Ctl) -> Val:
        """The points of ``(max CARDS using P)``."""
        return extremes.extreme_value(self, node, env, ctl)

    def size_compare(self, coll: Any, op: str, k: int, env: Env, ctl: Ctl) -> list[Literal]:
        """``(size COLL) op k``."""
        return sizes.size_compare(self, coll, op, k, env, ctl)

    def size_value(self, coll: Any, env: Env, ctl: Ctl) -> Val:
        """``(size COLL)`` as a value."""
        return sizes.size_value(self, coll, env, ctl)

    def sum_value(self, node: Sum, env: Env, ctl: Ctl, cap: int | None = None) -> Val:
        """``(sum CARDS using P)`` (over a memory location, its copies: :mod:`.copies`)."""
        copies = memory_sum(self, node, env, ctl, cap)
        return copies if copies is not None else cardsets.sum_value(self, node, env, ctl, cap)

    def slot_check(self, node: ir.SlotCheck, env: Env, ctl: Ctl) -> list[Literal]:
        """``exist``, ``run`` or ``largest`` of a group of slots."""
        return groups.slot_check(self, node, env, ctl)

    def slot_member(self, node: ir.SlotSet, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """A card is in a group of slots."""
        return groups.slot_member(self, node, env, ctl, card)

    def slot_sum(self, node: ir.SlotSet, points: Any, env: Env, ctl: Ctl) -> Val:
        """The points of a group of slots."""
        return groups.slot_sum(self, node, points, env, ctl)

    def slice_member(self, node: Slice, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """A copy among the top K of a memory location."""
        return groups.slice_member(self, node, env, ctl, card)

    def mem_top(self, loc: Any, env: Env, ctl: Ctl) -> Val:
        """The last copy remembered in a memory location."""
        return groups.mem_top(self, loc, env, ctl)

    def run_length(self, node: Run, env: Env, ctl: Ctl) -> Val:
        """``(size (run top N MEMORY using P))``."""
        return groups.run_length(self, node, env, ctl)

    def points(self, pm: Any, env: Env, ctl: Ctl, card: Term) -> Val:
        """The points of a card under a point map."""
        return pointmaps.points(self, pm, env, ctl, card)

    def points_relation(self, key: tuple[str, str]) -> str:
        """The relation ``(REL CARD POINTS)`` of a point map."""
        return pointmaps.points_relation(self, key)

    def site_values(self, effect: ir.SetPointMap, ctl: Ctl) -> tuple[list[Literal], list[Term]]:
        """The values a ``set`` of a point map stores."""
        return pointmaps.site_values(self, effect, ctl)

    # -- what earlier effects of the step did, and chance -------------------------------------------

    def moved_card(self, node: ir.MovedCard, ctl: Ctl) -> Val:
        """The card an earlier effect moved (kept for later steps in a ``moved`` fluent)."""
        effect = self.program.effects[node.effect]
        home = self.batch_of.get(node.effect)
        if ctl.batch is not None and home == ctl.batch:
            return self.card(effect.card, effect.env, ctl)  # type: ignore[attr-defined]
        if ctl.batch is None:
            raise TranslationError(node, "the card moved by an earlier action is read outside a step")
        relation = self.ledger.moved[node.effect]
        v = self.fresh("c")
        self.ledger.need(("moved", node.effect, relation), Function("moved", (c(f"e{node.effect}"), Variable("c"))),
                         home or "", ctl.batch)
        return [true(f("moved", c(f"e{node.effect}"), v))], v

    def picked_card(self, node: ir.PickedCard, ctl: Ctl) -> Val:
        """The card a ``PickCard`` effect picked."""
        effect = self.program.effects[node.effect]
        home = self.batch_of.get(node.effect)
        if ctl.batch is not None and home == ctl.batch:
            return self.card(effect.card, effect.env, ctl)  # type: ignore[attr-defined]
        v = self.fresh("c")
        fluent = Function("picked", (c(f"e{node.effect}"), Variable("c")))
        self.ledger.need(("picked", node.effect, self.ledger.picks[node.effect]), fluent, home or "", ctl.batch or "")
        return [true(f("picked", c(f"e{node.effect}"), v))], v

    # -- auxiliary relations ----------------------------------------------------------------------

    def sort_literal(self, var: Variable, sort: str) -> Literal:
        """A static literal binding ``var`` to every value of a sort."""
        head = {"card": "card", "seat": "seat", "team": "team"}.get(sort)
        if head is None:
            key = sort
            if key not in self.sorts:
                rel, comment = self.book.name("sort"), f"values of {sort}"
                if sort.startswith("name:"):
                    values: list[Term] = [Constant(v) for v in sort[5:].split(",") if v]
                    if is_set_sort(sort):
                        named = {lit.name for lit in self.sorts.values() if isinstance(lit, Function)}
                        rel = "set_ids" if "set_ids" not in named else rel
                        comment = f"the ids of the {len(values)} card sets a choice may take"
                elif sort.startswith("int:"):
                    _, lo, hi = sort.split(":")
                    values = [num(i) for i in range(int(lo), int(hi) + 1)]
                else:
                    raise AssertionError(sort)
                with self.book.group(comment):
                    for value in values:
                        self.book.add(rule(f(rel, value)))
                self.sorts[key] = f(rel, Variable("x"))
            head = self.sorts[key].name  # type: ignore[union-attr]
        return f(head, var)

    def context(self, env: Env) -> list[Sym]:
        """The GDL variables bound around an expression."""
        return env.syms()

    def aux(self, prefix: str, alternatives: list[list[Literal]], env: Env, node: Any,
            extra: Sequence[tuple[Variable, str]] = (), key: Any = None, comment: str = "") -> Literal:
        """A relation holding when one of the alternatives holds; its arguments are the context
        variables (and ``extra`` ones) the alternatives use."""
        alternatives = [alt for alt in alternatives if FALSE not in alt]
        if not alternatives:
            return FALSE
        if any(not alt for alt in alternatives) and not extra:
            return ALWAYS
        used = set().union(*(lit_vars(a) for a in alternatives))
        sorts = [(s.var, s.sort) for s in self.context(env)] + list(extra)
        args: list[tuple[Variable, str]] = []
        for var, sort in sorts:
            if var in used and all(var != a for a, _ in args):
                args.append((var, sort))
        memo_key = ("aux", key, tuple(args)) if key is not None else None
        if memo_key is not None and memo_key in self.book.memo:
            known: Literal = self.book.memo[memo_key]
            return known
        rel = self.book.name(prefix, node)
        head: Function | Constant = f(rel, *[v for v, _ in args]) if args else Constant(rel)
        with self.book.group(comment or f"{prefix}: {describe(node)}", node):
            for alt in alternatives:
                bound = positive_vars(alt)
                body = list(alt) + [self.sort_literal(v, s) for v, s in args if v not in bound]
                self.book.add(rule(head, body))
        if memo_key is not None:
            self.book.memo[memo_key] = head
        return head

    def negate(self, lits: list[Literal], env: Env, node: Any, extra: Sequence[tuple[Variable, str]] = ()) -> list[Literal]:
        """The negation of a conjunction."""
        if not lits:
            return [FALSE]
        if FALSE in lits:
            return []
        if len(lits) == 1 and lits[0] is ALWAYS:
            return [FALSE]
        bound = {s.var for s in self.context(env)} | {v for v, _ in extra}
        if len(lits) == 1 and isinstance(lits[0], (Function, Constant)) and not isinstance(lits[0], Distinct):
            if lit_vars(lits) <= bound:
                return [Not(lits[0])]
        if len(lits) == 1 and isinstance(lits[0], Not) and isinstance(lits[0].literal, (Function, Constant)) \
                and lit_vars(lits) <= bound:
            return [lits[0].literal]  # not (not A) is A
        atom = self.aux("not", [lits], env, node, extra)
        if atom is FALSE:
            return []
        if atom is ALWAYS:
            return [FALSE]
        return [Not(atom)]

    # -- conditions ----------------------------------------------------------------------------












    # -- scalar values ---------------------------------------------------------------------------





    def family(self, node: IntStorage, env: Env) -> tuple[str, str]:
        """The (owner kind, NAME) family of an integer storage cell."""
        return storage_family(node, env)

    def storage_name(self, node: Any, env: Env) -> Constant:
        """The constant naming a storage cell."""
        real, real_env = deref(node, env)
        bound = real_env.get(real.name) if isinstance(real, Var) else None
        if isinstance(bound, Fixed) and bound.kind == "str" and isinstance(bound.term, Constant):
            return bound.term  # a variable over a list of names, unrolled
        if not isinstance(real, Name):
            raise TranslationError(node, "storage names must be literal NAMEs")
        return name(real.text)



    def define(self, prefix: str, node: Any, params: list[tuple[Variable, str]],
               clauses: list[tuple[dict[Variable, Term], list[Literal]]], comment: str = "") -> Function:
        """A relation with the given parameters, one rule per clause (a clause may fix some
        parameters to constants); parameters left unbound get their sort literal."""
        rel = self.book.name(prefix, node)
        head_vars = [v for v, _ in params]
        with self.book.group(comment or f"{prefix}: {describe(node)}", node):
            for fixed, body in clauses:
                if FALSE in body:
                    continue
                bound = positive_vars(body)
                args = [fixed.get(v, v) for v in head_vars]
                extra = [self.sort_literal(v, s) for v, s in params if v not in fixed and v not in bound]
                self.book.add(rule(f(rel, *args) if args else Constant(rel), list(body) + extra))
        return f(rel, *head_vars) if head_vars else Constant(rel)  # type: ignore[return-value]

    def same(self, sort: str) -> str:
        """A static identity relation over a sort (``(same_card c1 c1)``...)."""
        rel = f"same_{sort}"
        if ("same", sort) not in self.book.memo:
            self.book.memo[("same", sort)] = rel
            values = {"card": [card_constant(self.model, item.id).name for item in self.model.cards], "seat": self.model.seats,
                      "team": self.model.team_names}[sort]
            with self.book.group(f"identity of {sort}s"):
                for value in values:
                    self.book.add(rule(f(rel, value, value)))
        return rel

    def player(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A player expression (a ``player<N>`` constant or variable)."""
        node, env = deref(node, env)
        if isinstance(node, RelativePlayer):
            stage = env.player_stage().id
            if node.which == "current":
                return ctl.seat(stage, self.fresh)
            if node.which == "next":
                return ctl.next_seat(stage, self.fresh)
            lits, seat = ctl.seat(stage, self.fresh)
            v = self.fresh("p")
            return lits + [f("prevseat", seat, v)], v
        if isinstance(node, PlayerAt):
            k = static_int(node.index, env)
            if k is not None:
                return [], c(f"player{k % self.model.players}")
            lits, n = self.int_(node.index, env, ctl)
            v = self.fresh("p")
            return lits + [f("seatnum", n, v)], v
        if isinstance(node, OwnerOf):
            lits, card = self.card(node.card, env, ctl)
            v = self.fresh("p")
            return lits + [f("owns", card, v)], v
        if isinstance(node, Var):
            bound = env.term(node.name)
            if bound is not None:
                return [], bound
        raise TranslationError(node, "a player is expected here")

    def team(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A team expression."""
        node, env = deref(node, env)
        if isinstance(node, RelativeTeam):
            stage = env.team_stage()
            if stage is None:
                if node.which != "current":
                    raise TranslationError(node, f"({node.which} team) needs an enclosing team stage")
                lits, seat = self.player(RelativePlayer("current"), env, ctl)
                v = self.fresh("t")
                return lits + [f("teamof", seat, v)], v
            if node.which == "current":
                return ctl.team(stage.id, self.fresh)
            if node.which == "next":
                return ctl.next_team(stage.id, self.fresh)
            lits, team = ctl.team(stage.id, self.fresh)
            v = self.fresh("t")
            return lits + [f("prevteam", team, v)], v
        if isinstance(node, TeamAt):
            k = static_int(node.index, env)
            if k is None:
                raise TranslationError(node, "(N team) needs a literal N")
            return [], c(f"team{k}")
        if isinstance(node, TeamOf):
            lits, seat = self.player(node.player, env, ctl)
            v = self.fresh("t")
            return lits + [f("teamof", seat, v)], v
        if isinstance(node, Var):
            bound = env.term(node.name)
            if bound is not None:
                return [], bound
        raise TranslationError(node, "a team is expected here")

    def owner(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """The owner of storage or a location."""
        real, real_env = deref(node, env)
        if isinstance(real, GameOwner):
            return [], c("game")
        if isinstance(real, (RelativeTeam, TeamAt, TeamOf)):
            return self.team(real, real_env, ctl)
        if isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, (Fixed, Sym)) and binding.kind == "team":
                return self.team(real, real_env, ctl)
        return self.player(real, real_env, ctl)

    def card(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A card expression (fails to have a value when there is no such card)."""
        node, env = deref(node, env)
        if isinstance(node, Var):
            bound = env.term(node.name)
            if bound is not None:
                return [], bound
            raise TranslationError(node, f"'{node.name} is not a card here")
        if isinstance(node, CardAt):
            return self.card_at(node, env, ctl)
        if isinstance(node, ExtremeCard):
            return self.extreme(node, env, ctl)
        if isinstance(node, ActualCard):
            return self.card(node.card, env, ctl)
        if isinstance(node, ir.MovedCard):
            return self.moved_card(node, ctl)
        if isinstance(node, ir.PickedCard):
            return self.picked_card(node, ctl)
        raise TranslationError(node, "a card is expected here")


__all__ = ["Expressions"]
