"""How a choice's option names a card its chooser may not see: by its place.

A card fork over piles some chooser cannot see (``analysis/blind.py``, their whole order kept)
is named in the move by a handle: the card itself where the chooser sees its pile, else
``(hidden L I)``, the ``I``-th card of pile ``L`` from the bottom. Which one is decided in the
state, by ``canview``::

    (<= (handle ?r ?l ?c ?c) (player ?r) (true (at ?c ?l)) (canview ?r ?l))
    (<= (handle ?r ?l ?c (hidden ?l ?i)) (player ?r) (pheight ?l ?c ?i) (not (canview ?r ?l))
        (not (true (lost ?l))))

The legal move and the rules of the option's effects both read ``(handle ?who ?l ?c ?h)``: the
move names ``?h``, the effects move ``?c``. Where the pile's order is lost (cards moved onto it in
bulk from a pile whose order is not kept), the cards are named as they are, the last resort::

    (<= (handle ?r ?l ?c ?c) (player ?r) (true (at ?c ?l)) (not (canview ?r ?l)) (true (lost ?l)))
"""

from __future__ import annotations

from ggp.gdl.rules import Literal, Not
from ggp.gdl.terms import Variable
from translators.recycle.analysis.blind import fork_places
from translators.recycle.emit.cardsets import pile_depths
from translators.recycle.emit.protocol import Compiler
from translators.recycle.symbols.vocabulary import c, f, rule, true


def blind_forks(comp: Compiler) -> dict[Variable, Variable]:
    """The card forks of options named by a handle (their piles some chooser may not see, every
    one of them keeping its whole order), each with the variable of its handle."""
    out: dict[Variable, Variable] = {}
    for choice in comp.program.choices.values():
        for option in choice.options:
            for sym in option.forks:
                places = fork_places(sym, comp.model, comp.domains)
                if places and set(places) <= comp.linked:
                    out[sym.var] = Variable(f"h_{sym.var.name}")
    return out


def handle(comp: Compiler, who: Variable, card: Variable, name: Variable) -> Literal:
    """``name`` is how role ``who`` names ``card`` in a move (the rules written once)."""
    if ("handle",) not in comp.book.memo:
        comp.book.memo[("handle",)] = True
        height = pile_depths(comp.book, "bottom", len(comp.model.cards))
        R, L, C, I = (Variable(n) for n in ("r", "l", "c", "i"))
        with comp.book.group("how a player names a card in a move: the card where it sees the pile, else its place"):
            comp.book.add(rule(f("handle", R, L, C, C), f("player", R), true(f("at", C, L)), f("canview", R, L)))
            comp.book.add(rule(f("handle", R, L, C, f("hidden", L, I)), f("player", R), f(height, L, C, I),
                               Not(f("canview", R, L)), Not(true(f("lost", L)))))
            comp.book.add(rule(f("handle", R, L, C, C), f("player", R), true(f("at", C, L)), Not(f("canview", R, L)),
                               true(f("lost", L))))
    return f("handle", who, comp.fresh("l"), card, name)


def maybe_handle(comp: Compiler, who: Variable, card: Variable, name: Variable) -> Literal:
    """``name`` is how role ``who`` names ``card`` in a move, or both are ``nil``: a fork an
    option may be offered without (``ir/vacancy.py``)."""
    if ("maybe_handle",) not in comp.book.memo:
        comp.book.memo[("maybe_handle",)] = True
        R, C, H = (Variable(n) for n in ("r", "c", "h"))
        with comp.book.group("how a player names a card in a move, or nil where an option has no card to name"):
            comp.book.add(rule(f("maybe_handle", R, C, H), handle(comp, R, C, H)))
            comp.book.add(rule(f("maybe_handle", R, c("nil"), c("nil")), f("player", R)))
    return f("maybe_handle", who, card, name)


__all__ = ["blind_forks", "handle", "maybe_handle"]
