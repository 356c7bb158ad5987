"""What a collection or expression of the IR is, seen statically: its kind, the elements of a
collection known before play (players, teams, names, ranges), integer literals, the sort a choice's
fork ranges over, and the memory location a forgotten card is read from."""

from __future__ import annotations

from typing import Any

from ggp.gdl.terms import Constant
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Alias, Env, Fixed, Sym, deref
from translators.recycle.symbols.model import GameModel, owner_kind
from translators.recycle.symbols.vocabulary import c, name, name_text, num
from translators.recycle.syntax.kinds import kind_of
from translators.recycle.syntax.nodes import (
    AllPlayers,
    AllTeams,
    CardAt,
    CardAtt,
    CardLocation,
    Compare,
    Filter,
    IntLit,
    IntStorage,
    Name,
    NameList,
    Node,
    Others,
    Partition,
    PointStorage,
    Range,
    RelativePlayer,
    RelativeTeam,
    SetPoints,
    Size,
    TeamAt,
    TeamOf,
    Var,
)
from translators.recycle.translation_error import TranslationError


def expression_kind(node: Any, env: Env) -> str:
    """The kind of an expression, looking through variables."""
    if isinstance(node, Var):
        binding = env.get(node.name)
        if isinstance(binding, Alias):
            return expression_kind(*deref(node, env))
        if isinstance(binding, (Fixed, Sym)):
            return binding.kind
    if isinstance(node, Filter):
        return expression_kind(*deref(node.collection, env)) if isinstance(node.collection, Var) else kind_of(node)
    if isinstance(node, (ir.SlotSet, ir.CardGroup, ir.ChosenSet)):
        return "cards"
    return kind_of(node)


def static_elements(model: GameModel, coll: Any, env: Env, where: Node) -> list[tuple[ir.Binding, list[tuple[Node, Env]]]] | None:
    """The elements of a statically known collection, each with the conditions under which
    it is a member (evaluated with the element bound); None for a dynamic (card) collection."""
    real, real_env = deref(coll, env)
    at = {"line": where.line, "column": where.column}
    if isinstance(real, AllPlayers):
        return [(Fixed(c(s), "player"), []) for s in model.seats]
    if isinstance(real, AllTeams):
        return [(Fixed(c(t), "team"), []) for t in model.team_names]
    if isinstance(real, NameList):
        return [(Fixed(name(n), "str"), []) for n in real.names]
    if isinstance(real, Range):
        low, high = static_literal(real.low, real_env), static_literal(real.high, real_env)
        if low is None or high is None:
            raise TranslationError(real, "a range needs literal bounds")
        return [(Fixed(num(i), "int"), []) for i in range(low, high + 1)]
    if isinstance(real, Others):
        kind = real.kind
        current: RelativePlayer | RelativeTeam = RelativePlayer("current", **at) if kind == "player" else RelativeTeam("current", **at)
        names = model.seats if kind == "player" else model.team_names
        out: list[tuple[ir.Binding, list[tuple[Node, Env]]]] = []
        for element in names:
            binding = Fixed(c(element), kind)
            test = Compare("!=", Var("_E", kind=kind, **at), current, kind=kind, **at)
            out.append((binding, [(test, real_env.bind("_E", binding))]))
        return out
    if isinstance(real, (RelativeTeam, TeamAt, TeamOf)) or (
        isinstance(real, Var) and expression_kind(real, real_env) == "team"
    ):
        out = []
        for seat in model.seats:
            binding = Fixed(c(seat), "player")
            test = Compare("==", TeamOf(Var("_E", kind="player", **at), **at), real, kind="team", **at)
            out.append((binding, [(test, real_env.bind("_E", binding))]))
        return out
    if isinstance(real, Partition):
        key, source, values = partition_parts(model, real, real_env)
        groups: list[tuple[ir.Binding, list[tuple[Node, Env]]]] = []
        for value in values:
            card = Var("_P", kind="card", **at)
            same = Compare("==", CardAtt(key, card, **at), Name(value, **at), kind="str", **at)
            group = Alias(Filter(source, card, same, **at), real_env)
            nonempty = Compare(">", Size(Var("_E", kind="cards", **at), **at), IntLit(0, **at), kind="int", **at)
            groups.append((group, [(nonempty, real_env.bind("_E", group))]))
        return groups
    if isinstance(real, Filter):
        inner = static_elements(model, real.collection, real_env, where)
        if inner is None:
            return None
        return [(b, conds + [(real.condition, real_env.bind(real.var.name, b))]) for b, conds in inner]
    if isinstance(real, Var):
        bound = real_env.get(real.name)
        if isinstance(bound, Fixed):
            raise TranslationError(where, "cannot iterate over a single value")
    return None


