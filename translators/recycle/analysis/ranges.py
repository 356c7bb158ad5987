"""Static ranges of integers: intervals of every expression and of every storage cell.

Integers are unary constants in the translated game, so every storage cell needs a finite
range. A cell's range is the hull of 0 (its start), of every value ``set`` assigns, plus for
each ``inc``/``dec`` its delta times a bound on how often it can run: once when it is on no
loop; at most ``500 // k + 1`` times when every pass of its innermost loop makes at least ``k``
choices (CardStock stops a game at 500 choices); for a loop that makes no choice, one round of
the cycle (one pass per player or team) per pass of the enclosing loop. When that gives a very
wide range, the range is narrowed instead to the constants the program compares the cell with
(a loop usually stops once a value passes them), plus one more round of deltas. Both are heuristics for loops without choices; a value that leaves its range in
play ends the game with a visible failure (``(failed overflow)``), never with a wrong number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from math import comb
from typing import Any

from translators.recycle.analysis.bounds import execution_bounds
from translators.recycle.analysis.capacity import MEMORY_CAP, pile_counts
from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.integers import (
    FLIPPED,
    NEGATED,
    Interval,
    apply,
    fib,
    tri,
)
from translators.recycle.analysis.places import CardDomains, concrete
from translators.recycle.analysis.pointmaps import PointMaps
from translators.recycle.analysis.sinks import sink_budgets
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.elements import (
    expression_kind,
    memory_under_filters,
    static_elements,
    storage_family,
)
from translators.recycle.ir.nodes import Env, Fixed, Sym, deref
from translators.recycle.symbols.model import (
    GameModel,
    Location,
    owner_kind,
)
from translators.recycle.syntax.nodes import (
    And,
    Arith,
    BoolAgg,
    CardLocation,
    Compare,
    Fib,
    Filter,
    IntAgg,
    IntLit,
    IntStorage,
    Name,
    Node,
    Not,
    Or,
    Partition,
    Random,
    Runs,
    Score,
    SetOp,
    Size,
    Sort,
    Subsets,
    Sum,
    Tri,
    Tuples,
    Var,
)
from translators.recycle.translation_error import TranslationError

#: Above this many values a cell's range is widened to the thresholds it is compared with.
WIDE = 160
#: No cell may need more values than this: 10^12 (wide cells are kept in decimal digits, and
#: compared, incremented and ranked on their digits; reading one as a number needs a table of
#: its values, which :mod:`..emit.wide` limits where it is made).
LIMIT = 10**12
#: A unary cell family may have at most this many values.
UNARY_LIMIT = 4000
#: An increment of a unary family may need a table of at most this many rows.
TABLE_BUDGET = 20_000
#: A write that reads only its own cell is followed value by value up to this many values.
IMAGE_LIMIT = 10_000


def hull(a: Interval, b: Interval) -> Interval:
    """The smallest interval containing both."""
    return min(a[0], b[0]), max(a[1], b[1])


def arith_interval(op: str, a: Interval, b: Interval) -> Interval:
    """Interval arithmetic for ``+ - * // % ^``."""
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op in ("*", "^"):
        values = [v for x in (a[0], a[1]) for y in (b[0], b[1]) if (v := apply(op, x, y)) is not None]
        if op == "^" and b[1] > 1:
            values += [apply(op, x, y) or 0 for x in range(a[0], a[1] + 1) for y in range(max(b[0], 0), b[1] + 1)]
        return min(values), max(values)
    if op == "//":
        values = [v for x in range(a[0], a[1] + 1) for y in (b[0], b[1], 1, -1) if b[0] <= y <= b[1]
                  and (v := apply(op, x, y)) is not None] if a[1] - a[0] < 5000 else [a[0], a[1]]
        return (min(values), max(values)) if values else (0, 0)
    if op == "%":
        high = max(abs(b[0]), abs(b[1]))
        return (0, max(high - 1, 0)) if a[0] >= 0 and b[0] > 0 else (-high, high)
    raise ValueError(op)


def all_runs_bound(scoring: Mapping[int, int], length: int) -> int:
    """How many runs of ``length`` or more ``(runs all ...)`` can make at most: one for each
    stretch of ``length`` or more consecutive values and each choice of a card per value (the
    engine's copies of a run extended afterwards number the same: a stretch of L values gives
    L - N + 1 runs of its first card, each kept as often as it is extended)."""
    values = sorted(v for v, c in scoring.items() if c > 0)
    total = 0
    for i, first in enumerate(values):
        product = 1
        for j in range(i, len(values)):
            if values[j] != first + (j - i):
                break
            product *= scoring[values[j]]
            if j - i + 1 >= length:
                total += product
    return total


