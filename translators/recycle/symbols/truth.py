"""What can be told about a condition without playing: always true, always false, or neither.

Used to find choice options that can never be enabled, actions that never run, and stages that
never run or never end. The reasoning is deliberately simple and sound: literals compared with
literals, an expression compared with itself, sizes (never negative), ``and``/``or``/``not``,
and contradictions inside an ``and`` such as ``(== X A)`` with ``(== X B)`` or ``(!= X A)``.
"""

from __future__ import annotations

from typing import Any

from translators.recycle.syntax.nodes import (
    And,
    Boolean,
    Compare,
    IntLit,
    Name,
    Node,
    Not,
    Or,
    Random,
    Size,
)


def _literal(node: Any) -> int | str | None:
    if isinstance(node, IntLit):
        return node.value
    if isinstance(node, Name):
        return node.text
    return None


def _is_random(node: Node) -> bool:
    return any(isinstance(n, Random) for n in node.walk())


def _compare(node: Compare) -> bool | None:
    left, right = _literal(node.left), _literal(node.right)
    op = node.op
    if left is not None and right is not None and type(left) is type(right):
        if op == "==":
            return left == right
        if op == "!=":
            return left != right
        if isinstance(left, int) and isinstance(right, int):
            return {"<": left < right, ">": left > right, "<=": left <= right, ">=": left >= right}[op]
        return None
    if node.left == node.right and not _is_random(node.left):
        return op in ("==", "<=", ">=")
    if isinstance(node.left, Size) and right == 0 and op in ("<", ">="):
        return op == ">="
    if isinstance(node.right, Size) and left == 0 and op in (">", "<="):
        return op == "<="
    return None


def _pinned(node: Compare) -> tuple[Any, int | str] | None:
    """``(== E lit)`` or ``(!= E lit)`` as (E, lit), E not random."""
    for expr, other in ((node.left, node.right), (node.right, node.left)):
        value = _literal(other)
        if value is not None and _literal(expr) is None and not _is_random(expr):
            return expr, value
    return None


def _contradiction(args: tuple[Boolean, ...]) -> bool:
    equal: dict[Any, set[int | str]] = {}
    unequal: dict[Any, set[int | str]] = {}
    for arg in args:
        if isinstance(arg, Compare) and arg.op in ("==", "!="):
            pinned = _pinned(arg)
            if pinned is not None:
                table = equal if arg.op == "==" else unequal
                table.setdefault(pinned[0], set()).add(pinned[1])
    for expr, values in equal.items():
        if len(values) > 1 or values & unequal.get(expr, set()):
            return True
    return False


def truth(node: Boolean) -> bool | None:
    """True or False when the condition always has that value, else None."""
    if isinstance(node, Compare):
        return _compare(node)
    if isinstance(node, Not):
        inner = truth(node.arg)
        return None if inner is None else not inner
    if isinstance(node, (And, Or)):
        values = [truth(a) for a in node.args]
        decisive = isinstance(node, Or)
        if decisive in values:
            return decisive
        if all(v is (not decisive) for v in values):
            return not decisive
        if isinstance(node, And) and _contradiction(node.args):
            return False
    return None