def partition_parts(model: GameModel, coll: Partition, env: Env) -> tuple[Name, Any, list[str]]:
    """The key, the card collection and the key's values (in order) of a ``partition``."""
    key, _ = deref(coll.key, env)
    if not isinstance(key, Name) or isinstance(coll.parts, tuple) and len(coll.parts) != 1:
        raise TranslationError(coll, "`partition` needs a literal key and one collection")
    source = coll.parts[0] if isinstance(coll.parts, tuple) else coll.parts
    return key, source, sorted({v for card in model.cards if (v := card.attr(key.text)) is not None})


def static_literal(node: Any, env: Env) -> int | None:
    """An integer known statically (a literal or a declared literal), else None."""
    real, real_env = deref(node, env)
    if isinstance(real, IntLit):
        return real.value
    if isinstance(real, Var):
        binding = real_env.get(real.name)
        if isinstance(binding, Fixed) and binding.kind == "int":
            return int(binding.term.name)
    return None


def storage_family(node: IntStorage, env: Env) -> tuple[str, str]:
    """The (owner kind, NAME) family of an integer storage cell: every owner of one kind shares
    its range and encoding."""
    real, real_env = deref(node.owner, env)
    binding = real_env.get(real.name) if isinstance(real, Var) else None
    kind = binding.kind if isinstance(binding, (Fixed, Sym)) else owner_kind(real)
    label, label_env = deref(node.name, env)
    bound = label_env.get(label.name) if isinstance(label, Var) else None
    if isinstance(bound, Fixed) and bound.kind == "str" and isinstance(bound.term, Constant):
        return kind, name_text(bound.term)  # a variable over a list of names, unrolled
    if not isinstance(label, Name):
        raise TranslationError(node, "storage names must be literal NAMEs")
    return kind, label.text


#: The point values CardStock's ``tuples`` sorts cards into (``CardGrouping``: 13 bins).
GROUPED_VALUES = tuple(range(13))


def point_values(model: GameModel, points: Any, env: Env) -> tuple[int, ...]:
    """The values a point map can give a card, read off the ``set``s of the map when each gives
    literal points (a card scores the sum of the awards it matches); else every value the
    engine's ``tuples`` can group."""
    real, _ = deref(points, env)
    if not isinstance(real, PointStorage) or not isinstance(real.name, Name):
        return GROUPED_VALUES
    values: set[int] = set()
    for node in model.game.walk():
        if not (isinstance(node, SetPoints) and isinstance(node.target, PointStorage)
                and isinstance(node.target.name, Name) and node.target.name.text == real.name.text):
            continue
        awards: list[tuple[int, list[tuple[str, str]]]] = []
        for award in node.awards:
            pairs = [(pair.key.text, pair.value.text) for pair in award.pairs
                     if isinstance(pair.key, Name) and isinstance(pair.value, Name)]
            if not isinstance(award.points, IntLit) or len(pairs) < len(award.pairs):
                return GROUPED_VALUES
            awards.append((award.points.value, pairs))
        for card in model.cards:
            values.add(sum(points for points, pairs in awards if all(card.attr(k) == v for k, v in pairs)))
    return tuple(sorted(values)) if values else GROUPED_VALUES


