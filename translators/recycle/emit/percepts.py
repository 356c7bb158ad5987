"""What each role perceives (``sees``): exactly what becomes visible to it.

- A card that moves: every player sees from where to where it went, with its identity when the
  card is visible to that player at its source before or at its target after the move, else as
  ``hidden``; each moving effect of a step has its own index (its position in the step), so two
  hidden cards moving the same way in one step stay two percepts. Copies into memory are seen
  by everyone.
- Storage (integers, strings, point maps), the players' turn order (seats and queued seats),
  shuffles, failures and the program position after the step are public.
- Nothing else: in particular no player sees another's move term, only its visible effects.

Visibility: ``vloc`` and ``mem`` everyone; ``iloc`` its owning player only (a location of the
game or of a team nobody); ``hloc`` nobody; ``oloc`` every player but its owner.
"""

from __future__ import annotations

from ggp.gdl.rules import Not
from ggp.gdl.terms import Constant, Function, Term, Variable
from translators.recycle.emit.effects import EffectEmitter
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.model import GameModel
from translators.recycle.symbols.vocabulary import HIDDEN, c, f, loc, rule


def emit_percepts(book: RuleBook, model: GameModel, emitter: EffectEmitter) -> None:
    """The ``sees`` rules."""
    R, C, F, T, O, N, V, S, X = (Variable(n) for n in ("r", "c", "f", "t", "o", "n", "v", "s", "x"))
    with book.group("who sees which location (static)"):
        for seat in range(model.players):
            for place in model.locations:
                if model.visible(seat, place):
                    book.add(rule(f("canview", c(f"player{seat}"), loc(place))))
        for seat in range(model.players):
            book.add(rule(f("player", c(f"player{seat}"))))
    I = Variable("i")
    with book.group("percepts: cards moving (identity when visible at the source or the target)"):
        copies = ("copy", "copyunder", "copyat")
        for rel in sorted({m.relation for m in emitter.moves if m.kind not in copies}):
            book.add(rule(f("movedcard", I, C, F, T), f(rel, I, C, F, T)))
        for rel in sorted({m.relation for m in emitter.moves if m.kind in copies}):
            book.add(rule(f("sees", R, f("remembered", I, T, C)), f("player", R), f(rel, I, C, F, T)))
        if any(m.kind not in copies for m in emitter.moves):
            def head(card: Term) -> Function | Constant:
                return f("sees", R, f("moved", I, F, T, card))

            book.add(rule(head(C), f("player", R), f("movedcard", I, C, F, T), f("canview", R, F)))
            book.add(rule(head(C), f("player", R), f("movedcard", I, C, F, T), f("canview", R, T)))
            book.add(rule(head(HIDDEN), f("player", R), f("movedcard", I, C, F, T), Not(f("canview", R, F)),
                          Not(f("canview", R, T))))
    with book.group("percepts: public changes"):
        book.add(rule(f("sees", R, f("sto", O, N, V)), f("player", R), f("stoset", O, N, V)))
        book.add(rule(f("sees", R, f("wsto", O, N, X, V)), f("player", R), f("wstoset", O, N, X, V)))
        book.add(rule(f("sees", R, f("str", O, N, V)), f("player", R), f("strset", O, N, V)))
        book.add(rule(f("sees", R, f("pmap", O, N, V)), f("player", R), f("pmapset", O, N, V)))
        book.add(rule(f("sees", R, f("seat", S, V)), f("player", R), f("seatset", S, V)))
        book.add(rule(f("sees", R, f("queue", S, V)), f("player", R), f("queueset", S, V)))
        book.add(rule(f("sees", R, f("shuffled", X)), f("player", R), f("shuffled", X)))
        book.add(rule(f("sees", R, f("pc", X)), f("player", R), f("npc", X)))
        book.add(rule(f("sees", R, f("failed", X)), f("player", R), f("fails", X)))
    del C


__all__ = ["emit_percepts"]
