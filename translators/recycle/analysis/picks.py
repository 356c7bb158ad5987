"""The card sets a filter of ``subsets`` can pick, enumerated card by card.

``(filter (subsets PILE) 'S COND)`` over a pile that can hold more cards than a group has
slots (a Scopa table of a dozen cards: subsets over slots are 2^N masks) is enumerated by card
instead when COND bounds a measure of 'S from above: the points of its cards under a point map
that gives each card one value (``(sum 'S using P)``) or its size, compared (``==``, ``<``,
``<=``) with an expression that does not read 'S, whose range the integer analysis gives. Only
the card sets within every such bound can pass the filter, and those are few (a Scopa deck of
28 cards worth 1-7 has 723 sets worth 7 or less): each becomes a group of those cards
(:class:`~translators.recycle.ir.nodes.CardGroup`), one while all its cards are in the pile;
COND itself is still checked in play. A lower bound (``>=``, ``>``, ``==``) drops sets that
cannot reach it. More than :data:`PICK_LIMIT` sets, more than :data:`WALK_LIMIT` times as many tried,
or no bound from above: None (slots).
"""

from __future__ import annotations

from typing import Any

from translators.recycle.analysis.ranges import Ranges
from translators.recycle.ir.nodes import Env
from translators.recycle.ir.walks import walk_with_env
from translators.recycle.syntax.nodes import And, Compare, Node, Size, Sum, Var

#: The most card sets a filter's groups are enumerated into (more: slots, as before). Each set
#: is an option of its own, about 170 ground rules: 723 sets ground in 16 s, under the fast
#: reasoner's 20 s budget; 4,050 (a 40-card Scopa) make 719k ground rules in 6 minutes, and the
#: oracle took more than 14 minutes for two games.
PICK_LIMIT = 1000
#: The most card sets a choice among them offers as data, one option over set ids
#: (``ir/setchoice.py``): a few static facts per set, no rules of its own.
CHOSEN_LIMIT = 20_000

#: The sets a walk may try for each set it may keep, before it gives up (slots, as when the
#: sets are too many).
WALK_LIMIT = 20

#: A measure of a set as the least and the most each card adds, with the range it must be in
#: (no upper end: None).
Bound = tuple[dict[str, int], dict[str, int], int, int | None]

_FLIP = {"==": "==", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def picked_sets(cond: Node, var: str, env: Env, cards: list[str], ranges: Ranges,
                limit: int = PICK_LIMIT) -> list[tuple[str, ...]] | None:
    """The non-empty sets of ``cards`` (each in card-id order, smallest sets first) that can
    satisfy ``cond`` with ``var`` bound to the set, or None when ``cond`` bounds no measure of
    it from above or the sets are more than ``limit``."""
    bounds = _bounds(cond, var, env, cards, ranges)
    upper = [(low, hi) for low, _, _, hi in bounds if hi is not None and all(v >= 0 for v in low.values())]
    if not upper:
        return None
    found: list[tuple[str, ...]] = []
    chosen: list[str] = []
    # the most the cards from the i-th on can add to each measure bounded from below: a set that
    # cannot reach a lower bound with all of them is not extended (every card worth 0 under a
    # map never set: no set reaches the score of a card, and the walk went through all 2^N)
    rest = [[sum(max(high[c], 0) for c in cards[i:]) for i in range(len(cards) + 1)] for _, high, _, _ in bounds]
    visits = [0]

    def walk(start: int, least: list[int], most: list[int]) -> bool:
        for i in range(start, len(cards)):
            if any(total + after[i] < lo for total, after, (_, _, lo, _) in zip(most, rest, bounds)):
                return True  # nor can any later card (what they can add only shrinks)
            visits[0] += 1
            if visits[0] > WALK_LIMIT * limit:
                return False
            card = cards[i]
            more = [total + low[card] for total, (low, _) in zip(least, upper)]
            if any(total > hi for total, (_, hi) in zip(more, upper)):
                continue
            chosen.append(card)
            reach = [total + high[card] for total, (_, high, _, _) in zip(most, bounds)]
            if all(total >= lo for total, (_, _, lo, _) in zip(reach, bounds)):
                found.append(tuple(chosen))
                if len(found) > limit:
                    return False
            if not walk(i + 1, more, reach):
                return False
            chosen.pop()
        return True

    if not walk(0, [0] * len(upper), [0] * len(bounds)):
        return None
    place = {card: i for i, card in enumerate(cards)}
    return sorted(found, key=lambda s: (len(s), [place[c] for c in s]))


def _bounds(cond: Node, var: str, env: Env, cards: list[str], ranges: Ranges) -> list[Bound]:
    """The measures of the set ``cond`` bounds: each conjunct comparing a measure of ``var``
    with an expression not reading it."""
    if isinstance(cond, And):
        return [b for arg in cond.args for b in _bounds(arg, var, env, cards, ranges)]
    if not isinstance(cond, Compare) or cond.op not in _FLIP:
        return []
    for measured, other, op in ((cond.left, cond.right, cond.op), (cond.right, cond.left, _FLIP[cond.op])):
        weights = _measure(measured, var, env, cards, ranges)
        if weights is None or _reads(other, var, env):
            continue
        low, high = ranges.of(other, env)
        most = {"==": high, "<": high - 1, "<=": high}.get(op)
        least = {"==": low, ">": low + 1, ">=": low}.get(op, 0)
        return [(weights[0], weights[1], least, most)]
    return []


def _measure(node: Any, var: str, env: Env, cards: list[str], ranges: Ranges) -> tuple[dict[str, int], dict[str, int]] | None:
    """The least and the most each card adds to ``(sum 'S using P)`` or ``(size 'S)``."""
    if isinstance(node, Size) and _is_var(node.collection, var):
        return {c: 1 for c in cards}, {c: 1 for c in cards}
    if isinstance(node, Sum) and _is_var(node.cards, var):
        values = {c: ranges.pointmaps.card_values(node.points, env, c) for c in cards}
        return {c: min(v, default=0) for c, v in values.items()}, {c: max(v, default=0) for c, v in values.items()}
    return None


def _is_var(node: Any, var: str) -> bool:
    return isinstance(node, Var) and node.name == var


def _reads(node: Any, var: str, env: Env) -> bool:
    """Whether an expression mentions ``var`` (through ``let`` aliases)."""
    return any(isinstance(sub, Var) and sub.name == var for sub, _ in walk_with_env(node, env))


__all__ = ["CHOSEN_LIMIT", "PICK_LIMIT", "picked_sets"]
