"""The spans of the ranges computed in play: every integer their bounds can reach.

A range whose bounds are computed in play is a filter of a range of literals, its span
(``ir/spans.py``). The span is read off the integer-range analysis: from the least value its
low bound can take to the largest its high bound can, in the scope the range is written in
(the variables of enclosing ``let``, ``all``, ``any`` and ``filter`` bound as the lowering binds
them, an integer to every value its collection holds; seats and teams left to their kind, as
the cells of one kind share a range; cards to every card). The translator rewrites the game
with the spans found, analyses it again, and stops when they no longer grow
(``translate._lowered``). A span that keeps growing (a bet up to chips that bets add to: the
analysis does not see that chips are only passed around) is widened at once to ``SPAN_LIMIT``
integers, and its bound's cell kept within them (a game that goes past ends with
``(failed overflow)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ggp.errors import Location, Problem
from ggp.gdl.terms import Variable
from translators.recycle.analysis.ranges import Ranges, hull
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.declarations import declared_env
from translators.recycle.ir.elements import (
    expression_kind,
    static_elements,
    storage_family,
)
from translators.recycle.ir.nodes import Alias, Binding, Env, Fixed, Sym, deref
from translators.recycle.ir.repeats import Site
from translators.recycle.ir.spans import Span, first_span
from translators.recycle.symbols.model import GameModel
from translators.recycle.syntax.nodes import Game, IntStorage, Let, Node, Range, Var
from translators.recycle.translation_error import TranslationError

#: The most integers a range computed in play is made of (a choice among them offers one move
#: each): a bet up to 200 chips.
SPAN_LIMIT = 200
#: The fewest integers a range is kept to when its bound's cell is kept within what its owners
#: are given (:func:`given`): chips that start at 0 and are won in play.
SPAN_FLOOR = 50
#: The stand-in of an integer variable while a bound is analysed (only its sort is read).
SPAN_VAR = Variable("span")


def range_spans(game: Game, model: GameModel, ranges: Ranges, sites: Mapping[Site, Range],
                spans: Mapping[Site, Span]) -> dict[Site, Span]:
    """For each range of ``sites`` (found in ``game``'s play and scoring), the span its bounds can reach by
    ``ranges`` (``spans``: those the game was lowered with, for the ranges inside them)."""
    found: dict[Site, Span] = {}
    if not sites:
        return found
    top = declared_env(game)
    for item in (*game.flow, game.scoring):
        _visit(item, top, model, ranges, sites, spans, found)
    return found


def next_spans(sites: Mapping[Site, Range], reached: Mapping[Site, Span], spans: Mapping[Site, Span],
               caps: dict[tuple[str, str], int], grown: set[Site], ranges: Ranges) -> dict[Site, Span]:
    """The spans to lower the game with next: for each range the hull of its last span and what
    its bounds ``reached``. A span that grows a second time (``grown``: those that grew once),
    or past ``SPAN_LIMIT`` integers, has its high bound's cell kept within what its owners are
    given in all (:func:`given`: chips passed around stay within it; at least ``SPAN_FLOOR``,
    at most ``SPAN_LIMIT`` integers of the span; ``caps``, updated); when the high bound is not
    one integer cell, that is a located error."""
    out = {}
    for site, span in reached.items():
        old = spans.get(site)
        new = hull(old, span) if old is not None else span
        again = old is not None and new != old and site in grown
        if old is not None and new != old:
            grown.add(site)
        if again or new[1] - new[0] >= SPAN_LIMIT:
            family = _cell_family(sites[site])
            if family is None:
                raise TranslationError(sites[site], f"the integers of this range can run from {new[0]} to {new[1]} or on, "
                                       f"by the analysis of its bounds: at most {SPAN_LIMIT} are supported when the "
                                       "bounds are computed in play, unless the high bound is a cell of its own (kept "
                                       "within them)")
            room = min(max(given(ranges, family), SPAN_FLOOR), SPAN_LIMIT)
            most = min(new[0] + room - 1, caps.get(family, new[0] + room - 1))
            caps[family] = most
            new = (new[0], most)
        out[site] = new
    return out


def given(ranges: Ranges, family: tuple[str, str]) -> int:
    """What the owners of a cell family are given in all: the largest value a ``set`` writes to
    it, times how many owners the family has."""
    owners = {"game": 1, "player": ranges.model.players, "team": len(ranges.model.teams)}[family[0]]
    most = 0
    for effect in ranges.program.effects.values():
        if isinstance(effect, ir.SetInt) and effect.op == "set":
            try:
                if storage_family(effect.cell, effect.env) == family:
                    most = max(most, ranges.of(effect.value, effect.env)[1])
            except TranslationError:
                continue
    return owners * most


def _cell_family(node: Range) -> tuple[str, str] | None:
    """The cell family of a range's high bound when it is one integer cell."""
    if not isinstance(node.high, IntStorage):
        return None
    try:
        return storage_family(node.high, Env())
    except TranslationError:
        return None


def span_warnings(sites: Mapping[Site, Range], ranges: Ranges, source: str) -> list[Problem]:
    """A warning for each range whose high bound's cell is kept within its span."""
    out = []
    for (line, column), node in sorted(sites.items()):
        family = _cell_family(node)
        if family is not None and family in ranges.caps:
            out.append(Problem(Location(source, line, column),
                               f"this range's bound ({family[0]} sto {family[1]}) has no static bound the analysis finds: "
                               f"the cell is kept at {ranges.caps[family]} or less (what its owners are given in all, "
                               f"from {SPAN_FLOOR} to {SPAN_LIMIT} integers), and a game where it goes past ends there "
                               "with `(failed overflow)`", "warning"))
    return out


def _visit(node: Any, env: Env, model: GameModel, ranges: Ranges, sites: Mapping[Site, Range],
           spans: Mapping[Site, Span], found: dict[Site, Span]) -> None:
    if not isinstance(node, Node):
        return
    site = (node.line, node.column)
    if isinstance(node, Range) and site in sites:
        span = (ranges.of(node.low, env)[0], ranges.of(node.high, env)[1])
        found[site] = hull(found[site], span) if site in found else span
    if isinstance(node, Let):
        _visit(node.value, env, model, ranges, sites, spans, found)
        _visit(node.body, env.bind(node.var.name, Alias(node.value, env)), model, ranges, sites, spans, found)
        return
    var, collection = getattr(node, "var", None), getattr(node, "collection", None)
    for child in node.subnodes():
        if isinstance(var, Var) and isinstance(collection, Node) and child is not var and child is not collection:
            for binding in _bindings(collection, env, model, sites, spans):
                inner = env.bind(var.name, binding) if binding is not None else env
                _visit(child, inner, model, ranges, sites, spans, found)
        else:
            _visit(child, env, model, ranges, sites, spans, found)


def _bindings(coll: Node, env: Env, model: GameModel, sites: Mapping[Site, Range],
              spans: Mapping[Site, Span]) -> list[Binding | None]:
    """What an aggregate's variable is bound to while its body is read: an integer to every
    value of its collection at once, a name to each name in turn; seats, teams and cards left
    unbound (None)."""
    real, real_env = deref(coll, env)
    if isinstance(real, Range) and (site := (real.line, real.column)) in sites:
        low, high = spans.get(site, first_span(real))
        return [Sym(SPAN_VAR, "int", f"int:{low}:{high}")]
    kind = expression_kind(real, real_env)
    if kind not in ("ints", "strs"):
        return [None]
    elements = static_elements(model, real, real_env, real) or []
    if kind == "strs":
        return [binding for binding, _ in elements] or [None]
    numbers = [int(b.term.name) for b, _ in elements if isinstance(b, Fixed)] or [0]
    return [Sym(SPAN_VAR, "int", f"int:{min(numbers)}:{max(numbers)}")]


__all__ = ["SPAN_FLOOR", "SPAN_LIMIT", "given", "next_spans", "range_spans", "span_warnings"]
