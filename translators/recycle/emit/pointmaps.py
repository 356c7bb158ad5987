"""Point maps: the points a card scores, static or from awards set during play.

A point map whose every ``set`` has literal awards is a static table ``(points_N CARD V)``.
When an award compares with a value computed in play (``((SUIT : (game str LEAD)) 100)``), the
``set`` stores those values in a fluent ``(pmap OWNER NAME SITE V1...)`` and a card's points are
derived from it: for every card, one rule per combination of the dynamic awards it matches.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from ggp.gdl.rules import Distinct, Literal
from ggp.gdl.terms import Constant, Term, Variable
from translators.recycle.emit.expressions import CoreCompiler, Ctl, Val
from translators.recycle.ir import nodes as ir
from translators.recycle.ir.nodes import Env, Fixed, deref
from translators.recycle.symbols.vocabulary import c, f, name, num, rule, true
from translators.recycle.syntax.nodes import Name, PointStorage, SetPoints, Var
from translators.recycle.translation_error import TranslationError

#: One award of a ``set``: its (key, value) pairs (a value is a name, or None when dynamic,
#: then the index of its stored value) and its points.
Award = tuple[list[tuple[str, str | None, int]], int]


class PointMapMixin(CoreCompiler):
    """Point maps for the compiler."""

    def map_key(self, pm: Any, env: Env) -> tuple[str, str]:
        """(owner kind, name) of a point-map expression."""
        real, _real_env = deref(pm, env)
        if isinstance(real, PointStorage):
            from translators.recycle.symbols.model import owner_kind

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
            points, _ = deref(award.points, env)
            k = self.constant_int(award.points, env)
            if k is None:
                raise TranslationError(points, "award points must be literal integers")
            awards.append((pairs, k))
        return awards, dynamic

    def _recycle(self, gdl_name: str) -> str:
        for text in self.model.names:
            if name(text).name == gdl_name:
                return text
        return gdl_name.upper()

    def is_static(self, key: tuple[str, str]) -> bool:
        """Whether a point map has one meaning for the whole game."""
        sites = self.sites(key)
        if not sites:
            return True
        tables = set()
        for _, node, effect in sites:
            awards, dynamic = self.awards(node, effect.env)
            if dynamic:
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
        out: set[int] = set()
        for _, node, effect in sites:
            awards, _dynamic = self.awards(node, effect.env)
            for pattern in self.patterns(awards, attrs):
                out.add(sum(p for (_, p), hit in zip(awards, pattern) if hit))
        return out

    def patterns(self, awards: list[Award], attrs: dict[str, str]) -> list[tuple[bool, ...]]:
        """Which awards a card can match together (static pairs decided, dynamic ones free)."""
        choices: list[tuple[bool, ...]] = []
        for pairs, _ in awards:
            if any(v is not None and attrs.get(k) != v for k, v, _ in pairs) or any(k not in attrs for k, _, _ in pairs):
                choices.append((False,))
            elif all(v is not None for _, v, _ in pairs):
                choices.append((True,))
            else:
                choices.append((False, True))
        return list(product(*choices))

    def points(self, pm: Any, env: Env, ctl: Ctl, card: Term) -> Val:
        """The points of a card under a point map."""
        key = self.map_key(pm, env)
        rel = self.points_relation(key)
        if isinstance(card, Constant):
            values = self.card_values(pm, env, card.name)
            if len(values) == 1 and self.is_static(key):
                return [], num(values.pop())
        v = self.fresh("n")
        return [f(rel, card, v)], v

    def points_relation(self, key: tuple[str, str]) -> str:
        """The relation ``(REL CARD POINTS)`` of a point map (made on first use)."""
        memo = ("points", key)
        if memo in self.book.memo:
            known: str = self.book.memo[memo]
            return known
        owner, label = key
        rel = self.book.name(f"points_{name(label).name}")
        self.book.memo[memo] = rel
        sites = self.sites(key)
        if self.is_static(key):
            awards = self.awards(sites[0][1], sites[0][2].env)[0] if sites else []
            with self.book.group(f"points of each card under ({owner} points {label})"):
                for card in self.model.cards:
                    self.book.add(rule(f(rel, c(card.id), num(self.static_points(awards, dict(card.attrs))))))
            return rel
        if owner != "game":
            raise TranslationError(sites[0][1], "point maps set during play must belong to the game")
        for site, node, effect in sites:
            awards, dynamic = self.awards(node, effect.env)
            stored = [Variable(f"d{i}") for i in range(len(dynamic))]
            with self.book.group("points of each card under the awards set here", node):
                for card in self.model.cards:
                    attrs = dict(card.attrs)
                    for pattern in self.patterns(awards, attrs):
                        body: list[Literal] = []
                        args: list[Term] = list(stored)
                        ok = True
                        for (pairs, _), hit in zip(awards, pattern):
                            dyn = [(k, i) for k, v, i in pairs if v is None]
                            if not dyn:
                                continue
                            if hit:
                                for k, i in dyn:
                                    if isinstance(args[i], Variable):
                                        args[i] = name(attrs[k])
                                    elif args[i] != name(attrs[k]):
                                        ok = False
                            else:
                                body.append(("miss", dyn))  # type: ignore[arg-type]
                        if not ok:
                            continue
                        stored_term = f(f"site{site}", *args) if args else c(f"site{site}")
                        final: list[Literal] = [true(f("pmap", c(owner), name(label), stored_term))]
                        for item in body:
                            _, dyn = item  # type: ignore[misc]
                            if len(dyn) != 1:
                                raise TranslationError(node, "an award with several computed values is not supported")
                            k, i = dyn[0]
                            if isinstance(args[i], Variable):
                                final.append(Distinct(args[i], name(attrs[k])))
                            elif args[i] == name(attrs[k]):
                                ok = False
                        if not ok:
                            continue
                        total = sum(p for (_, p), hit in zip(awards, pattern) if hit)
                        self.book.add(rule(f(rel, c(card.id), num(total)), final))
        return rel

    def site_values(self, effect: ir.SetPointMap, ctl: Ctl) -> tuple[list[Literal], list[Term]]:
        """The values a ``set`` of a point map stores (literals binding them)."""
        node = effect.node
        assert isinstance(node, SetPoints)
        _, dynamic = self.awards(node, effect.env)
        lits: list[Literal] = []
        terms: list[Term] = []
        for expr, env in dynamic:
            part, term = self.str_total(expr, env, ctl)
            lits += part
            terms.append(term)
        return lits, terms


__all__ = ["PointMapMixin"]
