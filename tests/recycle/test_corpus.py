"""Every game of the CardStock corpus parses, prints back to an equal tree, and checks clean."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from lark import Lark, logger

from tests.recycle.support import CORPUS, TRAILING, corpus_text, parsed
from translators.recycle import check, parse_recycle, parse_recycle_file, print_recycle
from translators.recycle.syntax.nodes import (
    AllPlayers,
    AllTeams,
    CardAtt,
    Compare,
    Game,
    GameOwner,
    IntLit,
    Name,
    NewName,
    Node,
    Stage,
    Var,
)
from translators.recycle.syntax.parser import FRAGMENT_KINDS

pytestmark = pytest.mark.skipif(not CORPUS, reason="needs ../shared/corpus/recycle (absent)")


def test_corpus_is_complete() -> None:
    assert len(CORPUS) == 67


def test_grammar_has_no_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    grammar = Path(__file__).resolve().parents[2] / "translators" / "recycle" / "syntax" / "recycle.lark"
    logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            Lark.open(str(grammar), parser="lalr", lexer="basic", debug=True,
                      start=["start"] + [f"frag_{k}" for k in FRAGMENT_KINDS])
    finally:
        logger.setLevel(logging.WARNING)
    assert not [r.getMessage() for r in caplog.records if "onflict" in r.getMessage()]


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_parses_and_round_trips(path: Path) -> None:
    game = parse_recycle_file(path)
    assert isinstance(game, Game) and game.source == str(path)
    text = print_recycle(game)
    again = parse_recycle(text)
    assert again == game
    assert print_recycle(again) == text


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_checks_find_no_errors(path: Path) -> None:
    problems = check(parsed(path))
    assert not [str(p) for p in problems if p.is_error]
    if path.name in TRAILING:
        assert any("text after the end of the game is ignored" in p.message for p in problems)
    elif path.name == "ContinuousPairs4.rcy":
        assert [p.message for p in problems] == [
            "'PAIRS holds a collection of card collections, used here as one card collection"
        ]
    else:
        assert problems == []


def _expected_start(node: Node) -> tuple[str, ...]:
    """What the source text starts with at a node's position."""
    if isinstance(node, Var):
        return (f"'{node.name}",)
    if isinstance(node, Name):
        return (node.text,)
    if isinstance(node, IntLit):
        return (str(node.value),)
    if isinstance(node, GameOwner):
        return ("game",)
    if isinstance(node, AllPlayers):
        return ("player",)
    if isinstance(node, AllTeams):
        return ("team",)
    if isinstance(node, NewName):
        return ("new",)
    return ("(",)


@pytest.mark.parametrize("path", CORPUS[::6], ids=[p.name for p in CORPUS[::6]])
def test_every_node_knows_where_it_starts(path: Path) -> None:
    lines = corpus_text(path.name).splitlines()
    for node in parse_recycle_file(path).walk():
        assert node.line >= 1 and node.column >= 1, node
        text = lines[node.line - 1][node.column - 1 :]
        assert text.startswith(_expected_start(node)), (node, node.line, node.column, text[:20])


def test_trailing_text_is_a_warning_at_its_place() -> None:
    game = parse_recycle(corpus_text("StealingBundles2.rcy"), "StealingBundles2.rcy")
    (warning,) = game.warnings
    assert warning.severity == "warning"
    assert (warning.location.line, warning.location.column) == (91, 54)
    assert str(warning).startswith("StealingBundles2.rcy:91:54: warning: text after the end")


def test_byte_order_mark_is_ignored() -> None:
    raw = (CORPUS[0].parent / "GoFish4.rcy").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert parse_recycle(raw.decode("utf-8")) == parse_recycle(raw.decode("utf-8-sig"))


def test_kuhn_poker_tree() -> None:
    game = parse_recycle(corpus_text("KuhnPoker2.rcy"))
    assert game.declarations == ()
    assert [type(x).__name__ for x in game.flow] == ["Do", "Stage", "Do"]
    stage = game.flow[1]
    assert isinstance(stage, Stage) and stage.kind == "player"
    assert game.scoring.order == "max"
    assert [c["RANK"] for c in game.setup.decks[0].deck.cards()] == ["J", "Q", "K"]  # type: ignore[union-attr]


def test_comparisons_know_what_they_compare() -> None:
    game = parse_recycle(corpus_text("GoFish4.rcy"))
    kinds = {(type(n.left).__name__, type(n.right).__name__): n.kind
             for n in game.walk() if isinstance(n, Compare)}
    # (== (cardatt RANK 'MR) 'R): 'R runs over the declared name list 'RANKS
    assert kinds[("CardAtt", "Var")] == "str"
    compared = [n for n in game.walk() if isinstance(n, Compare) and isinstance(n.left, CardAtt)]
    assert all(n.kind == "str" for n in compared)
    assert all(n.kind != "unknown" for n in game.walk() if isinstance(n, Compare))


def test_variables_get_their_kinds_in_the_corpus() -> None:
    unknown = []
    for path in CORPUS:
        game = parsed(path)
        unknown += [(path.name, n.name) for n in game.walk() if isinstance(n, Var) and n.kind == "unknown"]
    assert unknown == []