def runs_bound(scoring: Mapping[int, int], length: int, held: int | None = None) -> int:
    """How many runs of ``length`` or more ``(runs largest ...)`` can make from cards whose
    points are counted in ``scoring`` (value: cards), ``held`` of them at most (None: all): for
    each longest stretch of consecutive values, long enough, the product of its values' cards
    (the engine's runs branch on cards of equal points), the most over the ways to hold them."""
    values = sorted(v for v, c in scoring.items() if c > 0)
    if held is None or held >= sum(scoring[v] for v in values):
        held = sum(scoring[v] for v in values)
    # (cards held, stretch length up to ``length``) -> the best (product, total closed) pairs
    fronts: dict[tuple[int, int], set[tuple[int, int]]] = {(0, 0): {(1, 0)}}
    last = None
    for value in values:
        grown: dict[tuple[int, int], set[tuple[int, int]]] = {}
        for (used, stretch), pairs in fronts.items():
            for product, total in pairs:
                goes_on = last is not None and value == last + 1 and stretch > 0
                closed = total + (product if stretch >= length else 0)
                grown.setdefault((used, 0), set()).add((1, closed))  # none of this value
                for m in range(1, min(scoring[value], held - used) + 1):
                    state = (used + m, min(stretch + 1, length)) if goes_on else (used + m, 1)
                    grown.setdefault(state, set()).add((product * m, total) if goes_on else (m, closed))
        fronts = {k: _pareto(v) for k, v in grown.items()}
        last = value
    return max((total + (product if stretch >= length else 0) for (_, stretch), pairs in fronts.items()
                for product, total in pairs), default=0)


