"""The translator's intermediate representation: a RECYCLE program as stages, choices and
straight-line blocks of effects.

Expressions stay syntax-tree nodes, paired with an :class:`Env` that says what each variable
stands for (a constant from static unrolling, a GDL variable ranging over a domain, or a ``let``
alias) and which stages are active (for ``(current player)``). Effects are the atomic state
changes (one card move, a bulk move, a storage write...), each with the guards (conditions of
enclosing conditional actions) it runs under. :mod:`.lower` builds this from the tree.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Union

from ggp.gdl.terms import Term, Variable
from translators.recycle.syntax.nodes import (
    IntStorage,
    Node,
    Relative,
    Runs,
    StrStorage,
    Subsets,
    Tuples,
    Var,
)

Kind = str


@dataclass(frozen=True)
class StageRef:
    """An active stage: its id (``s0`` is the top level) and whether it cycles players or teams."""

    id: str
    kind: Literal["player", "team"]


@dataclass(frozen=True)
class Fixed:
    """A variable bound to a constant by static unrolling (a seat, a team, a name, a number)."""

    term: Term
    kind: Kind


@dataclass(frozen=True)
class Domain:
    """Where a GDL variable ranges: the elements of ``collection`` (evaluated in ``env``) at the
    point where the binding ``all``/``any`` starts (``anchor``: an effect id, or a choice's
    ``c<id>`` when the variable is a choice fork)."""

    collection: Node
    env: Env
    anchor: str

    @property
    def parallel(self) -> bool:
        """Whether the variable is a card of a parallel ``all`` (not a choice fork)."""
        return self.anchor.isdigit()


@dataclass(frozen=True)
class Sym:
    """A variable bound to a GDL variable: a choice fork or a card of a parallel ``all``.

    ``sort`` is the static set of values (``card``, ``seat``, ``team``, ``name:A,B``,
    ``int:LO:HI``) used to keep rules safe; ``domain`` the dynamic collection it comes from.
    """

    var: Variable
    kind: Kind
    sort: str
    domain: Domain | None = None


@dataclass(frozen=True)
class Alias:
    """A ``let`` variable: stands for its expression, read where it is used."""

    expr: Node
    env: Env
    #: For a group of a ``partition`` (one per value): (the partition's id, the value). Groups
    #: of one partition are disjoint, so moving one group's cards does not change another.
    tag: tuple[int, str] | None = None


Binding = Union[Fixed, Sym, Alias]


@dataclass(frozen=True)
class Env:
    """Variable bindings (a small immutable mapping) and the active stages, innermost last."""

    items: tuple[tuple[str, Binding], ...] = ()
    stages: tuple[StageRef, ...] = (StageRef("s0", "player"),)

    def get(self, name: str) -> Binding | None:
        """The binding of a variable name, innermost first."""
        for key, value in reversed(self.items):
            if key == name:
                return value
        return None

    def term(self, name: str) -> Term | None:
        """The GDL term a variable stands for: its constant (``Fixed``) or its GDL variable
        (``Sym``); None when it is unbound or a ``let`` alias."""
        binding = self.get(name)
        if isinstance(binding, Fixed):
            return binding.term
        if isinstance(binding, Sym):
            return binding.var
        return None

    def bind(self, name: str, binding: Binding) -> Env:
        """A copy with one more binding."""
        return Env(self.items + ((name, binding),), self.stages)

    def enter(self, stage: StageRef) -> Env:
        """A copy inside a further stage."""
        return Env(self.items, self.stages + (stage,))

    def player_stage(self) -> StageRef:
        """The innermost player stage (the top level counts as one)."""
        return next(s for s in reversed(self.stages) if s.kind == "player")

    def team_stage(self) -> StageRef | None:
        """The innermost team stage, if any."""
        return next((s for s in reversed(self.stages) if s.kind == "team"), None)

    def syms(self) -> list[Sym]:
        """Every GDL-variable binding in scope (outermost first, each once)."""
        out: list[Sym] = []
        for _, value in self.items:
            if isinstance(value, Sym) and value not in out:
                out.append(value)
        return out


#: The name under which an expression computed once for every seat binds its seat parameter
#: (``SEAT_PARAM + stage``: ``(current player)`` of that stage is the parameter).
SEAT_PARAM = "__cur_"


def deref(node: Any, env: Env) -> tuple[Any, Env]:
    """Follow ``let``/``declare`` aliases: the expression a variable stands for, in the
    environment it was defined in (with the seat parameters bound around the use: what the
    alias reads of ``(current player)`` is the parameter there too)."""
    while isinstance(node, Var):
        binding = env.get(node.name)
        if not isinstance(binding, Alias):
            break
        node, env = binding.expr, _with_params(binding.env, env)
    return node, env


def _with_params(defined: Env, used: Env) -> Env:
    """``defined`` (where an expression was written) with the seat parameters bound in
    ``used`` (where it is read) that it lacks."""
    for name, value in used.items:
        if name.startswith(SEAT_PARAM) and defined.get(name) is None:
            defined = defined.bind(name, value)
    return defined


@dataclass(frozen=True)
class MovedCard(Node):
    """The card moved by an earlier effect (``effect``), as read later through ``(top LOC)``."""

    effect: int


@dataclass(frozen=True)
class PickedCard(Node):
    """The card a :class:`PickCard` effect picked (a ``max``/``min`` with its tie broken)."""

    effect: int


@dataclass(frozen=True)
class SlotSet(Node):
    """Some members of a small collection, by rank in card-id order (the ``slots``, from 1, of
    ``room``): one element of ``(subsets CARDS)`` or ``(runs ... CARDS ...)``; a run's members
    are in the order of their ``points`` (its top card the highest: the engine's sorted walk).
    With ``low``, slot j holds the member worth ``low + j - 1`` under ``points`` instead."""

    base: Node
    slots: tuple[int, ...]
    room: int = 5
    points: Node | None = None
    low: int | None = None


@dataclass(frozen=True)
class SlotCheck(Node):
    """A condition on a :class:`SlotSet`: its slots are all filled (``exist``) or all empty
    (``vacant``), its cards' points make a run (``run``), or a run that no member of the
    collection extends at either end (``largest``: each stretch of consecutive points held, as
    the engine's sorted walk closes runs at gaps); ``low``: over valued slots (see
    :class:`SlotSet`)."""

    kind: str
    base: Node
    slots: tuple[int, ...]
    points: Node | None = None
    length: int = 0
    room: int = 5
    low: int | None = None


#: Where a filter of a collection's groups is written: its condition, variable and environment.
Picker = tuple[Node, str, Env]
#: A collection whose groups are made, its environment, and the filter directly around it.
GroupUse = tuple[Union[Subsets, Runs, Tuples], Env, Union[Picker, None]]


@dataclass(frozen=True)
class CardGroup(Node):
    """Some cards of a collection named one by one (card ids): one element of ``(subsets
    CARDS)`` enumerated by card where a filter bounds the sets it can pick (a Scopa table,
    ``analysis/picks.py``); a group while :class:`CardsIn` holds."""

    base: Node
    cards: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class SetTable:
    """The card sets a choice among card sets offers, as data: each set's id (a constant naming
    its cards) and cards (card ids). Compared by identity: one table per site and lowering."""

    ids: tuple[str, ...]
    sets: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ChosenSet(Node):
    """The card set a choice among card sets chose (``analysis/picks.py``): one option whose
    variable ``key`` is bound to a set id of ``table``, instead of an option per set (a
    :class:`CardGroup` each); a group while :class:`ChosenSetIn` holds."""

    base: Node
    table: SetTable
    key: str


@dataclass(frozen=True)
class ChosenSetIn(Node):
    """A condition on a :class:`ChosenSet`: every card of the chosen set is in the collection."""

    base: Node
    table: SetTable
    key: str


@dataclass(frozen=True)
class SetIds(Node):
    """The ids of a :class:`SetTable`: the values a choice among card sets forks over."""

    table: SetTable


@dataclass(frozen=True)
class CardsIn(Node):
    """A condition on a :class:`CardGroup`: every one of its cards is in the collection."""

    base: Node
    cards: tuple[str, ...]


@dataclass(eq=False)
class Guard:
    """The condition of a conditional action, evaluated once just before its first effect."""

    id: int
    cond: Node
    env: Env
    anchor: int = -1


@dataclass(eq=False)
class Effect:
    """One atomic state change, run when every guard holds."""

    id: int
    node: Node
    env: Env
    guards: tuple[Guard, ...]


@dataclass(eq=False)
class MoveCard(Effect):
    """Move one card (a card expression) onto the top of a location (``end`` ``top``), under its
    bottom card (``bottom``) or to a numbered position (``index``, counted from the bottom)."""

    card: Node = field(default=None)  # type: ignore[assignment]
    target: Node = field(default=None)  # type: ignore[assignment]
    end: str = "top"


@dataclass(eq=False)
class BulkMove(Effect):
    """``(repeat all (move (top|bottom SOURCE) (top|bottom TARGET)))``: every card of SOURCE,
    one at a time from its ``end``, onto TARGET's top or under its bottom (``at``). Onto the top,
    cards taken from the top are reversed, from the bottom kept; under the bottom the other way
    round."""

    source: Node = field(default=None)  # type: ignore[assignment]
    end: str = "top"
    target: Node = field(default=None)  # type: ignore[assignment]
    at: str = "top"


@dataclass(eq=False)
class Shuffle(Effect):
    """Shuffle a location."""

    target: Node = field(default=None)  # type: ignore[assignment]


@dataclass(eq=False)
class SetInt(Effect):
    """``set``, ``inc`` or ``dec`` of an integer storage cell."""

    op: str = "set"
    cell: IntStorage = field(default=None)  # type: ignore[assignment]
    value: Node = field(default=None)  # type: ignore[assignment]


@dataclass(eq=False)
class SetStr(Effect):
    """Set a string storage cell."""

    cell: StrStorage = field(default=None)  # type: ignore[assignment]
    value: Node = field(default=None)  # type: ignore[assignment]


@dataclass(eq=False)
class SetPointMap(Effect):
    """Set a point map (awards may hold dynamic values, stored at the time of the set)."""

    site: int = 0


@dataclass(eq=False)
class CycleSet(Effect):
    """``(cycle next X)`` (queue) or ``(cycle current X)`` (now) on a player stage."""

    which: str = "next"
    stage: StageRef = StageRef("s0", "player")
    target: Node | Relative = "current"


@dataclass(eq=False)
class Remember(Effect):
    """Copy a card into a memory location, after its last copy (``top``), before its first
    (``bottom``) or at a numbered place (``index``, the node's target's position)."""

    card: Node = field(default=None)  # type: ignore[assignment]
    target: Node = field(default=None)  # type: ignore[assignment]
    end: str = "top"


@dataclass(eq=False)
class ForgetCopies(Effect):
    """Drop every copy in a memory location (``card`` None), or the first copy of ``card`` (the
    engine's ``cardList.Remove(card)``, whatever the position it was read at)."""

    target: Node = field(default=None)  # type: ignore[assignment]
    card: Node | None = None


@dataclass(eq=False)
class PickCard(Effect):
    """Evaluate a ``max``/``min`` card (breaking a tie at random) for a later effect."""

    card: Node = field(default=None)  # type: ignore[assignment]


@dataclass(eq=False)
class Block:
    """Straight-line effects, run in order."""

    id: str
    effects: list[Effect]


@dataclass(eq=False)
class Option:
    """One option of a choice: fork variables, legality conditions, and its effects: its own
    (the first ``own``), then those of the actions that follow the choice in its stage."""

    index: int
    node: Node
    forks: tuple[Sym, ...]
    legal: list[tuple[Node, Env]]
    effects: list[Effect]
    env: Env
    own: int
    #: The forks the option is also offered without, ``nil``, when their collections are empty
    #: and another of its actions runs: each with the guards of the actions that may (none:
    #: one always does) (``ir/vacancy.py``).
    vacancies: dict[Sym, tuple[tuple[Guard, ...], ...]] = field(default_factory=dict)

    @property
    def vacant(self) -> tuple[Sym, ...]:
        """The forks the option is also offered without."""
        return tuple(self.vacancies)


@dataclass(eq=False)
class ChoiceNode:
    """A decision of the current player among the options."""

    id: str
    node: Node
    env: Env
    options: list[Option]


@dataclass(eq=False)
class StageNode:
    """A stage: a loop over a player or team cycle until the end condition holds."""

    ref: StageRef
    node: Node
    end: Node
    env: Env
    body: list[Item]
    parent: str


Item = Union[Block, ChoiceNode, StageNode]


@dataclass(eq=False)
class Program:
    """The lowered game: the top level's items, and every stage, effect and choice by id."""

    body: list[Item]
    stages: dict[str, StageNode]
    effects: dict[int, Effect]
    choices: dict[str, ChoiceNode]
    guards: dict[int, Guard]
    point_sites: dict[int, Node]
    #: The collections ``subsets``, ``runs`` and ``tuples`` make groups of, by the group's site,
    #: with the filter directly around each use.
    group_sites: dict[tuple[int, int], list[GroupUse]] = field(default_factory=dict)
    #: How many variables the lowering numbered (``?c1``, ``?n2``...: fresh ones are numbered past).
    variables: int = 0
    #: The group sites with a use that is not a choice among their groups.
    enumerated: set[tuple[int, int]] = field(default_factory=set)
    #: The engine's nodes (a stage body's ``do``, ``all``, ``let``...) that begin with each
    #: effect: CardStock counts them to end a game that runs on without a choice (``emit/idle.py``).
    nodes: dict[int, int] = field(default_factory=dict)


def item_effects(items: list[Item], nested: bool = False) -> Iterator[Effect]:
    """The effects of a stage body's blocks and choice options, in order (with ``nested``, of
    the stages inside it too)."""
    for item in items:
        if isinstance(item, Block):
            yield from item.effects
        elif isinstance(item, ChoiceNode):
            for option in item.options:
                yield from option.effects
        elif nested and isinstance(item, StageNode):
            yield from item_effects(item.body, nested)


__all__ = [
    "item_effects",
    "Alias",
    "Binding",
    "Block",
    "BulkMove",
    "CardGroup",
    "CardsIn",
    "ChoiceNode",
    "ChosenSet",
    "ChosenSetIn",
    "CycleSet",
    "Domain",
    "Effect",
    "Env",
    "Fixed",
    "ForgetCopies",
    "GroupUse",
    "Guard",
    "Item",
    "MoveCard",
    "MovedCard",
    "Option",
    "PickCard",
    "PickedCard",
    "Picker",
    "Program",
    "Remember",
    "SetInt",
    "SetIds",
    "SetPointMap",
    "SetTable",
    "SetStr",
    "Shuffle",
    "SlotCheck",
    "SlotSet",
    "StageNode",
    "StageRef",
    "SEAT_PARAM",
    "Sym",
    "deref",
]
