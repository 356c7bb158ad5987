"""What the rule writers need of the expression compiler.

:class:`~.expressions.Expressions` is the one implementation: it compiles conditions and values
itself and hands card collections (:mod:`.cardsets`), groups and memory piles (:mod:`.groups`)
and point maps (:mod:`.pointmaps`) to the plain functions of those modules, which reach back
for everything else through this interface. The construct modules depend on this interface,
never on each other, so there is no import circle among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ggp.gdl.rules import Literal
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle.analysis.integers import Interval
from translators.recycle.analysis.places import CardDomains
from translators.recycle.analysis.pointmaps import PointMaps
from translators.recycle.analysis.ranges import Ranges
from translators.recycle.emit.arith import Tables
from translators.recycle.emit.contexts import Ctl, Val
from translators.recycle.emit.ledger import Ledger
from translators.recycle.emit.wide import Wide
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Env, Sym
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.symbols.vocabulary import Fresh
from translators.recycle.syntax.nodes import CardAt, ExtremeCard, Run, Slice, Sum

#: A clause of :meth:`Compiler.define`: parameters fixed to constants, and a body.
Clause = tuple[dict[Variable, Term], list[Literal]]


class Compiler(Protocol):
    """The expression compiler, as the construct modules and rule writers see it."""

    model: GameModel
    program: ir.Program
    book: RuleBook
    fresh: Fresh
    tables: Tables
    ranges: Ranges
    wide: Wide
    domains: CardDomains
    pointmaps: PointMaps
    ledger: Ledger
    #: Piles whose order is tracked, piles that can be a shuffled heap, piles whose bottom is read.
    ordered: set[Location]
    heapy: set[Location]
    linked: set[Location]
    #: Piles whose top is read other than to move it.
    peeked: set[Location]
    unread: frozenset[tuple[str, str]]
    #: Linked piles whole collections are moved onto (their order is lost then).
    unkept: set[Location]
    #: The batch (GDL step) of every effect.
    batch_of: dict[int, str]

    # -- auxiliary relations ---------------------------------------------------------------------

    def sort_literal(self, var: Variable, sort: str) -> Literal:
        """A static literal binding ``var`` to every value of a sort."""

    def aux(self, prefix: str, alternatives: list[list[Literal]], env: Env, node: Any,
            extra: Sequence[tuple[Variable, str]] = (), key: Any = None, comment: str = "") -> Literal:
        """A relation holding when one of the alternatives holds."""

    def negate(self, lits: list[Literal], env: Env, node: Any,
               extra: Sequence[tuple[Variable, str]] = ()) -> list[Literal]:
        """The negation of a conjunction."""

    def define(self, prefix: str, node: Any, params: list[tuple[Variable, str]], clauses: list[Clause],
               comment: str = "") -> Function | Constant:
        """A relation with the given parameters, one rule per clause."""

    def same(self, sort: str) -> str:
        """A static identity relation over a sort."""

    def context(self, env: Env) -> list[Sym]:
        """The GDL variables bound around an expression."""

    # -- conditions and scalar values ------------------------------------------------------------

    def interval(self, node: Any, env: Env) -> Interval:
        """The static range of an integer expression."""

    def cond(self, node: Any, env: Env, ctl: Ctl) -> list[Literal]:
        """A condition as a conjunction of literals."""

    def int_(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """An integer expression."""

    def str_(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A string expression (may have no value)."""

    def str_total(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A string expression that always has a value."""

    def card(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A card expression (may have no value)."""

    def player(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A player expression."""

    def team(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A team expression."""

    def owner(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """The owner of storage or a location."""

    def family(self, node: Any, env: Env) -> tuple[str, str]:
        """The (owner kind, NAME) family of an integer storage cell."""

    def storage_name(self, node: Any, env: Env) -> Constant:
        """The constant naming a storage cell."""

    def elem_member(self, coll: Any, env: Env, ctl: Ctl, term: Term, kind: str) -> list[Literal]:
        """Membership of a value in any collection."""

    # -- card collections (cardsets) -------------------------------------------------------------

    def loc_term(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """``(loc OWNER VIS NAME)`` of a location expression."""

    def member(self, coll: Any, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """Literals holding when ``card`` is in the collection."""

    def exists(self, coll: Any, env: Env, ctl: Ctl) -> list[Literal]:
        """Literals holding when the collection has a member."""

    def domain_cards(self, coll: Any, env: Env) -> list[str]:
        """The cards that can be in a collection, in card-id order."""

    def ctl_key(self, node: Any, env: Env, ctl: Ctl) -> Any:
        """The part of a control context an expression depends on."""

    def card_at(self, node: CardAt, env: Env, ctl: Ctl) -> Val:
        """``(top CARDS)`` and friends."""

    def extreme(self, node: ExtremeCard, env: Env, ctl: Ctl) -> Val:
        """``(max CARDS using P)``: the best card."""

    def extreme_value(self, node: ExtremeCard, env: Env, ctl: Ctl) -> Val:
        """The points of ``(max CARDS using P)``."""

    def size_compare(self, coll: Any, op: str, k: int, env: Env, ctl: Ctl) -> list[Literal]:
        """``(size COLL) op k``."""

    def size_value(self, coll: Any, env: Env, ctl: Ctl) -> Val:
        """``(size COLL)`` as a value."""

    def sum_value(self, node: Sum, env: Env, ctl: Ctl, cap: int | None = None) -> Val:
        """``(sum CARDS using P)``."""

    # -- groups and memory piles (groups) --------------------------------------------------------

    def slot_check(self, node: ir.SlotCheck, env: Env, ctl: Ctl) -> list[Literal]:
        """``exist``, ``run`` or ``largest`` of a group of slots."""

    def slot_member(self, node: ir.SlotSet, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """A card is in a group of slots."""

    def slot_sum(self, node: ir.SlotSet, points: Any, env: Env, ctl: Ctl) -> Val:
        """The points of a group of slots."""

    def slice_member(self, node: Slice, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """A copy among the top K of a memory location."""

    def mem_top(self, loc: Any, env: Env, ctl: Ctl) -> Val:
        """The last copy remembered in a memory location."""

    def run_length(self, node: Run, env: Env, ctl: Ctl) -> Val:
        """``(size (run top N MEMORY using P))``."""

    # -- point maps (pointmaps) -------------------------------------------------------------------

    def points(self, pm: Any, env: Env, ctl: Ctl, card: Term) -> Val:
        """The points of a card under a point map."""

    def points_relation(self, key: tuple[str, str]) -> str:
        """The relation ``(REL CARD POINTS)`` of a point map."""

    def site_values(self, effect: ir.SetPointMap, ctl: Ctl) -> tuple[list[Literal], list[Term]]:
        """The values a ``set`` of a point map stores."""


__all__ = ["Clause", "Compiler"]
