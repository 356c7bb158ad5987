"""Names of moves: each option of a choice is named after what it does.

- An option that sets words (string storage) to one value is named by it: Kuhn poker's four
  options set ``LAST`` and ``ACTION`` to ``CHECK``, ``BET``, ``FOLD`` or ``CALL`` and are the
  moves ``check``, ``bet``, ``fold`` and ``call``.
- An option that moves a card it lets the player pick is ``(play CARD)``, or, to tell options
  of one choice apart, ``(play_trick CARD)`` (after the place it goes) and then after the words
  it sets (``(play_trick_lead CARD)``).
- Otherwise ``(choose K ...)`` as before (K the option's place in the choice, then the values
  it picks, padded with ``nil`` so that ``choose`` has one arity).

Names are unique within a choice, a name has one arity in the whole game, and they never take
a word the translation uses for itself (``noop``, ``draw``, ``pick``...).
"""

from __future__ import annotations

from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Sym, deref
from translators.recycle.symbols.vocabulary import RESERVED, name
from translators.recycle.syntax.nodes import CardAt, CardLocation, Name, Var

#: Words moves never take (the translation's own moves and keywords).
TAKEN = RESERVED | {"draw", "pick", "num", "choose", "nil"}

#: A move's name and whether it carries the option's picks as arguments (None: ``choose``).
MoveName = str | None


def move_names(program: ir.Program) -> dict[tuple[str, int], MoveName]:
    """Per (choice id, option index), its move's name, or None for ``(choose K ...)``."""
    arity: dict[str, int] = {}
    out: dict[tuple[str, int], MoveName] = {}
    for choice in program.choices.values():
        used: set[str] = set()
        for option in choice.options:
            chosen: MoveName = None
            for candidate in _candidates(option):
                if candidate in used or candidate in TAKEN or arity.get(candidate, len(option.forks)) != len(option.forks):
                    continue
                chosen = candidate
                break
            if chosen is not None:
                used.add(chosen)
                arity[chosen] = len(option.forks)
            out[(choice.id, option.index)] = chosen
    return out


def option_places(names: dict[tuple[str, int], MoveName]) -> dict[str, int]:
    """Per move name, the place of its option in its choice (names used at different places
    in different choices are left out)."""
    places: dict[str, set[int]] = {}
    for (_, index), name in names.items():
        if name is not None:
            places.setdefault(name, set()).add(index)
    return {name: next(iter(found)) for name, found in places.items() if len(found) == 1}


def _candidates(option: ir.Option) -> list[str]:
    """Names for an option, best first."""
    words = _set_words(option)
    out: list[str] = []
    if len(words) == 1 and not option.forks:
        out.append(words[0])
    played = _played_to(option)
    if played is not None:
        out.append("play")
        if played:
            out.append(f"play_{played}")
            if words:
                out.append("_".join(["play", played, *words[:2]]))
    elif len(words) == 1:
        out.append(words[0])
    return [c for c in out if c.replace("_", "a").isalnum() and c[0].isalpha()]


def _set_words(option: ir.Option) -> list[str]:
    """The distinct words the option's effects set, in order (lower-cased GDL spelling)."""
    out: list[str] = []
    for effect in option.effects:
        if isinstance(effect, ir.SetStr):
            value, _ = deref(effect.value, effect.env)
            if isinstance(value, Name):
                word = name(value.text).name
                if word not in out:
                    out.append(word)
    return out


def _played_to(option: ir.Option) -> str | None:
    """The name of the place the option moves a card it picks to, if it does."""
    picks = {sym.var for sym in option.forks if sym.kind == "card"}
    if not picks:
        return None
    for effect in option.effects:
        if not isinstance(effect, ir.MoveCard):
            continue
        card, env = deref(effect.card, effect.env)
        binding = env.get(card.name) if isinstance(card, Var) else None
        if not (isinstance(binding, Sym) and binding.var in picks):
            continue
        target, target_env = deref(effect.target, effect.env)
        if isinstance(target, CardAt):
            target, target_env = deref(target.cards, target_env)
        if isinstance(target, CardLocation):
            label, _ = deref(target.name, target_env)
            if isinstance(label, Name):
                return name(label.text).name.rstrip("_")
        return ""
    return None


__all__ = ["TAKEN", "MoveName", "move_names"]
