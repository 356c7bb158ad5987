"""Card fluents: where each card is, and what is known of the order of ordered locations.

Every card is in exactly one place: ``(at C LOC)``. Order is tracked only for locations whose
top card the program reads ("ordered"), and only as far as it is ever observed: ``(ontop LOC
C)`` names the top card when it is known; ``(lost LOC)`` says the order under it is not tracked.
A shuffled pile has no known top and no lost mark: it is a heap, and taking (or reading) its
top is a random choice (``(heaptop LOC)``). So:

- moving a card onto an ordered location makes it the known top (and the order below is lost
  if the location already had a known top, unless the pile keeps the card under its top as well,
  :func:`keep_second`);
- taking the known top leaves a heap (if the rest was a heap), the card under it as the known top
  (where it is kept) or a lost order;
- a shuffle makes a heap; moving a whole heap onto an empty location keeps it a heap; a bulk move
  that brings one card is a push; other bulk moves onto an ordered location lose its order (the
  bottom-to-top kind keeps its top); a bulk move under its bottom leaves its top
  (:func:`bulk_under_bottom`);
- reading the top of a lost order ends the game with ``(failed order)`` (it never happens in the
  corpus: the order of piles is only read where it is known).

Memory locations hold copies: ``(copy C LOC)``, each with its place in the order remembered
(``(cpos LOC C N)``, ``(ccount LOC N)``, ``(cdepth LOC C D)`` counted from the last one), up
to :data:`MEMORY_CAP` copies.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from itertools import pairwise

from ggp.gdl.rules import Distinct, Literal, Not
from ggp.gdl.terms import Variable
from translators.recycle.analysis.capacity import MEMORY_CAP
from translators.recycle.emit.cardsets import pile_depths
from translators.recycle.emit.effects import EffectEmitter
from translators.recycle.ir.elements import parallel_card
from translators.recycle.rulebook.book import RuleBook
from translators.recycle.symbols.model import GameModel, Location
from translators.recycle.symbols.vocabulary import (
    c,
    card_constant,
    f,
    loc,
    name,
    num,
    nxt,
    rule,
    true,
)


def emit_card_state(book: RuleBook, model: GameModel, emitter: EffectEmitter,
                    ordered: set[Location], heapy: set[Location], linked: AbstractSet[Location] = frozenset(),
                    spliced: AbstractSet[Location] = frozenset(),
                    returned: AbstractSet[Location] = frozenset(),
                    second: AbstractSet[Location] = frozenset()) -> None:
    """The card fluents' initial values, their frame and update rules (``spliced``: the linked
    piles a card can leave from between others; ``returned``: the piles a move may put a card
    back on, ``analysis/order.py::returned_piles``; ``second``: the piles that keep the card
    under their known top, :func:`keep_second`)."""
    C, L, F, T, X = (Variable(n) for n in ("c", "l", "f", "t", "x"))
    with book.group("the cards as created: where each is, and the top of ordered piles"):
        for item in model.cards:
            book.add(rule(f("init", f("at", card_constant(model, item.id), loc(item.home)))))
        for place in sorted(ordered):
            made = model.cards_at_start(place)
            if made:
                book.add(rule(f("init", f("ontop", loc(place), card_constant(model, made[-1].id)))))
            # a pile that is shuffled somewhere is a heap under its first card (read before the
            # shuffle, which is rare, it deals at random after that card)
            if len(made) > 1 and place not in linked and place not in heapy:
                book.add(rule(f("init", f("lost", loc(place)))))
    with book.group("static facts: cards, their attributes, locations and their owners"):
        for item in model.cards:
            book.add(rule(f("card", card_constant(model, item.id))))
            for key, value in item.attrs:
                book.add(rule(f("attr", card_constant(model, item.id), name(key), name(value))))
        for place in model.locations:
            if place.owner_kind == "player":
                book.add(rule(f("locowner", loc(place), c(place.owner))))
        for place in sorted(ordered):
            book.add(rule(f("ordered", loc(place))))
        for place in sorted(heapy):
            book.add(rule(f("heapy", loc(place))))
        for place in sorted(linked):
            book.add(rule(f("linked", loc(place))))
    with book.group("who owns a card: the player whose location holds it"):
        book.add(rule(f("owns", C, X), true(f("at", C, L)), f("locowner", L, X)))
    I = Variable("i")
    used = sorted({m.relation for m in emitter.moves})
    singles = [r for r in used if r == "move"]
    unders = [r for r in used if r == "move_under"]
    bulks = [r for r in used if r in ("move_all", "move_all_keep")]
    underbulks = [r for r in used if r.startswith("move_all_under")]
    ats = [r for r in used if r == "move_at"]
    copies = [r for r in used if r.startswith("remember")]
    with book.group("cards move: a moved card is where it goes, the others stay"):
        for rel in singles + unders + bulks + underbulks + ats:
            book.add(rule(f("moving", C), f(rel, I, C, F, T)))
            book.add(rule(nxt(f("at", C, T)), f(rel, I, C, F, T)))
        book.add(rule(nxt(f("at", C, L)), true(f("at", C, L)), Not(f("moving", C))))
    if ordered:
        with book.group("ordered locations: the known top card, heaps and lost order"):
            book.add(rule(f("nonempty", L), f("ordered", L), true(f("at", C, L))))
            book.add(rule(f("hasontop", L), true(f("ontop", L, C))))
            book.add(rule(f("heaptop", L), f("heapy", L), f("nonempty", L), Not(f("hasontop", L)),
                          Not(true(f("lost", L)))))
            book.add(rule(f("lostread", L), f("nonempty", L), Not(f("hasontop", L)), true(f("lost", L))))
            for rel in singles:
                if not returned:
                    book.add(rule(f("push", T, C), f(rel, I, C, F, T), f("ordered", T)))
                    book.add(rule(f("leave", F, C), f(rel, I, C, F, T), f("ordered", F)))
                    continue
                # a card put back on top of the pile it is the top card of stays there: nothing moves
                for kind, where in (("push", T), ("leave", F)):
                    book.add(rule(f(kind, where, C), f(rel, I, C, F, T), f("ordered", where), Distinct(F, T)))
                    book.add(rule(f(kind, where, C), f(rel, I, C, where, where), f("ordered", where),
                                  Not(true(f("ontop", where, C)))))
            for rel in ats:
                # put at a numbered place: between two cards of a pile whose order is kept (below);
                # past its top card, a push
                N = Variable("n")
                book.add(rule(f("leave", F, C), f(rel, I, C, F, T), f("ordered", F)))
                book.add(rule(f("insertunder", T, X), f("insertat", T, C, N), f(pile_depths(book, "bottom", len(model.cards)), T, X, N)))
                book.add(rule(f("insertmid", T), f("insertunder", T, X)))
                book.add(rule(f("push", T, C), f("insertat", T, C, N), f("ordered", T), Not(f("insertmid", T))))
            for rel in unders:
                book.add(rule(f("bottomin", T, C), f(rel, I, C, F, T), f("ordered", T)))
                book.add(rule(f("leave", F, C), f(rel, I, C, F, T), f("ordered", F)))
            if unders or underbulks:
                book.add(rule(nxt(f("ontop", T, C)), f("bottomin", T, C), Not(f("nonempty", T))))
                book.add(rule(nxt(f("lost", T)), f("bottomin", T, C), f("hasontop", T), Not(f("linked", T))))
            if underbulks:
                card_chain(book, model)
                bulk_under_bottom(book, underbulks, bool(linked))
            for rel in bulks:
                book.add(rule(f("bulkarrive", T, C), f(rel, I, C, F, T), f("ordered", T)))
                book.add(rule(f("bulkin", T), f(rel, I, C, F, T), f("ordered", T), f("bulkmany", T)))
                book.add(rule(f("bulkfrom", F, T), f(rel, I, C, F, T), f("ordered", T), f("bulkmany", T)))
                book.add(rule(f("leave", F, C), f(rel, I, C, F, T), f("ordered", F)))
                if rel == "move_all_keep":
                    book.add(rule(nxt(f("ontop", T, X)), f(rel, I, C, F, T), f("ordered", T),
                                  true(f("ontop", F, X))))
            if bulks:
                # a bulk move that brings one card (a pile of one moved whole) is a push: the
                # card is the known top; ``bulkmany`` walks the cards in a fixed order
                D = Variable("d")
                card_chain(book, model)
                book.add(rule(f("bulkabove", T, C), f("cardnext", C, D), f("bulkarrive", T, D)))
                book.add(rule(f("bulkabove", T, C), f("cardnext", C, D), f("bulkabove", T, D)))
                book.add(rule(f("bulkmany", T), f("bulkarrive", T, C), f("bulkabove", T, C)))
                book.add(rule(f("push", T, C), f("bulkarrive", T, C), Not(f("bulkmany", T))))
            # an `all` moving each of its cards onto a pile pushes them all in one step, in the
            # order of the pile they come from, which is not kept: of several, the top is the one
            # last in card order, and the order under it is lost
            many = sorted({place for m in emitter.moves if m.kind == "single"
                           and parallel_card(m.effect.card, m.effect.env)  # type: ignore[attr-defined]
                           for place in m.targets} & set(ordered))
            if many:
                D = Variable("d")
                card_chain(book, model)
                for place in many:
                    book.add(rule(f("manyin", loc(place))))
                book.add(rule(f("pushabove", L, C), f("manyin", L), f("cardnext", C, D), f("push", L, D)))
                book.add(rule(f("pushabove", L, C), f("cardnext", C, D), f("pushabove", L, D)))
                book.add(rule(f("pushmany", L), f("push", L, C), f("pushabove", L, C)))
                book.add(rule(nxt(f("lost", L)), f("pushmany", L)))
            book.add(rule(f("pushed", L), f("push", L, C)))
            book.add(rule(f("topleaves", L), f("leave", L, C), true(f("ontop", L, C))))
            book.add(rule(f("reorder", L), f("bulkin", L)))
            book.add(rule(f("reorder", L), f("shuffled", L)))
            # (of several pushed at once, the one last in card order: one top card, not several)
            book.add(rule(nxt(f("ontop", L, C)), f("push", L, C), [Not(f("pushabove", L, C))] if many else []))
            book.add(rule(nxt(f("ontop", L, C)), true(f("ontop", L, C)), Not(f("topleaves", L)),
                          Not(f("pushed", L)), Not(f("reorder", L))))
            kept = [Not(f("keepsecond", L))] if second else []
            book.add(rule(nxt(f("lost", L)), f("pushed", L), f("hasontop", L), Not(f("linked", L)), *kept))
            if second:
                keep_second(book, second, bool(many))
            book.add(rule(nxt(f("lost", L)), true(f("lost", L)), f("nonempty", L), Not(f("shuffled", L)),
                          Not(f("bulkin", L))))
            kept = [Not(f("bulkkept", L))] if emitter.whole_bulks else []
            book.add(rule(nxt(f("lost", L)), f("bulkin", L), f("nonempty", L), *kept))
            book.add(rule(nxt(f("lost", L)), f("bulkfrom", F, L), Not(f("heaptop", F)), *kept))
    if linked:
        D = Variable("d")
        with book.group("linked locations (their whole order kept): each card knows the card under it"):
            for place in sorted(linked - heapy):
                # (a heap's cards are in no order: links are made only among cards put on it)
                made = model.cards_at_start(place)
                for below, above in pairwise(made):
                    book.add(rule(f("init", f("under", loc(place), card_constant(model, above.id),
                                                   card_constant(model, below.id)))))
            book.add(rule(f("hasunder", L, C), true(f("under", L, C, D))))
            book.add(rule(f("bottomcard", L, C), f("linked", L), true(f("at", C, L)), Not(f("hasunder", L, C))))
            book.add(rule(nxt(f("under", L, C, X)), f("push", L, C), f("linked", L), true(f("ontop", L, X))))
            if spliced:
                # a card leaving from between two others: the one above lies on the one below
                # (triples of cards: only for the piles where it can happen)
                for place in sorted(spliced):
                    book.add(rule(f("spliced", loc(place))))
                book.add(rule(nxt(f("under", L, X, D)), f("spliced", L), true(f("under", L, X, C)), f("leave", L, C),
                              true(f("under", L, C, D)), Not(f("leave", L, X)), Not(f("leave", L, D))))
            split = [Not(f("insertunder", L, X))] if ats else []
            book.add(rule(nxt(f("under", L, X, D)), true(f("under", L, X, D)), Not(f("leave", L, X)),
                          Not(f("leave", L, D)), *split))
            if ats:  # a card put at the place of card X: X lies on it, it on the card X lay on
                N = Variable("n")
                book.add(rule(nxt(f("under", L, X, C)), f("insertat", L, C, N), f("insertunder", L, X),
                              f("pheight", L, X, N)))
                book.add(rule(nxt(f("under", L, C, D)), f("insertat", L, C, N), f("insertunder", L, X),
                              f("pheight", L, X, N), true(f("under", L, X, D))))
            book.add(rule(nxt(f("ontop", L, D)), f("linked", L), true(f("ontop", L, C)), f("leave", L, C),
                          true(f("under", L, C, D)), Not(f("leave", L, D)), Not(f("pushed", L))))
            if unders or underbulks:
                book.add(rule(nxt(f("under", L, D, C)), f("bottomin", L, C), f("bottomcard", L, D)))
            if emitter.whole_bulks:
                carry_links(book)
    if copies or emitter.forgets or emitter.forget_cards:
        emit_memory(book, model, emitter, copies)

def emit_memory(book: RuleBook, model: GameModel, emitter: EffectEmitter, copies: list[str]) -> None:
    """The copies in memory locations: each with its place in the order remembered."""
    C, L, F, T, I = (Variable(n) for n in ("c", "l", "f", "t", "i"))
    N, M, Q = Variable("n"), Variable("m"), Variable("q")
    with book.group("memory locations: copies of cards, each with its place in the order remembered"):
        for place in model.locations:
            if place.vis == "mem":
                book.add(rule(f("init", f("ccount", loc(place), num(0)))))
        for k in range(MEMORY_CAP):
            book.add(rule(f("nextcopy", num(k), num(k + 1))))
        together = any(m.kind == "copy" and parallel_card(m.effect.card, m.effect.env)  # type: ignore[attr-defined]
                       for m in emitter.moves)
        for rel in copies:
            book.add(rule(nxt(f("copy", C, T)), f(rel, I, C, F, T)))
            book.add(rule(f("copied", T), f(rel, I, C, F, T)))
            if rel == "remember_under":  # the first copy now: every other one a place up
                book.add(rule(f("shifting", T), f(rel, I, C, F, T)))
                book.add(rule(nxt(f("cpos", T, C, num(0))), f(rel, I, C, F, T)))
                book.add(rule(nxt(f("cpos", T, Variable("x"), M)), f(rel, I, C, F, T),
                              true(f("cpos", T, Variable("x"), Q)), f("nextcopy", Q, M)))
            elif rel == "remember_at":  # at place P (the count, if lower): the copies from P a place up
                insert_copy(book, rel)
            elif together:
                book.add(rule(f("copying", T, C), f(rel, I, C, F, T)))
                continue
            else:
                book.add(rule(nxt(f("cpos", T, C, N)), f(rel, I, C, F, T), true(f("ccount", T, N))))
            book.add(rule(nxt(f("ccount", T, M)), f(rel, I, C, F, T), true(f("ccount", T, N)),
                          f("nextcopy", N, M)))
        if together:
            copy_in_card_order(book, model)
        for rel in emitter.forgets:
            book.add(rule(f("forgot", L), f(rel, L)))
            book.add(rule(nxt(f("ccount", L, num(0))), f(rel, L)))
        P, D = Variable("p"), Variable("d")
        for rel in emitter.forget_cards:
            # the first copy of the card goes (the engine's cardList.Remove(card)); the copies
            # above it move down one place
            book.add(rule(f("forgetpos", L, P), f(rel, L, C), true(f("cpos", L, C, P)), Not(f("copybelow", L, C, P))))
        if emitter.forget_cards:
            book.add(rule(f("copybelow", L, C, P), true(f("cpos", L, C, P)), true(f("cpos", L, C, Q)),
                          f("depthof", P, Q, D)))
            book.add(rule(f("forgetting", L), f("forgetpos", L, P)))
            book.add(rule(f("keepcopy", L, C), f("forgetpos", L, P), true(f("cpos", L, C, Q)), Distinct(Q, P)))
            book.add(rule(nxt(f("copy", C, L)), true(f("copy", C, L)), f("keepcopy", L, C)))
            book.add(rule(nxt(f("cpos", L, C, Q)), true(f("cpos", L, C, Q)), f("forgetpos", L, P), f("depthof", P, Q, D)))
            book.add(rule(nxt(f("cpos", L, C, M)), true(f("cpos", L, C, Q)), f("forgetpos", L, P), f("depthof", Q, P, D),
                          f("nextcopy", M, Q)))
            book.add(rule(nxt(f("ccount", L, M)), f("forgetting", L), true(f("ccount", L, N)), f("nextcopy", M, N)))
        kept: list[Literal] = [Not(f("forgetting", L))] if emitter.forget_cards else []
        shifted: list[Literal] = [Not(f("shifting", L))] if {"remember_under", "remember_at"} & set(copies) else []
        book.add(rule(nxt(f("copy", C, L)), true(f("copy", C, L)), Not(f("forgot", L)), kept))
        book.add(rule(nxt(f("cpos", L, C, N)), true(f("cpos", L, C, N)), Not(f("forgot", L)), kept, shifted))
        book.add(rule(nxt(f("ccount", L, N)), true(f("ccount", L, N)), Not(f("forgot", L)), Not(f("copied", L)),
                      kept))
        book.add(rule(f("ctop", L, C), f("cdepth", L, C, num(0))))
        book.add(rule(f("cdepth", L, C, D), true(f("ccount", L, N)), true(f("cpos", L, C, Q)),
                      f("depthof", N, Q, D)))
        for n in range(1, MEMORY_CAP + 1):
            for q in range(n):
                book.add(rule(f("depthof", num(n), num(q), num(n - 1 - q))))
        for rel in copies:
            book.add(rule(f("fails", c("memory")), f(rel, I, C, F, T), true(f("ccount", T, num(MEMORY_CAP)))))


def insert_copy(book: RuleBook, rel: str) -> None:
    """A copy remembered at a numbered place P of a memory location (``(copyat T C N)``, P the
    lower of N and its count: the engine's ``Insert(N, ...)``, which throws past the count):
    the copies at P and above move a place up."""
    C, F, T, I, X = (Variable(n) for n in ("c", "f", "t", "i", "x"))
    N, K, P, Q, M, D = (Variable(n) for n in ("n", "k", "p", "q", "m", "d"))
    book.add(rule(f("shifting", T), f(rel, I, C, F, T)))
    book.add(rule(f("copyplace_at", T, P), f("copyat", T, C, N), true(f("ccount", T, K)), f("lowerof", N, K, P)))
    book.add(rule(nxt(f("cpos", T, C, P)), f(rel, I, C, F, T), f("copyplace_at", T, P)))
    book.add(rule(nxt(f("cpos", T, X, M)), f("copyplace_at", T, P), true(f("cpos", T, X, Q)), f("nextcopy", Q, M),
                  f("depthof", M, P, D)))
    book.add(rule(nxt(f("cpos", T, X, Q)), f("copyplace_at", T, P), true(f("cpos", T, X, Q)), f("depthof", P, Q, D)))
    for n in range(MEMORY_CAP + 1):
        for k in range(MEMORY_CAP + 1):
            book.add(rule(f("lowerof", num(n), num(k), num(min(n, k)))))


def card_chain(book: RuleBook, model: GameModel) -> None:
    """``(cardnext C D)``: the cards in a fixed order, to tell one card moved in bulk from several."""
    if ("cardnext",) in book.memo:
        return
    book.memo[("cardnext",)] = True
    for before, after in pairwise(model.cards):
        book.add(rule(f("cardnext", card_constant(model, before.id), card_constant(model, after.id))))


def keep_second(book: RuleBook, piles: AbstractSet[Location], many: bool) -> None:
    """``(second L C)``: card C lies under the known top of pile L, for the piles whose whole
    order is too costly to keep where their known top alone is not enough
    (``analysis/crowding.py``). A card pushed onto a known top makes it the second; the top
    taken away makes the second the known top; the order is lost only when a push buries a
    known second (or the top is replaced while one lies under it)."""
    L, C, X = (Variable(n) for n in ("l", "c", "x"))
    for place in sorted(piles):
        book.add(rule(f("keepsecond", loc(place))))
    book.add(rule(f("hassecond", L), true(f("second", L, C))))
    book.add(rule(f("secondleaves", L), f("leave", L, C), true(f("second", L, C))))
    one = [Not(f("pushmany", L))] if many else []
    book.add(rule(nxt(f("second", L, X)), f("keepsecond", L), f("pushed", L), true(f("ontop", L, X)),
                  Not(f("topleaves", L)), *one))
    stays = [Not(f("pushed", L)), Not(f("secondleaves", L)), Not(f("reorder", L))]
    book.add(rule(nxt(f("second", L, X)), true(f("second", L, X)), Not(f("topleaves", L)), *stays))
    book.add(rule(nxt(f("ontop", L, X)), true(f("second", L, X)), f("topleaves", L), *stays))
    book.add(rule(nxt(f("lost", L)), f("pushed", L), f("hassecond", L)))


def bulk_under_bottom(book: RuleBook, rels: list[str], linked: bool) -> None:
    """Every card of a collection put under the bottom of an ordered pile, one at a time (the
    engine's ``repeat all`` of single moves): one card is a move under the bottom
    (``bottomin``); several leave the pile's top as it was, or, on an empty pile, give it the
    moved pile's top (``keep``: taken from the top, they lie in the order they had) or its bottom
    card (``reverse``: taken from the bottom). Where links are kept, the moved pile's links are
    carried over (reversed or not) and the old bottom card lies on the first card moved; where
    they are not (or the moved cards' order is not known), the order under the top is lost."""
    C, D, F, T, I, K, X, Y = (Variable(n) for n in ("c", "d", "f", "t", "i", "k", "x", "y"))
    for rel in rels:
        book.add(rule(f("underarrive", T, C), f(rel, I, C, F, T), f("ordered", T)))
        book.add(rule(f("underfrom", F, T), f(rel, I, C, F, T), f("ordered", T)))
        book.add(rule(f("leave", F, C), f(rel, I, C, F, T), f("ordered", F)))
    book.add(rule(f("underabove", T, C), f("cardnext", C, D), f("underarrive", T, D)))
    book.add(rule(f("underabove", T, C), f("cardnext", C, D), f("underabove", T, D)))
    book.add(rule(f("undermany", T), f("underarrive", T, C), f("underabove", T, C)))
    book.add(rule(f("bottomin", T, C), f("underarrive", T, C), Not(f("undermany", T))))
    keep, rev = c("keep"), c("reverse")
    onto_empty = [f("undermany", T), Not(f("nonempty", T))]
    book.add(rule(f("undertop", T, X), f("underwhole", F, T, keep), *onto_empty, true(f("ontop", F, X))))
    if linked:
        book.add(rule(f("undertop", T, X), f("underwhole", F, T, rev), *onto_empty, f("bottomcard", F, X)))
    book.add(rule(f("hasundertop", T), f("undertop", T, X)))
    book.add(rule(nxt(f("ontop", T, X)), f("undertop", T, X)))
    book.add(rule(nxt(f("lost", T)), f("underfrom", F, T), *onto_empty, Not(f("hasundertop", T)), Not(f("heaptop", F))))
    book.add(rule(nxt(f("lost", T)), f("underfrom", F, T), *onto_empty, true(f("lost", F))))
    book.add(rule(nxt(f("lost", T)), f("undermany", T), f("nonempty", T), Not(f("linked", T))))
    if not linked:
        return
    book.add(rule(f("underlinked", F, T, K), f("underwhole", F, T, K), f("undermany", T), f("linked", F), f("linked", T),
                  Not(f("heaptop", F)), Not(true(f("lost", F)))))
    book.add(rule(f("underkept", T), f("underlinked", F, T, K)))
    book.add(rule(nxt(f("lost", T)), f("undermany", T), f("linked", T), Not(f("underkept", T))))
    book.add(rule(nxt(f("under", T, X, Y)), f("underlinked", F, T, keep), true(f("under", F, X, Y))))
    book.add(rule(nxt(f("under", T, Y, X)), f("underlinked", F, T, rev), true(f("under", F, X, Y))))
    book.add(rule(nxt(f("under", T, D, X)), f("underlinked", F, T, keep), f("bottomcard", T, D), true(f("ontop", F, X))))
    book.add(rule(nxt(f("under", T, D, X)), f("underlinked", F, T, rev), f("bottomcard", T, D), f("bottomcard", F, X)))


def carry_links(book: RuleBook) -> None:
    """A whole pile whose order is known (not a heap, not lost) moved in bulk onto a pile whose
    order is kept: its links carried over, reversed when its cards go top first (each lands on
    the one before), kept when they go bottom first; its first card lands on the target's top."""
    F, T, X, Y, K = (Variable(n) for n in ("f", "t", "x", "y", "k"))
    book.add(rule(f("bulklinked", F, T, K), f("wholebulk", F, T, K), f("linked", F), f("linked", T), f("bulkmany", T),
                  Not(f("heaptop", F)), Not(true(f("lost", F)))))
    book.add(rule(f("bulkkept", T), f("bulklinked", F, T, K)))
    rev, keep = c("reverse"), c("keep")
    book.add(rule(nxt(f("under", T, Y, X)), f("bulklinked", F, T, rev), true(f("under", F, X, Y))))
    book.add(rule(nxt(f("under", T, X, Y)), f("bulklinked", F, T, keep), true(f("under", F, X, Y))))
    book.add(rule(nxt(f("ontop", T, X)), f("bulklinked", F, T, rev), f("bottomcard", F, X)))
    book.add(rule(nxt(f("under", T, X, Y)), f("bulklinked", F, T, rev), true(f("ontop", F, X)), true(f("ontop", T, Y))))
    book.add(rule(nxt(f("under", T, X, Y)), f("bulklinked", F, T, keep), f("bottomcard", F, X), true(f("ontop", T, Y))))


def copy_in_card_order(book: RuleBook, model: GameModel) -> None:
    """Cards remembered in one step (by an ``all``) take consecutive places after the last copy,
    in card order (the engine's is the order of the location they are read from, which the rules
    do not keep); past :data:`MEMORY_CAP` copies the game ends with ``(failed memory)``."""
    C, T, N, M, K, J = (Variable(n) for n in ("c", "t", "n", "m", "k", "j"))
    cards = [card_constant(model, item.id) for item in model.cards]
    top = min(len(cards), MEMORY_CAP + 1)
    book.add(rule(f("crank", T, num(0), num(0)), f("copying", T, C)))
    for i, card in enumerate(cards, start=1):
        book.add(rule(f("crank", T, num(i), J), f("crank", T, num(i - 1), K), f("copying", T, card), f("ranknext", K, J)))
        book.add(rule(f("crank", T, num(i), K), f("crank", T, num(i - 1), K), Not(f("copying", T, card))))
        book.add(rule(nxt(f("cpos", T, card, M)), f("copying", T, card), f("crank", T, num(i - 1), K),
                      true(f("ccount", T, N)), f("copyplace", N, K, M)))
    last = f("crank", T, num(len(cards)), K)
    book.add(rule(nxt(f("ccount", T, M)), last, true(f("ccount", T, N)), f("copyplace", N, K, M)))
    book.add(rule(f("fails", c("memory")), last, true(f("ccount", T, N)), f("copyover", N, K)))
    for k in range(top + 1):
        book.add(rule(f("ranknext", num(k), num(min(k + 1, top)))))
        for n in range(MEMORY_CAP + 1):
            book.add(rule(f("copyplace" if n + k <= MEMORY_CAP else "copyover", num(n), num(k),
                            *([num(n + k)] if n + k <= MEMORY_CAP else []))))


__all__ = ["MEMORY_CAP", "emit_card_state"]
