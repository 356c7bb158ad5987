"""Integers known before play: literals, declared constants and arithmetic on them."""

from __future__ import annotations

from typing import Any

from translators.recycle.analysis.integers import apply
from translators.recycle.ir.nodes import Env, Fixed, deref
from translators.recycle.syntax.nodes import Arith, IntLit, Var


def static_int(node: Any, env: Env) -> int | None:
    """The value of an integer expression known statically, or None."""
    real, real_env = deref(node, env)
    if isinstance(real, IntLit):
        return real.value
    if isinstance(real, Var):
        binding = real_env.get(real.name)
        if isinstance(binding, Fixed) and binding.kind == "int":
            return int(binding.term.name)
    if isinstance(real, Arith):
        a, b = static_int(real.left, real_env), static_int(real.right, real_env)
        if a is not None and b is not None:
            return apply(real.op, a, b)
    return None


__all__ = ["static_int"]
