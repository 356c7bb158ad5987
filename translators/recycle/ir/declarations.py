"""The environment of a whole game: its declarations, ``(declare VALUE 'NAME)``."""

from __future__ import annotations

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Alias, Env, Fixed
from translators.recycle.symbols.vocabulary import name, num
from translators.recycle.syntax.nodes import Game, IntLit, Name


def declared_env(game: Game) -> Env:
    """The environment of the whole game: its declarations (a literal fixed, else an alias)."""
    env = Env()
    for declaration in game.declarations:
        value = declaration.value
        binding: ir.Binding
        if isinstance(value, IntLit):
            binding = Fixed(num(value.value), "int")
        elif isinstance(value, Name):
            binding = Fixed(name(value.text), "str")
        else:
            binding = Alias(value, env)
        env = env.bind(declaration.var.name, binding)
    return env


__all__ = ["declared_env"]
