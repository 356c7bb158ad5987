"""Compiling RECYCLE expressions to GDL rule bodies.

An expression in an :class:`~.ir.Env` compiles to a list of body literals and a term: the
literals hold exactly when the expression has that value in the current state (``true``
fluents, derived relations, static tables). Conditions compile to literal lists. Disjunction
and negation of compound conditions go through auxiliary relations, whose arguments are the
GDL variables of the enclosing context (choice forks, cards of a parallel ``all``).

The control context (:class:`Ctl`) says how ``(current player)`` is read: in a step it is the
resolved seat of the innermost player stage (``rseat``), while resolving control it is a seat
computed on the way, and in scoring it is each seat in turn. Card sets, point maps and the
order of cards are compiled by the mixins of :mod:`.cardsets` and :mod:`.pointmaps`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle.emit.arith import (
    FALSE,
    Interval,
    Tables,
    apply,
    fib,
    holds,
    tri,
)
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import static_elements
from translators.recycle.ir.nodes import Env, Fixed, Sym, deref
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.model import GameModel
from translators.recycle.symbols.vocabulary import (
    UNSET,
    Fresh,
    c,
    f,
    name,
    num,
    rule,
    true,
)
from translators.recycle.syntax.nodes import (
    ActualCard,
    And,
    Arith,
    BoolAgg,
    CardAt,
    CardAtt,
    Compare,
    ExtremeCard,
    Fib,
    GameOwner,
    IntAgg,
    IntLit,
    IntStorage,
    Name,
    Or,
    OwnerOf,
    PlayerAt,
    Random,
    RelativePlayer,
    RelativeTeam,
    Run,
    Score,
    Size,
    Slice,
    StrStorage,
    Sum,
    TeamAt,
    TeamOf,
    Tri,
    Var,
)
from translators.recycle.syntax.nodes import (
    Not as RNot,
)
from translators.recycle.translation_error import TranslationError

if TYPE_CHECKING:
    from translators.recycle.emit.effects import EffectEmitter
    from translators.recycle.emit.wide import Wide

Val = tuple[list[Literal], Term]


class Ctl:
    """How control values are read where an expression is evaluated."""

    key: Any = None
    #: The batch whose step this is (for chance and forwarded cards), or None.
    batch: str | None = None
    #: Whether a random choice may be read here (only in a step's effects).
    chance: bool = False

    def seat(self, stage: str, fresh: Fresh) -> Val:
        """The current seat of a player stage."""
        raise NotImplementedError

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        """The next seat of a player stage (the queued one, else the following seat)."""
        raise NotImplementedError

    def team(self, stage: str, fresh: Fresh) -> Val:
        """The current team of a team stage."""
        raise NotImplementedError

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        """The next team of a team stage."""
        raise NotImplementedError


class StepCtl(Ctl):
    """In a step: the resolved control values of the step (``rseat``, ``rnext``...)."""

    def __init__(self, batch: str | None = None, chance: bool = False):
        self.batch = batch
        self.chance = chance
        self.key = ("step", batch, chance)

    # One variable per stage: every reading of a stage's seat in a rule is the same value, and
    # the grounder then joins them instead of multiplying them.

    def seat(self, stage: str, fresh: Fresh) -> Val:
        v = Variable(f"seat_{stage}")
        return [f("rseat", stage, v)], v

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        v = Variable(f"next_{stage}")
        return [f("rnext", stage, v)], v

    def team(self, stage: str, fresh: Fresh) -> Val:
        v = Variable(f"team_{stage}")
        return [f("rtseat", stage, v)], v

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        v = Variable(f"nextteam_{stage}")
        return [f("rtnext", stage, v)], v


class ParamCtl(Ctl):
    """Inside a chain made once for every seat: ``(current player)`` is a parameter ``?cur_S``."""

    def __init__(self, stages: tuple[str, ...]):
        self.stages = stages
        self.key = ("param", stages)

    def seat(self, stage: str, fresh: Fresh) -> Val:
        if stage not in self.stages:
            raise AssertionError(stage)
        return [], Variable(f"cur_{stage}")

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        raise AssertionError("lifted expressions do not read (next player)")

    def team(self, stage: str, fresh: Fresh) -> Val:
        raise AssertionError("lifted expressions do not read teams")

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        raise AssertionError("lifted expressions do not read teams")


class FixedSeatCtl(Ctl):
    """Scoring: ``(current player)`` is one given seat."""

    def __init__(self, seat: int, players: int):
        self.seat_index = seat
        self.players = players
        self.key = ("seat", seat)

    def seat(self, stage: str, fresh: Fresh) -> Val:
        return [], c(f"player{self.seat_index}")

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        return [], c(f"player{(self.seat_index + 1) % self.players}")

    def team(self, stage: str, fresh: Fresh) -> Val:
        v = fresh("t")
        return [f("teamof", c(f"player{self.seat_index}"), v)], v

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        raise TranslationError(None, "(next team) cannot be used in scoring")


class SourceCtl(Ctl):
    """While resolving control: each stage's seat is a relation computed on the way."""

    def __init__(self, sources: dict[str, Callable[[Fresh], Val]], key: Any, batch: str | None = None):
        self.sources = sources
        self.key = ("resolve", key)
        self.batch = batch

    def seat(self, stage: str, fresh: Fresh) -> Val:
        return self.sources[stage](fresh)

    def next_seat(self, stage: str, fresh: Fresh) -> Val:
        return self.sources["next:" + stage](fresh)

    def team(self, stage: str, fresh: Fresh) -> Val:
        return self.sources[stage](fresh)

    def next_team(self, stage: str, fresh: Fresh) -> Val:
        return self.sources["next:" + stage](fresh)


