"""The engine's nodes run since the last choice: CardStock ends a game that runs on without one.

CardStock's ``GameIterator.AdvanceToChoice`` processes the game's nodes one at a time until a
choice is due: a stage's end check (each pass, and the check that ends it), each item of a stage
body (a ``do``, an ``all``, a ``let``: whatever its guards say), and at the start the
declarations but the first and the setup. After 200 of them without a choice it prints "Game
stuck in loop" and ends the game, scored as any finished game. A translation step crosses some
of them: the stage ends its control walk checks (``emit/control.py``) and the items that begin
in the batch it runs (:attr:`.ir.Program.nodes`). So the translation keeps the count,
``(idle PLACE DIGIT)`` in decimal digits, adds each step's nodes to it, restarts it at every
choice from the items after the choice that its first step runs, and ends the game where the
engine does: in a state from which the step's walk would cross the 201st node before it runs an
item, unless an item is half run (the engine runs an item whole). The nodes a walk crosses
depend on the path it takes, not only on where it ends (a stage may go round without running
anything): a graph node reached along paths of several counts carries its count,
``(idle_w NODE COUNT)``; most are reached along one.

The items of a batch a walk skips (its guards fail) are counted in a stage whose passes need
not reach a choice, the only place the engine can go on to its 201st node (there each item is a
batch of its own, ``StepPlan.apart``), unless that gives more ``idle_w`` rules than the control
graph has edges (a long chain of guarded steps, resumed from after any of them, gives each of
its nodes a count for every step before it): then, as everywhere else, they are not, and the
count can be short by the items skipped since the last choice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Variable
from translators.recycle.analysis.batches import Batch, StepPlan
from translators.recycle.emit.control import Control
from translators.recycle.emit.effects import EffectEmitter
from translators.recycle.emit.wide import digit_adder, digit_less
from translators.recycle.ir import nodes as ir
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.model import STUCK_NODES
from translators.recycle.symbols.vocabulary import c, f, num, nxt, rule, true

#: An edge of the control graph: child, parent, and the engine's nodes crossed on it.
Edge = tuple[str, str, int]


def batch_nodes(batch: Batch, nodes: Mapping[int, int]) -> int:
    """The engine's nodes that begin in ``batch``."""
    return sum(nodes.get(effect.id, 0) for effect in batch.effects)


def path_counts(roots: Iterable[str], edges: Iterable[Edge]) -> dict[str, frozenset[int]]:
    """For every node of the control graph, the counts of nodes the paths reaching it cross
    (``edges``: child, parent, nodes crossed on the edge), at most :data:`STUCK_NODES`."""
    parents = _parents(edges)
    counts: dict[str, frozenset[int]] = {root: frozenset({0}) for root in roots}
    for node in _parents_first(parents, counts):
        counts[node] = frozenset(min(k + w, STUCK_NODES) for p, w in parents[node] for k in counts.get(p, ()))
    return counts


def _parents(edges: Iterable[Edge]) -> dict[str, list[tuple[str, int]]]:
    parents: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for child, parent, weight in edges:
        parents[child].append((parent, weight))
    return parents


def _parents_first(parents: Mapping[str, list[tuple[str, int]]], done: Iterable[str]) -> list[str]:
    """The nodes of ``parents`` not in ``done``, each after its parents (a cycle, which the walk
    does not make, broken anywhere)."""
    order: list[str] = []
    seen = set(done)
    for start in parents:
        stack = [(start, False)]
        while stack:
            node, ready = stack.pop()
            if ready:
                order.append(node)
                continue
            if node in seen:
                continue
            seen.add(node)
            stack.append((node, True))
            stack += [(p, False) for p, _ in parents.get(node, ()) if p not in seen]
    return order


#: Where a node's count comes from: a node whose paths cross several counts, ``(idle_w NODE K)``
#: (None: the count is the same on every path), and what the path from there adds.
Anchor = tuple[str | None, int]


def anchors(roots: Iterable[str], edges: Iterable[Edge],
            counts: Mapping[str, frozenset[int]]) -> dict[str, Anchor]:
    """Each node's :data:`Anchor`: the node itself where paths of several counts meet there,
    else its parent's anchor (a node below one parent adds that edge's count to its parent's)."""
    parents = _parents(edges)
    out: dict[str, Anchor] = {root: (None, 0) for root in roots}
    for node in _parents_first(parents, out):
        known = counts.get(node, frozenset())
        if len(known) <= 1:
            out[node] = (None, min(known, default=0))
        elif len(parents[node]) == 1:
            parent, weight = parents[node][0]
            anchor, offset = out.get(parent, (None, 0))
            out[node] = (anchor, offset + weight)
        else:
            out[node] = (node, 0)
    return out


