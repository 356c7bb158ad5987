"""C generated from a :class:`~ggp.reasoner.network.Network`: the game part of a compiled machine.

The rule placement is the Python generator's (:class:`~ggp.reasoner.codegen.Generator`'s
layout: rules indexed by triggering move, frame rules as copy masks, forward chaining from
move-dependent atoms, the rest straight-line in topological order); only the syntax differs.
A state is a bit set of ``NW`` 64-bit words, fluent ``k`` at bit ``k % 64`` of word ``k / 64``.
:func:`generate_c` writes, for the runtime in ``native.c`` to call:

- ``g_analyze(s, n, L, A)``: each role's legal move indices into ``L`` (role ``r`` from
  ``MOFF[r]``, ``n[r]`` of them, ascending); returns whether ``s`` is terminal; the derived
  atoms it computes stay in ``A`` (``NA`` bytes), where the transitions read them;
- ``g_goals(s, n, G)``: each role's goal values (from ``GOFF[r]``, ``n[r]`` of them);
- ``n_trans(s, J, o, mv, A)``: the next state of ``s`` by the joint move ``J`` into ``o``
  (``A`` as ``g_analyze`` left it for ``s``);
- ``r<k>_trans(s, J, o, mv, A)``: role ``k``'s ``sees`` outputs alone, in ``mv[0 .. NSEES[k])``;
  or, on a large game (:data:`SHARED_SEES_BYTES`), ``s_trans``: every role's at once, role
  ``k``'s in ``mv[SEES_OFF[k] ..]`` (``SEES_SHARED``). Each transition ``X_trans`` first runs
  ``X_prep``, its state-only atoms (``s_prep`` runs ``n_prep`` and adds what it leaves).

The rules indexed by a triggering move and the chained ones (thousands on a translated card
game, each run only when its trigger fires) are tables that ``run_rules`` interprets, every
state-only atom they read computed up front: gcc then compiles a large game in seconds rather
than minutes (Agram's 25,000 small functions took it over a minute), and the code that runs on
every step (analysis, goals, the rules reading the state only, the rest in topological order)
stays straight-line.

``mv`` holds one byte per move-dependent atom the transition computes besides the next
state (``*_MV`` of them); the caller provides it.
"""

from __future__ import annotations

from collections import defaultdict

from ggp.reasoner.codegen import Generator, Layout, _Writer
from ggp.reasoner.network import TRUE, Body, Network

#: Bump when the generated C changes in a way the cache key's source hash cannot see.
C_GENERATOR_VERSION = "1"

_PROLOGUE = """\
#include <stdint.h>
#include <string.h>
#define T(k) ((int)((s[(k) >> 6] >> ((k) & 63)) & 1u))
#define GN(k) ((int)((o[(k) >> 6] >> ((k) & 63)) & 1u))
#define SN(k) (o[(k) >> 6] |= (uint64_t)1 << ((k) & 63))
typedef struct {
    const uint64_t *s;
    const int *J;
    uint64_t *o;
    uint8_t *mv;
    const uint8_t *A;
    int *W;
    int wn;
    int base;
} Ctx;
/* Run the encoded rules R[at .. end): each is a head (slot * 2, + 1 when the slot triggers
 * chained rules), a literal count and the literals (value * 8 + kind: 0/1 fluent, 2/3 derived atom,
 * 4/5 move m of role r as value m * ROLES + r; odd kinds negated). A rule whose body holds
 * sets its slot (slots below base are bits of o, the others bytes of mv). */
static void run_rules(Ctx *c, const int32_t *R, int32_t at, int32_t end) {
    const uint64_t *s = c->s;
    while (at < end) {
        int32_t head = R[at], n = R[at + 1], slot = head >> 1;
        const int32_t *lit = R + at + 2;
        at += 2 + n;
        if (slot < c->base ? (int)((c->o[slot >> 6] >> (slot & 63)) & 1u) : c->mv[slot - c->base]) continue;
        int ok = 1;
        for (int32_t i = 0; i < n && ok; i++) {
            int32_t code = lit[i], v = code >> 3, x;
            switch (code & 6) {
            case 0: x = T(v); break;
            case 2: x = c->A[v]; break;
            default: x = c->J[v % ROLES_] == v / ROLES_; break;
            }
            ok = x ^ (code & 1);
        }
        if (!ok) continue;
        if (slot < c->base) c->o[slot >> 6] |= (uint64_t)1 << (slot & 63); else c->mv[slot - c->base] = 1;
        if (head & 1) c->W[c->wn++] = slot;
    }
}
"""