def _pareto(pairs: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The pairs no other pair beats in both parts."""
    best: set[tuple[int, int]] = set()
    high = -1
    for product, total in sorted(pairs, key=lambda pt: (-pt[0], -pt[1])):
        if total > high:
            best.add((product, total))
            high = total
    return best


class Ranges:
    """Intervals of integer expressions and storage cells."""

    def __init__(self, model: GameModel, program: ir.Program, domains: CardDomains, pointmaps: PointMaps,
                 exec_bound: Callable[[ir.Effect], int | None], capacity: Mapping[Location, int] | None = None,
                 caps: Mapping[tuple[str, str], int] | None = None,
                 budgets: Mapping[int, tuple[Any, int]] | None = None):
        self.model = model
        #: Changes that run only as cards go where they never leave, by effect: their group and
        #: how often the group's changes run in all (``analysis/sinks.py``).
        self.budgets: Mapping[int, tuple[Any, int]] = budgets or {}
        #: The largest value some cell families are kept within (the bounds of ranges read in
        #: play: ``analysis/spans.py``); a game that goes past ends with ``(failed overflow)``.
        self.caps: Mapping[tuple[str, str], int] = caps or {}
        #: The most cards each pile (memories aside) can hold at once (:mod:`.capacity`).
        self.capacity: Mapping[Location, int] = capacity or {}
        self.program = program
        self.domains = domains
        self.pointmaps = pointmaps
        self.exec_bound = exec_bound
        #: The choice and option of each effect of a choice's options.
        self.option_of: dict[int, tuple[str, int]] = {}
        self.choice_effects: dict[str, list[ir.Effect]] = {}
        for choice in program.choices.values():
            for option in choice.options:
                for effect in option.effects:
                    self.option_of[effect.id] = (choice.id, option.index)
                    self.choice_effects.setdefault(choice.id, []).append(effect)
        self.cells: dict[tuple[str, str], Interval] = {}
        self.wide: dict[tuple[str, str], Interval] = {}
        pointmaps.interval = self.of
        self.solve()

    def size_bound(self, coll: Any, env: Env) -> int:
        """How many elements a collection can have."""
        real, real_env = deref(coll, env)
        kind = expression_kind(real, real_env)
        if kind in ("players", "team"):
            return self.model.players
        if kind == "teams":
            return len(self.model.teams)
        if isinstance(real, Filter) and kind != "cards":  # at most as many as it filters
            return self.size_bound(real.collection, real_env)
        if isinstance(real, Subsets):  # every subset, the empty one included
            return 1 << len(self.domains.cards(real.cards, real_env))
        if isinstance(real, Tuples):  # every N of the cards scoring one value
            n = max(static_int(real.size, real_env) or 1, 1)
            scoring = Counter(value for cid in self.domains.cards(real.cards, real_env)
                              for value in self.pointmaps.card_values(real.points, real_env, cid))
            return sum(comb(c, n) for c in scoring.values())
        if isinstance(real, Runs):  # the runs of each stretch of consecutive values
            scoring = Counter(value for cid in self.domains.cards(real.cards, real_env)
                              for value in self.pointmaps.card_values(real.points, real_env, cid))
            length = max(static_int(real.length, real_env) or 1, 1)
            if real.mode != "largest":
                return all_runs_bound(scoring, length)
            return runs_bound(scoring, length, self.card_bound(real.cards, real_env))
        if isinstance(real, Partition) and isinstance(key := deref(real.key, real_env)[0], Name):
            return len({v for card in self.model.cards if (v := card.attr(key.text)) is not None})
        if kind != "cards" and (elements := static_elements(self.model, real, real_env, real)) is not None:
            return len(elements)
        return self.card_bound(real, real_env)

    def card_bound(self, coll: Any, env: Env) -> int:
        """How many cards a card collection can hold at once: a pile's capacity (a union the sum
        of its parts', an intersection the least, a filter or sort its source's), a memory's
        copies, else how many cards can be in it."""
        real, real_env = deref(coll, env)
        cards = len(self.domains.cards(real, real_env))
        if isinstance(real, CardLocation) and real.visibility == "mem":
            return MEMORY_CAP  # copies: a card remembered twice is there twice
        if isinstance(real, CardLocation):
            places = concrete(real, real_env, self.model)
            if places and all(p in self.capacity for p in places):
                return min(cards, max(self.capacity[p] for p in places))
        if isinstance(real, SetOp) and isinstance(real.parts, tuple):
            parts = [self.card_bound(part, real_env) for part in real.parts]
            return min(cards, min(parts) if real.op == "intersect" else sum(parts))
        if isinstance(real, (Filter, Sort)):
            return min(cards, self.card_bound(real.collection if isinstance(real, Filter) else real.cards, real_env))
        return cards

    def sum_interval(self, node: Sum, env: Env) -> Interval:
        """The range of a sum of points over the cards that can be members (over a memory
        location, up to :data:`MEMORY_CAP` copies of any of them)."""
        if memory_under_filters(node.cards, env) is not None:
            values = {v for cid in self.domains.cards(node.cards, env)
                      for v in self.pointmaps.card_values(node.points, env, cid)} or {0}
            return MEMORY_CAP * min(0, min(values)), MEMORY_CAP * max(0, max(values))
        low = high = 0
        for cid in self.domains.cards(node.cards, env):
            values = self.pointmaps.card_values(node.points, env, cid)
            low += min(0, min(values))
            high += max(0, max(values))
        return low, high

    def score_interval(self, node: Score, env: Env) -> Interval:
        """The range of one card's points."""
        cards = self.domains.card_cards(node.card, env)
        values = {v for cid in cards for v in self.pointmaps.card_values(node.points, env, cid)} or {0}
        return min(values), max(values)

    def cell(self, kind: str, label: str) -> Interval:
        """The range of a storage cell family (every owner of a kind shares one)."""
        return self.cells.get((kind, label), (0, 0))

    def of(self, node: Any, env: Env) -> Interval:
        """The range of an integer expression."""
        node, env = deref(node, env)
        if isinstance(node, IntLit):
            return node.value, node.value
        if isinstance(node, Var):
            binding = env.get(node.name)
            if isinstance(binding, Fixed):
                value = int(binding.term.name)
                return value, value
            if isinstance(binding, Sym) and binding.sort.startswith("int:"):
                _, lo_text, hi_text = binding.sort.split(":")
                return int(lo_text), int(hi_text)
            raise TranslationError(node, f"'{node.name} is not an integer")
        if isinstance(node, IntStorage):
            return self.cell(*storage_family(node, env))
        if isinstance(node, Arith):
            return arith_interval(node.op, self.of(node.left, env), self.of(node.right, env))
        if isinstance(node, Size):
            return 0, self.size_bound(node.collection, env)
        if isinstance(node, Sum):
            return self.sum_interval(node, env)
        if isinstance(node, Score):
            return self.score_interval(node, env)
        if isinstance(node, IntAgg):

            elements = static_elements(self.model, node.collection, env, node) or []
            low = high = 0
            for binding, _ in elements:
                lo, hi = self.of(node.body, env.bind(node.var.name, binding))
                low, high = low + min(lo, 0), high + max(hi, 0)
            return low, high
        if isinstance(node, Random):
            low_span = self.of(node.low, env) if node.low is not None else (0, 0)
            high_span = self.of(node.high, env)
            return low_span[0], high_span[1]
        if isinstance(node, Tri):
            lo, hi = self.of(node.arg, env)
            return min(tri(lo), 0), tri(hi)
        if isinstance(node, Fib):
            lo, hi = self.of(node.arg, env)
            return 0, fib(max(hi, 0))
        raise TranslationError(node, "an integer is expected here")

    def thresholds(self) -> dict[tuple[str, str], list[tuple[int, str]]]:
        """Constants each cell family is compared with where the comparison can stop it
        changing: in a stage's end condition, or in a condition a change of that family runs
        under (its guards, its option's legality), and there only where the comparison decides
        the condition alone. A comparison elsewhere stops nothing: Pig's turn total, compared
        with 0 to offer banking it, grows while the player rolls again; nor does a count in an
        end condition's ``and`` (``(and (== (size TABLE) 0) (>= TURNS 10))`` goes on past 10
        while cards are left). Each constant comes with the way it stops the cell: going ``up``
        (``(> X 98)`` ending a stage, ``(< X 10)`` guarding a change), ``down``, or ``both``
        (``==``, ``!=``)."""
        found: list[tuple[Node, tuple[str, str] | None]] = [(stage.end, None) for stage in self.program.stages.values()]
        # (an end condition stops the stage when it holds, a guard or a legality stops the change
        # when it fails: the comparisons that decide so alone, see _deciding)
        for effect in self.program.effects.values():
            if isinstance(effect, ir.SetInt) and effect.op != "set":
                written = (owner_kind(effect.cell.owner), _label(effect.cell.name))
                found += [(guard.cond, written) for guard in effect.guards]
                place = self.option_of.get(effect.id)
                if place is not None:
                    found += [(cond, written) for cond, _ in self.program.choices[place[0]].options[place[1]].legal]
        out: dict[tuple[str, str], list[tuple[int, str]]] = {}
        for cond, family in found:
            for node, holds in _deciding(cond, family is None):
                for a, b, op in ((node.left, node.right, node.op), (node.right, node.left, FLIPPED[node.op])):
                    if isinstance(a, IntStorage) and isinstance(b, IntLit):
                        try:
                            key = (owner_kind(a.owner), _label(a.name))
                        except TranslationError:
                            continue
                        if family is None or key == family:
                            stops = op if holds else NEGATED[op]
                            side = "up" if stops in (">", ">=") else "down" if stops in ("<", "<=") else "both"
                            out.setdefault(key, []).append((b.value, side))
        return out

    def solve(self) -> None:
        """The fixpoint over every integer write."""
        writes = [e for e in self.program.effects.values() if isinstance(e, ir.SetInt)]
        thresholds = self.thresholds()
        self_ref = {e.id for e in writes if e.op == "set" and self.reads_own(e)}
        own_only = {e.id for e in writes if self.reads_own_only(e)}
        widths: dict[tuple[str, str], int] = {}
        for iteration in range(30):
            before = dict(self.cells)
            fresh: dict[tuple[str, str], list[Interval]] = {}
            deltas: dict[tuple[str, str], list[tuple[Interval, int | None]]] = {}
            # The options of one choice are alternatives: a pass runs one of them, so they
            # change a cell by the most any one option changes it, not by their sum.
            chosen: dict[tuple[tuple[str, str], str], dict[int, Interval]] = {}
            single: dict[tuple[str, str], Interval] = {}  # the largest change of one write
            # changes sharing a budget (``analysis/sinks.py``): the largest, that many times in all
            shared: dict[tuple[tuple[str, str], Any], tuple[Interval, int]] = {}
            for effect in writes:
                cell = effect.cell
                key = (owner_kind(cell.owner), _label(cell.name))
                if effect.id in own_only:
                    image = self.image(effect, key)
                    if image is not None:
                        fresh.setdefault(key, []).append(image)
                        continue
                if effect.id in self_ref and iteration > 2:
                    continue
                value = self.of(effect.value, effect.env)
                if effect.op == "set":
                    fresh.setdefault(key, []).append(value)
                    continue
                delta = value if effect.op == "inc" else (-value[1], -value[0])
                single[key] = hull(single.get(key, (0, 0)), delta)
                place = self.option_of.get(effect.id)
                if effect.id in self.budgets:  # (in options or not: the budget bounds every run)
                    group, budget = self.budgets[effect.id]
                    times = self.exec_bound(effect)
                    was, count = shared.get((key, group), ((0, 0), 0))
                    shared[(key, group)] = (hull(was, delta), min(budget, count + (budget if times is None else times)))
                    continue
                if place is None:
                    deltas.setdefault(key, []).append((delta, self.exec_bound(effect)))
                    continue
                # within an option the changes add up one after the other: what one lowers
                # another does not make up for (a value can pass its range in between)
                total = chosen.setdefault((key, place[0]), {}).get(place[1], (0, 0))
                chosen[(key, place[0])][place[1]] = (total[0] + min(0, delta[0]), total[1] + max(0, delta[1]))
            for (key, _), (delta, times) in shared.items():
                deltas.setdefault(key, []).append((delta, times))
            for (key, choice), by_option in chosen.items():
                options = len(self.program.choices[choice].options)
                spans = list(by_option.values()) + ([(0, 0)] if len(by_option) < options else [])
                first = next(e for e in self.choice_effects[choice] if isinstance(e, ir.SetInt))
                deltas.setdefault(key, []).append(((min(s[0] for s in spans), max(s[1] for s in spans)),
                                                   self.exec_bound(first)))
            for key in set(fresh) | set(deltas):
                base = (0, 0)
                for value in fresh.get(key, []):
                    base = hull(base, value)
                low, high = base
                unbounded = looped = False
                step_low, step_high = single.get(key, (0, 0))
                for delta, times in deltas.get(key, []):
                    if times is None:
                        unbounded = True
                        continue
                    looped = looped or (times > 1 and delta != (0, 0))
                    low += min(0, delta[0] * times)
                    high += max(0, delta[1] * times)
                # a cell changed on a loop and compared with constants: the loop usually stops
                # once it passes them, plus a round of single changes (bounded loops too: their
                # bound counts passes, not value)
                if unbounded or high - low > WIDE or looped:
                    marks = thresholds.get(key, [])
                    if marks:
                        # (a side no comparison stops keeps its bound where it has one: a count
                        # lowered on most turns, the stage ending when it is high)
                        rounds = self.model.players + 1
                        values = [value for value, _ in marks]
                        if unbounded or any(side != "up" for _, side in marks):
                            low = max(low, min(base[0], min(values), 0) + rounds * step_low)
                        if unbounded or any(side != "down" for _, side in marks):
                            high = min(high, max(base[1], max(values), 0) + rounds * step_high)
                    elif unbounded and key in self.caps:
                        high = self.caps[key]
                    elif unbounded:
                        node = next(e.node for e in writes if (owner_kind(e.cell.owner), _label(e.cell.name)) == key)
                        raise TranslationError(node, f"the value of ({key[0]} sto {key[1]}) has no static bound")
                self.cells[key] = (low, min(high, self.caps.get(key, high)))
            if self.cells == before:
                break
        for effect in writes:
            if effect.op != "set":
                key = (owner_kind(effect.cell.owner), _label(effect.cell.name))
                delta = self.of(effect.value, effect.env)
                widths[key] = max(widths.get(key, 0), delta[1] - delta[0] + 1)
        for key, (low, high) in self.cells.items():
            size = high - low + 1
            if size > UNARY_LIMIT or size * widths.get(key, 1) > TABLE_BUDGET:
                self.wide[key] = (low, high)
            if high - low > LIMIT:
                node = next(e.node for e in writes if (owner_kind(e.cell.owner), _label(e.cell.name)) == key)
                raise TranslationError(node, f"the value of ({key[0]} sto {key[1]}) needs {high - low + 1} values "
                                             f"({low} to {high}); at most {LIMIT + 1} are supported")


    def reads_own_only(self, effect: ir.SetInt) -> bool:
        """Whether a write's value reads its own cell (the same owner expression), and no other
        value of play: ``(dec ('U sto PTS) (// ('U sto PTS) 2))``."""
        cell = effect.cell
        key = (owner_kind(cell.owner), _label(cell.name))
        owners = {id(part) for node in effect.value.walk() if isinstance(node, IntStorage) for part in node.owner.walk()}
        own = False
        for node in effect.value.walk():
            if isinstance(node, IntStorage):
                if not isinstance(node.name, Name) or (owner_kind(node.owner), node.name.text) != key or node.owner != cell.owner:
                    return False
                own = True
            elif isinstance(node, (Var, Size, Sum, Score, IntAgg, Random)) and id(node) not in owners:
                return False
        return own

    def image(self, effect: ir.SetInt, key: tuple[str, str]) -> Interval | None:
        """The values a write that reads only its own cell leaves in it, each value the cell
        can hold taken in turn (the analysis is not relational: ``x - x // 2`` of a cell in
        0..10 read as two independent intervals runs from -5 to 10, and from there on down,
        round after round); None when the cell has too many values to go through, or when
        the write takes the cell past the values it holds (a growing cell: the deltas'
        bounds and thresholds below are the better estimate)."""
        low, high = current = self.cells.get(key, (0, 0))
        if high - low > IMAGE_LIMIT:
            return None
        out: Interval | None = None
        try:
            for x in range(low, high + 1):
                self.cells[key] = (x, x)
                lo, hi = self.of(effect.value, effect.env)
                if effect.op == "inc":
                    lo, hi = x + lo, x + hi
                elif effect.op == "dec":
                    lo, hi = x - hi, x - lo
                out = (lo, hi) if out is None else hull(out, (lo, hi))
        finally:
            self.cells[key] = current
        bounds = hull(current, (0, 0))
        if out is None or out[0] < bounds[0] or out[1] > bounds[1]:
            return None
        return out

    def reads_own(self, effect: ir.SetInt) -> bool:
        """Whether a ``set`` reads the cell family it writes."""
        key = (owner_kind(effect.cell.owner), _label(effect.cell.name))
        for node in effect.value.walk():
            if isinstance(node, IntStorage):
                try:
                    if (owner_kind(node.owner), _label(node.name)) == key:
                        return True
                except TranslationError:
                    continue
        return False


