"""A choice's ``any`` after other actions of its option, read as those actions leave it.

The engine builds an option's actions one by one, running each before building the next
(``GameIterator.RecurseDo``), so in ``(do ((move (top STOCK) (top HAND)) (any HAND 'C ...)))``
the ``any`` forks over the hand with the card just drawn. The translation reads a fork's
collection in the decision's state; :func:`preview` writes the collection (a pile under
filters) as the earlier actions leave it, in that state, undoing them from the last:

- a card moved onto the pile joins it (``(union COLL (filter SOURCE 'X (== 'X CARD)))``), a card
  taken from it leaves it (``(filter COLL 'X (!= 'X CARD))``), for moves of one card, from the
  top or bottom of a pile or a card the choice picked from a pile, to the top or bottom of
  another, each card read as the moves before it leave its pile;
- a cell set, raised or lowered is read as what it is given (``(game sto N)`` after ``(inc
  (game sto N) 1)`` is ``(+ (game sto N) 1)``), where every cell of that name read is known to
  be that one or not.

- ``(repeat N (move (top SOURCE) (top PILE)))``, N a literal (draw two, then throw one away):
  the N cards at that end of SOURCE join the pile, ``(union PILE (top N SOURCE))``, or leave it;
  ``(repeat all (move (top SOURCE) (top PILE)))`` (take the discard pile up, then throw a card
  away): every card of SOURCE joins the pile, ``(union PILE SOURCE)``, and SOURCE is left empty;
- an action under a condition, ``((> (size STOCK) 0) (move (top STOCK) (top HAND)))``, is the
  pile as the action leaves it where the condition holds, as it was where not (the union of
  the two, each filtered by the condition or its negation), where the actions before it change
  nothing the condition reads;
- where they do, or a moved card is read after earlier actions change it (two conditional
  moves, the second taking the top of the pile the first put a card on), the actions are read
  case by case (:func:`_split`: a conditional action done or not, the first first, at most
  :data:`SPLIT_LIMIT` of them), and in each case every read is written back through the
  actions before it, from the last (:func:`_before`: the card a move put on an end is that
  card, a pile a card went onto or left is the pile with or without it, a cell set is its
  value), where the read does not depend on a changed pile's order.

Anything else (a pile shuffled, a turn cycled, a cell read through a ``let``) gives None, and
:func:`read_after` refuses the ``any`` with a located error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from translators.recycle.ir.footprints import clash, describe
from translators.recycle.ir.forwards import location_key, owner_key
from translators.recycle.ir.nodes import Alias, Env, Sym, deref
from translators.recycle.ir.rewrite import map_children
from translators.recycle.syntax.nodes import (
    ActionAgg,
    And,
    Arith,
    BoolAgg,
    CardAt,
    CardAtt,
    CardLocation,
    Compare,
    Conditional,
    Do,
    Filter,
    IntLit,
    IntUpdate,
    Move,
    Name,
    Node,
    Or,
    Repeat,
    RepeatAll,
    SetOp,
    SetStr,
    Size,
    Slice,
    Sum,
    Var,
)
from translators.recycle.syntax.nodes import Not as RNot
from translators.recycle.translation_error import TranslationError


def _moved_card(node: Any, env: Env) -> tuple[Any, Any, Any] | None:
    """A moved card as the card read, its pile's key and the pile: ``(top|bottom LOC)`` of a
    named location, or a choice's card variable over a pile (or a filter of one); None for
    anything else."""
    real, real_env = deref(node, env)
    if isinstance(real, CardAt) and real.position in ("top", "bottom"):
        key = location_key(real.cards, real_env)
        return (real, key, real.cards) if key is not None else None
    bound = real_env.get(real.name) if isinstance(real, Var) else None
    if isinstance(bound, Sym) and bound.domain is not None and not bound.domain.parallel:
        pile, pile_env = deref(bound.domain.collection, bound.domain.env)
        while isinstance(pile, Filter):
            pile, pile_env = deref(pile.collection, pile_env)
        key = location_key(pile, pile_env) if isinstance(pile, CardLocation) else None
        # read where the move is, the pile must be the same one
        return (real, key, pile) if key is not None and location_key(pile, env) == key else None
    return None


def _target(node: Any, env: Env) -> Any:
    """The key of the pile a move puts its card on (top or bottom), or None."""
    real, real_env = deref(node, env)
    if isinstance(real, CardAt) and real.position in ("top", "bottom"):
        return location_key(real.cards, real_env)
    return None


def _assigned(action: IntUpdate | SetStr, env: Env, nodes: list[Any], value: Any = None) -> list[Any] | None:
    """``nodes`` with each read of the cell ``action`` writes replaced by what it writes (or by
    ``value``; None where a cell of that name is read whose owner may or may not be the one
    written)."""
    cell = action.storage
    key = owner_key(cell.owner, env)
    name = cell.name.text if isinstance(cell.name, Name) else None
    if key is None or name is None:
        return None
    at = {"line": action.line, "column": action.column}
    if value is None:
        value = action.value
        if isinstance(action, IntUpdate) and action.op != "set":
            value = Arith("+" if action.op == "inc" else "-", action.storage, action.value, **at)
    failed = False

    def swap(node: Any) -> Any:
        nonlocal failed
        if type(node) is type(cell) and isinstance(node.name, Name) and node.name.text == name:
            if owner_key(node.owner, env) != key:
                failed = True
            return value
        return map_children(node, swap) if isinstance(node, Node) else node

    out = [swap(node) for node in nodes]
    return None if failed else out


def _wrap(base: Any, filters: list[Filter], conditions: list[Any], at: dict[str, Any]) -> Any:
    """``base`` under the filters (outermost first), with these conditions."""
    for outer, condition in zip(reversed(filters), reversed(conditions)):
        base = Filter(base, outer.var, condition, **at)
    return base


def _within(outer: Env, env: Env) -> bool:
    """Whether ``env`` is ``outer`` with ``let`` aliases of new names added: an action of
    ``outer`` reads the same there (``(do (ACTION (let ... (any ...))))``)."""
    size = len(outer.items)
    known = {name for name, _ in outer.items}
    return env.stages == outer.stages and env.items[:size] == outer.items and all(
        isinstance(binding, Alias) and name not in known for name, binding in env.items[size:])


def _undone(collection: Any, env: Env, before: tuple[tuple[Node, Env], ...]) -> CardLocation | Filter | SetOp | None:
    """``collection`` (a pile under filters) as the actions ``before`` leave it, the actions
    undone from the last, each rewriting what the ones after it left to be read; None where
    one cannot be so (:func:`_split` then)."""
    real, real_env = deref(collection, env)
    filters: list[Filter] = []
    while isinstance(real, Filter):
        filters.append(real)
        real, real_env = deref(real.collection, real_env)
    if not isinstance(real, CardLocation) or real_env != env:
        return None
    pile = location_key(real, env)
    if pile is None:
        return None
    at = {"line": real.line, "column": real.column}
    base: Any = real
    conditions: list[Any] = [f.condition for f in filters]
    for index in reversed(range(len(before))):
        action, action_env = before[index]
        if not clash([(action, action_env)], _wrap(base, filters, conditions, at), env):
            continue
        if not _within(action_env, env):
            return None
        if isinstance(action, Conditional):
            # ((COND) ACTION): the pile as ACTION leaves it where COND holds, else as it was
            if clash(before[:index], action.condition, env):
                return None  # COND read as the actions before it leave the game
            done = _undo(action.body, env, before[:index], pile, base, filters, conditions, at)
            if done is None:
                return None
            var = Var(f"PREVIEW_{action.line}_{action.column}", kind="card", **at)
            kept = (Filter(_wrap(done[0], filters, done[1], at), var, action.condition, **at),
                    Filter(_wrap(base, filters, conditions, at), var, RNot(action.condition, **at), **at))
            base, filters, conditions = SetOp("union", kept, **at), [], []
            continue
        undone = _undo(action, env, before[:index], pile, base, filters, conditions, at)
        if undone is None:
            return None
        base, conditions = undone
    result: CardLocation | Filter | SetOp = _wrap(base, filters, conditions, at)
    return result


def preview(collection: Any, env: Env, before: tuple[tuple[Node, Env], ...]) -> Any:
    """``collection`` (a pile under filters) as the actions ``before`` leave it, read in the
    state before them; None when that cannot be written so (see the module doc)."""
    found = _undone(collection, env, before)
    return found if found is not None else _split(collection, env, before)


#: At most this many conditional actions before an ``any`` are read case by case (2^N cases).
SPLIT_LIMIT = 4

#: Reads whose value does not depend on the order of the piles under them: a pile read through
#: them is rewritten as a set (:func:`_before`).
SETWISE = (Filter, SetOp, Size, Sum, Compare, And, Or, RNot, Arith, CardAtt, BoolAgg)
#: Conditions: the cases of a conditional action are joined by ``or``, not by a union.
BOOLEAN = (Compare, And, Or, RNot, BoolAgg)


def condition_before(condition: Any, env: Env, before: tuple[tuple[Node, Env], ...]) -> Any:
    """``condition`` written to be read before the actions ``before`` and hold where it holds
    after them (None where it cannot be): a conditional action read case by case as in
    :func:`preview`, ``(or (and COND AFTER) (and (not COND) SKIPPED))``."""
    return _split(condition, env, before)


def _split(node: Any, env: Env, before: tuple[tuple[Node, Env], ...]) -> Any:
    """``node`` (a collection or a condition) after ``before``, the first conditional action
    among them done where its condition (as the actions before it leave the game) holds and
    skipped where not: the union of the two cases' collections, or the condition holding in the
    case that happens; with no conditional action, every read written back through the actions
    (:func:`_rewritten`)."""
    first = next((i for i, (action, _) in enumerate(before) if isinstance(action, Conditional)), None)
    if first is None:
        return _rewritten(node, env, before)
    action, action_env = before[first]
    assert isinstance(action, Conditional)
    if sum(isinstance(a, Conditional) for a, _ in before) > SPLIT_LIMIT or not _within(action_env, env):
        return None
    body = action.body.items if isinstance(action.body, Do) else (action.body,)
    condition = _rewritten(action.condition, env, before[:first])
    head, tail = before[:first], before[first + 1:]
    boolean = isinstance(node, BOOLEAN)
    again = _split if boolean else preview
    taken = again(node, env, head + tuple((item, action_env) for item in body) + tail)
    skipped = again(node, env, head + tail)
    if condition is None or taken is None or skipped is None:
        return None
    at = {"line": action.line, "column": action.column}
    if boolean:
        return Or((And((condition, taken), **at), And((RNot(condition, **at), skipped), **at)), **at)
    var = Var(f"PREVIEW_{action.line}_{action.column}", kind="card", **at)
    return SetOp("union", (Filter(taken, var, condition, **at), Filter(skipped, var, RNot(condition, **at), **at)), **at)


def _rewritten(node: Any, env: Env, actions: tuple[tuple[Node, Env], ...]) -> Any:
    """``node`` written to be read before ``actions`` and give what it reads after them (None
    where it cannot be)."""
    for action, action_env in reversed(actions):
        if node is None:
            return None
        node = _before(node, env, action, action_env)
    return node


def _before(node: Any, env: Env, action: Any, action_env: Env) -> Any:
    """``node`` (read in ``env``) written to be read before ``action`` and give what it reads
    after it: a cell set as the value given, the card a move put on an end of a pile as that
    card, a pile a card went onto or left as the pile with or without it, a pile moved whole as
    empty and the pile it went onto with its cards; None where that cannot be written (a read of
    a changed pile that depends on its order, other actions)."""
    if not clash([(action, action_env)], node, env):
        return node
    if not _within(action_env, env):
        return None
    at = {"line": action.line, "column": action.column}
    if isinstance(action, (IntUpdate, SetStr)):
        blank = _assigned(action, env, [node], IntLit(0, **at))
        if blank is None or clash([(action, env)], blank[0], env):
            return None
        return (_assigned(action, env, [node]) or blank)[0]
    changes = _changes(action, env)
    if changes is None:
        return None
    piles, end, _ = changes
    return _piles_before(node, env, action, piles, end)


#: What a move does to the piles it changes: each pile's key to what its location becomes, the
#: card it puts on an end of a pile (that end, the pile's key, the card) and what it reads.
Changes = tuple[dict[Any, Callable[[Any], Any]], tuple[str, Any, Any] | None, Any]


def _changes(action: Any, env: Env) -> Changes | None:
    """What ``action`` does to piles: a card moved from the top or bottom of a pile, or picked
    from one by the choice, to an end of another (or of the same one) leaves the first and
    joins the second, on that end; a pile moved whole (:func:`_whole`) is left empty and joins
    the other. None for other actions."""
    at = {"line": action.line, "column": action.column}
    if isinstance(action, RepeatAll):
        whole = _whole(action, env)
        if whole is None:
            return None
        pile, source, target = whole
        return {target: lambda part: SetOp("union", (part, pile), **at),
                source: lambda part: _emptied(part, action, at)}, None, pile
    moved = _moved_card(action.source, env) if isinstance(action, Move) else None
    end, end_env = deref(action.target, env) if isinstance(action, Move) else (None, env)
    if moved is None or not (isinstance(end, CardAt) and end.position in ("top", "bottom")):
        return None
    card, source, source_pile = moved
    target = location_key(end.cards, end_env)
    if target is None:
        return None
    var = Var(f"PREVIEW_{action.line}_{action.column}", kind="card", **at)
    drawn = Filter(source_pile, var, Compare("==", var, card, kind="card", **at), **at)

    def left(part: Any) -> Any:
        return Filter(part, var, Compare("!=", var, card, kind="card", **at), **at)

    piles: dict[Any, Callable[[Any], Any]] = {source: left, target: lambda part: SetOp("union", (part, drawn), **at)}
    if source == target:
        piles = {source: lambda part: SetOp("union", (left(part), drawn), **at)}
    return piles, (str(end.position), target, card), card


def _piles_before(node: Any, env: Env, action: Node, piles: dict[Any, Any],
                  end: tuple[str, Any, Any] | None = None) -> Any:
    """``node`` with each read of a pile ``action`` changes written by ``piles`` (the pile's key
    to what its location becomes) and a read of the ``end`` card of a pile (position, key, the
    card put there) as that card; None where another read of those piles is under ``node``
    (one that depends on their order)."""
    failed = False

    def swap(part: Any) -> Any:
        nonlocal failed
        if failed or not isinstance(part, Node) or not clash([(action, env)], part, env):
            return part
        if end is not None and isinstance(part, CardAt) and part.position == end[0] \
                and location_key(part.cards, env) == end[1]:
            return end[2]
        key = location_key(part, env) if isinstance(part, CardLocation) else None
        if key in piles:
            return piles[key](part)
        if isinstance(part, SETWISE) and not isinstance(part, CardLocation):
            return map_children(part, swap)
        failed = True
        return part

    out = swap(node)
    return None if failed else out


def _undo(action: Any, env: Env, earlier: tuple[tuple[Node, Env], ...], pile: Any, base: Any,
          filters: list[Filter], conditions: list[Any], at: dict[str, Any]) -> tuple[Any, list[Any]] | None:
    """The pile ``pile`` (``base`` under the filters) before ``action`` (after ``earlier``), from
    what it is after: a cell set or moved on, a card moved onto or off it; None otherwise."""
    if isinstance(action, (IntUpdate, SetStr)):
        # the cell read through a `let`, which the rewrite does not see into: still read
        blank = _assigned(action, env, [base, *conditions], IntLit(0, **at))
        if blank is None or clash([(action, env)], _wrap(blank[0], filters, blank[1:], at), env):
            return None
        base, *conditions = _assigned(action, env, [base, *conditions]) or blank
        return base, conditions
    if isinstance(action, Repeat):
        return _undo_run(action, env, earlier, pile, base, conditions, at)
    changes = _changes(action, env)
    if changes is None or pile not in changes[0] or clash(earlier, changes[2], env) \
            or any(clash([(action, env)], condition, env) for condition in conditions):
        return None
    return changes[0][pile](base), conditions


def _whole(action: RepeatAll, env: Env) -> tuple[CardLocation, Any, Any] | None:
    """``(repeat all (move (top|bottom SOURCE) (top|bottom TARGET)))``: SOURCE (read through
    aliases) and the keys of SOURCE and TARGET; None for anything else."""
    move = action.action
    real, real_env = deref(move.source, env) if isinstance(move, Move) else (None, env)
    if not isinstance(move, Move) or not (isinstance(real, CardAt) and real.position in ("top", "bottom")):
        return None
    pile, pile_env = deref(real.cards, real_env)
    source, target = location_key(pile, pile_env), _target(move.target, env)
    if not isinstance(pile, CardLocation) or pile_env != env or source is None or target is None or source == target:
        return None
    return pile, source, target


def _emptied(pile: Any, action: Node, at: dict[str, Any]) -> Filter:
    """``pile`` with no card left: every card of it moved away by ``action``."""
    var = Var(f"PREVIEW_{action.line}_{action.column}", kind="card", **at)
    return Filter(pile, var, Compare("==", IntLit(1, **at), IntLit(0, **at), kind="int", **at), **at)


def _undo_run(action: Repeat, env: Env, earlier: tuple[tuple[Node, Env], ...], pile: Any, base: Any,
              conditions: list[Any], at: dict[str, Any]) -> tuple[Any, list[Any]] | None:
    """``(repeat N (move (top|bottom SOURCE) (top|bottom TARGET)))``, N a literal: the N cards at
    that end of SOURCE (``(top N SOURCE)``) join TARGET and leave SOURCE; None otherwise."""
    move = action.action
    if not isinstance(action.count, IntLit) or not isinstance(move, Move):
        return None
    real, real_env = deref(move.source, env)
    if not (isinstance(real, CardAt) and real.position in ("top", "bottom")):
        return None
    source, target = location_key(real.cards, real_env), _target(move.target, env)
    if source is None or target is None or source == target or pile not in (source, target) \
            or clash(earlier, real, env) or any(clash([(action, env)], condition, env) for condition in conditions):
        return None
    run = Slice(real.position, action.count, real.cards, **at)
    if source == pile:  # the cards of the pile but those N
        var = Var(f"PREVIEW_{action.line}_{action.column}", kind="card", **at)
        other = Var(f"PREVIEW_{action.line}_{action.column}_RUN", kind="card", **at)
        taken = Size(Filter(run, other, Compare("==", other, var, kind="card", **at), **at), **at)
        base = Filter(base, var, Compare("==", taken, IntLit(0, **at), kind="int", **at), **at)
    else:
        base = SetOp("union", (base, run), **at)
    return base, conditions


def read_after(node: ActionAgg, env: Env, before: tuple[tuple[Node, Env], ...]) -> Any:
    """The collection a choice's ``any`` forks over, as the option's actions ``before`` it leave
    it (its own where they change nothing it reads); a located error where that cannot be
    written (see the module doc)."""
    changed = clash(before, node.collection, env)
    if not changed:
        return node.collection
    collection = preview(node.collection, env, before)
    if collection is None:
        raise TranslationError(node, f"this `any` reads {describe(changed)}, which actions of the option before it "
                                     "change (the engine offers its options as those actions leave the game), other "
                                     "than by moving one card onto or off it or by setting a cell: make the choice "
                                     "before those actions")
    return collection


__all__ = ["condition_before", "preview", "read_after"]