def parallel_card(card: Any, env: Env) -> bool:
    """Whether a card expression ranges over the cards of a parallel ``all`` (one effect then
    moves or copies several cards at once)."""
    real, real_env = deref(card, env)
    return (isinstance(real, Var) and isinstance(binding := real_env.get(real.name), Sym)
            and binding.domain is not None and binding.domain.parallel)


def memory_of(card: Node, env: Env) -> Node:
    """The memory location a forgotten card is read from: ``(top|bottom|N LOC)`` of a memory
    location (the engine forgets nothing else: a card variable, even one ranging over a memory
    location, throws ``InvalidOperationException`` in ``CardForgetAction``)."""
    real, real_env = deref(card, env)
    if isinstance(real, CardAt):
        loc, _ = deref(real.cards, real_env)
        if isinstance(loc, CardLocation) and loc.visibility == "mem":
            return real.cards
    raise TranslationError(card, "`forget` drops a copy read from a memory location: `(forget (top LOC))`, "
                                 "`(forget (bottom LOC))` or `(forget (N LOC))` (nor can the engine forget another card)")


def fork_sort(model: GameModel, node: Node, real: Any, env: Env) -> tuple[str, str]:
    """The kind of element a choice's ``any`` forks over (``card``, ``player``, ``team``,
    ``str``, ``int``) and the sort of its variable (``seat``, ``name:A,B``, ``int:LO:HI``...)."""
    kind = expression_kind(real, env)
    element = {"cards": "card", "players": "player", "teams": "team", "strs": "str", "ints": "int",
               "team": "player"}.get(kind)
    if element is None:
        raise TranslationError(node, f"a choice cannot fork over this collection ({kind})")
    sort = {"card": "card", "player": "seat", "team": "team"}.get(element, "")
    if element == "str":
        elements = static_elements(model, real, env, node)
        assert elements is not None
        sort = "name:" + ",".join(b.term.name for b, _ in elements)  # type: ignore[union-attr]
    elif element == "int":  # a range, or a filter of one
        if isinstance(real, Range) and None in (static_literal(real.low, env), static_literal(real.high, env)):
            raise TranslationError(real, "a choice among the integers of a range needs literal bounds")
        elements = static_elements(model, real, env, node)
        if elements is None:
            raise TranslationError(node, "a choice forks over integers only through a range")
        numbers = [int(b.term.name) for b, _ in elements if isinstance(b, Fixed)] or [0]
        sort = f"int:{min(numbers)}:{max(numbers)}"
    return element, sort


def under_filters(node: Any, env: Env) -> tuple[Any, Env, list[tuple[Filter, Env]]]:
    """The collection under any filters of ``node``, its environment, and the filters
    (outermost first, each with its environment)."""
    filters: list[tuple[Filter, Env]] = []
    real, real_env = deref(node, env)
    while isinstance(real, Filter):
        filters.append((real, real_env))
        real, real_env = deref(real.collection, real_env)
    return real, real_env, filters


def filtered_pile(node: Any, env: Env) -> tuple[CardLocation, Env] | None:
    """The pile (not a memory) under ``node`` when it is one or more filters of a pile, whose
    order its top and bottom card follow in the engine (a filter lists its passing cards in the
    pile's order); None for anything else."""
    real, real_env, filters = under_filters(node, env)
    if filters and isinstance(real, CardLocation) and real.visibility != "mem":
        return real, real_env
    return None


#: A memory location under filters (outermost first), each filter with its environment.
FilteredMemory = tuple[CardLocation, Env, list[tuple[Filter, Env]]]


def memory_under_filters(node: Any, env: Env) -> FilteredMemory | None:
    """``node`` as a memory location under zero or more filters (whose copies the engine's
    collections walk one by one); None for another collection."""
    real, real_env, filters = under_filters(node, env)
    if isinstance(real, CardLocation) and real.visibility == "mem":
        return real, real_env, filters
    return None
