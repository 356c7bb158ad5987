"""Small random games nobody wrote, seeded (the same text for the same seed):

- :func:`option_game`: options that run actions before a choice's ``any`` (a draw, a count
  raised, a string set, then a fork over a pile or a filter of one, and maybe more actions
  after): the constructs of ``ir/previews.py`` and ``ir/vacancy.py`` in combinations;
- :func:`stuck_game`: games that end stuck in a loop, as the engine ends a game that runs 201
  of its nodes without a choice (``emit/idle.py``): nested stages that never end, guarded items
  that never run, items after a choice, ``all`` and ``repeat``, declarations, each pass moving
  a count modulo a prime, so that the scores tell where the game stopped."""

from __future__ import annotations

import random

#: Piles the actions and forks use: the stock, the current player's hand, two face-up piles.
PILES = ("(game iloc STOCK)", "((current player) iloc HAND)", "(game vloc DISCARD)", "((current player) vloc WON)")
#: Integer cells the actions change and the filters read.
CELLS = ("(game sto N)", "((current player) sto M)")


def _action(rng: random.Random, guarded: bool) -> str:
    kind = rng.randrange(5)
    if kind in (0, 3):
        source, target = rng.choice(PILES), rng.choice(PILES)
        move = f"(move ({'top' if kind == 0 else 'bottom'} {source}) (top {target}))"
        return f"((> (size {source}) 0) {move})" if guarded else move
    if kind == 1:
        return f"(inc {rng.choice(CELLS)} {rng.randrange(1, 3)})"
    if kind == 2:
        return f"(set {rng.choice(CELLS)} {rng.randrange(0, 3)})"
    source = rng.choice(PILES)
    suit = f"(set (game str S) (cardatt SUIT (top {source})))"
    return f"((> (size {source}) 0) {suit})" if guarded else suit


def _collection(rng: random.Random) -> str:
    pile = rng.choice(PILES)
    return rng.choice([pile, f"(filter {pile} 'X (< {rng.choice(CELLS)} {rng.randrange(1, 4)}))",
                       f"(filter {pile} 'X (== (cardatt SUIT 'X) (game str S)))",
                       f"(filter {pile} 'X (== (cardatt RANK 'X) ONE))"])


def _option(rng: random.Random, guarded: bool) -> str:
    before = " ".join(_action(rng, guarded) for _ in range(rng.randrange(1, 3)))
    fork = f"(any {_collection(rng)} 'C (move 'C (top {rng.choice(PILES)})))"
    after = " ".join(_action(rng, guarded) for _ in range(rng.randrange(0, 2)))
    return f"(do ({before} {fork} {after}))"


def option_game(seed: int, guarded: bool = False) -> str:
    """A game of two players and nine cards whose choice has one or two such options; with
    ``guarded``, a move or a read of a pile's top only where the pile holds a card (the engine
    throws on a move from an empty pile, as most of the others do)."""
    rng = random.Random(seed)
    options = " ".join(_option(rng, guarded) for _ in range(rng.randrange(1, 3)))
    return ("(game (setup (create players 2) (create deck (game iloc STOCK)"
            " (deck (RANK (ONE, TWO, THREE)) (SUIT (RED, BLACK, GREEN)))))\n"
            " (do ((shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK))"
            " (top ('P iloc HAND)))))))\n"
            " (stage player (end (or (== (size (game iloc STOCK)) 0) (>= (game sto T) 12)))"
            f" (choice ({options})) (do ((inc (game sto T) 1))))\n"
            " (scoring max (size ((current player) vloc WON))))")


#: The score of the player an ``all`` over the players binds.
PLAYERS_SCORE = "('P sto SCORE)"


def _bump(cell: str, prime: int) -> str:
    return f"(set {cell} (% (+ {cell} 1) {prime}))"


def _stuck_item(rng: random.Random, depth: int) -> str:
    kind = rng.randrange(7)
    cell = rng.choice(["((current player) sto SCORE)", "((current player) sto SCORE)", "(game sto G)"])
    prime = rng.choice([5, 7, 11])
    if kind == 1:
        return f"(do (((== (game sto G) 99) {_bump(cell, prime)})))"  # never runs
    if kind == 2:
        return f"(do ({_bump(cell, prime)} {_bump('(game sto H)', 3)}))"
    if kind == 3 and depth < 2:
        return _stuck_stage(rng, depth + 1)
    if kind == 4:
        return f"(all player 'P (do ({_bump(PLAYERS_SCORE, prime)})))"
    if kind == 5:
        return f"(do ((repeat 2 {_bump(cell, prime)}) {_bump(cell, prime)}))"
    return f"(do ({_bump(cell, prime)}))"


def _stuck_stage(rng: random.Random, depth: int) -> str:
    end = rng.choice(["(== (size (game iloc STOCK)) 99)", "(>= (game sto G) 99)", "(== (game sto H) 3)"])
    items = " ".join(_stuck_item(rng, depth) for _ in range(rng.randrange(1, 4)))
    return f"(stage player (end {end}) {items})"


def stuck_game(seed: int) -> str:
    """A game of two or three players that ends stuck in a loop, at once or after a choice."""
    rng = random.Random(seed)
    declared = " ".join(f"(declare {i} 'D{'ABC'[i]})" for i in range(rng.randrange(4)))
    players = rng.randrange(2, 4)
    flow = ["(do ((shuffle (game iloc STOCK))))"] if rng.random() < 0.5 else []
    if rng.random() < 0.6:
        parts = [_stuck_item(rng, 1) for _ in range(rng.randrange(0, 3))] + [_stuck_stage(rng, 0)]
        rng.shuffle(parts)
        parts.insert(rng.randrange(len(parts) + 1),
                     "(choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))")
        flow.append(f"(stage player (end (== (size (game iloc STOCK)) 0)) {' '.join(parts)})")
    else:
        flow.append(_stuck_stage(rng, 0))
    return (f"(game {declared} (setup (create players {players}) (create deck (game iloc STOCK)"
            " (deck (RANK (ONE, TWO, THREE)) (SUIT (RED, BLACK)))))\n "
            + "\n ".join(flow) + "\n (scoring max ((current player) sto SCORE)))")


__all__ = ["option_game", "stuck_game"]