def _deciding(cond: Node, sufficient: bool) -> Iterator[tuple[Compare, bool]]:
    """The comparisons of ``cond`` whose holding alone makes it hold (``sufficient``: through
    ``or``), or whose failing alone makes it fail (through ``and``), and those under ``any`` and
    ``all``; ``not`` turns one into the other. Each with whether its holding (else its failing)
    decides."""
    if isinstance(cond, Compare):
        yield cond, sufficient
    elif isinstance(cond, Not):
        yield from _deciding(cond.arg, not sufficient)
    elif isinstance(cond, Or if sufficient else And):
        for arg in cond.args:
            yield from _deciding(arg, sufficient)
    elif isinstance(cond, BoolAgg):
        # taken as deciding alone either way: the cells an `all` over players compares are one
        # family, and its threshold is where that family stops
        yield from _deciding(cond.condition, sufficient)


def _label(node: Any) -> str:
    if isinstance(node, Name):
        return node.text
    raise TranslationError(node, "storage names must be literal NAMEs")


def integer_ranges(model: GameModel, program: ir.Program, domains: CardDomains, pointmaps: PointMaps,
                   caps: Mapping[tuple[str, str], int] | None = None) -> Ranges:
    """Integer ranges: with generous loop bounds, or modest ones when the generous bounds make a
    cell's range too large (see :func:`execution_bounds`); ``caps``: see :attr:`Ranges.caps`."""
    bounds = execution_bounds(program, model)
    capacity = pile_counts(program, model, domains, bounds)
    budgets = sink_budgets(program, model)
    try:
        return Ranges(model, program, domains, pointmaps, lambda e: bounds.get(e.id), capacity, caps, budgets)
    except TranslationError:
        modest = execution_bounds(program, model, nested=False)
        if modest == bounds:
            raise
        return Ranges(model, program, domains, pointmaps, lambda e: modest.get(e.id), capacity, caps, budgets)


__all__ = ["LIMIT", "TABLE_BUDGET", "UNARY_LIMIT", "WIDE", "Ranges", "arith_interval", "hull", "integer_ranges"]
