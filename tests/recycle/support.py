"""Helpers for the RECYCLE tests: reading corpus games, wrapping fragments in a game."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tests.conftest import SHARED, corpus_files
from translators.recycle import parse_recycle_file
from translators.recycle.syntax.nodes import Game

CORPUS = corpus_files("recycle", "*.rcy")
#: The three corpus files with a stray `)` after the game (the engine ignores it).
TRAILING = {"StealingBundles2.rcy", "StealingBundles3.rcy", "StealingBundles4.rcy"}


def corpus_text(name: str) -> str:
    """A corpus game's text (byte-order mark removed)."""
    return (SHARED / "corpus" / "recycle" / name).read_text(encoding="utf-8-sig")


@cache
def parsed(path: Path) -> Game:
    """A corpus game's tree, read once per test run (trees are immutable)."""
    return parse_recycle_file(path)


def small_game(body: str, setup: str = "(create players 2)", declare: str = "") -> str:
    """A two-player game with a 4-card deck around ``body`` (stages and actions)."""
    return (
        f"(game {declare}\n"
        f" (setup {setup}\n"
        "  (create deck (game iloc STOCK) (deck (RANK (ACE, KING)) (SUIT (HEARTS, SPADES)))))\n"
        f" {body}\n"
        " (scoring max ((current player) sto SCORE)))\n"
    )


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


__all__ = ["CORPUS", "TRAILING", "Path", "corpus_text", "parsed", "position", "small_game"]