def _carried(edges: list[Edge], counts: Mapping[str, frozenset[int]],
             anchored: Mapping[str, Anchor]) -> int:
    """How many ``(idle_w NODE COUNT)`` rules the counts take."""
    return sum(len(counts.get(anchored.get(parent, (None, 0))[0] or "", (0,)))
               for child, parent, _ in edges if anchored.get(child, (None, 0))[0] == child)


def walk_counts(plan: StepPlan, control: Control, nodes: Mapping[int, int]
                ) -> tuple[list[Edge], dict[str, frozenset[int]], dict[str, Anchor]]:
    """The control graph's edges weighed by the engine's nodes crossed on them, each node's
    counts and anchor: the items of skipped batches counted in the stages that need not reach
    a choice, unless that takes more ``idle_w`` rules than there are edges (the module doc)."""
    looping = {skip: batch_nodes(plan.batches[b], nodes) for skip, b in control.skips.items()
               if plan.batches[b].block in plan.apart}
    edges = [(child, parent, w + looping.get(child, 0)) for child, parent, w in control.edges]
    counts = path_counts(control.roots, edges)
    anchored = anchors(control.roots, edges, counts)
    if _carried(edges, counts, anchored) > len(edges):
        edges = control.edges
        counts = path_counts(control.roots, edges)
        anchored = anchors(control.roots, edges, counts)
    return edges, counts, anchored


def can_stick(program: ir.Program, declared: int) -> bool:
    """Whether the engine can run ``STUCK_NODES`` nodes without a choice: a stage may go round
    without one (no choice among the items of its body), or there are so many nodes that one
    walk from a choice to the next, through at most the rest of a pass and the start of the
    next of every stage, may cross that many."""
    stages = program.stages.values()
    if any(not any(isinstance(item, ir.ChoiceNode) for item in stage.body) for stage in stages):
        return True
    return declared + 2 * (sum(program.nodes.values()) + 2 * len(stages)) >= STUCK_NODES


def emit_idle(book: RuleBook, plan: StepPlan, control: Control, emitter: EffectEmitter, program: ir.Program,
              declared: int, has_choices: bool) -> None:
    """The count of the engine's nodes since the last choice (the module doc), where the engine
    can reach ``STUCK_NODES`` (:func:`can_stick`; no rule where it cannot); ``declared``: the
    game's declarations, the first of the nodes the engine counts before the first choice."""
    if not can_stick(program, declared):
        return
    nodes = program.nodes
    edges, counts, anchored = walk_counts(plan, control, nodes)
    adds: dict[int, list[list[Literal]]] = defaultdict(list)
    pres: dict[int, list[list[Literal]]] = defaultdict(list)

    def along(node: str) -> list[tuple[int, list[Literal]]]:
        """Each count a node is reached with, and what says it was reached with it."""
        anchor, offset = anchored.get(node, (None, 0))
        if anchor is None:
            return [(offset, [c(node)])]
        return [(min(k + offset, STUCK_NODES), [c(node), f("idle_w", c(anchor), num(k))]) for k in sorted(counts[anchor])]

    meets = [(child, parent, w) for child, parent, w in edges if anchored.get(child, (None, 0))[0] == child]
    if meets:
        with book.group("nodes of the engine's control walk where paths crossing several counts of them meet"):
            for child, parent, w in meets:
                for k, lits in along(parent):
                    book.add(rule(f("idle_w", c(child), num(min(k + w, STUCK_NODES))), [c(child)] + lits))
    mid = []
    for parent, point, _, _ in control.leaves:
        if point.kind not in ("batch", "choice"):
            continue
        batch = plan.batches.get(point.id)
        for k, lits in along(parent):
            if k:
                pres[k].append(lits)
            total = k + (batch_nodes(batch, nodes) if point.kind == "batch" and batch is not None else 0)
            if total and point.kind == "batch":
                adds[min(total, STUCK_NODES)].append(lits)
        if batch is not None and not nodes.get(batch.effects[0].id if batch.effects else -1) and batch.index > 0:
            mid.append(point.id)
    for first in plan.option_first:  # the items after a choice that its step runs
        if batch_nodes(plan.batches[first], nodes):
            adds[batch_nodes(plan.batches[first], nodes)].append(emitter.activation(plan.batches[first]))
    places = len(str(STUCK_NODES + max(adds, default=0)))
    _emit_count(book, places, adds, declared, has_choices)
    _emit_end(book, places, pres, mid)


