"""Readable relation names, from the game's own words.

The passes that write rules name their auxiliary relations ``PREFIX_N`` (``not_3``, ``sum_2``,
``max_1_reach``). This pass gives each such relation a name from the words its rules use: the
constants of the game that are words (location and storage names, the values of strings:
``hand``, ``trick``, ``last``, ``fold``), in the order they first appear, after the prefix:
``not_3`` whose rule reads ``(true (str player0 action check))`` becomes ``not_action_check``.
The fewest words that make the name unique are taken; a relation whose rules name no word keeps
its number. Stages are named the same way from their end conditions (``rseat_s2`` becomes
``rseat_trick``: the stage that ends when every player has a card in TRICK). The same rules
always give the same names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ggp.gdl.rules import Distinct, Literal, Not, Or, Rule
from ggp.gdl.terms import Constant, Function, Term
from translators.recycle.rulebook.steps import map_atoms
from translators.recycle.syntax.nodes import Name, Node

Group = tuple[str, list[Rule]]

#: A name made by the rule book: a prefix, a number, and maybe more (``max_1_reach``).
NUMBERED = re.compile(r"^(?P<prefix>[a-z]+(?:_[a-z]+)*?)_(?P<number>[0-9]+)(?P<rest>(?:_[a-z0-9_]*)?)$")
#: Constants of the translation's own vocabulary, never a game's word for a name.
STOP = frozenset({
    "game", "loc", "iloc", "vloc", "hloc", "oloc", "mem", "nil", "noop", "unset", "hidden", "random",
    "overflow", "order", "loop", "slots", "memory", "end",
})
#: At most this many words in one name.
MOST_WORDS = 3


def is_numbered(name: str) -> bool:
    """Whether a relation name has a number in it (what the project measures)."""
    return any(ch.isdigit() for ch in name)


def words_of(terms: Iterable[Term]) -> list[str]:
    """The game's words among the constants of ``terms``, in order of first appearance."""
    out: list[str] = []
    stack = list(reversed(list(terms)))
    while stack:
        term = stack.pop()
        if isinstance(term, Function):
            stack.extend(reversed(term.args))
        elif isinstance(term, Constant):
            word = term.name
            if word.isidentifier() and word.isascii() and not is_numbered(word) and word not in STOP \
                    and word.islower() and word not in out:
                out.append(word)
    return out


def rule_terms(r: Rule) -> list[Term]:
    """The arguments of every atom of a rule, head first."""
    out: list[Term] = list(r.head.args) if isinstance(r.head, Function) else []

    def visit(lit: Literal) -> None:
        if isinstance(lit, Not):
            visit(lit.literal)
        elif isinstance(lit, Or):
            for part in lit.literals:
                visit(part)
        elif isinstance(lit, Distinct):
            out.extend((lit.left, lit.right))
        elif isinstance(lit, Function):
            out.extend(lit.args)

    for lit in r.body:
        visit(lit)
    return out


