"""Names alone in parentheses: ``(terminal)`` beside ``terminal``.

In GDL a list holding one name is that name: ``(terminal)`` and ``terminal`` are the same
relation of no arguments, ``(right)`` and ``right`` the same constant, and this project reads them
so (:func:`ggp.gdl.kif.to_term`). The Dresden GameController's prover does not: it reads
``(name)`` as a predicate with no arguments that never unifies with the atom ``name``, so a file
that writes a name both ways plays differently there (``unsw_ConnectThreeDecompositionII.gdl``:
docs/interop.md). :func:`parenthesised_name_problems` warns about such names, once per name at
its first parenthesised use, naming the lines of the others.

Only where it matters: a name written both ways in the same role (both as relations, or both
inside terms), or the relation ``(terminal)``, which a game manager asks for as ``terminal``.
A file that always writes ``(right)`` plays the same everywhere and gets no warning.
"""

from __future__ import annotations

from collections.abc import Iterable

from ggp.errors import Location, Problem
from ggp.gdl.sexprs import SExpr, SList
from ggp.gdl.terms import Constant

#: Relations a game manager asks for by their bare name.
_ASKED = frozenset({"terminal"})
#: Names whose lists are rules or connectives, not relations (their misuse is reported elsewhere).
_CONNECTIVES = frozenset({"<=", "not", "or", "distinct"})
#: How many other lines a warning lists before it only counts them.
_LINES_SHOWN = 5

_Key = tuple[bool, str]  # (a relation rather than a term, the name)


class _Uses:
    """Where each name is written alone in parentheses, and where first without."""

    def __init__(self) -> None:
        self.parenthesised: dict[_Key, list[Location]] = {}
        self.bare: dict[_Key, Location] = {}

    def sentence(self, sexpr: SExpr) -> None:
        """A relation's place: a fact, a rule's head, a body literal."""
        if isinstance(sexpr, Constant):
            self.bare.setdefault((True, sexpr.name), sexpr.loc or Location(None, 1, 1))
        elif isinstance(sexpr, SList) and sexpr.items:
            head, rest = sexpr.items[0], sexpr.items[1:]
            if not isinstance(head, Constant):
                self.terms(sexpr.items)
            elif not rest:
                if head.name not in _CONNECTIVES:
                    self.parenthesised.setdefault((True, head.name), []).append(sexpr.loc or Location(None, 1, 1))
            elif head.name in ("<=", "not", "or"):
                for item in rest:
                    self.sentence(item)
            else:
                self.terms(rest)

    def terms(self, sexprs: Iterable[SExpr]) -> None:
        """Arguments: terms, whose lists start with a function name."""
        for sexpr in sexprs:
            if isinstance(sexpr, Constant):
                self.bare.setdefault((False, sexpr.name), sexpr.loc or Location(None, 1, 1))
            elif isinstance(sexpr, SList) and sexpr.items:
                head, rest = sexpr.items[0], sexpr.items[1:]
                if not rest and isinstance(head, Constant):
                    self.parenthesised.setdefault((False, head.name), []).append(sexpr.loc or Location(None, 1, 1))
                else:
                    self.terms(rest if isinstance(head, Constant) else sexpr.items)


def _places(locations: list[Location]) -> str:
    """``here and in 2 other places (lines 4, 9)``: where a name is parenthesised."""
    if len(locations) == 1:
        return "here"
    lines = sorted({loc.line for loc in locations[1:]})
    shown = ", ".join(map(str, lines[:_LINES_SHOWN])) + (f" and {len(lines) - _LINES_SHOWN} more"
                                                         if len(lines) > _LINES_SHOWN else "")
    count = len(locations) - 1
    return f"here and in {count} other place{'s' if count > 1 else ''} (line{'s' if len(lines) > 1 else ''} {shown})"


def _message(relation: bool, name: str, places: list[Location], bare: Location | None) -> str:
    what = "relation" if relation else "constant"
    written = f"({name}) is written with parentheses {_places(places)}"
    systems = "other GDL systems (the Dresden GameController)"
    if bare is None:
        return (f"{written}: GDL reads it as the {what} {name}, but {systems} read ({name}) as a {what} other "
                f"than {name}, which a game manager asks for: write {name}")
    kinds = "relations" if relation else "terms"
    return (f"{written} but without at line {bare.line}: GDL reads both as the {what} {name}, but {systems} "
            f"read ({name}) and {name} as different {kinds}: write {name}")


def parenthesised_name_problems(sexprs: Iterable[SExpr]) -> list[Problem]:
    """A warning per name written alone in parentheses where other GDL systems read it otherwise
    (see the module's docstring), at its first parenthesised use; ``sexprs`` are a file's rules."""
    uses = _Uses()
    for sexpr in sexprs:
        uses.sentence(sexpr)
    problems = []
    for (relation, name), places in uses.parenthesised.items():
        bare = uses.bare.get((relation, name))
        if bare is not None or (relation and name in _ASKED):
            problems.append(Problem(places[0], _message(relation, name, places, bare), "warning"))
    return sorted(problems, key=lambda p: (p.location.line, p.location.column))
