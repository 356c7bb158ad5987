"""Inlining: a relation defined by one rule is replaced by that rule's body where it is used,
when that makes the rules fewer without making grounding harder.

A relation ``R`` is inlined when

- exactly one rule defines it, its head's arguments are distinct variables, it is not
  recursive, and it is not a GDL keyword nor one the caller keeps;
- every variable of its body occurs in its head (an existential variable, inlined into a rule
  with other variables, would multiply the groundings that the separate relation kept apart);
- it is used only positively, or its body is one positive atom (``(not R)`` becomes
  ``(not A)``);
- it is used once, or its body has at most :data:`SHORT` literals (an alias, or a step of
  control: ``(<= (at_step k1) (true (pc s1i1)) (not over_last))`` reads better than a chain of
  numbered propositions).

Each use is replaced by the body with the head's variables bound to the use's arguments. The
pass repeats until nothing changes; the comments of the emptied groups go with their rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ggp.gdl.rules import KEYWORDS, Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term, Variable

Group = tuple[str, list[Rule]]

#: A body this short is inlined wherever it is used (a longer one only where used once).
SHORT = 2


def inline(groups: list[Group], keep: Iterable[str] = ()) -> list[Group]:
    """``groups`` with every relation that can be inlined (see the module doc) inlined."""
    kept = set(keep) | set(KEYWORDS)
    while True:
        rules = [r for _, rs in groups for r in rs]
        chosen = _candidates(rules, kept)
        if not chosen:
            return groups
        groups = [(comment, [out for r in rs if r.head.name not in chosen for out in [_expand(r, chosen)]])
                  for comment, rs in groups]


def _atoms(lit: Literal) -> Iterable[tuple[Function | Constant, bool]]:
    """The atoms of a literal, and whether each is under a negation."""
    if isinstance(lit, Not):
        for atom, _ in _atoms(lit.literal):
            yield atom, True
    elif isinstance(lit, Or):
        for part in lit.literals:
            yield from _atoms(part)
    elif isinstance(lit, (Function, Constant)):
        yield lit, False


def _candidates(rules: list[Rule], kept: set[str]) -> dict[str, Rule]:
    definitions: dict[str, list[Rule]] = {}
    for r in rules:
        definitions.setdefault(r.head.name, []).append(r)
    uses: Counter[str] = Counter()
    negated: set[str] = set()
    for r in rules:
        for lit in r.body:
            if isinstance(lit, (Function, Constant)):  # most literals: one atom, not negated
                uses[lit.name] += 1
                continue
            for atom, under_not in _atoms(lit):
                uses[atom.name] += 1
                if under_not:
                    negated.add(atom.name)
    chosen: dict[str, Rule] = {}
    for name, defs in definitions.items():
        if name in kept or len(defs) != 1 or not uses[name]:
            continue
        r = defs[0]
        args = r.head.args if isinstance(r.head, Function) else ()
        if not all(isinstance(a, Variable) for a in args) or len(set(args)) != len(args):
            continue
        body_atoms = [a for lit in r.body for a, _ in _atoms(lit)]
        if any(a.name == name for a in body_atoms):
            continue
        body_vars = {v for lit in r.body for v in lit.variables()}
        if not body_vars <= set(args):
            continue
        single_atom = len(r.body) == 1 and isinstance(r.body[0], (Function, Constant))
        if name in negated and not single_atom:
            continue
        if uses[name] > 1 and len(r.body) > SHORT:
            continue
        if any(a.name in chosen for a in body_atoms):
            continue  # one level at a time: the next round takes the rest
        chosen[name] = r
    for name in list(chosen):
        if any(a.name in chosen for lit in chosen[name].body for a, _ in _atoms(lit)):
            del chosen[name]
    return chosen


def without_repeats(groups: list[Group]) -> list[Group]:
    """``groups`` with every literal a rule's body repeats kept once (the first), and every rule
    a group repeats (the passes before can make two rules alike) kept once."""
    out: list[Group] = []
    for comment, rules in groups:
        new: list[Rule] = []
        seen: set[tuple[object, tuple[Literal, ...]]] = set()
        for r in rules:
            unique = tuple(dict.fromkeys(r.body))
            if (r.head, unique) in seen:
                continue
            seen.add((r.head, unique))
            new.append(r if len(unique) == len(r.body) else Rule(r.head, unique, r.loc))
        out.append((comment, new))
    return out


def _expand(r: Rule, chosen: dict[str, Rule]) -> Rule:
    for lit in r.body:  # most rules read nothing inlined: leave them as they are at once
        atom = lit.literal if isinstance(lit, Not) else lit
        if isinstance(atom, (Function, Constant)) and atom.name in chosen:
            break
    else:
        return r
    body: list[Literal] = []
    changed = False
    for lit in r.body:
        new = _expand_literal(lit, chosen)
        changed = changed or new != [lit]
        body.extend(new)
    if not changed:
        return r
    unique: list[Literal] = []
    for lit in body:
        if lit not in unique:
            unique.append(lit)
    return Rule(r.head, tuple(unique), r.loc)


def _expand_literal(lit: Literal, chosen: dict[str, Rule]) -> list[Literal]:
    if isinstance(lit, Not):
        inner = lit.literal
        if isinstance(inner, (Function, Constant)) and inner.name in chosen:
            (single,) = _substituted(chosen[inner.name], inner)
            return [Not(single)]
        return [lit]
    if isinstance(lit, (Function, Constant)) and lit.name in chosen:
        return _substituted(chosen[lit.name], lit)
    return [lit]


def _substituted(definition: Rule, use: Function | Constant) -> list[Literal]:
    """The body of ``definition`` with its head's variables bound to ``use``'s arguments."""
    params = definition.head.args if isinstance(definition.head, Function) else ()
    binding: dict[Variable, Term] = {p: a for p, a in zip(params, use.args) if isinstance(p, Variable)}
    return [substitute(lit, binding) for lit in definition.body]


def substitute(lit: Literal, binding: dict[Variable, Term]) -> Literal:
    """``lit`` with each variable bound in ``binding`` replaced, in one pass (no chains)."""
    if isinstance(lit, Not):
        return Not(substitute(lit.literal, binding))
    if isinstance(lit, Or):
        return Or(tuple(substitute(part, binding) for part in lit.literals))
    if isinstance(lit, Distinct):
        return Distinct(lit.left.substitute(binding), lit.right.substitute(binding))
    return lit.substitute(binding)  # type: ignore[return-value]


__all__ = ["inline", "substitute", "without_repeats"]
