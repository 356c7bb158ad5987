"""Straight-line Python generated from a :class:`~ggp.reasoner.network.Network`.

A state is a ``bytes`` of 0/1 per fluent. :func:`generate` writes a module defining (each
per-call function as a generator ``name_loop()`` instead when its frame would be large: see
:meth:`_Writer.end`)

- ``analyze(s) -> (legal_lists, terminal)``: each role's legal move indices, ascending;
- ``goals(s) -> goal_value_lists``;
- ``step(s, J) -> bytes`` for a joint move ``J`` of move indices;
- ``playout(s, randrange, max_steps) -> (s, steps, finished)``: a whole random playout inlined;

and :func:`generate_sees` a module with ``step_sees(s, J) -> (bytes, seen)``, ``seen`` the
indices of the true ``sees`` outputs; :func:`generate_role_sees` one with ``role_sees(s, J) ->
seen`` for one role's ``sees`` outputs only, without the next state (the machine compiles these
two only when percepts are first asked for).

The transition is indexed by move: a rule whose only move-dependent literals are ``does``
atoms runs in a small function picked by one of its positive ``does`` literals, so a step
touches only rules its joint move can fire. Frame rules ``next(f) :- true(f) [& does(r, m)]``
become bit masks applied to the whole state at once. Bodies that read the state only run
straight-line. A rule whose one move-dependent literal is a positive derived atom runs in a
small function of that atom, called from a worklist once the atom is set (forward chaining);
the rest runs straight-line in topological order (everything but the move-indexed rules, when
such a rule is part of a recursive component).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ggp.reasoner.network import TRUE, Body, Network


@dataclass
class Layout:
    """Where each transition output and intermediate atom lives, and which rules run where:
    ``blocks`` by triggering move, ``chains`` by the slot of their move-dependent atom,
    ``static`` (state-only bodies) and ``straight`` in topological order."""

    size: int
    slot: dict[int, int]
    constants: list[int]
    static_copy: set[int] = field(default_factory=set)
    block_copy: dict[tuple[int, int], set[int]] = field(default_factory=lambda: defaultdict(set))
    blocks: dict[tuple[int, int], list[tuple[int, Body]]] = field(default_factory=lambda: defaultdict(list))
    chains: dict[int, list[tuple[int, Body]]] = field(default_factory=lambda: defaultdict(list))
    static: list[tuple[int, Body]] = field(default_factory=list)
    straight: list[tuple[int, Body]] = field(default_factory=list)
    shared: list[int] = field(default_factory=list)


#: Frame size (in words: locals and value stack) past which a per-call function is written as
#: a generator (see :meth:`_Writer.end`).
FRAME_LIMIT = 1000


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.getters: dict[tuple[int, ...], str] = {}

    def add(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def begin(self, name: str, params: str) -> int:
        """Start ``def name(params):``; the position of its first body line, for :meth:`end`."""
        self.add(0, f"def {name}({params}):")
        return len(self.lines)

    def end(self, start: int, name: str, params: str, result: str) -> None:
        """End the function begun at ``start`` by returning ``result``.

        CPython keeps frames in 16 KB chunks and maps a fresh chunk for a frame that does not fit
        in the current one, unmapping it on return: on a large game, where a frame holds thousands
        of locals, that costs more than the function's own work (three quarters of Agram's 0.17 ms
        ``role_sees``). A function whose frame would be that large is written instead as
        ``name_loop()``, a generator whose one frame lives in the generator object: it answers
        each ``send((params))`` with what the function would return.
        """
        body = self.lines[start:]
        names = {n for line in body for n in re.findall(r"\b[at]\d+\b", line)}
        widest = max((line.count(",") for line in body), default=0)
        if len(names) + widest < FRAME_LIMIT:
            self.add(1, f"return {result}")
            return
        assert not any(line.lstrip().startswith("return") for line in body)
        self.lines[start - 1] = f"def {name}_loop():"
        self.lines[start:] = (["    out = None", "    while True:", f"        ({params},) = yield out"]
                              + ["    " + line for line in body] + [f"        out = {result}"])

    def getter(self, indices: tuple[int, ...]) -> str:
        """A module-level ``itemgetter`` for ``indices``, shared by identical loads."""
        name = self.getters.get(indices)
        if name is None:
            name = self.getters[indices] = f"_g{len(self.getters)}"
        return name

    def text(self) -> str:
        head = ["from operator import itemgetter"]
        head += [f"{name} = itemgetter({', '.join(map(str, idx))})" for idx, name in self.getters.items()]
        return "\n".join(head + self.lines) + "\n"


class Generator:
    """Writes the Python source for one network."""

    def __init__(self, net: Network):
        self.net = net
        self.uses: Counter[int] = Counter()
        for rules in net.bodies.values():
            for pos, neg in rules:
                self.uses.update(pos)
                self.uses.update(neg)
        self.inputs = set(net.fluent_of) | set(net.move_of)
        self.nb = len(net.fluents)
        self.sees_atoms = [atom for seen in net.sees for _, atom in seen]
        self.recursive = {a: comp for comp in net.recursive for a in comp}

    def _key(self, atom: int) -> tuple[int, int]:
        return (self.net.order.get(atom, -1), atom)

    # -- expressions -------------------------------------------------------------------------

    def lit(self, atom: int, positive: bool, slot: dict[int, int]) -> str:
        """One literal: fluents are ``t`` locals, moves compare ``J``, move-dependent atoms ``mv``."""
        net = self.net
        if atom == TRUE:
            text = "1"
        elif atom in net.fluent_of:
            text = f"t{net.fluent_of[atom]}"
        elif atom in net.move_of:
            r, m = net.move_of[atom]
            return f"J[{r}] {'==' if positive else '!='} {m}"
        elif atom in slot:
            text = f"mv[{slot[atom]}]"
        else:
            text = f"a{atom}"
        return text if positive else f"not {text}"

    def conj(self, body: Body, slot: dict[int, int]) -> str:
        """A rule body as a Python ``and``."""
        pos, neg = body
        parts = [self.lit(p, True, slot) for p in pos] + [self.lit(n, False, slot) for n in neg]
        return " and ".join(parts) if parts else "1"

    def disj(self, bodies: list[Body], slot: dict[int, int]) -> str:
        """Several rule bodies as a Python ``or``."""
        conds = [self.conj(b, slot) for b in bodies]
        if "1" in conds:
            return "1"
        return conds[0] if len(conds) == 1 else " or ".join(f"({c})" for c in conds)

    def value(self, atom: int) -> str:
        """An output atom's value: its local, or its rules inlined when nothing else reads it."""
        if atom == TRUE:
            return "1"
        if atom in self.inputs or self.uses[atom]:
            return self.lit(atom, True, {})
        return self.disj(self.net.bodies[atom], {})

    # -- state-only cones ---------------------------------------------------------------------

    def cone(self, bodies: list[Body], stop: set[int] | frozenset[int] = frozenset()) -> list[int]:
        """State-only derived atoms read, directly or not, by ``bodies`` (topological order),
        not looking past the atoms in ``stop`` (those reached are in the list)."""
        net = self.net
        seen: set[int] = set()
        stack = [x for pos, neg in bodies for x in pos + neg]
        while stack:
            atom = stack.pop()
            if atom in seen or atom in self.inputs or atom == TRUE or atom in net.move_dependent:
                continue
            seen.add(atom)
            if atom not in stop:
                for pos, neg in net.bodies.get(atom, ()):
                    stack.extend(pos + neg)
        return sorted(seen, key=self._key)

    def fluents_read(self, bodies: list[Body]) -> list[int]:
        """Fluent indices read by ``bodies``."""
        fluent_of = self.net.fluent_of
        return sorted({fluent_of[x] for pos, neg in bodies for x in pos + neg if x in fluent_of})

    def load(self, w: _Writer, indent: int, fluents: list[int]) -> None:
        """Bind ``t<k>`` locals for the fluents read."""
        if len(fluents) * 2 > self.nb > 1:
            wanted = set(fluents)
            w.add(indent, ", ".join(f"t{k}" if k in wanted else "_" for k in range(self.nb)) + " = s")
        elif len(fluents) > 4:
            getter = w.getter(tuple(fluents))
            w.add(indent, ", ".join(f"t{k}" for k in fluents) + f" = {getter}(s)")
        else:
            for k in fluents:
                w.add(indent, f"t{k} = s[{k}]")

    def compute(self, w: _Writer, indent: int, bodies: list[Body], done: set[int], loaded: set[int]) -> None:
        """Load the fluents and compute the state-only atoms ``bodies`` need (skipping ``done``)."""
        cone = [a for a in self.cone(bodies, done) if a not in done]
        all_bodies = bodies + [b for a in cone for b in self.net.bodies[a]]
        fluents = [k for k in self.fluents_read(all_bodies) if k not in loaded]
        self.load(w, indent, fluents)
        loaded.update(fluents)
        emitted: set[int] = set()
        for atom in cone:
            if atom in emitted:
                continue
            comp = self.recursive.get(atom)
            if comp is None:
                w.add(indent, f"a{atom} = {self.disj(self.net.bodies[atom], {})}")
                emitted.add(atom)
                continue
            members = [a for a in comp if a in cone]
            for a in members:
                w.add(indent, f"a{a} = 0")
            w.add(indent, "while True:")
            w.add(indent + 1, "c = 0")
            for a in members:
                w.add(indent + 1, f"if not a{a} and ({self.disj(self.net.bodies[a], {})}):")
                w.add(indent + 2, f"a{a} = c = 1")
            w.add(indent + 1, "if not c:")
            w.add(indent + 2, "break")
            emitted.update(members)
        done.update(cone)

    def _output_bodies(self, atoms: list[int]) -> list[Body]:
        """Bodies to prepare before reading ``atoms`` with :meth:`value`."""
        out: list[Body] = []
        for atom in atoms:
            if atom == TRUE or atom in self.inputs:
                out.append(((atom,), ()) if atom != TRUE else ((), ()))
            elif self.uses[atom]:
                out.append(((atom,), ()))
            else:
                out.extend(self.net.bodies[atom])
        return out

    # -- analysis and goals -------------------------------------------------------------------

    def analysis_body(self, w: _Writer, indent: int, done: set[int], loaded: set[int]) -> None:
        """Compute what legal and terminal need."""
        net = self.net
        outs = [a for lst in net.legal for _, a in lst] + ([net.terminal] if net.terminal is not None else [])
        self.compute(w, indent, self._output_bodies(outs), done, loaded)

    def terminal(self) -> str:
        """The terminal test."""
        return "0" if self.net.terminal is None else self.value(self.net.terminal)

    def legal_lists(self, w: _Writer, indent: int) -> None:
        """``L<r>``: each role's legal move indices."""
        for r, lst in enumerate(self.net.legal):
            w.add(indent, f"L{r} = []")
            for m, atom in lst:
                expr = self.value(atom)
                if expr == "1":
                    w.add(indent, f"L{r}.append({m})")
                else:
                    w.add(indent, f"if {expr}:")
                    w.add(indent + 1, f"L{r}.append({m})")

    def analysis(self, w: _Writer) -> None:
        """``analyze(s)``."""
        start = w.begin("analyze", "s")
        self.analysis_body(w, 1, set(), set())
        self.legal_lists(w, 1)
        roles = ", ".join(f"L{r}" for r in range(len(self.net.roles)))
        w.end(start, "analyze", "s", f"({roles},), {self.terminal()}")

    def goals(self, w: _Writer) -> None:
        """``goals(s)``."""
        net = self.net
        start = w.begin("goals", "s")
        self.compute(w, 1, self._output_bodies([a for g in net.goals for _, a in g]), set(), set())
        for r, lst in enumerate(net.goals):
            w.add(1, f"G{r} = []")
            for value, atom in lst:
                w.add(1, f"if {self.value(atom)}:")
                w.add(2, f"G{r}.append({value})")
        w.end(start, "goals", "s", f"({', '.join(f'G{r}' for r in range(len(net.roles)))},)")

    # -- transition ----------------------------------------------------------------------------

    def layout(self, targets: list[tuple[int, int]], size: int, frames: bool) -> Layout:
        """Slots and rule placement for a transition producing ``targets``: ``(slot, atom)``
        pairs with slots below ``size``. With ``frames``, slot ``k < nb`` holds ``next`` of
        fluent ``k``, so frame rules become copy masks."""
        net = self.net
        slot: dict[int, int] = {}
        constants: list[int] = []
        for s, atom in targets:
            if atom == TRUE:
                constants.append(s)
            elif atom in self.inputs:
                raise AssertionError("a transition output is an input atom")
            else:
                slot[atom] = s
        stack = [a for a in slot if a in net.move_dependent]
        needed: set[int] = set()
        while stack:
            atom = stack.pop()
            for pos, neg in net.bodies.get(atom, ()):
                for x in pos + neg:
                    if x in net.move_dependent and x not in slot and x not in needed:
                        needed.add(x)
                        stack.append(x)
        for atom in sorted(needed, key=self._key):
            slot[atom] = size
            size += 1
        lay = Layout(size, slot, constants)
        fluent_of, move_of, dependent = net.fluent_of, net.move_of, net.move_dependent
        for atom in sorted(slot, key=self._key):
            s = slot[atom]
            for pos, neg in net.bodies[atom]:
                dep_pos = [p for p in pos if p in dependent]
                dep_neg = any(n in dependent for n in neg)
                triggers = sorted((move_of[p], p) for p in pos if p in move_of)
                if triggers and not dep_pos and not dep_neg:
                    key, trigger = triggers[0]
                    rest = tuple(p for p in pos if p != trigger)
                    if frames and s < self.nb and not neg and len(rest) == 1 and fluent_of.get(rest[0]) == s:
                        lay.block_copy[key].add(s)
                    else:
                        lay.blocks[key].append((s, (rest, neg)))
                elif frames and s < self.nb and not neg and len(pos) == 1 and fluent_of.get(pos[0]) == s:
                    lay.static_copy.add(s)
                elif not dep_pos and not dep_neg and not any(x in move_of for x in neg):
                    lay.static.append((s, (pos, neg)))
                elif len(dep_pos) == 1 and not dep_neg:
                    lay.chains[slot[dep_pos[0]]].append((s, (tuple(p for p in pos if p != dep_pos[0]), neg)))
                else:
                    lay.straight.append((s, (pos, neg)))
        atom_at = {s: a for a, s in slot.items()}
        if any(atom_at[s] in self.recursive for s, _ in lay.straight):
            # Forward chaining needs the other rules in topological order, outside recursion:
            # here every rule but the move-indexed ones runs straight-line, as written.
            lay.straight = sorted(lay.static + lay.straight + [(s, (body[0] + (atom_at[k],), body[1]))
                                  for k, rules in lay.chains.items() for s, body in rules],
                                  key=lambda item: self._key(atom_at[item[0]]))
            lay.static, lay.chains = [], defaultdict(list)
        needs: Counter[int] = Counter()
        for rules in list(lay.blocks.values()) + list(lay.chains.values()):
            needs.update(self.cone([b for _, b in rules]))
        lay.shared = sorted((a for a, n in needs.items() if n > 1), key=self._key)
        return lay

    @staticmethod
    def _mask(bits: set[int]) -> str:
        return hex(sum(1 << (8 * k) for k in bits))

    @staticmethod
    def set_slot(w: _Writer, indent: int, lay: Layout, s: int, cond: str) -> None:
        """``mv[s] = 1`` when ``cond`` holds, a newly set trigger pushed onto the worklist ``W``."""
        if s in lay.chains:
            w.add(indent, f"if not mv[{s}]:" if cond == "1" else f"if not mv[{s}] and ({cond}):")
            w.add(indent + 1, f"mv[{s}] = 1")
            w.add(indent + 1, f"W.append({s})")
        elif cond == "1":
            w.add(indent, f"mv[{s}] = 1")
        else:
            w.add(indent, f"if {cond}:")
            w.add(indent + 1, f"mv[{s}] = 1")

    def set_slots(self, w: _Writer, indent: int, lay: Layout, rules: list[tuple[int, Body]]) -> None:
        """Set each slot of ``rules`` whose rule bodies hold (slots in the rules' order)."""
        grouped: dict[int, list[Body]] = defaultdict(list)
        for s, body in rules:
            grouped[s].append(body)
        for s, bodies in grouped.items():
            self.set_slot(w, indent, lay, s, self.disj(bodies, lay.slot))

    def function(self, w: _Writer, name: str, lay: Layout, rules: list[tuple[int, Body]]) -> None:
        """``name(s, mv, J, V, W)`` setting the slots of ``rules``, shared atoms read from ``V``."""
        position = {a: i for i, a in enumerate(lay.shared)}
        w.add(0, f"def {name}(s, mv, J, V, W):")
        bodies = [b for _, b in rules]
        from_v = [a for a in self.cone(bodies, set(position)) if a in position]
        if len(from_v) == 1:
            w.add(1, f"a{from_v[0]} = V[{position[from_v[0]]}]")
        elif from_v:
            getter = w.getter(tuple(position[a] for a in from_v))
            w.add(1, ", ".join(f"a{a}" for a in from_v) + f" = {getter}(V)")
        self.compute(w, 1, bodies, set(from_v), set())
        self.set_slots(w, 1, lay, rules)

    def blocks(self, w: _Writer, lay: Layout, prefix: str) -> None:
        """One function per triggering move and per chained slot, their dispatch tables
        ``{prefix}B<r>`` and ``{prefix}P``, and the copy masks."""
        net = self.net
        for (r, m), rules in sorted(lay.blocks.items()):
            self.function(w, f"{prefix}b{r}_{m}", lay, rules)
        for k, rules in sorted(lay.chains.items()):
            self.function(w, f"{prefix}p{k}", lay, rules)
        w.add(0, "def _nop(s, mv, J, V, W):")
        w.add(1, "pass")
        for r, moves in enumerate(net.moves):
            if any(key[0] == r for key in lay.blocks):
                table = ", ".join(f"{prefix}b{r}_{m}" if (r, m) in lay.blocks else "_nop" for m in range(len(moves)))
                w.add(0, f"{prefix}B{r} = ({table},)")
            if any(key[0] == r for key in lay.block_copy):
                table = ", ".join(self._mask(lay.block_copy.get((r, m), set())) for m in range(len(moves)))
                w.add(0, f"{prefix}C{r} = ({table},)")
        w.add(0, f"{prefix}STATIC = {self._mask(lay.static_copy)}")
        if lay.chains:
            w.add(0, f"{prefix}P = {{{', '.join(f'{k}: {prefix}p{k}' for k in sorted(lay.chains))}}}")

    def transition(self, w: _Writer, indent: int, lay: Layout, prefix: str, done: set[int], loaded: set[int]) -> None:
        """Emit a transition from ``s`` by ``J`` into ``mv`` (``done``/``loaded``: locals at hand).

        Rules indexed by move run first, then the state-only bodies; forward chaining then runs
        the rules whose one move-dependent literal is a slot just set (worklist ``W``); the rest
        runs straight-line in topological order, chaining again after each trigger it sets.
        """
        net = self.net
        masks = [f"{prefix}STATIC"] if lay.static_copy else []
        masks += [f"{prefix}C{r}[J[{r}]]" for r in range(len(net.roles)) if any(k[0] == r for k in lay.block_copy)]
        if masks:
            w.add(indent, f"mv = bytearray((int.from_bytes(s, 'little') & ({' | '.join(masks)}))"
                          f".to_bytes({lay.size}, 'little'))")
        else:
            w.add(indent, f"mv = bytearray({lay.size})")
        copied = sorted(lay.static_copy.union(*lay.block_copy.values()) & set(lay.chains))
        if copied:
            w.add(indent, f"W = [k for k in ({''.join(f'{k}, ' for k in copied)}) if mv[k]]")
        else:
            w.add(indent, "W = []" if lay.chains else "W = None")
        if lay.blocks or lay.chains:
            self.compute(w, indent, [((a,), ()) for a in lay.shared], done, loaded)
            w.add(indent, f"V = ({''.join(f'a{a}, ' for a in lay.shared)})")
        for r in range(len(net.roles)):
            if any(key[0] == r for key in lay.blocks):
                w.add(indent, f"{prefix}B{r}[J[{r}]](s, mv, J, V, W)")
        for s in lay.constants:
            w.add(indent, f"mv[{s}] = 1")
        self.compute(w, indent, [b for _, b in lay.static + lay.straight], done, loaded)
        self.set_slots(w, indent, lay, lay.static)
        chase = ["while W:", f"    {prefix}P[W.pop()](s, mv, J, V, W)"] if lay.chains else []
        for line in chase:
            w.add(indent, line)
        by_slot: dict[int, list[Body]] = defaultdict(list)
        for s, body in lay.straight:
            by_slot[s].append(body)
        atom_at = {s: a for a, s in lay.slot.items()}
        looped: set[int] = set()
        for s in sorted(by_slot, key=lambda x: self._key(atom_at[x])):
            comp = self.recursive.get(atom_at[s])
            if comp is None:
                self.set_slot(w, indent, lay, s, self.disj(by_slot[s], lay.slot))
                if s in lay.chains:
                    for line in chase:
                        w.add(indent, line)
                continue
            if comp[0] in looped:
                continue
            looped.add(comp[0])
            w.add(indent, "while True:")
            w.add(indent + 1, "c = 0")
            for a in comp:
                if a in lay.slot and lay.slot[a] in by_slot:
                    ms = lay.slot[a]
                    w.add(indent + 1, f"if not mv[{ms}] and ({self.disj(by_slot[ms], lay.slot)}):")
                    w.add(indent + 2, f"mv[{ms}] = c = 1")
            w.add(indent + 1, "if not c:")
            w.add(indent + 2, "break")

    def step(self, w: _Writer) -> Layout:
        """``step(s, J)``."""
        lay = self.layout(list(self.net.next.items()), self.nb, frames=True)
        self.blocks(w, lay, "n_")
        start = w.begin("step", "s, J")
        self.transition(w, 1, lay, "n_", set(), set())
        w.end(start, "step", "s, J", "bytes(mv)" if lay.size == self.nb else f"bytes(mv[:{self.nb}])")
        return lay

    @staticmethod
    def ones(w: _Writer, indent: int, start: int, stop: int) -> None:
        """``R``: the positions ``i - start`` of the 1 bytes of ``mv[start:stop]``, ascending."""
        w.add(indent, "R = []")
        w.add(indent, f"i = mv.find(1, {start}, {stop})")
        w.add(indent, "while i >= 0:")
        w.add(indent + 1, f"R.append(i - {start})" if start else "R.append(i)")
        w.add(indent + 1, f"i = mv.find(1, i + 1, {stop})")

    def step_sees(self, w: _Writer) -> None:
        """``step_sees(s, J)``."""
        targets = list(self.net.next.items()) + [(self.nb + i, atom) for i, atom in enumerate(self.sees_atoms)]
        lay = self.layout(targets, self.nb + len(self.sees_atoms), frames=True)
        self.blocks(w, lay, "f_")
        start = w.begin("step_sees", "s, J")
        self.transition(w, 1, lay, "f_", set(), set())
        self.ones(w, 1, self.nb, self.nb + len(self.sees_atoms))
        w.end(start, "step_sees", "s, J", f"bytes(mv[:{self.nb}]), R")

    def role_sees(self, w: _Writer, role: int) -> None:
        """``role_sees(s, J)``: the indices of ``role``'s true ``sees`` outputs, no next state."""
        atoms = [atom for _, atom in self.net.sees[role]]
        lay = self.layout(list(enumerate(atoms)), len(atoms), frames=False)
        self.blocks(w, lay, "r_")
        start = w.begin("role_sees", "s, J")
        self.transition(w, 1, lay, "r_", set(), set())
        self.ones(w, 1, 0, len(atoms))
        w.end(start, "role_sees", "s, J", "R")

    def playout(self, w: _Writer, lay: Layout) -> None:
        """``playout``: analysis, uniform choice and transition inlined in one loop."""
        net = self.net
        w.add(0, "def playout(s, randrange, max_steps):")
        w.add(1, "steps = 0")
        w.add(1, "while True:")
        done: set[int] = set()
        loaded: set[int] = set()
        self.analysis_body(w, 2, done, loaded)
        w.add(2, f"if {self.terminal()}:")
        w.add(3, "return bytes(s), steps, True")
        w.add(2, "if steps >= max_steps:")
        w.add(3, "return bytes(s), steps, False")
        self.legal_lists(w, 2)
        for r in range(len(net.roles)):
            w.add(2, f"n = len(L{r})")
            w.add(2, f"j{r} = L{r}[randrange(n)] if n > 1 else L{r}[0]")
        w.add(2, f"J = ({''.join(f'j{r}, ' for r in range(len(net.roles)))})")
        self.transition(w, 2, lay, "n_", done, loaded)
        w.add(2, "s = mv" if lay.size == self.nb else f"s = mv[:{self.nb}]")
        w.add(2, "steps += 1")


def generate(net: Network) -> str:
    """The Python source of ``analyze``, ``goals``, ``step`` and ``playout`` for ``net``."""
    gen = Generator(net)
    w = _Writer()
    gen.analysis(w)
    gen.goals(w)
    lay = gen.step(w)
    gen.playout(w, lay)
    return w.text()


def generate_sees(net: Network) -> str:
    """The Python source of ``step_sees`` for ``net``."""
    w = _Writer()
    Generator(net).step_sees(w)
    return w.text()


def generate_role_sees(net: Network, role: int) -> str:
    """The Python source of ``role_sees`` for the role at index ``role`` of ``net``."""
    w = _Writer()
    Generator(net).role_sees(w, role)
    return w.text()
