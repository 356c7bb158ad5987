"""The values an integer expression can take, as a set, where an interval says too little.

``(+ (* 1000 (size RUNS)) (* 10 (size PAIRS)))``: the interval analysis (:mod:`.ranges`) gives
the product ``0 .. 2000`` for a count of at most 2 times 1000, and adding two such intervals
needs a table of every pair of their integers. The values themselves are few (0, 1000, 2000):
sums, differences and products are followed over the sets of their operands' values while
those stay small; anything else is every integer of its interval.
"""

from __future__ import annotations

from typing import Any

from translators.recycle.analysis.integers import apply
from translators.recycle.analysis.ranges import Ranges
from translators.recycle.ir.nodes import Env, deref
from translators.recycle.syntax.nodes import Arith, IntLit

#: At most this many values in a set (an operand with more is not followed).
SET_LIMIT = 20_000
#: At most this many pairs of operand values are combined to make a set.
PAIR_LIMIT = 200_000


def value_set(ranges: Ranges, node: Any, env: Env) -> frozenset[int] | None:
    """Every value ``node`` can take (a superset), or None when that is more than
    :data:`SET_LIMIT` values."""
    real, real_env = deref(node, env)
    if isinstance(real, IntLit):
        return frozenset({real.value})
    if isinstance(real, Arith) and real.op in ("+", "-", "*"):
        left, right = value_set(ranges, real.left, real_env), value_set(ranges, real.right, real_env)
        if left is not None and right is not None and len(left) * len(right) <= PAIR_LIMIT:
            out = frozenset(v for x in left for y in right if (v := apply(real.op, x, y)) is not None)
            if len(out) <= SET_LIMIT:
                return out
    low, high = ranges.of(real, real_env)
    return frozenset(range(low, high + 1)) if high - low < SET_LIMIT else None


__all__ = ["PAIR_LIMIT", "SET_LIMIT", "value_set"]
