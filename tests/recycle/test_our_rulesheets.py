"""Our RECYCLE rulesheets (written from the games' rules): they parse, check clean, and say
what the rules say (players, teams, deck, the structure of play)."""

from __future__ import annotations

import pytest

from tests.conftest import RULESHEETS
from translators.recycle import check, parse_recycle, parse_recycle_file, print_recycle
from translators.recycle.syntax.nodes import (
    ActionAgg,
    Choice,
    CreateDeck,
    Game,
    NameList,
    SetPoints,
    Stage,
    TeamSpec,
)

NAMES = ("agram", "kuhn", "euchre", "santase", "leduc")


def load(name: str) -> Game:
    return parse_recycle_file(RULESHEETS / f"{name}.rcy")


def players(game: Game) -> int:
    count = game.player_count()
    assert count is not None
    return count


def deck(game: Game) -> list[dict[str, str]]:
    return [card for d in game.setup.decks if isinstance(d, CreateDeck) for card in d.deck.cards()]


@pytest.mark.parametrize("name", NAMES)
def test_parses_checks_clean_and_round_trips(name: str) -> None:
    game = load(name)
    assert check(game) == []
    assert parse_recycle(print_recycle(game)) == game


@pytest.mark.parametrize("name", NAMES)
def test_says_where_its_rules_come_from(name: str) -> None:
    head = (RULESHEETS / f"{name}.rcy").read_text().splitlines()[:12]
    assert head[0].startswith(";;")
    assert any("Written for this project" in line for line in head)
    assert any("pagat.com" in line or "Kuhn" in line or "Southey" in line for line in head)


def test_agram_is_the_documented_game() -> None:
    game = load("agram")
    assert players(game) == 4
    assert game.setup.teams is not None
    assert game.setup.teams.teams == tuple(TeamSpec((i,)) for i in range(4))
    cards = deck(game)
    assert len(cards) == 35
    assert {"RANK": "ACE", "COLOR": "BLACK", "SUIT": "SPADES"} not in cards
    outer = [f for f in game.flow if isinstance(f, Stage)]
    assert len(outer) == 1 and isinstance(outer[0].body[0], Stage)
    assert isinstance(outer[0].body[0].body[0], Choice) and len(outer[0].body[0].body[0].items) == 3
    assert game.scoring.order == "max"


def test_kuhn_poker() -> None:
    game = load("kuhn")
    assert players(game) == 2
    assert sorted(c["RANK"] for c in deck(game)) == ["JACK", "KING", "QUEEN"]
    (stage,) = [f for f in game.flow if isinstance(f, Stage)]
    (choice,) = stage.body
    assert isinstance(choice, Choice) and len(choice.items) == 4


def test_euchre() -> None:
    game = load("euchre")
    assert players(game) == 4
    assert game.setup.teams is not None
    assert [t.members for t in game.setup.teams.teams] == [(0, 2), (1, 3)]
    cards = deck(game)
    assert len(cards) == 24 and {c["RANK"] for c in cards} == {"NINE", "TEN", "JACK", "QUEEN", "KING", "ACE"}
    suits = [n for n in game.walk() if isinstance(n, ActionAgg) and isinstance(n.collection, NameList)]
    assert suits and suits[0].collection.names == ("HEARTS", "DIAMONDS", "CLUBS", "SPADES")  # type: ignore[union-attr]
    ranking = next(n for n in game.walk() if isinstance(n, SetPoints))
    assert len(ranking.awards) == 10


def test_santase() -> None:
    game = load("santase")
    assert players(game) == 2
    assert len(deck(game)) == 24
    values = next(n for n in game.walk() if isinstance(n, SetPoints))
    points = {a.pairs[0].value.text: a.points.value for a in values.awards}  # type: ignore[union-attr]
    assert points == {"ACE": 11, "TEN": 10, "KING": 4, "QUEEN": 3, "JACK": 2}
    assert sum(points.values()) * 4 == 120
