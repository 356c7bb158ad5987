"""Control: the program counter, stage loops and player cycles, resolved within a step.

The state holds ``(pc R)``, a resume point: the position after the last thing that ran. Each
step first *resolves control* from R with derived relations: it walks into stages, checks end
conditions (before every pass, with the player who just acted as ``(current player)``), leaves
stages and advances cycles (to the queued seat, else the following one), until it reaches the
first thing to run: a choice, a batch of effects, or the end of the game. The walk is a small
static graph whose nodes are derived atoms ``(ctl_N)``, from each resume point, joining where
walks meet (the same position with the same seats, from any resume point); the leaf reached gives
``(at_step X)`` and the resolved seats ``(rseat STAGE P)`` (``rtseat`` for team stages) that the
step's rules read, and that become the next state's seats. A walk that loops without running
anything (more passes than players) ends the game, scored, as the engine ends a game stuck in a
loop.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from typing import Any, TypeAlias
from typing import Literal as TypingLiteral

from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Variable
from translators.recycle.analysis.batches import Batch, StepPlan
from translators.recycle.emit.contexts import SourceCtl, Val
from translators.recycle.emit.ledger import Ledger
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.walks import reads_random, reads_variable
from translators.recycle.rulebook.book import RuleBook, describe
from translators.recycle.symbols.model import GameModel
from translators.recycle.symbols.vocabulary import Fresh, c, f, rule, true
from translators.recycle.translation_error import TranslationError

#: A seat source: ("fluent", stage) | ("copy", source) | ("adv", source, stage, uses_queue)
#: | ("teamof", source).
Source: TypeAlias = tuple[Any, ...]
#: A resume point: ("cont", stage, index of the next item) | ("batch", batch id, active stages).
Resume: TypeAlias = tuple[TypingLiteral["cont"], str, int] | tuple[TypingLiteral["batch"], str, tuple[ir.StageRef, ...]]


@dataclass(frozen=True)
class StepPoint:
    """Something a step runs: a batch, a choice, the end of the game, or a control failure."""

    id: str
    kind: str  # "batch" | "choice" | "end" | "loop"
    stages: tuple[ir.StageRef, ...]


class Control:
    """Builds the resolution rules and knows every step point and resume point."""

    def __init__(self, model: GameModel, program: ir.Program, book: RuleBook, plan: StepPlan,
                 cond: Callable[[Any, ir.Env, Any], list[Literal]], ledger: Ledger):
        self.model = model
        self.program = program
        self.book = book
        self.cond = cond
        self.ledger = ledger
        self.fresh = Fresh(program.variables)
        self.points: dict[str, StepPoint] = {}
        self.resume: dict[str, Resume] = {}
        self.sources: dict[Source, str] = {}
        self.nodes: dict[Any, str] = {}
        self.flow_batches = plan.flow
        self.option_batches = plan.options
        self.after: dict[str, str] = {}
        self.parent_of: dict[str, tuple[str, int]] = {}
        self.bodies: dict[str, list[ir.Item]] = {"s0": program.body}
        self.stage_refs: dict[str, ir.StageRef] = {"s0": ir.StageRef("s0", "player")}
        self.stage_envs: dict[str, ir.Env] = {}
        self.leaves: list[tuple[str, StepPoint, dict[str, Source], set[str]]] = []
        self.batch_by_id: dict[str, Batch] = {}
        self.next_of: dict[str, str] = {}
        self.cont_of: dict[str, tuple[str, int]] = {}
        self.guard_batch: dict[int, str] = {}
        self.flagged: frozenset[int] = frozenset()
        #: Each node of the resolution graph (a numbered proposition) and each seat source (a
        #: numbered relation of one argument): its family and key, for
        #: :func:`~translators.recycle.rulebook.steps.fold_steps`.
        self.keys: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._visits: dict[tuple[str, str, str], int] = {}
        self._root = ""
        #: The walk's positions already resolved (from any resume point), and the node their
        #: resolution hangs from (see :meth:`join`).
        self._joins: dict[tuple[Any, ...], str] = {}
        #: Every edge of the resolution graph, child, parent and the engine's nodes processed on
        #: it (1 for a stage's end check), the batch each node skipping one skips, and the resume
        #: point each root resolves from: ``emit/idle.py`` counts the engine's nodes.
        self.edges: list[tuple[str, str, int]] = []
        self.skips: dict[str, str] = {}
        self.roots: dict[str, str] = {}
        self._index(program.body, "s0")

    def _index(self, items: list[ir.Item], stage: str) -> None:
        for i, item in enumerate(items):
            if isinstance(item, ir.StageNode):
                self.parent_of[item.ref.id] = (stage, i)
                self.bodies[item.ref.id] = item.body
                self.stage_refs[item.ref.id] = item.ref
                self.stage_envs[item.ref.id] = item.env
                self._index(item.body, item.ref.id)

    # -- resume points --------------------------------------------------------------------------

    def cont_name(self, stage: str, index: int) -> str:
        """The resume point "about to run item ``index`` of ``stage``'s body"."""
        label = f"{stage}i{index}"
        self.resume[label] = ("cont", stage, index)
        return label

    def batch_resume(self, batch: Batch, stages: tuple[ir.StageRef, ...]) -> str:
        """The resume point "about to run ``batch``"."""
        self.resume[batch.id] = ("batch", batch.id, stages)
        self.points[batch.id] = StepPoint(batch.id, "batch", stages)
        return batch.id

    def register(self) -> None:
        """Find every step point, and what follows each."""
        self._walk(self.program.body, "s0", (ir.StageRef("s0", "player"),))

    def _walk(self, items: list[ir.Item], stage: str, stages: tuple[ir.StageRef, ...]) -> None:
        for i, item in enumerate(items):
            follow = self.cont_name(stage, i + 1)
            if isinstance(item, ir.Block):
                batches = self.flow_batches[item.id]
                for j, batch in enumerate(batches):
                    self.points[batch.id] = StepPoint(batch.id, "batch", stages)
                    self.after[batch.id] = self.batch_resume(batches[j + 1], stages) if j + 1 < len(batches) else follow
                    self.note(batch, batches[j + 1].id if j + 1 < len(batches) else None, (stage, i + 1))
            elif isinstance(item, ir.ChoiceNode):
                self.points[item.id] = StepPoint(item.id, "choice", stages)
                for option in item.options:
                    batches = self.option_batches[(item.id, option.index)]
                    for j, batch in enumerate(batches):
                        if j:
                            self.points[batch.id] = StepPoint(batch.id, "batch", stages)
                        self.after[batch.id] = (self.batch_resume(batches[j + 1], stages)
                                                if j + 1 < len(batches) else follow)
                        self.note(batch, batches[j + 1].id if j + 1 < len(batches) else None, (stage, i + 1))
            else:
                self._walk(item.body, item.ref.id, stages + (item.ref,))
        self.points["end"] = StepPoint("end", "end", ())
        self.points["loop"] = StepPoint("loop", "loop", ())

    def note(self, batch: Batch, following: str | None, cont: tuple[str, int]) -> None:
        """Remember what follows a batch, and where its effects' guards are evaluated."""
        self.batch_by_id[batch.id] = batch
        if following is not None:
            self.next_of[batch.id] = following
        self.cont_of[batch.id] = cont
        for effect in batch.effects:
            self.guard_batch[effect.id] = batch.id

    # -- seat sources ----------------------------------------------------------------------------

    def source(self, src: Source, team: bool = False) -> Callable[[Fresh], Val]:
        """A function giving literals and a term for a seat source."""
        def read(fresh: Fresh) -> Val:
            v = fresh("t" if team else "p")
            if src[0] == "fluent":
                return [true(f("tseat" if team else "seat", src[1], v))], v
            return [f(self.source_relation(src, team), v)], v
        return read

    def source_relation(self, src: Source, team: bool) -> str:
        """A derived relation holding the value of a source."""
        if src in self.sources:
            return self.sources[src]
        stage = _source_stage(src)
        hint = self.program.stages[stage].end if stage in self.program.stages else None
        family = {"adv": "next_seat", "teamof": "team_of_seat"}.get(src[0], "seat_of")
        rel = self.book.name(family, hint)
        self.sources[src] = rel
        place = (family, "source", stage or "s0")
        count = self._visits[place] = self._visits.get(place, 0) + 1
        self.keys[rel] = (family, (stage or "s0", str(count)))
        v, u = Variable("v"), Variable("u")
        with self.book.group(f"a seat while resolving control: {src[0]}"):
            if src[0] == "copy":
                lits, term = self.source(src[1], team)(self.fresh)
                self.book.add(rule(f(rel, term), lits))
            elif src[0] == "teamof":
                lits, term = self.source(src[1], False)(self.fresh)
                self.book.add(rule(f(rel, v), lits + [f("teamof", term, v)]))
            elif src[0] == "adv":
                _, base, stage, queued = src
                lits, term = self.source(base, team)(self.fresh)
                step = "nextteam" if team else "nextseat"
                if queued:
                    self.book.add(rule(f(rel, v), [true(f("queue", stage, v))]))
                    self.book.add(rule(f(rel, v), lits + [Not(f("hasqueue", stage)), f(step, term, v)]))
                else:
                    self.book.add(rule(f(rel, v), lits + [f(step, term, v)]))
        del u
        return rel

    # -- resolution graph ------------------------------------------------------------------------

    def build(self, flagged: frozenset[int] = frozenset()) -> None:
        """Resolution rules for every resume point. ``flagged``: the guards whose value later
        steps read from a ``(flag gK)`` fluent written by the step of the guard's anchor."""
        self.flagged = flagged
        start = self.cont_name("s0", 0)
        self.book.add(rule(f("init", f("pc", c(start)))))
        names = deque(self.resume)
        seen: set[str] = set()
        while names:
            label = names.popleft()
            if label in seen:
                continue
            seen.add(label)
            known = len(self.resume)
            spec = self.resume[label]
            root = self.node("ctl", label)
            self.roots[root] = label
            self._root = label
            with self.book.group(f"resolve control from resume point {label}"):
                self.book.add(rule(c(root), [true(f("pc", c(label)))]))
            try:
                if spec[0] == "batch":
                    stages = spec[2]
                    sigma = {s.id: ("fluent", s.id) for s in stages}
                    self.walk_batch(root, spec[1], sigma, {s.id for s in stages}, 0)
                else:
                    _, stage, index = spec
                    stack = self.stack_of(stage)
                    sigma = {s.id: ("fluent", s.id) for s in stack}
                    self.walk(root, stage, index, sigma, {s.id for s in stack}, 0)
            except RecursionError:
                # the walk is bounded (``walk``'s depth), but a long chain of guarded steps and
                # stage ends can pass Python's own bound first
                raise TranslationError(self.model.game, "the game's control is too deep to resolve: from "
                                       f"step {label}, more steps and stage ends follow one another without "
                                       "a choice between them than the translator can follow") from None
            names.extend(islice(self.resume, known, None))  # the resume points the walk made

    def node(self, family: str, at: str, source: Any = None) -> str:
        """A new node of the resolution tree being built (from the resume point ``self._root``)
        of ``family`` at step or stage ``at``: a numbered proposition, keyed for the fold."""
        name = self.book.name(family, source)
        if family == "ctl":
            self.keys[name] = (family, (at,))
        elif family in ("runs", "over"):  # a test of the state: the same wherever it is made from
            visit = self._visits[(family, "", at)] = self._visits.get((family, "", at), 0) + 1
            self.keys[name] = (family, (at, str(visit)))
        else:
            visit = self._visits[(family, self._root, at)] = self._visits.get((family, self._root, at), 0) + 1
            self.keys[name] = (family, (self._root, at, str(visit)))
        return name

    def stack_of(self, stage: str) -> tuple[ir.StageRef, ...]:
        """The active stages when running the body of ``stage`` (outermost first)."""
        chain = [stage]
        while chain[-1] != "s0":
            chain.append(self.parent_of[chain[-1]][0])
        return tuple(self.stage_refs[s] for s in reversed(chain))

    def walk(self, parent: str, stage: str, index: int, sigma: dict[str, Source], live: set[str], depth: int) -> None:
        """Resolve from "item ``index`` of ``stage``" with seat sources ``sigma``."""
        if depth > 4 * (len(self.bodies) + self.model.players + 2):
            self.leaf(parent, self.points["loop"], sigma, live)
            return
        join = self.join(parent, ("item", stage, index), sigma, live)
        if join is not None:
            self._walk_from(join, stage, index, sigma, live, depth)

    def join(self, parent: str, where: tuple[str | int, ...], sigma: dict[str, Source], live: set[str]) -> str | None:
        """The node from which control resolves at ``where`` with these seat sources and live
        stages, reached from ``parent``; None when that was resolved already.

        What follows a position depends on the position, the seats and the live stages only (a
        walk reads the state, never the path it came by), so every walk that meets it again,
        from this resume point or another, shares one resolution: the rules grow with the
        positions, not with the paths (from each step of a long chain of guarded steps, the
        walk would otherwise go down the rest of the chain again).
        """
        key = (where, tuple(sorted(sigma.items())), frozenset(live))
        known = self._joins.get(key)
        node = known if known is not None else self.node("join", "_".join(map(str, where)))
        self._joins[key] = node
        with self.book.group(f"control goes on at {' '.join(map(str, where))}"):
            self.book.add(rule(c(node), [c(parent)]))
        self.edges.append((node, parent, 0))
        return node if known is None else None

    def _walk_from(self, parent: str, stage: str, index: int, sigma: dict[str, Source], live: set[str],
                   depth: int) -> None:
        body = self.bodies[stage]
        if index < len(body):
            item = body[index]
            if isinstance(item, ir.Block):
                self.walk_batch(parent, self.flow_batches[item.id][0].id, sigma, live, depth)
            elif isinstance(item, ir.ChoiceNode):
                self.leaf(parent, self.points[item.id], sigma, live)
            else:
                inner = dict(sigma)
                player_stage = self.innermost_player(stage)
                if item.ref.kind == "player":
                    inner[item.ref.id] = ("copy", sigma[player_stage])
                else:
                    inner[item.ref.id] = ("teamof", sigma[player_stage])
                self.head(parent, item.ref.id, inner, live, True, depth + 1)
        elif stage == "s0":
            self.leaf(parent, self.points["end"], sigma, live)
        else:
            self.head(parent, stage, sigma, live, False, depth + 1)

    def innermost_player(self, stage: str) -> str:
        """The innermost player stage around (and including) ``stage``."""
        for ref in reversed(self.stack_of(stage)):
            if ref.kind == "player":
                return ref.id
        return "s0"

    def head(self, parent: str, stage: str, sigma: dict[str, Source], live: set[str], first: bool, depth: int) -> None:
        """Check a stage's end condition, then leave it or run a pass."""
        key = ("head", parent, stage, tuple(sorted(sigma.items())), first)
        node = self.stages_node(stage)
        test = self.node("over", stage, node.end)
        env = self.stage_envs[stage]
        sources = {s: self.source(src, self.stage_refs[s].kind == "team") for s, src in sigma.items()}
        for s, src in sigma.items():
            sources["next:" + s] = self.source(("adv", src, s, s in live), self.stage_refs[s].kind == "team")
        lits = self.resolve(node.end, env, SourceCtl(sources, key), parent)
        done, more = self.node("done", stage, node.end), self.node("more", stage, node.end)
        with self.book.group(f"end of stage {stage}: {describe(node.end)}", node.node):
            self.book.add(rule(c(test), lits))
            self.book.add(rule(c(done), [c(parent), c(test)]))
            self.book.add(rule(c(more), [c(parent), Not(c(test))]))
        self.edges += [(done, parent, 1), (more, parent, 1)]
        up, index = self.parent_of[stage]
        outer = {s: v for s, v in sigma.items() if s != stage}
        self.walk(done, up, index + 1, outer, live - {stage}, depth)
        inner = dict(sigma)
        new_live = set(live)
        if not first:
            inner[stage] = ("adv", sigma[stage], stage, stage in live)
            new_live.discard(stage)
        self.walk(more, stage, 0, inner, new_live | ({stage} if stage in live and first else set()), depth)

    def resolve(self, cond: Any, env: ir.Env, ctl: SourceCtl, parent: str) -> list[Literal]:
        """A condition read while control is resolved from node ``parent``; what fails while it
        is read fails there."""
        lits = self.cond(cond, env, ctl)
        for kind, body in self.ledger.resolved_failures.get(ctl.key, []):
            failure = (kind, [c(parent), *body])
            if failure not in self.ledger.failures_now:
                self.ledger.failures_now.append(failure)
        return lits

    def stages_node(self, stage: str) -> ir.StageNode:
        """The IR node of a stage."""
        return self.program.stages[stage]

    def walk_batch(self, parent: str, batch_id: str, sigma: dict[str, Source], live: set[str], depth: int) -> None:
        """Run a batch, unless every effect of it is under a guard that does not hold: then go
        on to what follows it (a guarded region costs no step when its condition is false).
        A chain of skipped batches is followed in a loop, not by recursion: it can be long."""
        while True:
            joined = self.join(parent, ("step", batch_id), sigma, live)
            if joined is None:
                return
            parent = joined
            batch = self.batch_by_id[batch_id]
            common = self.skipping_guards(batch)
            if not common:
                self.leaf(parent, self.points[batch_id], sigma, live)
                return
            lits: list[Literal] = []
            for guard in common:
                if self.guard_batch.get(guard.anchor) == batch_id:
                    sources = {s: self.source(src, self.stage_refs[s].kind == "team") for s, src in sigma.items()}
                    for s, src in sigma.items():
                        sources["next:" + s] = self.source(("adv", src, s, s in live), self.stage_refs[s].kind == "team")
                    lits += self.resolve(guard.cond, guard.env,
                                         SourceCtl(sources, ("guard", batch_id, tuple(sorted(sigma.items()))), batch_id),
                                         parent)
                else:
                    lits.append(true(f("flag", c(f"g{guard.id}"))))
            test = self.node("runs", batch_id)
            yes, no = self.node("run", batch_id), self.node("skip", batch_id)
            with self.book.group(f"step {batch_id} runs only if its guards hold"):
                self.book.add(rule(c(test), lits))
                self.book.add(rule(c(yes), [c(parent), c(test)]))
                self.book.add(rule(c(no), [c(parent), Not(c(test))]))
            self.edges += [(yes, parent, 0), (no, parent, 0)]
            self.skips[no] = batch_id
            self.leaf(yes, self.points[batch_id], sigma, live)
            following = self.next_of.get(batch_id)
            if following is None:
                stage, index = self.cont_of[batch_id]
                self.walk(no, stage, index, sigma, live, depth)
                return
            parent, batch_id = no, following

    def skipping_guards(self, batch: Batch) -> list[ir.Guard]:
        """The guards whose failure skips a batch: those every effect is under, outside any that
        reads what ``random`` draws in the batch, and only as far out as the guards the batch
        writes a flag for. A batch that writes ``(flag gK)`` for
        later steps runs (and writes it) whenever gK and the guards around it hold, even if a
        guard further in fails for all its own effects."""
        common = self.common_guards(batch)
        drawn = [g for g in common if self.guard_batch.get(g.anchor) == batch.id and reads_random(g.cond, g.env)]
        if drawn:  # what random draws in the step cannot be read before it: the step runs
            common = common[:common.index(drawn[0])]
        # a guard reading a choice's fork or the card of an `all` is read where that is bound,
        # in the step, not while control is resolved
        bound = [g for g in common if self.guard_batch.get(g.anchor) == batch.id and reads_variable(g.cond, g.env)]
        if bound:
            common = common[:common.index(bound[0])]
        for guard in (g for e in batch.effects for g in e.guards):
            if guard.id in self.flagged and self.guard_batch.get(guard.anchor) == batch.id:
                outer = self.program.effects[guard.anchor].guards
                common = [g for g in common if g in outer[: outer.index(guard) + 1]]
        return common

    def common_guards(self, batch: Batch) -> list[ir.Guard]:
        """The guards every effect of a batch is under."""
        if not batch.effects:
            return []
        shared = list(batch.effects[0].guards)
        for effect in batch.effects[1:]:
            shared = [g for g in shared if g in effect.guards]
        return shared

    def leaf(self, parent: str, point: StepPoint, sigma: dict[str, Source], live: set[str]) -> None:
        """The step runs ``point`` with these seats."""
        with self.book.group(f"control reaches {point.id}"):
            self.book.add(rule(f("at_step", c(point.id)), [c(parent)]))
            for stage, src in sigma.items():
                team = self.stage_refs[stage].kind == "team"
                lits, term = self.source(src, team)(self.fresh)
                self.book.add(rule(f("rtseat" if team else "rseat", stage, term), [c(parent)] + lits))
                if stage in live and not team:
                    q = Variable("q")
                    self.book.add(rule(f("rqueue", stage, q), [c(parent), true(f("queue", stage, q))]))
        self.leaves.append((parent, point, sigma, live))


def _source_stage(src: Source) -> str | None:
    """The stage a seat source advances or reads (for its relation's name)."""
    if src[0] in ("adv", "fluent"):
        return str(src[2] if src[0] == "adv" else src[1])
    if src[0] in ("copy", "teamof") and isinstance(src[1], tuple):
        return _source_stage(src[1])
    return None


__all__ = ["Control", "StepPoint"]
