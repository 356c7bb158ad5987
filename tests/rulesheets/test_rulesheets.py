"""Every rulesheet parses, declares the expected roles, validates, and plays to the end."""

from __future__ import annotations

import random

import pytest

from ggp.gdl.rules import RANDOM
from ggp.gdl.terms import Constant
from ggp.reasoner import make_machine
from ggp.reasoner.play import random_playout
from tests.conftest import RULESHEETS
from tests.rulesheets.support import HAS_FAST, REASONER_PARAMS, load, machine

#: Each rulesheet, its roles in order, and how many seeded playouts to run per reasoner.
ROLES = {
    "tictactoe.kif": ("x", "o"),
    "blind_tictactoe.kif": ("white", "black", "random"),
    "blind_tictactoe.gdl": ("white", "black", "random"),
    "exploding_bomb.kif": ("random", "agent"),
    "exploding_bomb_tell.kif": ("agent", "opponent"),
    "montyhall.kif": ("candidate", "random"),
    "card_game.kif": ("alice", "bob", "random"),
}
PLAYOUTS = 6


def test_every_rulesheet_is_listed() -> None:
    found = {p.name for p in RULESHEETS.iterdir() if p.suffix in (".kif", ".gdl")}
    assert found == set(ROLES)


@pytest.mark.parametrize("name", sorted(ROLES))
def test_parses_with_expected_roles(name: str) -> None:
    description = load(name)
    assert description.roles == tuple(Constant(r) for r in ROLES[name])


@pytest.mark.parametrize("name", sorted(ROLES))
def test_starts_with_a_comment_naming_its_source(name: str) -> None:
    head = (RULESHEETS / name).read_text().splitlines()[:10]
    assert head[0].startswith((";", "%"))
    assert any("chapter 17" in line or "Written for this project" in line for line in head)


@pytest.mark.parametrize("name", sorted(ROLES))
def test_declares_base_and_input(name: str) -> None:
    heads = {rule.head.name for rule in load(name).rules}
    assert {"base", "input"} <= heads
    if name != "tictactoe.kif":
        assert {"sees", "percept"} <= heads


@pytest.mark.parametrize("name", sorted(ROLES))
def test_validates(name: str) -> None:
    validate = pytest.importorskip("ggp.gdl.validate", reason="ggp/gdl/validate.py not written yet").validate
    problems = validate(load(name))
    assert not [p for p in problems if p.is_error], "\n".join(map(str, problems))


@pytest.mark.parametrize("reasoner", REASONER_PARAMS)
@pytest.mark.parametrize("name", sorted(ROLES))
def test_random_playouts_end_with_goals(name: str, reasoner: str) -> None:
    m = machine(name, reasoner)
    rng = random.Random(f"{name}/playouts")
    players = [r for r in m.roles if r != RANDOM]
    for _ in range(PLAYOUTS):
        result = random_playout(m, rng, max_steps=100)
        assert result.finished
        assert set(result.goals) == set(players)
        assert all(0 <= v <= 100 for v in result.goals.values())


@pytest.mark.skipif(not HAS_FAST, reason="ggp/reasoner/fast.py not written yet")
@pytest.mark.parametrize("name", sorted(ROLES))
def test_fast_and_oracle_play_the_same_playouts(name: str) -> None:
    """Legal moves come sorted, so the same seed must give the same playout on both."""
    description = load(name)
    fast, oracle = make_machine(description, "fast"), make_machine(description, "oracle")
    for seed in range(3):
        a = random_playout(fast, random.Random(seed))
        b = random_playout(oracle, random.Random(seed))
        assert a.final.fluents == b.final.fluents
        assert (a.length, a.goals) == (b.length, b.goals)
