"""A readable outline of a syntax tree, one node per line, for ``ggp recycle tree``.

Each line is ``FIELD: Class(simple fields)  @LINE:COL``; the nodes under a node follow,
indented by two spaces, lists of nodes as ``- `` items::

    Game  @5:1
      declarations:
        - Declare  @6:2
            value: IntLit(value=4)  @6:11
            var: Var(name='NUMP', kind='int')  @6:13
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from translators.recycle.syntax.nodes import Node


def _is_nodes(value: Any) -> bool:
    return isinstance(value, Node) or (
        isinstance(value, tuple) and bool(value) and all(isinstance(v, Node) for v in value)
    )


def _outline(node: Node, label: str, indent: int, out: list[str]) -> None:
    simple: list[tuple[str, Any]] = []
    nested: list[tuple[str, Any]] = []
    for f in fields(node):
        if f.name in ("line", "column") or not f.compare:
            continue
        value = getattr(node, f.name)
        (nested if _is_nodes(value) else simple).append((f.name, value))
    args = ", ".join(f"{name}={value!r}" for name, value in simple)
    head = f"{type(node).__name__}({args})" if simple else type(node).__name__
    out.append(f"{' ' * indent}{label}{head}  @{node.line}:{node.column}")
    for name, value in nested:
        if isinstance(value, Node):
            _outline(value, f"{name}: ", indent + 2, out)
        else:
            out.append(f"{' ' * (indent + 2)}{name}:")
            for item in value:
                _outline(item, "- ", indent + 4, out)


def outline(node: Node) -> str:
    """The outline of ``node`` and everything under it (no trailing newline)."""
    out: list[str] = []
    _outline(node, "", 0, out)
    return "\n".join(out)