def word_names(groups: list[Group], fixed: Mapping[str, str] = {},
               hints: Mapping[str, list[str]] = {}) -> dict[str, str]:
    """New names for the numbered relations of ``groups`` (see the module doc); ``fixed`` are
    renames decided elsewhere, taken first; ``hints`` the words of the RECYCLE construct a
    relation (or a family ``max_1`` of relations ``max_1_reach``, ``max_1_value``) comes from."""
    rules: dict[str, list[Rule]] = {}
    for _, rs in groups:
        for r in rs:
            rules.setdefault(r.head.name, []).append(r)
    renames = dict(fixed)
    taken = {renames.get(name, name) for name in rules} | set(renames.values())
    families: dict[str, str] = {}  # ``max_1`` -> ``max_shown_strength``
    changed = True
    while changed:
        changed = False
        for name in sorted(rules):
            match = NUMBERED.match(name)
            if name in renames or match is None:
                continue
            base, rest = match["prefix"], match["rest"]
            family = f"{base}_{match['number']}"
            if rest and family in families:
                candidates = [families[family] + rest]
            else:
                own = set(base.split("_"))
                words = [w for w in hints.get(family if rest else name, ()) if w not in own]
                # a hint names the construct; words read off the rule need two to say much
                first = 1 if words else 2
                words += [w for w in words_of(t for r in rules[name] for t in rule_terms(r)) if w not in words and w not in own]
                words += [w for w in _used_words(rules[name], renames) if w not in words and w not in own]
                candidates = ["_".join([base, *words[:count]])
                              for count in range(min(first, len(words)) or 1, min(MOST_WORDS, len(words)) + 1)]
            for candidate in candidates:
                full = candidate + rest if not (rest and family in families) else candidate
                if full not in taken and not is_numbered(full):
                    renames[name] = full
                    taken.add(full)
                    if rest:
                        families.setdefault(family, full[: len(full) - len(rest)])
                    changed = True
                    break
    return renames


def _used_words(rules: list[Rule], renames: Mapping[str, str]) -> list[str]:
    """The words of the names of the relations ``rules`` read (as renamed so far)."""
    out: list[str] = []
    for r in rules:
        for lit in r.body:
            for atom in _atoms(lit):
                name = renames.get(atom.name, atom.name)
                if is_numbered(name):
                    continue
                for word in name.split("_")[1:]:
                    if word and word not in STOP and word not in out:
                        out.append(word)
    return out


def _atoms(lit: Literal) -> list[Function | Constant]:
    if isinstance(lit, Not):
        return _atoms(lit.literal)
    if isinstance(lit, Or):
        return [a for p in lit.literals for a in _atoms(p)]
    if isinstance(lit, (Function, Constant)) and not isinstance(lit, Distinct):
        return [lit]
    return []


def rename(groups: list[Group], renames: Mapping[str, str]) -> list[Group]:
    """``groups`` with relations renamed (heads and every use)."""
    if not renames:
        return groups
    names = frozenset(renames)

    def atom(a: Function | Constant) -> Function | Constant:
        new = renames.get(a.name)
        if new is None:
            return a
        return Function(new, a.args, a.loc) if isinstance(a, Function) else Constant(new, a.loc)

    return [(comment, [map_atoms(r, atom, names) for r in rs]) for comment, rs in groups]


def node_words(node: Node) -> list[str]:
    """The game's words a RECYCLE construct uses (its NAMEs, lower-cased), in order."""
    out: list[str] = []
    for sub in node.walk():
        if isinstance(sub, Name):
            word = sub.text.lower()
            if word.isidentifier() and not is_numbered(word) and word not in STOP and word not in out:
                out.append(word)
    return out


#: Words that tell apart stages whose end conditions use the same words (``bet``,
#: ``bet_second``).
ORDINALS = ("second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def stage_words(ends: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """A word for each stage from the words of its end condition (``ends``: stage id to words,
    in order), the fewest that tell the stages apart; a stage whose words are all taken gets an
    ordinal after them (``bet_second``), one whose end names nothing is a ``stage``; the top
    level is ``game``."""
    names = {"s0": "game"}
    taken = {"game"}
    for stage in sorted(ends, key=lambda s: (len(s), s)):
        if stage in names:
            continue
        words = [w for w in ends[stage] if not is_numbered(w)]
        candidates = ["_".join(words[:count]) for count in range(1, min(MOST_WORDS, len(words)) + 1)]
        stem = "_".join(words[:MOST_WORDS]) if words else "stage"
        candidates += [stem] + [f"{stem}_{ordinal}" for ordinal in ORDINALS]
        for candidate in candidates:
            if candidate not in taken:
                names[stage] = candidate
                taken.add(candidate)
                break
    return names


__all__ = ["is_numbered", "node_words", "rename", "stage_words", "word_names", "words_of"]