def _digits(value: int, places: int) -> list[int]:
    return [(value // 10 ** k) % 10 for k in range(places)]


def _emit_count(book: RuleBook, places: int, adds: Mapping[int, list[list[Literal]]], declared: int,
                has_choices: bool) -> None:
    """``(idle K D)``: the count, digit D at place K (0 the units), plus each step's nodes (a
    ripple-carry adder over the digits the steps add), from the items after a choice at one."""
    d, e, a, ci, co, k = (Variable(v) for v in ("d", "e", "a", "ci", "co", "k"))
    with book.group(f"nodes of the engine's run since the last choice: CardStock ends a game after "
                    f"{STUCK_NODES} without one"):
        for place, digit in enumerate(_digits(declared, places)):
            book.add(rule(f("init", f("idle", num(place), num(digit)))))
        added: set[int] = set()  # the places some step adds to
        for total, bodies in sorted(adds.items()):
            for body in bodies:
                book.add(rule(f("idle_add", num(total)), body))
            for place, digit in enumerate(_digits(total, places)):
                if digit:
                    added.add(place)
                    book.add(rule(f("idle_plus", num(place), num(digit)), f("idle_add", num(total))))
        x = Variable("x")
        for place in range(places):  # a place no step adds to, or this step does not
            if place in added:
                book.add(rule(f("idle_adds", num(place)), f("idle_plus", num(place), x)))
            book.add(rule(f("idle_digit", num(place), num(0)), Not(f("idle_adds", num(place)))))
        book.add(rule(f("idle_digit", k, x), f("idle_plus", k, x)))
        after: list[Literal] = [Not(c("choicestep"))] if has_choices else []
        book.add(rule(f("idle_base", k, d), true(f("idle", k, d)), *after))
        if has_choices:
            for place in range(places):
                book.add(rule(f("idle_base", num(place), num(0)), c("choicestep")))
        dadd = digit_adder(book)
        book.add(rule(f("idle_carry", num(0), num(0))))
        here = [f("idle_base", k, d), f("idle_digit", k, a), f("idle_carry", k, ci), f(dadd, d, a, ci, e, co)]
        book.add(rule(nxt(f("idle", k, e)), here, Not(c("idle_overflow"))))
        book.add(rule(f("idle_carry_up", k, co), here))
        for place in range(places):
            book.add(rule(f("idle_carry", num(place + 1), co), f("idle_carry_up", num(place), co)))
        book.add(rule(c("idle_overflow"), f("idle_carry", num(places), num(1))))
        for place in range(places):
            book.add(rule(nxt(f("idle", num(place), num(9))), c("idle_overflow")))


def _emit_end(book: RuleBook, places: int, pres: Mapping[int, list[list[Literal]]], mid: list[str]) -> None:
    """The game ends where the walk would cross the last node the engine runs before it runs an
    item (the count and the nodes before the step's first item), unless an item is half run."""
    less = digit_less(book)
    x = Variable("x")
    with book.group(f"the engine's count reaches {STUCK_NODES}: the game ends"):
        for total, bodies in sorted(pres.items()):
            for body in bodies:
                book.add(rule(f("idle_pre", num(total)), body))
        for pre in [0] + sorted(pres):
            bound = _digits(max(STUCK_NODES - pre, 0), places)
            when = [f("idle_pre", num(pre))] if pre else []
            for place in range(places - 1, -1, -1):
                higher = [true(f("idle", num(p), num(bound[p]))) for p in range(places - 1, place, -1)]
                book.add(rule(c("idle_reach"), when, higher, true(f("idle", num(place), x)), f(less, num(bound[place]), x)))
            book.add(rule(c("idle_reach"), when, [true(f("idle", num(p), num(bound[p]))) for p in range(places)]))
        for point in mid:
            book.add(rule(c("idle_mid"), f("at_step", c(point))))
        book.add(rule(c("idle_over"), c("idle_reach"), Not(c("idle_mid"))))
        book.add(rule(c("terminal"), c("idle_over")))
        book.add(rule(c("normal_end"), c("idle_over"), Not(c("has_failed"))))


__all__ = ["Anchor", "Edge", "anchors", "batch_nodes", "can_stick", "emit_idle", "path_counts", "walk_counts"]
