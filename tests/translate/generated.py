"""Small random games whose options run actions before a choice's ``any`` (a draw, a count raised,
a string set, then a fork over a pile or a filter of one, and maybe more actions after): the
constructs of ``ir/previews.py`` and ``ir/vacancy.py`` in combinations nobody wrote. Seeded:
:func:`option_game` gives the same text for the same seed."""

from __future__ import annotations

import random

#: Piles the actions and forks use: the stock, the current player's hand, two face-up piles.
PILES = ("(game iloc STOCK)", "((current player) iloc HAND)", "(game vloc DISCARD)", "((current player) vloc WON)")
#: Integer cells the actions change and the filters read.
CELLS = ("(game sto N)", "((current player) sto M)")


def _action(rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        return f"(move (top {rng.choice(PILES)}) (top {rng.choice(PILES)}))"
    if kind == 1:
        return f"(inc {rng.choice(CELLS)} {rng.randrange(1, 3)})"
    if kind == 2:
        return f"(set {rng.choice(CELLS)} {rng.randrange(0, 3)})"
    if kind == 3:
        return f"(move (bottom {rng.choice(PILES)}) (top {rng.choice(PILES)}))"
    return f"(set (game str S) (cardatt SUIT (top {rng.choice(PILES)})))"


def _collection(rng: random.Random) -> str:
    pile = rng.choice(PILES)
    return rng.choice([pile, f"(filter {pile} 'X (< {rng.choice(CELLS)} {rng.randrange(1, 4)}))",
                       f"(filter {pile} 'X (== (cardatt SUIT 'X) (game str S)))",
                       f"(filter {pile} 'X (== (cardatt RANK 'X) ONE))"])


def _option(rng: random.Random) -> str:
    before = " ".join(_action(rng) for _ in range(rng.randrange(1, 3)))
    fork = f"(any {_collection(rng)} 'C (move 'C (top {rng.choice(PILES)})))"
    after = " ".join(_action(rng) for _ in range(rng.randrange(0, 2)))
    return f"(do ({before} {fork} {after}))"


def option_game(seed: int) -> str:
    """A game of two players and nine cards whose choice has one or two such options."""
    rng = random.Random(seed)
    options = " ".join(_option(rng) for _ in range(rng.randrange(1, 3)))
    return ("(game (setup (create players 2) (create deck (game iloc STOCK)"
            " (deck (RANK (ONE, TWO, THREE)) (SUIT (RED, BLACK, GREEN)))))\n"
            " (do ((shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK))"
            " (top ('P iloc HAND)))))))\n"
            " (stage player (end (or (== (size (game iloc STOCK)) 0) (>= (game sto T) 12)))"
            f" (choice ({options})) (do ((inc (game sto T) 1))))\n"
            " (scoring max (size ((current player) vloc WON))))")


__all__ = ["option_game"]
