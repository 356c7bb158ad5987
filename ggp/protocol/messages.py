"""The GGP protocol's messages as typed values, with paired :func:`parse_message` and ``str``.

A game manager sends one S-expression per request::

    (start ID ROLE (RULES) STARTCLOCK PLAYCLOCK)        -> ready
    (play ID nil) / (play ID (M1 ... Mn))               -> a move      (GDL: previous joint move)
    (play ID TURN LASTMOVE PERCEPTS)                    -> a move      (GDL-II)
    (play ID (P1 ... Pk))                               -> a move      (GDL-II, 2010 managers)
    (stop ID ...)  in the same three forms              -> done
    (abort ID)                                          -> aborted
    (info)                                              -> ((name NAME) (status available))
    (preview (RULES) CLOCK)                             -> ready

Reading is case- and whitespace-insensitive (names are lower-cased, as in
:func:`ggp.gdl.kif.parse_sexprs`); ``str(message)`` prints the canonical lower-case form that
parses back to an equal value. ``nil`` and ``()`` both mean "nothing". The GDL joint-move form and
the old GDL-II percept form look alike; the reader tells them apart by the ``gdl2`` flag (the
receiver knows whether the game it was started with has ``sees`` rules).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ggp.errors import GDLSyntaxError, InputError, Location
from ggp.gdl.kif import SExpr, SList, parse_sexprs, to_rule, to_term
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term, Variable, sort_key

NIL = "nil"
#: Deepest parenthesis nesting accepted (real messages stay far below; deeper is an attack).
MAX_DEPTH = 200


class ProtocolError(InputError):
    """A message (or HTTP request) that is not a well-formed GGP protocol message."""


def _format_clock(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else repr(float(seconds))


def _format_terms(terms: Iterable[Term]) -> str:
    return "(" + " ".join(str(t) for t in terms) + ")"


def _format_percepts(percepts: frozenset[Term]) -> str:
    return _format_terms(sorted(percepts, key=sort_key)) if percepts else NIL


def _format_rules(description: GameDescription) -> str:
    return "(" + " ".join(str(rule) for rule in description.rules) + ")"


@dataclass(frozen=True)
class Start:
    """``(start ID ROLE (RULES) STARTCLOCK PLAYCLOCK)``: a new match; the answer is ``ready``."""

    match_id: str
    role: Constant
    description: GameDescription
    start_clock: float
    play_clock: float

    def __str__(self) -> str:
        return (f"(start {self.match_id} {self.role} {_format_rules(self.description)} "
                f"{_format_clock(self.start_clock)} {_format_clock(self.play_clock)})")


@dataclass(frozen=True)
class Play:
    """GDL ``(play ID (M1 ... Mn))``: the previous joint move in role order; None on the first."""

    match_id: str
    moves: tuple[Term, ...] | None

    def __str__(self) -> str:
        body = NIL if self.moves is None else _format_terms(self.moves)
        return f"(play {self.match_id} {body})"


@dataclass(frozen=True)
class PlayII:
    """GDL-II ``(play ID TURN LASTMOVE PERCEPTS)``: the answer is this role's next move.

    ``turn`` is 0 on the first message (``last_move`` None, no percepts). The old form
    ``(play ID (PERCEPTS))`` has ``turn`` and ``last_move`` None.
    """

    match_id: str
    turn: int | None
    last_move: Term | None
    percepts: frozenset[Term]

    def __str__(self) -> str:
        if self.turn is None:
            return f"(play {self.match_id} {_format_terms(sorted(self.percepts, key=sort_key))})"
        last = NIL if self.last_move is None else str(self.last_move)
        return f"(play {self.match_id} {self.turn} {last} {_format_percepts(self.percepts)})"


@dataclass(frozen=True)
class Stop:
    """GDL ``(stop ID (M1 ... Mn))``: the match ended after this joint move; answer ``done``."""

    match_id: str
    moves: tuple[Term, ...] | None

    def __str__(self) -> str:
        body = NIL if self.moves is None else _format_terms(self.moves)
        return f"(stop {self.match_id} {body})"


@dataclass(frozen=True)
class StopII:
    """GDL-II ``(stop ID TURN LASTMOVE PERCEPTS)`` (or the old ``(stop ID (PERCEPTS))``)."""

    match_id: str
    turn: int | None
    last_move: Term | None
    percepts: frozenset[Term]

    def __str__(self) -> str:
        if self.turn is None:
            return f"(stop {self.match_id} {_format_terms(sorted(self.percepts, key=sort_key))})"
        last = NIL if self.last_move is None else str(self.last_move)
        return f"(stop {self.match_id} {self.turn} {last} {_format_percepts(self.percepts)})"


@dataclass(frozen=True)
class Abort:
    """``(abort ID)``: the match is cancelled; the answer is ``aborted``."""

    match_id: str

    def __str__(self) -> str:
        return f"(abort {self.match_id})"


@dataclass(frozen=True)
class Info:
    """``(info)``: a liveness query; the answer is ``((name NAME) (status available|busy))``."""

    def __str__(self) -> str:
        return "(info)"


@dataclass(frozen=True)
class Preview:
    """``(preview (RULES) CLOCK)`` (ggp-base): a game to study before a match; answer ``ready``."""

    description: GameDescription
    clock: float

    def __str__(self) -> str:
        return f"(preview {_format_rules(self.description)} {_format_clock(self.clock)})"


Message = Start | Play | PlayII | Stop | StopII | Abort | Info | Preview

#: Messages that carry a match's progress (the answer to the first two is a move).
TurnMessage = Play | PlayII | Stop | StopII


@dataclass(frozen=True)
class InfoReply:
    """The answer to ``(info)``: the player's name, ``available`` or ``busy``, and how many
    matches it plays at once when it says (``(capacity N)``, sent by ``ggp serve --matches N``)."""

    name: str | None
    status: str
    capacity: int | None = None

    def __str__(self) -> str:
        name = f"(name {self.name}) " if self.name else ""
        capacity = f" (capacity {self.capacity})" if self.capacity is not None else ""
        return f"({name}(status {self.status}){capacity})"


# --- reading ---------------------------------------------------------------------------------


def _sexprs(text: str, file: str) -> list[SExpr]:
    """``parse_sexprs`` with errors as :class:`ProtocolError` and a bound on nesting depth."""
    depth, line, column = 0, 1, 0
    for ch in text if text.count("(") > MAX_DEPTH else "":
        column += 1
        if ch == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise ProtocolError(f"parentheses nested deeper than {MAX_DEPTH}", Location(file, line, column), text[:80])
        elif ch == ")":
            depth -= 1
        elif ch == "\n":
            line, column = line + 1, 0
    try:
        return parse_sexprs(text, file)
    except GDLSyntaxError as exc:
        raise ProtocolError(exc.message, exc.location, text) from None


def _where(item: SExpr | None, fallback: Location) -> Location:
    loc = item.loc if item is not None else None
    return loc if loc is not None else fallback


def _fail(message: str, item: SExpr | None, text: str, fallback: Location) -> ProtocolError:
    return ProtocolError(message, _where(item, fallback), text)


class _Reader:
    """Reads the arguments of one message, raising :class:`ProtocolError` with locations."""

    def __init__(self, text: str, head: SList):
        self.text = text
        self.head = head
        self.origin = head.loc or Location(None, 1, 1)
        self.verb = head.items[0].name if isinstance(head.items[0], Constant) else "?"

    def fail(self, message: str, item: SExpr | None = None) -> ProtocolError:
        return _fail(message, item if item is not None else self.head, self.text, self.origin)

    def arity(self, *allowed: int) -> int:
        count = len(self.head.items) - 1
        if count not in allowed:
            forms = " or ".join(str(n) for n in allowed)
            raise self.fail(f"'{self.verb}' takes {forms} arguments, got {count}: {self.head}")
        return count

    def name(self, index: int, what: str) -> str:
        item = self.head.items[index]
        if not isinstance(item, Constant):
            raise self.fail(f"expected {what} (a name) in '{self.verb}', got {item}", item)
        return item.name

    def number(self, index: int, what: str, integer: bool = False) -> float:
        item = self.head.items[index]
        if isinstance(item, Constant):
            try:
                value = int(item.name) if integer else float(item.name)
            except ValueError:
                value = -1
            if value >= 0 and value != float("inf"):
                return value
        kind = "a whole number" if integer else "a number of seconds"
        raise self.fail(f"expected {what} ({kind}) in '{self.verb}', got {item}", item)

    def term(self, item: SExpr, what: str) -> Term:
        if isinstance(item, Variable):
            raise self.fail(f"expected {what} (a ground term), got the variable {item}", item)
        try:
            term = to_term(item)
        except GDLSyntaxError as exc:
            raise self.fail(f"expected {what}: {exc.message}", item) from None
        if not term.is_ground:
            raise self.fail(f"expected {what} (a ground term), got {term}", item)
        return term

    def optional_term(self, index: int, what: str) -> Term | None:
        item = self.head.items[index]
        if _is_nil(item):
            return None
        return self.term(item, what)

    def term_list(self, index: int, what: str) -> tuple[Term, ...] | None:
        item = self.head.items[index]
        if isinstance(item, Constant) and item.name == NIL:
            return None
        if not isinstance(item, SList):
            raise self.fail(f"expected {what} (a list or nil) in '{self.verb}', got {item}", item)
        return tuple(self.term(i, what.removesuffix("s")) for i in item.items)

    def rules(self, index: int) -> GameDescription:
        item = self.head.items[index]
        if not isinstance(item, SList):
            raise self.fail(f"expected the game rules (a list) in '{self.verb}', got {item}", item)
        try:
            return GameDescription(tuple(to_rule(rule) for rule in item.items), "<message>")
        except GDLSyntaxError as exc:
            raise ProtocolError(f"bad rule in '{self.verb}': {exc.message}",
                                exc.location or self.origin, self.text) from None


def _is_nil(item: SExpr) -> bool:
    return (isinstance(item, Constant) and item.name == NIL) or (isinstance(item, SList) and not item.items)


def _turn_message(r: _Reader, gdl2: bool) -> TurnMessage:
    stop = r.verb == "stop"
    count = r.arity(2, 4)
    match_id = r.name(1, "the match id")
    if count == 4:
        turn = int(r.number(2, "the turn", integer=True))
        last = r.optional_term(3, "the last move")
        percepts = r.term_list(4, "percepts") or ()
        return (StopII if stop else PlayII)(match_id, turn, last, frozenset(percepts))
    listed = r.term_list(2, "moves")
    if gdl2:
        return (StopII if stop else PlayII)(match_id, None, None, frozenset(listed or ()))
    return (Stop if stop else Play)(match_id, listed)


def parse_message(text: str, gdl2: bool = False) -> Message:
    """The message in ``text``; raises :class:`ProtocolError` saying what is wrong and where.

    With ``gdl2`` a three-element ``play``/``stop`` is read as the old GDL-II percept form
    ``(play ID (PERCEPTS))`` instead of a GDL joint move.
    """
    items = _sexprs(text, "<message>")
    origin = Location("<message>", 1, 1)
    if len(items) != 1:
        raise ProtocolError(f"expected one message, found {len(items)} expressions", origin, text)
    head = items[0]
    if not isinstance(head, SList) or not head.items or not isinstance(head.items[0], Constant):
        raise _fail(f"expected a message like (play ...), got {head}", head, text, origin)
    r = _Reader(text, head)
    if r.verb == "start":
        r.arity(5)
        role = r.name(2, "the role")
        return Start(r.name(1, "the match id"), Constant(role), r.rules(3),
                     r.number(4, "the start clock"), r.number(5, "the play clock"))
    if r.verb in ("play", "stop"):
        return _turn_message(r, gdl2)
    if r.verb == "abort":
        r.arity(1)
        return Abort(r.name(1, "the match id"))
    if r.verb == "info":
        r.arity(0)
        return Info()
    if r.verb == "preview":
        r.arity(2)
        return Preview(r.rules(1), r.number(2, "the clock"))
    raise r.fail(f"unknown message '{r.verb}'; expected start, play, stop, abort, info or preview",
                 head.items[0])


# --- replies ---------------------------------------------------------------------------------


def parse_move(text: str) -> Term:
    """A player's answer to ``play`` as a ground term; raises :class:`ProtocolError`."""
    items = _sexprs(text, "<reply>")
    origin = Location("<reply>", 1, 1)
    if len(items) != 1:
        raise ProtocolError(f"expected one move, found {len(items)} expressions", origin, text)
    item = items[0]
    try:
        term = to_term(item)
    except GDLSyntaxError as exc:
        raise ProtocolError(f"expected a move: {exc.message}", exc.location or origin, text) from None
    if not term.is_ground:
        raise _fail(f"a move cannot contain variables: {term}", item, text, origin)
    return term


def parse_info_reply(text: str) -> InfoReply:
    """Read ``((name NAME) (status STATUS) (capacity N))`` (capacity optional; other entries and
    order do not matter)."""
    origin = Location("<reply>", 1, 1)
    items = _sexprs(text, "<reply>")
    if len(items) == 1 and isinstance(items[0], Constant):
        return InfoReply(None, items[0].name)
    if len(items) != 1 or not isinstance(items[0], SList):
        raise ProtocolError("expected ((name NAME) (status STATUS))", origin, text)
    fields: dict[str, str] = {}
    for entry in items[0].items:
        if (isinstance(entry, SList) and len(entry.items) == 2
                and all(isinstance(i, Constant) for i in entry.items)):
            key, value = entry.items
            assert isinstance(key, Constant) and isinstance(value, Constant)
            fields[key.name] = value.name
    if "status" not in fields:
        raise ProtocolError("the info reply has no (status ...)", origin, text)
    capacity = fields.get("capacity", "")
    return InfoReply(fields.get("name"), fields["status"], int(capacity) if capacity.isdigit() else None)
