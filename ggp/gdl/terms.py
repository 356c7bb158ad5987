"""GDL terms: constants, variables and compound terms (immutable, hashable values).

A ground sentence such as ``(cell 1 1 b)`` is a :class:`Function`; a proposition such as
``terminal`` is a :class:`Constant`. Terms print as KIF (``str``) and parse back with
:meth:`Term.parse`. Every term may carry the :class:`~ggp.errors.Location` it was read from;
locations never take part in equality.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from ggp.errors import GDLSyntaxError, Location


class Term:
    """Base class of GDL terms."""

    __slots__ = ()

    name: str
    loc: Location | None

    @staticmethod
    def parse(text: str) -> Term:
        """Parse one KIF term, e.g. ``Term.parse("(mark 1 1)")`` (lower-cased); the inverse of
        ``str``. Raises :class:`~ggp.errors.GDLSyntaxError`."""
        return read_term(text)

    @property
    def is_ground(self) -> bool:
        """True when the term contains no variable."""
        raise NotImplementedError

    def variables(self) -> Iterator[Variable]:
        """Every variable occurrence in the term, left to right."""
        raise NotImplementedError

    def substitute(self, binding: Mapping[Variable, Term]) -> Term:
        """The term with each variable in ``binding`` replaced."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"Term.parse({str(self)!r})"

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")


class Constant(Term):
    """An atomic symbol: ``xplayer``, ``1``, ``terminal``."""

    __slots__ = ("_hash", "loc", "name")
    _hash: int

    def __init__(self, name: str, loc: Location | None = None):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "_hash", hash(("c", name)))

    @property
    def is_ground(self) -> bool:
        """Constants are ground."""
        return True

    def variables(self) -> Iterator[Variable]:
        """A constant has no variables."""
        return iter(())

    def substitute(self, binding: Mapping[Variable, Term]) -> Term:
        """A constant is unchanged by substitution."""
        return self

    @property
    def arity(self) -> int:
        """Constants have arity 0."""
        return 0

    @property
    def args(self) -> tuple[Term, ...]:
        """Constants have no arguments."""
        return ()

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is Constant and self.name == other.name)

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Term) -> bool:
        return sort_key(self) < sort_key(other)

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (Constant, (self.name,))


class Variable(Term):
    """A logic variable; ``name`` excludes the leading ``?``."""

    __slots__ = ("_hash", "loc", "name")
    _hash: int

    def __init__(self, name: str, loc: Location | None = None):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "_hash", hash(("v", name)))

    @property
    def is_ground(self) -> bool:
        """Variables are not ground."""
        return False

    def variables(self) -> Iterator[Variable]:
        """The variable itself."""
        yield self

    def substitute(self, binding: Mapping[Variable, Term]) -> Term:
        """The bound value, or the variable itself when unbound."""
        return binding.get(self, self)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is Variable and self.name == other.name)

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Term) -> bool:
        return sort_key(self) < sort_key(other)

    def __str__(self) -> str:
        return "?" + self.name

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (Variable, (self.name,))


class Function(Term):
    """A compound term ``(name arg1 ... argN)`` with N >= 1."""

    __slots__ = ("_ground", "_hash", "args", "loc", "name")
    args: tuple[Term, ...]
    _hash: int
    _ground: bool

    def __init__(self, name: str, args: tuple[Term, ...], loc: Location | None = None):
        if not args:
            raise ValueError(f"a compound term needs arguments: ({name})")
        args = tuple(args)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "_hash", hash((name, args)))
        ground = True
        for arg in args:  # a loop, not all(...): terms are made in bulk, a third faster so
            if not arg.is_ground:
                ground = False
                break
        object.__setattr__(self, "_ground", ground)

    @property
    def arity(self) -> int:
        """Number of arguments."""
        return len(self.args)

    @property
    def is_ground(self) -> bool:
        """True when no argument contains a variable."""
        return self._ground

    def variables(self) -> Iterator[Variable]:
        """Every variable occurrence, left to right."""
        for arg in self.args:
            yield from arg.variables()

    def substitute(self, binding: Mapping[Variable, Term]) -> Term:
        """The term with bound variables replaced."""
        if self._ground:
            return self
        return Function(self.name, tuple(a.substitute(binding) for a in self.args), self.loc)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Function
            and self._hash == other._hash
            and self.name == other.name
            and self.args == other.args
        )

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Term) -> bool:
        return sort_key(self) < sort_key(other)

    def __str__(self) -> str:
        return "(" + self.name + " " + " ".join(str(a) for a in self.args) + ")"

    def __reduce__(self) -> tuple[type, tuple[str, tuple[Term, ...]]]:
        return (Function, (self.name, self.args))