def positive_vars(lits: Sequence[Literal]) -> set[Variable]:
    """Variables bound by the positive atoms of a body."""
    out: set[Variable] = set()
    for lit in lits:
        if isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct):
            out.update(lit.variables())
    return out


def lit_vars(lits: Sequence[Literal]) -> set[Variable]:
    """Every variable of a body."""
    out: set[Variable] = set()
    for lit in lits:
        out.update(lit.variables())
    return out


def substitute(lits: list[Literal], var: Variable, value: Term) -> list[Literal]:
    """The body with one variable replaced."""
    binding = {var: value}
    out: list[Literal] = []
    for lit in lits:
        if isinstance(lit, Not):
            out.append(Not(lit.literal.substitute(binding)))  # type: ignore[arg-type, union-attr]
        elif isinstance(lit, Distinct):
            out.append(Distinct(lit.left.substitute(binding), lit.right.substitute(binding)))
        else:
            out.append(lit.substitute(binding))  # type: ignore[arg-type, union-attr]
    return out


class CoreCompiler:
    """Conditions and scalar values (integers, strings, players, teams, owners, cards)."""

    #: Set by the translator: the emitter of the step rules, and the wide (digit-wise) cells.
    emitter: EffectEmitter
    wide: Wide

    def __init__(self, model: GameModel, book: RuleBook, program: ir.Program):
        self.model = model
        self.book = book
        self.program = program
        self.fresh = Fresh()
        self.tables = Tables(book)
        self.sorts: dict[str, Literal] = {}

    # -- hooks provided by other parts -------------------------------------------------------

    def interval(self, node: Any, env: Env) -> Interval:
        """The static range of an integer expression (provided by the translator)."""
        raise NotImplementedError

    def member(self, coll: Any, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """Membership of a card in a card collection (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def card_at(self, node: CardAt, env: Env, ctl: Ctl) -> Val:
        """``(top CARDS)`` and friends (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def extreme(self, node: ExtremeCard, env: Env, ctl: Ctl) -> Val:
        """``(max CARDS using P)`` (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def extreme_value(self, node: ExtremeCard, env: Env, ctl: Ctl) -> Val:
        """The points of ``(max CARDS using P)`` (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def size_compare(self, coll: Any, op: str, k: int, env: Env, ctl: Ctl) -> list[Literal]:
        """``(size COLL) op k`` (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def size_value(self, coll: Any, env: Env, ctl: Ctl) -> Val:
        """``(size COLL)`` as a value (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def sum_value(self, node: Sum, env: Env, ctl: Ctl) -> Val:
        """``(sum CARDS using P)`` (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def points(self, pm: Any, env: Env, ctl: Ctl, card: Term) -> Val:
        """A card's points under a point map (see :mod:`.pointmaps`)."""
        raise NotImplementedError

    def ctl_key(self, node: Any, env: Env, ctl: Ctl) -> Any:
        """What of the control context an expression depends on (see :mod:`.cardsets`)."""
        return ctl.key

    def moved_card(self, node: ir.MovedCard, ctl: Ctl) -> Val:
        """The card an earlier effect moved (provided by the translator)."""
        raise NotImplementedError

    def random_value(self, node: Random, env: Env, ctl: Ctl) -> Val:
        """``(random ...)`` (provided by the translator)."""
        raise NotImplementedError

    def picked_card(self, node: ir.PickedCard, ctl: Ctl) -> Val:
        """The card a ``PickCard`` effect picked (provided by the translator)."""
        raise NotImplementedError

    def loc_term(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """``(loc OWNER VIS NAME)`` of a location expression (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def domain_cards(self, coll: Any, env: Env) -> list[str]:
        """The cards that can be in a collection, in card-id order (see :mod:`.cardsets`)."""
        raise NotImplementedError

    def card_values(self, pm: Any, env: Env, card_id: str) -> set[int]:
        """Every value a card can score under a point map (see :mod:`.pointmaps`)."""
        raise NotImplementedError

    def slot_check(self, node: ir.SlotCheck, env: Env, ctl: Ctl) -> list[Literal]:
        """``exist``, ``run`` or ``largest`` of a group of slots (see :mod:`.groups`)."""
        raise NotImplementedError

    def slot_member(self, node: ir.SlotSet, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """A card is in a group of slots (see :mod:`.groups`)."""
        raise NotImplementedError

    def slot_sum(self, node: ir.SlotSet, points: Any, env: Env, ctl: Ctl) -> Val:
        """The points of a group of slots (see :mod:`.groups`)."""
        raise NotImplementedError

    def slice_member(self, node: Slice, env: Env, ctl: Ctl, card: Term) -> list[Literal]:
        """A copy among the top K of a memory location (see :mod:`.groups`)."""
        raise NotImplementedError

    def mem_top(self, loc: Any, env: Env, ctl: Ctl) -> Val:
        """The last copy remembered in a memory location (see :mod:`.groups`)."""
        raise NotImplementedError

    def run_length(self, node: Run, env: Env, ctl: Ctl) -> Val:
        """``(size (run top N MEMORY using P))`` (see :mod:`.groups`)."""
        raise NotImplementedError

    # -- auxiliary relations ----------------------------------------------------------------------

    def sort_literal(self, var: Variable, sort: str) -> Literal:
        """A static literal binding ``var`` to every value of a sort."""
        head = {"card": "card", "seat": "seat", "team": "team"}.get(sort)
        if head is None:
            key = sort
            if key not in self.sorts:
                rel = self.book.name("sort")
                with self.book.group(f"values of {sort}"):
                    if sort.startswith("name:"):
                        values: list[Term] = [Constant(v) for v in sort[5:].split(",") if v]
                    elif sort.startswith("int:"):
                        _, lo, hi = sort.split(":")
                        values = [num(i) for i in range(int(lo), int(hi) + 1)]
                    else:
                        raise AssertionError(sort)
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
            return _TRUE
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
        from translators.recycle.rulebook.book import describe

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
        if len(lits) == 1 and isinstance(lits[0], (Function, Constant)) and not isinstance(lits[0], Distinct):
            single = lits[0]
            local = lit_vars([single]) - {s.var for s in self.context(env)} - {v for v, _ in extra}
            if not local:
                return [Not(single)]
        if len(lits) == 1 and lits[0] is _TRUE:
            return [FALSE]
        atom = self.aux("not", [lits], env, node, extra)
        if atom is FALSE:
            return []
        if atom is _TRUE:
            return [FALSE]
        return [Not(atom)]

    # -- conditions ----------------------------------------------------------------------------

    def cond(self, node: Any, env: Env, ctl: Ctl) -> list[Literal]:
        """A condition as a conjunction of literals."""
        node, env = deref(node, env)
        if isinstance(node, And):
            out: list[Literal] = []
            for arg in node.args:
                out += self.cond(arg, env, ctl)
            return _clean(out)
        if isinstance(node, Or):
            alts = [self.cond(arg, env, ctl) for arg in node.args]
            if any(not alt for alt in alts):
                return []
            atom = self.aux("or", alts, env, node, key=("or", node, env, self.ctl_key(node, env, ctl)))
            return [] if atom is _TRUE else [atom]
        if isinstance(node, RNot):
            return self.negate(self.cond(node.arg, env, ctl), env, node)
        if isinstance(node, BoolAgg):
            return self.quantified(node, env, ctl)
        if isinstance(node, Compare):
            return _clean(self.compare(node, env, ctl))
        if isinstance(node, ir.SlotCheck):
            return self.slot_check(node, env, ctl)
        raise TranslationError(node, "a condition is expected here")

    def quantified(self, node: BoolAgg, env: Env, ctl: Ctl) -> list[Literal]:
        """``(all COLL 'V COND)`` / ``(any COLL 'V COND)``."""

        elements = static_elements(self.model, node.collection, env, node)
        if elements is not None:
            parts: list[list[Literal]] = []
            for binding, conds in elements:
                inner = env.bind(node.var.name, binding)
                member: list[Literal] = []
                for cond, cond_env in conds:
                    member += self.cond(cond, cond_env, ctl)
                body = self.cond(node.condition, inner, ctl)
                if node.quantifier == "any":
                    parts.append(member + body)
                else:
                    parts.append(self.negate(member + self.negate(body, inner, node), inner, node))
            if node.quantifier == "all":
                return _clean([lit for part in parts for lit in part])
            if any(not p for p in parts):
                return []
            atom = self.aux("any", parts, env, node, key=("any", node, env, self.ctl_key(node, env, ctl)))
            return [] if atom is _TRUE else [atom]
        card = self.fresh("c")
        inner = env.bind(node.var.name, Sym(card, "card", "card"))
        member = self.member(node.collection, env, ctl, card)
        body = self.cond(node.condition, inner, ctl)
        if node.quantifier == "any":
            atom = self.aux("exists", [member + body], env, node, key=("ex", node, env, self.ctl_key(node, env, ctl)))
            return [] if atom is _TRUE else [atom]
        bad = self.aux("counter", [member + self.negate(body, inner, node)], env, node,
                       key=("ctr", node, env, self.ctl_key(node, env, ctl)))
        return self.negate([bad], env, node) if bad is not FALSE else []

    def compare(self, node: Compare, env: Env, ctl: Ctl) -> list[Literal]:
        """A comparison."""
        kind: str = node.kind
        if kind == "unknown":
            kind = self.value_kind(node.left, env)
        if kind == "int":
            sized = self.size_side(node, env, ctl)
            if sized is not None:
                return sized
            left, right = self.int_(node.left, env, ctl), self.int_(node.right, env, ctl)
            return self.int_compare(node.op, left, right, node, env)
        if node.op not in ("==", "!="):
            raise TranslationError(node, f"`{node.op}` compares integers only")
        left, right = self.value(node.left, env, ctl, kind), self.value(node.right, env, ctl, kind)
        equal = self.equal(left, right, env, node, kind)
        return equal if node.op == "==" else self.negate(equal, env, node)

    def value_kind(self, node: Any, env: Env) -> str:
        """What an operand holds."""
        from translators.recycle.syntax.kinds import kind_of

        real, real_env = deref(node, env)
        if isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, (Fixed, Sym)):
                return binding.kind
        if isinstance(real, ir.MovedCard):
            return "card"
        return kind_of(real)

    def value(self, node: Any, env: Env, ctl: Ctl, kind: str) -> Val:
        """An operand of the given kind."""
        if kind == "str":
            return self.str_(node, env, ctl)
        if kind == "card":
            return self.card(node, env, ctl)
        if kind == "player":
            return self.player(node, env, ctl)
        if kind == "team":
            return self.team(node, env, ctl)
        if kind == "int":
            return self.int_(node, env, ctl)
        raise TranslationError(node, f"cannot compare values of kind {kind}")

    def equal(self, left: Val, right: Val, env: Env, node: Any, kind: str) -> list[Literal]:
        """Both values are equal."""
        (la, ta), (lb, tb) = left, right
        context = {s.var for s in self.context(env)}
        if isinstance(tb, Variable) and tb not in context:
            return _clean(la + substitute(lb, tb, ta))
        if isinstance(ta, Variable) and ta not in context:
            return _clean(lb + substitute(la, ta, tb))
        if not isinstance(ta, Variable) and not isinstance(tb, Variable):
            return _clean(la + lb) if ta == tb else [FALSE]
        sort = {"card": "card", "player": "seat", "team": "team"}.get(kind)
        if sort is None:
            raise TranslationError(node, "cannot compare these two values")
        return _clean(la + lb + [f(self.same(sort), ta, tb)])

    def int_compare(self, op: str, left: Val, right: Val, node: Any, env: Env) -> list[Literal]:
        """``left op right`` for integers."""
        (la, ta), (lb, tb) = left, right
        if not isinstance(ta, Variable) and not isinstance(tb, Variable):
            return _clean(la + lb) if holds(op, int(ta.name), int(tb.name)) else [FALSE]
        if op == "==":
            return self.equal(left, right, env, node, "int")
        if not isinstance(tb, Variable):
            table = self.tables.test(op, int(tb.name), self.term_interval(ta, node, env, "left"))
            return _clean(la + lb + [f(table, ta)]) if table else [FALSE]
        if not isinstance(ta, Variable):
            flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}[op]
            table = self.tables.test(flipped, int(ta.name), self.term_interval(tb, node, env, "right"))
            return _clean(la + lb + [f(table, tb)]) if table else [FALSE]
        ra, rb = self.term_interval(ta, node, env, "left"), self.term_interval(tb, node, env, "right")
        if (ra[1] - ra[0] + 1) * (rb[1] - rb[0] + 1) > 400 and op != "!=":
            return self.chain_compare(op, left, right, ra, rb, node, env)
        table = self.tables.compare(op, ra, rb)
        return _clean(la + lb + [f(table, ta, tb)]) if table else [FALSE]

    def chain_compare(self, op: str, left: Val, right: Val, ra: Interval, rb: Interval, node: Any,
                      env: Env) -> list[Literal]:
        """``left op right`` for two wide-ranging values, with a chain "left is at least v"
        (linear in the ranges, where a table would be their product)."""
        if op in ("<", "<="):
            left, right, ra, rb = right, left, rb, ra
            op = {"<": ">", "<=": ">="}[op]
        (la, ta), (lb, tb) = left, right
        params = [(s.var, s.sort) for s in self.context(env) if s.var in lit_vars(la + lb)]
        heads = [v for v, _ in params]
        prefix = self.book.name("atleast", node)
        result = self.book.name("cmp", node)
        shift = 1 if op == ">" else 0
        from translators.recycle.rulebook.book import describe

        def safe(body: list[Literal]) -> list[Literal]:
            bound = positive_vars(body)
            return body + [self.sort_literal(v, srt) for v, srt in params if v not in bound]

        with self.book.group(f"{describe(node)}: the left side is at least v, for each v", node):
            for v in range(ra[0], ra[1] + 1):
                here = f(f"{prefix}_{_n(v)}", *heads)
                self.book.add(rule(here, safe(substitute(la, ta, num(v)) if isinstance(ta, Variable) else la)))
                if v > ra[0]:
                    self.book.add(rule(f(f"{prefix}_{_n(v - 1)}", *heads), [here]))
            for w in range(rb[0], rb[1] + 1):
                need = w + shift
                if need > ra[1]:
                    continue
                reach = f(f"{prefix}_{_n(max(need, ra[0]))}", *heads)
                body = (substitute(lb, tb, num(w)) if isinstance(tb, Variable) else lb) + [reach]
                self.book.add(rule(f(result, *heads), safe(body)))
        return [f(result, *heads)]

    def term_interval(self, term: Term, node: Any, env: Env, side: str) -> Interval:
        """The range of an operand of a comparison node."""
        operand = getattr(node, side, None) if isinstance(node, Compare) else node
        return self.interval(operand, env)

    def size_side(self, node: Compare, env: Env, ctl: Ctl) -> list[Literal] | None:
        """``(size C) op k`` or ``(sum C using P) op k`` with a constant k: sizes compared with 0
        need no counting, and counts and sums stop (saturate) just above k."""
        flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
        for coll_side, k_side, op in ((node.left, node.right, node.op), (node.right, node.left, flip[node.op])):
            real, real_env = deref(coll_side, env)
            if isinstance(real, (Size, Sum)):
                k = self.constant_int(k_side, env)
                if k is None:
                    continue
                if isinstance(real, Size):
                    return self.size_compare(real.collection, op, k, real_env, ctl)
                if k < 0:
                    return [] if op in (">", ">=", "!=") else [FALSE]
                lits, value = self.sum_value(real, real_env, ctl, cap=k + 1)  # type: ignore[call-arg]
                table = self.tables.test(op, k, (0, k + 1))
                return lits + [f(table, value) if table else FALSE]
        return None

    def constant_int(self, node: Any, env: Env) -> int | None:
        """An integer known statically, or None."""
        real, real_env = deref(node, env)
        if isinstance(real, IntLit):
            return real.value
        if isinstance(real, Var):
            binding = real_env.get(real.name)
            if isinstance(binding, Fixed) and binding.kind == "int":
                return int(binding.term.name)
        if isinstance(real, Arith):
            a, b = self.constant_int(real.left, real_env), self.constant_int(real.right, real_env)
            if a is not None and b is not None:
                return apply(real.op, a, b)
        return None

    # -- scalar values ---------------------------------------------------------------------------

    def int_(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """An integer expression."""
        node, env = deref(node, env)
        known = self.constant_int(node, env)
        if known is not None:
            return [], num(known)
        if isinstance(node, Var):
            binding = env.get(node.name)
            if isinstance(binding, Sym):
                return [], binding.var
            raise TranslationError(node, f"'{node.name} is not an integer here")
        if isinstance(node, IntStorage):
            lits, owner = self.owner(node.owner, env, ctl)
            family = self.family(node, env)
            if self.wide.is_wide(family):
                more, value = self.wide.read(owner, family, self.fresh)
                return lits + more, value
            v = self.fresh("n")
            return lits + [true(f("sto", owner, self.storage_name(node.name, env), v))], v
        if isinstance(node, Arith):
            return self.arith(node, env, ctl)
        if isinstance(node, Size):
            return self.size_value(node.collection, env, ctl)
        if isinstance(node, Sum):
            return self.sum_value(node, env, ctl)
        if isinstance(node, Score):
            card = node.card
            real, real_env = deref(card, env)
            if isinstance(real, ExtremeCard) and real.points == node.points:
                return self.extreme_value(real, real_env, ctl)
            return self.score(node, env, ctl)
        if isinstance(node, IntAgg):
            return self.int_agg(node, env, ctl)
        if isinstance(node, Random):
            return self.random_value(node, env, ctl)
        if isinstance(node, (Tri, Fib)):
            lits, arg = self.int_(node.arg, env, ctl)
            what = "tri" if isinstance(node, Tri) else "fib"
            table = self.tables.unary(what, tri if what == "tri" else fib, self.interval(node.arg, env))
            v = self.fresh("n")
            return lits + [f(table, arg, v) if table else FALSE], v
        raise TranslationError(node, "an integer is expected here")

    def score(self, node: Score, env: Env, ctl: Ctl) -> Val:
        """``(score CARD using P)`` (no value when there is no card)."""
        card_lits, card = self.card(node.card, env, ctl)
        lits, value = self.points(node.points, env, ctl, card)
        return card_lits + lits, value

    def arith(self, node: Arith, env: Env, ctl: Ctl) -> Val:
        """``(op A B)`` through a table."""
        la, ta = self.int_(node.left, env, ctl)
        lb, tb = self.int_(node.right, env, ctl)
        out = self.interval(node, env)
        v = self.fresh("n")
        if not isinstance(tb, Variable):
            table = self.tables.shift(node.op, int(tb.name), self.interval(node.left, env), out)
            return la + lb + [f(table, ta, v) if table else FALSE], v
        if not isinstance(ta, Variable):
            table = self.tables.shift(node.op, int(ta.name), self.interval(node.right, env), out, left=True)
            return la + lb + [f(table, tb, v) if table else FALSE], v
        table = self.tables.binary(node.op, self.interval(node.left, env), self.interval(node.right, env), out)
        return la + lb + [f(table, ta, tb, v) if table else FALSE], v

    def int_agg(self, node: IntAgg, env: Env, ctl: Ctl) -> Val:
        """``(all COLL 'V (OWNER sto NAME))``: the sum over a static collection."""

        elements = static_elements(self.model, node.collection, env, node)
        if elements is None or any(conds for _, conds in elements):
            raise TranslationError(node, "a sum over storage needs a fixed collection (players, teams)")
        lits: list[Literal] = []
        total: Term = num(0)
        low = high = 0
        for binding, _ in elements:
            inner = env.bind(node.var.name, binding)
            part_lits, part = self.int_(node.body, inner, ctl)
            lo, hi = self.interval(node.body, inner)
            lits += part_lits
            if total == num(0):
                total, low, high = part, lo, hi
                continue
            v = self.fresh("n")
            table = self.tables.binary("+", (low, high), (lo, hi))
            lits.append(f(table, total, part, v) if table else FALSE)
            total, low, high = v, low + lo, high + hi
        return lits, total

    def family(self, node: IntStorage, env: Env) -> tuple[str, str]:
        """The (owner kind, NAME) family of an integer storage cell."""
        from translators.recycle.symbols.model import owner_kind

        real, real_env = deref(node.owner, env)
        if isinstance(real, Var) and isinstance(real_env.get(real.name), (Fixed, Sym)):
            kind = real_env.get(real.name).kind  # type: ignore[union-attr]
        else:
            kind = owner_kind(real)
        label, _ = deref(node.name, env)
        if not isinstance(label, Name):
            raise TranslationError(node, "storage names must be literal NAMEs")
        return kind, label.text

    def storage_name(self, node: Any, env: Env) -> Constant:
        """The constant naming a storage cell."""
        real, _ = deref(node, env)
        if not isinstance(real, Name):
            raise TranslationError(node, "storage names must be literal NAMEs")
        return name(real.text)

    def str_(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A string expression (may fail to have a value: ``cardatt`` of no card)."""
        node, env = deref(node, env)
        if isinstance(node, Name):
            return [], name(node.text)
        if isinstance(node, Var):
            bound = env.term(node.name)
            if bound is not None:
                return [], bound
            raise TranslationError(node, f"'{node.name} is not a string here")
        if isinstance(node, StrStorage):
            lits, owner = self.owner(node.owner, env, ctl)
            v = self.fresh("s")
            return lits + [true(f("str", owner, self.storage_name(node.name, env), v))], v
        if isinstance(node, CardAtt):
            key = self.storage_name(node.key, env)
            lits, card = self.card(node.card, env, ctl)
            v = self.fresh("s")
            return lits + [f("attr", card, key, v)], v
        raise TranslationError(node, "a string is expected here")

    def str_total(self, node: Any, env: Env, ctl: Ctl) -> Val:
        """A string expression that always has a value (``unset`` where ``cardatt`` has none)."""
        lits, term = self.str_(node, env, ctl)
        real, _ = deref(node, env)
        if not isinstance(real, CardAtt) or not isinstance(term, Variable):
            return lits, term
        key = ("strtotal", real, env, ctl.key)
        if key in self.book.memo:
            head = self.book.memo[key]
            return [head], head.args[-1]
        some = self.aux("hasatt", [lits], env, node, key=("ha", real, env, ctl.key))
        v = self.fresh("s")
        values = ",".join(sorted({name(n).name for n in self.model.names} | {UNSET.name}))
        params = [(s.var, s.sort) for s in self.context(env) if s.var in lit_vars(lits)] + [(v, "name:" + values)]
        clauses: list[tuple[dict[Variable, Term], list[Literal]]] = [({}, substitute(lits, term, v))]
        if some is not _TRUE:
            clauses.append(({v: UNSET}, [Not(some)] if some is not FALSE else []))
        head = self.define("att", real, params, clauses)
        self.book.memo[key] = head
        return [head], v

    def define(self, prefix: str, node: Any, params: list[tuple[Variable, str]],
               clauses: list[tuple[dict[Variable, Term], list[Literal]]], comment: str = "") -> Function:
        """A relation with the given parameters, one rule per clause (a clause may fix some
        parameters to constants); parameters left unbound get their sort literal."""
        from translators.recycle.rulebook.book import describe

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
            values = {"card": [card.id for card in self.model.cards], "seat": self.model.seats,
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
            k = self.constant_int(node.index, env)
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
            k = self.constant_int(node.index, env)
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


def _n(value: int) -> str:
    return f"m{-value}" if value < 0 else str(value)


class _True(Constant):
    """Marker for an auxiliary relation that always holds (never emitted)."""


_TRUE = _True("true_marker")


def _clean(lits: list[Literal]) -> list[Literal]:
    if FALSE in lits:
        return [FALSE]
    out: list[Literal] = []
    for lit in lits:
        if lit is _TRUE or lit in out:
            continue
        out.append(lit)
    return out


__all__ = ["CoreCompiler", "Ctl", "FixedSeatCtl", "ParamCtl", "SourceCtl", "StepCtl", "Val", "positive_vars", "substitute"]