_ANY_OF = """\
/* Whether one of the bodies BIG[at .. end) holds: each is a literal count and the literals
 * (index * 4 + 2 for derived atom A[index], index * 4 for fluent index; + 1 when negated). */
static int any_of(const uint64_t *s, const uint8_t *A, int32_t at, int32_t end) {
    while (at < end) {
        int32_t n = BIG[at++], i = 0;
        for (; i < n; i++) {
            int32_t code = BIG[at + i], v = code >> 2;
            int x = (code & 2) ? A[v] : T(v);
            if (x == (code & 1)) break;
        }
        if (i == n) return 1;
        at += n;
    }
    return 0;
}
"""


class CGenerator(Generator):
    """Writes the C source for one network (the layout of :class:`Generator`, C syntax)."""

    def __init__(self, net: Network):
        super().__init__(net)
        self.base = 0  # slots below this are bits of the next state ``o``; the others ``mv`` bytes
        self.index = {atom: i for i, atom in enumerate(sorted(net.bodies))}  # derived atoms in ``A``
        self.analysed: set[int] = set()  # atoms ``g_analyze`` leaves in ``A``: transitions reuse them
        self.mv_sizes = [1]
        self.big: list[int] = []  # encoded bodies of the large disjunctions ``any_of`` evaluates
        self.prepared: dict[str, set[int]] = {}  # atoms in ``A`` once a transition's ``prep`` ran

    # -- expressions -------------------------------------------------------------------------

    def get(self, k: int) -> str:
        """Read slot ``k``."""
        return f"GN({k})" if k < self.base else f"mv[{k - self.base}]"

    def put(self, k: int) -> str:
        """Set slot ``k`` (a statement)."""
        return f"SN({k});" if k < self.base else f"mv[{k - self.base}] = 1;"

    def lit(self, atom: int, positive: bool, slot: dict[int, int]) -> str:
        """One literal: fluents read ``s``, moves compare ``J``, move-dependent atoms their slot."""
        net = self.net
        if atom == TRUE:
            text = "1"
        elif atom in net.fluent_of:
            text = f"T({net.fluent_of[atom]})"
        elif atom in net.move_of:
            r, m = net.move_of[atom]
            return f"(J[{r}] {'==' if positive else '!='} {m})"
        elif atom in slot:
            text = self.get(slot[atom])
        else:
            text = f"A[{self.index[atom]}]"
        return text if positive else f"!{text}"

    def conj(self, body: Body, slot: dict[int, int]) -> str:
        """A rule body as a C ``&&``."""
        pos, neg = body
        parts = [self.lit(p, True, slot) for p in pos] + [self.lit(n, False, slot) for n in neg]
        return " && ".join(parts) if parts else "1"

    def big_or(self, bodies: list[Body]) -> str | None:
        """A call of ``any_of`` evaluating ``bodies`` from the table ``BIG`` when they read more
        than :data:`BIG_LITERALS` literals, all fluents or state-only derived atoms; else None.
        (gcc needs minutes and gigabytes for one expression of 100,000 literals: mastermind.)"""
        if sum(len(pos) + len(neg) for pos, neg in bodies) <= BIG_LITERALS:
            return None
        net = self.net
        encoded: list[int] = []
        for pos, neg in bodies:
            lits: list[int] = []
            for atom, negated in [(p, 0) for p in pos] + [(n, 1) for n in neg]:
                if atom == TRUE:
                    if negated:
                        break
                    continue
                if atom in net.fluent_of:
                    lits.append(net.fluent_of[atom] << 2 | negated)
                elif atom in self.index and atom not in net.move_dependent and atom not in self.inputs:
                    lits.append(self.index[atom] << 2 | 2 | negated)
                else:
                    return None
            else:
                encoded += [len(lits)] + lits
        start = len(self.big)
        self.big += encoded
        return f"any_of(s, A, {start}, {len(self.big)})"

    def disj(self, bodies: list[Body], slot: dict[int, int], flat_limit: int = 0) -> str:
        """Several rule bodies as a C expression of value 0 or 1: with ``||`` and ``&&``
        (stopping at the first false literal, which is usually well predicted), or with ``|``
        and ``&`` (no branch) when they read at most ``flat_limit`` literals in all."""
        if any(not pos and not neg for pos, neg in bodies):
            return "1"
        call = self.big_or(bodies)
        if call is not None:
            return call
        flat = sum(len(pos) + len(neg) for pos, neg in bodies) <= flat_limit
        conds = [self.conj(b, slot) for b in bodies]
        if flat:
            conds = [c.replace(" && ", " & ") for c in conds]
        return conds[0] if len(conds) == 1 else (" | " if flat else " || ").join(f"({c})" for c in conds)

    # -- state-only cones ---------------------------------------------------------------------

    def compute(self, w: _Writer, indent: int, bodies: list[Body], done: set[int], loaded: set[int]) -> None:
        """Declare and compute the state-only atoms ``bodies`` need (skipping ``done``)."""
        cone = [a for a in self.cone(bodies, done) if a not in done]
        emitted: set[int] = set()
        for atom in cone:
            if atom in emitted:
                continue
            comp = self.recursive.get(atom)
            if comp is None:
                w.add(indent, f"A[{self.index[atom]}] = {self.disj(self.net.bodies[atom], {})};")
                emitted.add(atom)
                continue
            members = [a for a in comp if a in cone]
            w.add(indent, " ".join(f"A[{self.index[a]}] = 0;" for a in members))
            w.add(indent, "for (;;) {")
            w.add(indent + 1, "int ch = 0;")
            for a in members:
                x = self.index[a]
                w.add(indent + 1, f"if (!A[{x}] && ({self.disj(self.net.bodies[a], {})})) {{ A[{x}] = 1; ch = 1; }}")
            w.add(indent + 1, "if (!ch) break;")
            w.add(indent, "}")
            emitted.update(members)
        done.update(cone)

    # -- analysis and goals -------------------------------------------------------------------

    def c_analysis(self, w: _Writer) -> None:
        """``g_analyze``."""
        body = _Writer()
        self.analysis_body(body, 1, self.analysed, set())
        offset = 0
        for r, lst in enumerate(self.net.legal):
            body.add(1, f"n[{r}] = 0;")
            for m, atom in lst:
                expr = self.value(atom)
                body.add(1, f"L[{offset} + n[{r}]++] = {m};" if expr == "1"
                         else f"L[{offset} + n[{r}]] = {m}; n[{r}] += ({expr});")
            offset += len(self.net.moves[r])
        calls = _chunked(w, "g_analyze", body.lines)
        w.add(0, "static int g_analyze(const uint64_t *s, int *n, int *L, uint8_t *A) {")
        w.add(1, "const int *J = 0; uint64_t *o = 0; uint8_t *mv = 0; Ctx *c = 0;")
        w.lines += calls
        w.add(1, f"(void)J; (void)o; (void)mv; (void)c; return {self.terminal()};")
        w.add(0, "}")

    def c_goals(self, w: _Writer) -> None:
        """``g_goals``."""
        net = self.net
        body = _Writer()
        self.compute(body, 1, self._output_bodies([a for g in net.goals for _, a in g]), set(), set())
        offset = 0
        for r, lst in enumerate(net.goals):
            body.add(1, f"n[{r}] = 0;")
            for value, atom in lst:
                body.add(1, f"if ({self.value(atom)}) L[{offset} + n[{r}]++] = {value};")
            offset += len(lst)
        calls = _chunked(w, "g_goals", body.lines)
        w.add(0, "static void g_goals(const uint64_t *s, int *n, int *L) {")
        w.add(1, "uint8_t A[NA]; const int *J = 0; uint64_t *o = 0; uint8_t *mv = 0; Ctx *c = 0;")
        w.lines += calls
        w.add(1, "(void)s; (void)J; (void)o; (void)mv; (void)c;")
        w.add(0, "}")

    # -- transition ----------------------------------------------------------------------------

    def put_value(self, k: int, value: str) -> str:
        """Set slot ``k`` when ``value`` (0 or 1) is 1, without a branch (a statement)."""
        if k < self.base:
            return f"o[{k >> 6}] |= (uint64_t)({value}) << {k & 63};"
        return f"mv[{k - self.base}] |= (uint8_t)({value});"

    def set_c_slot(self, w: _Writer, indent: int, lay: Layout, s: int, cond: str) -> None:
        """Set slot ``s`` when ``cond`` holds, a newly set trigger pushed onto the worklist (the
        worklist's next entry is always written, and counted only when the slot was set)."""
        if s in lay.chains:
            test = f"!{self.get(s)}" if cond == "1" else f"!{self.get(s)} & ({cond})"
            w.add(indent, f"{{ int v = {test}; {self.put_value(s, 'v')} c->W[c->wn] = {s}; c->wn += v; }}")
        elif cond == "1":
            w.add(indent, self.put(s))
        else:
            w.add(indent, self.put_value(s, cond))

    def set_c_slots(self, w: _Writer, indent: int, lay: Layout, rules: list[tuple[int, Body]]) -> None:
        """Set each slot of ``rules`` whose rule bodies hold."""
        grouped: dict[int, list[Body]] = defaultdict(list)
        for s, body in rules:
            grouped[s].append(body)
        for s, bodies in grouped.items():
            self.set_c_slot(w, indent, lay, s, self.disj(bodies, lay.slot, FLAT_LITERALS))

    def c_rules(self, lay: Layout, rules: list[tuple[int, Body]], position: dict[int, int]) -> list[int]:
        """``rules`` encoded for ``run_rules``: per rule its head (slot, and 1 when the slot
        triggers chained rules), the number of literals and each literal."""
        net = self.net
        out: list[int] = []
        for s, (pos, neg) in rules:
            lits: list[int] = []
            never = False
            for atom, positive in [(p, True) for p in pos] + [(n, False) for n in neg]:
                if atom == TRUE:
                    never = never or not positive
                    continue
                if atom in net.fluent_of:
                    code = net.fluent_of[atom] << 3
                elif atom in net.move_of:
                    r, m = net.move_of[atom]
                    code = ((m * len(net.roles) + r) << 3) | 4
                else:
                    code = (self.index[atom] << 3) | 2
                lits.append(code if positive else code | 1)
            if not never:
                out += [s * 2 + (s in lay.chains), len(lits)] + lits
        return out

    def c_blocks(self, w: _Writer, lay: Layout, prefix: str) -> None:
        """The rules indexed by triggering move and by chained slot as tables for ``run_rules``
        (``{prefix}R``; move ``m`` of role ``r`` runs ``{prefix}BS[MOFF[r] + m]`` up to the next
        entry, slot ``k`` ``{prefix}PS[k]`` up to the next), and the copy masks."""
        net = self.net
        words = max(1, (self.nb + 63) // 64)
        position: dict[int, int] = {}
        table: list[int] = []
        starts: list[int] = []
        for r, moves in enumerate(net.moves):
            for m in range(len(moves)):
                starts.append(len(table))
                table += self.c_rules(lay, lay.blocks.get((r, m), []), position)
        starts.append(len(table))
        chain_starts: list[int] = []
        for k in range(lay.size):
            chain_starts.append(len(table))
            table += self.c_rules(lay, lay.chains.get(k, []), position)
        chain_starts.append(len(table))
        w.add(0, f"static const int32_t {prefix}R[{max(1, len(table))}] = {_ints(table)};")
        w.add(0, f"static const int32_t {prefix}BS[{len(starts)}] = {_ints(starts)};")
        w.add(0, f"static const int32_t {prefix}PS[{len(chain_starts)}] = {_ints(chain_starts)};")
        for r, moves in enumerate(net.moves):
            if any(key[0] == r for key in lay.block_copy):
                rows = ", ".join(_words(lay.block_copy.get((r, m), set()), words) for m in range(len(moves)))
                w.add(0, f"static const uint64_t {prefix}C{r}[{len(moves)}][{words}] = {{{rows}}};")
        w.add(0, f"static const uint64_t {prefix}STATIC[{words}] = {_words(lay.static_copy, words)};")

    def c_transition(self, w: _Writer, lay: Layout, prefix: str, after: str | None = None) -> None:
        """``{prefix}trans(s, J, o, mv)``: the transition of ``lay``; its state-only atoms
        computed first by ``{prefix}prep``, which runs ``{after}prep`` first and computes only
        what that leaves (so that the transitions share that code)."""
        net = self.net
        words = max(1, (self.nb + 63) // 64)
        head = w
        w = _Writer()
        w.add(1, f"int Wl[{len(lay.chains) + 1}];")
        w.add(1, f"Ctx cx = {{s, J, o, mv, A, Wl, 0, {self.base}}}; Ctx *c = &cx; int *n = 0, *L = 0;")
        w.add(1, "(void)c;")
        if self.base:
            masks = [f"{prefix}STATIC[i]"]
            masks += [f"{prefix}C{r}[J[{r}]][i]" for r in range(len(net.roles)) if any(k[0] == r for k in lay.block_copy)]
            w.add(1, f"for (int i = 0; i < {words}; i++) o[i] = s[i] & ({' | '.join(masks)});")
        if lay.size > self.base:
            w.add(1, f"memset(mv, 0, {lay.size - self.base});")
        copied = sorted(lay.static_copy.union(*lay.block_copy.values()) & set(lay.chains))
        for k in copied:
            w.add(1, f"if ({self.get(k)}) Wl[cx.wn++] = {k};")
        preamble, w.lines = w.lines, []
        done = set(self.analysed) | (self.prepared[after] if after else set())
        prep = _Writer()
        if lay.shared:
            self.compute(prep, 1, [((a,), ()) for a in lay.shared], done, set())
        self.compute(prep, 1, [b for _, b in lay.static + lay.straight], done, set())
        self.prepared[prefix] = done
        self.c_prep(head, prep, prefix, after)
        w.add(1, f"{prefix}prep(s, J, o, mv, A);")
        for r in range(len(net.roles)):
            if any(key[0] == r for key in lay.blocks):
                w.add(1, f"run_rules(c, {prefix}R, {prefix}BS[{sum(len(m) for m in net.moves[:r])} + J[{r}]], "
                         f"{prefix}BS[{sum(len(m) for m in net.moves[:r]) + 1} + J[{r}]]);")
        for s in lay.constants:
            w.add(1, self.put(s))
        self.set_c_slots(w, 1, lay, lay.static)
        chase = (f"while (c->wn) {{ int k = c->W[--c->wn]; run_rules(c, {prefix}R, {prefix}PS[k], {prefix}PS[k + 1]); }}"
                 if lay.chains else "")
        if chase:
            w.add(1, chase)
        by_slot: dict[int, list[Body]] = defaultdict(list)
        for s, body in lay.straight:
            by_slot[s].append(body)
        atom_at = {s: a for a, s in lay.slot.items()}
        looped: set[int] = set()
        for s in sorted(by_slot, key=lambda x: self._key(atom_at[x])):
            comp = self.recursive.get(atom_at[s])
            if comp is None:
                self.set_c_slot(w, 1, lay, s, self.disj(by_slot[s], lay.slot, FLAT_LITERALS))
                if s in lay.chains and chase:
                    w.add(1, chase)
                continue
            if comp[0] in looped:
                continue
            looped.add(comp[0])
            w.add(1, "for (;;) {")
            w.add(2, "int ch = 0;")
            for a in comp:
                if a in lay.slot and lay.slot[a] in by_slot:
                    ms = lay.slot[a]
                    w.add(2, f"if (!{self.get(ms)} && ({self.disj(by_slot[ms], lay.slot)})) {{ {self.put(ms)} ch = 1; }}")
            w.add(2, "if (!ch) break;")
            w.add(1, "}")
        calls = _chunked(head, f"{prefix}trans", w.lines)
        head.add(0, f"static void {prefix}trans(const uint64_t *s, const int *J, uint64_t *o, uint8_t *mv, uint8_t *A) {{")
        head.lines += preamble + calls
        head.add(1, "(void)s; (void)J; (void)o; (void)mv; (void)n; (void)L;")
        head.add(0, "}")

    def c_prep(self, head: _Writer, prep: _Writer, prefix: str, after: str | None) -> None:
        """``{prefix}prep(s, J, o, mv, A)``: the state-only atoms of the ``prep`` lines, after
        ``{after}prep``'s."""
        calls = _chunked(head, f"{prefix}prep", prep.lines)
        head.add(0, f"static void {prefix}prep(const uint64_t *s, const int *J, uint64_t *o, uint8_t *mv, uint8_t *A) {{")
        head.add(1, "Ctx *c = 0; int *n = 0, *L = 0;")
        if after:
            head.add(1, f"{after}prep(s, J, o, mv, A);")
        head.lines += calls
        head.add(1, "(void)s; (void)J; (void)o; (void)mv; (void)A; (void)c; (void)n; (void)L;")
        head.add(0, "}")

    def c_layout(self, w: _Writer, targets: list[tuple[int, int]], size: int, frames: bool, prefix: str,
                 after: str | None = None) -> Layout:
        """Lay out and write one transition; ``{prefix}MV`` is the size of its ``mv``."""
        self.base = self.nb if frames else 0
        lay = self.layout(targets, size, frames)
        # Every state-only atom a move-indexed or chained rule reads is computed up front (a few
        # hundred on a large card game: cheap in C), so that those rules can be tables.
        lay.shared = self.cone([b for rules in list(lay.blocks.values()) + list(lay.chains.values()) for _, b in rules])
        self.c_blocks(w, lay, prefix)
        self.c_transition(w, lay, prefix, after)
        self.mv_sizes.append(max(1, lay.size - self.base))
        w.add(0, f"#define {prefix}MV {self.mv_sizes[-1]}")
        return lay


#: A transition's slot whose rule bodies read at most this many literals is set without a branch
#: (Agram's counters, ``next(count k+1) :- true(count k), inc``, read state that changes every
#: step: 15 % more playouts on Agram, 3 % on breakthrough). Derived atoms keep ``&&``: computed
#: without branches too, breakthrough lost 40 %.
FLAT_LITERALS = 8
#: Rule bodies of one atom reading more literals than this are a table that ``any_of`` reads.
BIG_LITERALS = 400
#: Statements per generated function: gcc's optimizer takes time superlinear in a function's
#: size, so long bodies are split into functions of this many statements called in order.
CHUNK = 150
_CHUNK_PARAMS = "const uint64_t *s, const int *J, uint64_t *o, uint8_t *mv, uint8_t *A, Ctx *c, int *n, int *L"


#: Past this many bytes of C with one percept transition per role, the roles' percepts are one
#: transition, ``s_trans``, computing its state-only atoms after ``n_prep``: on a card game each
#: role's percepts need nearly all of the step's work, so the per-role transitions are that many
#: copies of it (four-player Comet: 14 MB of C and 84 s of gcc; shared 4.0 MB and 15.5 s, every
#: role's percepts 2.7 times as fast, one role's 5 % slower). On small games one role's percepts
#: alone are up to 9 % faster.
SHARED_SEES_BYTES = 2_000_000


def _chunked(w: _Writer, name: str, lines: list[str]) -> list[str]:
    """Write ``lines`` (a function body at indent 1, which may use ``s``, ``J``, ``o``, ``mv``,
    ``A``, ``c``, ``n`` and ``L``) as functions of at most :data:`CHUNK` statements; the lines
    calling them in order (the body itself when it is short)."""
    statements: list[list[str]] = []
    for line in lines:
        if statements and (line.startswith("        ") or line.strip() == "}"):
            statements[-1].append(line)  # a line inside a loop, or its end
        else:
            statements.append([line])
    if len(statements) <= CHUNK:
        return lines
    calls = []
    for k in range(0, len(statements), CHUNK):
        part = f"{name}_{k // CHUNK}"
        w.add(0, f"static void {part}({_CHUNK_PARAMS}) {{")
        w.lines += [line for statement in statements[k:k + CHUNK] for line in statement]
        w.add(1, "(void)s; (void)J; (void)o; (void)mv; (void)A; (void)c; (void)n; (void)L;")
        w.add(0, "}")
        calls.append(f"    {part}(s, J, o, mv, A, c, n, L);")
    return calls


def _words(bits: set[int], words: int) -> str:
    """A C initializer of ``words`` 64-bit words with ``bits`` set."""
    values = [0] * words
    for k in bits:
        values[k >> 6] |= 1 << (k & 63)
    return "{" + ", ".join(f"0x{v:x}ull" for v in values) + "}"


def _ints(values: list[int]) -> str:
    return "{" + ", ".join(str(v) for v in values or [0]) + "}"


def generate_c(net: Network, shared_sees: bool | None = None) -> str:
    """The game part of a compiled machine's C source (see the module doc): the functions,
    then the constants the runtime reads (``ROLES``, ``NB``, ``NW``, ``NMOVES``, ``MOFF``, ...).
    ``shared_sees``: every role's percepts one transition, ``s_trans`` (default: when one per
    role makes more than :data:`SHARED_SEES_BYTES` of C and more than one role sees)."""
    if shared_sees is None:
        source = _generate(net, False)
        if len(source) <= SHARED_SEES_BYTES or sum(1 for s in net.sees if s) < 2:
            return source
        shared_sees = True
    return _generate(net, shared_sees)


def _generate(net: Network, shared_sees: bool) -> str:
    gen = CGenerator(net)
    w = _Writer()
    gen.c_analysis(w)
    gen.c_goals(w)
    gen.c_layout(w, list(net.next.items()), gen.nb, True, "n_")
    roles = len(net.roles)
    seeing = [r for r in range(roles) if net.sees[r]]
    if shared_sees:
        atoms = [atom for r in seeing for _, atom in net.sees[r]]
        gen.c_layout(w, list(enumerate(atoms)), len(atoms), False, "s_", after="n_")
        sees_fn = {r: "s_" for r in seeing}
    else:
        for r in seeing:
            atoms = [atom for _, atom in net.sees[r]]
            gen.c_layout(w, list(enumerate(atoms)), len(atoms), False, f"r{r}_")
        sees_fn = {r: f"r{r}_" for r in seeing}
    moves = [len(ms) for ms in net.moves]
    goals = [len(g) for g in net.goals]
    sees = [len(s) for s in net.sees]
    offsets = [sum(moves[:r]) for r in range(roles)]
    goal_offsets = [sum(goals[:r]) for r in range(roles)]
    sees_offsets = [sum(sees[:r]) for r in range(roles)]
    tail = [
        f"#define ROLES {roles}",
        f"#define NB {gen.nb}",
        f"#define NW {max(1, (gen.nb + 63) // 64)}",
        f"#define TOTAL_MOVES {max(1, sum(moves))}",
        f"#define TOTAL_GOALS {max(1, sum(goals))}",
        f"#define NSEES_ALL {sum(sees)}",
        f"#define SEES_SHARED {int(shared_sees)}",
        f"static const int NMOVES[{max(1, roles)}] = {_ints(moves)};",
        f"static const int MOFF[{max(1, roles)}] = {_ints(offsets)};",
        f"static const int GOFF[{max(1, roles)}] = {_ints(goal_offsets)};",
        f"static const int NSEES[{max(1, roles)}] = {_ints(sees)};",
        f"static const int SEES_OFF[{max(1, roles)}] = {_ints(sees_offsets)};",
        "typedef void (*Trans)(const uint64_t *, const int *, uint64_t *, uint8_t *, uint8_t *);",
        f"static const Trans ROLE_SEES[{max(1, roles)}] = "
        + "{" + ", ".join(f"{sees_fn[r]}trans" if r in sees_fn else "0" for r in range(roles)) + "};",
        f"#define MV_MAX {max(gen.mv_sizes)}",
        f"static const int ROLE_SEES_MV[{max(1, roles)}] = "
        + "{" + ", ".join(f"{sees_fn[r]}MV" if r in sees_fn else "1" for r in range(roles)) + "};",
    ]
    body = "\n".join(w.lines)
    big = f"static const int32_t BIG[{max(1, len(gen.big))}] = {_ints(gen.big)};\n" + _ANY_OF
    return (f"#define ROLES_ {max(1, roles)}\n#define NA {max(1, len(net.bodies))}\n" + _PROLOGUE + big + body + "\n"
            + "\n".join(tail) + "\n")
