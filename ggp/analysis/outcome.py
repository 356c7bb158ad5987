"""What a match's goals mean for each seat: its standing and its share of the win.

A seat's **standing** is CardStock's "inverse rank" (its AI players' measure of who is ahead,
``Players/AIPlayer.cs``): 1 for the best goal, 0 for the worst, ``(n - 1 - rank) / (n - 1)``
for ``n`` seats, where seats that tie share the mean of the ranks they occupy (a two-player
draw is 0.5 each; CardStock gives tied seats the best of their ranks). With one seat it is the
goal over 100. A seat's **win share** is 1 / k when it is one of the k seats with the best goal
(CardStock's ``win_share_tie_split``), 0 otherwise; with one seat, its standing.
"""

from __future__ import annotations

from collections.abc import Sequence


def standings(goals: Sequence[float]) -> list[float]:
    """Each seat's standing (see the module doc), in seat order."""
    n = len(goals)
    if n == 0:
        return []
    if n == 1:
        return [min(1.0, max(0.0, goals[0] / 100))]
    out = []
    for g in goals:
        above = sum(1 for h in goals if h > g)
        level = sum(1 for h in goals if h == g)
        rank = above + (level - 1) / 2
        out.append((n - 1 - rank) / (n - 1))
    return out


def win_shares(goals: Sequence[float]) -> list[float]:
    """Each seat's share of the win (see the module doc), in seat order."""
    if len(goals) <= 1:
        return standings(goals)
    best = max(goals)
    winners = sum(1 for g in goals if g == best)
    return [1 / winners if g == best else 0.0 for g in goals]


def winners(goals: Sequence[float]) -> list[int]:
    """The seats with the best goal; empty when every seat has it (nobody won)."""
    if not goals:
        return []
    best = max(goals)
    top = [i for i, g in enumerate(goals) if g == best]
    if len(goals) > 1 and len(top) == len(goals):
        return []
    if len(goals) == 1 and best < 100:
        return []
    return top


__all__ = ["standings", "win_shares", "winners"]
