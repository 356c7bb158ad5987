"""Point maps as declared: which ``set`` statements give a map its awards, whether a map means
the same all game long (a static table) or depends on values set in play, and every value a
card can score under it."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

from translators.recycle.analysis.constants import static_int
from translators.recycle.analysis.integers import Interval
from translators.recycle.analysis.memo import ByIdentity
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Env, Fixed, deref
from translators.recycle.symbols.check import early_point_maps
from translators.recycle.symbols.model import GameModel, owner_kind
from translators.recycle.symbols.vocabulary import name
from translators.recycle.syntax.nodes import Name, PointStorage, SetPoints, Var
from translators.recycle.translation_error import TranslationError

#: One award of a ``set``: its (key, value) pairs (a value is a name, or None when dynamic,
#: then the index of its stored value) and its points (0 when computed in play: see
#: :meth:`PointMaps.computed`).
Award = tuple[list[tuple[str, str | None, int]], int]


#: The most values the points of an award computed in play may take (each is a row of the
#: points its cards score, and every value a card can score is followed through the analysis).
AWARD_LIMIT = 1_000


class PointMaps:
    """The point maps of one lowered game."""

    def __init__(self, model: GameModel, program: ir.Program):
        self.model = model
        self.program = program
        #: The names of the maps read before they are set (empty until then: every card 0).
        self.early = frozenset(key for key, _, setter in early_point_maps(model.game) if setter is not None)
        self._awards: ByIdentity[tuple[list[Award], list[tuple[Any, Env]]]] = ByIdentity()
        #: The range of an integer expression, for awards whose points are computed in play:
        #: the integer analysis (:class:`~.ranges.Ranges`) sets it to its own, so that the
        #: points such an award can give and the cells they feed are found by one fixpoint.
        self.interval: Callable[[Any, Env], Interval] | None = None
        self._reading: set[int] = set()

    def read_unset(self, key: tuple[str, str]) -> bool:
        """Whether the map can be read before its first ``set`` (every card scores 0 then): a
        player's or team's map can always be (it may be read for one owner not set yet)."""
        return key[1] in self.early or f"'{key[1]}" in self.early or (key[0] != "game" and bool(self.sites(key)))

    def map_key(self, pm: Any, env: Env) -> tuple[str, str]:
        """(owner kind, name) of a point-map expression."""
        real, _real_env = deref(pm, env)
        if isinstance(real, PointStorage):
            if not isinstance(real.name, Name):
                raise TranslationError(pm, "point maps need literal names")
            return owner_kind(real.owner), real.name.text
        if isinstance(real, Var):
            return "game", real.name
        raise TranslationError(pm, "a point map is expected here")

    def sites(self, key: tuple[str, str]) -> list[tuple[int, SetPoints, ir.Effect]]:
        """The ``set`` statements of a point map."""
        out = []
        for site, node in self.program.point_sites.items():
            assert isinstance(node, SetPoints)
            target = node.target
            if isinstance(target, Var):
                tkey = ("game", target.name)
            else:
                tkey = self.map_key(target, self.program.effects[site].env)
            if tkey == key:
                out.append((site, node, self.program.effects[site]))
        return out

    def awards(self, node: SetPoints, env: Env) -> tuple[list[Award], list[tuple[Any, Env]]]:
        """The awards of a ``set`` and the dynamic values it stores (expressions in order)."""
        return self._awards.get((node, env), lambda: self._read_awards(node, env))

    def _read_awards(self, node: SetPoints, env: Env) -> tuple[list[Award], list[tuple[Any, Env]]]:
        dynamic: list[tuple[Any, Env]] = []
        awards: list[Award] = []
        for award in node.awards:
            pairs: list[tuple[str, str | None, int]] = []
            for pair in award.pairs:
                key, _ = deref(pair.key, env)
                if not isinstance(key, Name):
                    raise TranslationError(pair, "award keys must be literal NAMEs")
                value, value_env = deref(pair.value, env)
                if isinstance(value, Name):
                    pairs.append((key.text, value.text, -1))
                elif isinstance(value, Var) and isinstance(value_env.get(value.name), Fixed):
                    term = value_env.get(value.name).term  # type: ignore[union-attr]
                    pairs.append((key.text, self._recycle(term.name), -1))
                else:
                    pairs.append((key.text, None, len(dynamic)))
                    dynamic.append((pair.value, env))
            awards.append((pairs, static_int(award.points, env) or 0))
        return awards, dynamic

    def computed(self, node: SetPoints, env: Env) -> list[tuple[int, Any, Env]]:
        """The awards of a ``set`` whose points are computed in play (evaluated when the map is
        set, as the engine's ``PointAction`` does): (award index, expression, environment)."""
        return [(i, award.points, env) for i, award in enumerate(node.awards) if static_int(award.points, env) is None]

    def _recycle(self, gdl_name: str) -> str:
        for text in self.model.names:
            if name(text).name == gdl_name:
                return text
        return gdl_name.upper()

    def is_static(self, key: tuple[str, str]) -> bool:
        """Whether a point map has one meaning for the whole game (a player's or team's map that
        is set has one per owner, kept in the state)."""
        sites = self.sites(key)
        if not sites:
            return True
        if self.read_unset(key):
            return False
        tables = set()
        for _, node, effect in sites:
            awards, dynamic = self.awards(node, effect.env)
            if dynamic or self.computed(node, effect.env):
                return False
            tables.add(repr(awards))
        return len(tables) == 1

    def static_points(self, awards: list[Award], attrs: dict[str, str]) -> int:
        """A card's points under literal awards."""
        total = 0
        for pairs, points in awards:
            if all(attrs.get(k) == v for k, v, _ in pairs):
                total += points
        return total

    def card_values(self, pm: Any, env: Env, card_id: str) -> set[int]:
        """Every value a card can score under a point map."""
        key = self.map_key(pm, env)
        attrs = dict(self.model.cards[int(card_id[1:]) - 1].attrs)
        sites = self.sites(key)
        if not sites:
            return {0}
        out: set[int] = {0} if self.read_unset(key) else set()
        for _, node, effect in sites:
            awards, _dynamic = self.awards(node, effect.env)
            computed = self.computed(node, effect.env)
            for pattern in self.patterns(awards, attrs):
                total = sum(p for (_, p), hit in zip(awards, pattern) if hit)
                spans = [self._computed_interval(expr, expr_env) for index, expr, expr_env in computed if pattern[index]]
                low, high = sum(lo for lo, _ in spans), sum(hi for _, hi in spans)
                out |= set(range(total + low, total + high + 1))
        return out

    def _computed_interval(self, expr: Any, env: Env) -> Interval:
        if self.interval is None:
            raise TranslationError(expr, "award points computed in play are read before the integer analysis")
        if id(expr) in self._reading:
            raise TranslationError(expr, "award points computed from scores under the same point map are not "
                                         "supported (the map's values would depend on themselves)")
        self._reading.add(id(expr))
        try:
            low, high = self.interval(expr, env)
        finally:
            self._reading.discard(id(expr))
        if high - low >= AWARD_LIMIT:
            raise TranslationError(expr, f"these award points can take {high - low + 1} values ({low} to {high}): at "
                                         f"most {AWARD_LIMIT} are supported (narrow the values they read)")
        return low, high

    def patterns(self, awards: list[Award], attrs: dict[str, str]) -> list[tuple[bool, ...]]:
        """Which awards a card can match together (static pairs decided, dynamic ones free: a key
        the card lacks reads as the empty string, which a string cell never set holds)."""
        choices: list[tuple[bool, ...]] = []
        for pairs, _ in awards:
            if any(v is not None and attrs.get(k) != v for k, v, _ in pairs):
                choices.append((False,))
            elif all(v is not None for _, v, _ in pairs):
                choices.append((True,))
            else:
                choices.append((False, True))
        return list(product(*choices))


__all__ = ["Award", "PointMaps"]