_INTEGER = re.compile(r"[-+]?[0-9]+\Z")


def integer_value(term: Term) -> int | None:
    """The integer a constant such as ``20``, ``-20`` or ``+5`` names (as game managers read goal
    values); None for anything else."""
    if isinstance(term, Constant) and _INTEGER.match(term.name):
        return int(term.name)
    return None


def sort_key(term: Term) -> tuple[object, ...]:
    """A total order on terms: numbers by value first, then names, then compound terms."""
    if isinstance(term, Function):
        return (2, term.name, len(term.args), tuple(sort_key(a) for a in term.args))
    if isinstance(term, Variable):
        return (3, term.name)
    name = term.name
    if name.isdigit():
        return (0, int(name), name)
    return (1, name)


def subterms(terms: Iterable[Term]) -> set[Term]:
    """Every term occurring in ``terms``, the terms themselves included."""
    out: set[Term] = set()
    stack = list(terms)
    while stack:
        term = stack.pop()
        if term in out:
            continue
        out.add(term)
        if isinstance(term, Function):
            stack.extend(term.args)
    return out


def sentence_name(term: Term) -> tuple[str, int]:
    """The relation a sentence belongs to, as ``(name, arity)``."""
    return (term.name, len(term.args) if isinstance(term, Function) else 0)


_TOKEN = re.compile(r"\s+|;[^\n]*|(\()|(\))|([^\s();]+)")


def read_term(text: str, lowercase: bool = True) -> Term:
    """Exactly one KIF term from ``text`` (names lower-cased unless ``lowercase`` is False).

    Raises :class:`~ggp.errors.GDLSyntaxError` naming the line and column of the problem.
    """
    text = text.removeprefix("\ufeff")
    stack: list[tuple[Location, list[tuple[Term, bool]]]] = [(Location(None, 1, 1), [])]  # (term, was a list)
    line, line_start = 1, 0
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        loc = Location(None, line, pos - line_start + 1)
        if match is None:  # unreachable: every character starts some token
            raise GDLSyntaxError(f"unexpected {text[pos]!r}", loc, text)
        opening, closing, word = match.groups()
        if opening:
            stack.append((loc, []))
        elif closing:
            if len(stack) == 1:
                raise GDLSyntaxError("unbalanced ')'", loc, text)
            where, items = stack.pop()
            if not items:
                raise GDLSyntaxError("empty list '()' is not a term", where, "()")
            head, listed = items[0]
            if listed or not isinstance(head, Constant):
                raise GDLSyntaxError(f"a list must start with a name, not {head}", where, text)
            term = Constant(head.name, where) if len(items) == 1 else Function(head.name, tuple(t for t, _ in items[1:]), where)
            stack[-1][1].append((term, True))
        elif word:
            name = word.lower() if lowercase else word
            stack[-1][1].append((Variable(name[1:], loc) if name.startswith("?") else Constant(name, loc), False))
        newlines = text.count("\n", pos, match.end())
        if newlines:
            line += newlines
            line_start = text.rindex("\n", pos, match.end()) + 1
        pos = match.end()
    if len(stack) > 1:
        raise GDLSyntaxError("unbalanced '(': missing ')'", stack[-1][0], text)
    items = stack[0][1]
    if len(items) != 1:
        raise GDLSyntaxError(f"expected one term, found {len(items)}", Location(None, 1, 1), text)
    return items[0][0]
