"""The projection pass (``translators/recycle/rulebook/project.py``): rules in, rules out; and
the rules it gives play exactly as the rules it was given, asked everything at every state of
seeded random games (:func:`ggp.reasoner.verify.compare_machines`) on translated games and on
GDL-II games written elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp.gdl.kif import read_kif
from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.reasoner.fast import FastMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.verify import compare_machines
from tests.conftest import shared_path
from translators.recycle import parse_recycle
from translators.recycle import translate as translate_module
from translators.recycle.rulebook.project import project_rules
from translators.recycle.translate import compile_game

GAMES = Path(__file__).parent.parent / "conformance" / "games"


def projected(text: str) -> list[str]:
    description, problems = read_kif(text)
    assert not problems
    return [str(r) for r in project_rules(description.rules)]


def test_a_variable_only_a_move_and_facts_read_is_projected_out_step_by_step() -> None:
    """The set ``?s`` of a move, read by a fact giving its cards: the move becomes a relation of
    the set, then that and the fact a relation of the card; the rule joins it with the card's
    place only."""
    assert projected("(setcard s1 a) (setcard s1 b)"
                     " (<= (next (won ?c ?f)) (does ?p (take ?s)) (setcard ?s ?c) (true (at ?c ?f)))") == [
        "(setcard s1 a)", "(setcard s1 b)",
        "(<= (proj_1 ?x0) (does ?x1 (take ?x0)))",
        "(<= (proj_2 ?x0) (proj_1 ?x1) (setcard ?x1 ?x0))",
        "(<= (next (won ?c ?f)) (proj_2 ?c) (true (at ?c ?f)))"]


def test_alike_projections_share_one_relation_and_narrowing_literals_go_along() -> None:
    """Two rules projecting the same literals (up to names) share a relation; a fact over the
    projected literals' other variables narrows the new relation too and stays in the rule."""
    assert projected("(kind a x) (<= (next (p ?c ?d)) (true (h ?c ?u)) (kind ?c x) (true (g ?d)))"
                     " (<= (next (q ?e ?f)) (true (h ?e ?v)) (kind ?e x) (true (g ?f)))") == [
        "(kind a x)",
        "(<= (proj_1 ?x0) (true (h ?x0 ?x1)) (kind ?x0 x))",
        "(<= (next (p ?c ?d)) (proj_1 ?c) (kind ?c x) (true (g ?d)))",
        "(<= (next (q ?e ?f)) (proj_1 ?e) (kind ?e x) (true (g ?f)))"]


@pytest.mark.parametrize("rules", [
    # every variable of the rule is the literal's: no join to spare
    "(<= (next (a ?x)) (does ?p (m ?x ?y)))",
    # two changing literals share ?p: joined apart, they could make more instances
    "(<= (next (r ?x ?y)) (true (a ?p ?x)) (true (b ?p ?y)))",
    # ?y is read by a relation depending on the rule's own: no new recursion
    "(<= (r ?x) (true (a ?x))) (<= (r ?x) (r ?y) (true (e ?y ?x ?z)) (true (f ?x)))",
    # the negation reading ?y also reads ?x, which the literals reading ?y do not bind
    "(<= (next (r ?x ?w)) (true (a ?x)) (true (g ?w)) (true (b ?y)) (not (c ?y ?x)))",
])
def test_rules_with_nothing_worth_projecting_are_left_as_they_are(rules: str) -> None:
    description, _ = read_kif(rules)
    assert projected(rules) == [str(r) for r in description.rules]


def _unprojected(text: str, name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[GameDescription, GameDescription]:
    """A game translated with the projection pass, and without it."""
    game = parse_recycle(text, name)
    with_pass = compile_game(game).description
    with monkeypatch.context() as patch:
        patch.setattr(translate_module, "project_groups", lambda groups, keep=(): groups)
        without = compile_game(game).description
    return with_pass, without


def _agree(first: GameDescription, second: GameDescription, count: int) -> None:
    """The projected rules in the fast reasoner against the whole rules in the clingo oracle
    (which grounds them as they are, state by state)."""
    assert list(first.rules) != list(second.rules), "the pass projected nothing: the check would check nothing"
    report = compare_machines(FastMachine(first), OracleMachine(second), count, seed=3, names=("projected", "whole"))
    assert report.disagreement is None, report.disagreement
    assert report.playouts == count


@pytest.mark.parametrize(("where", "count"), [pytest.param(("scopa2.rcy",), 1, marks=pytest.mark.slow),
                                              (("corpus", "recycle", "NinetyEight2.rcy"), 3)])
def test_translations_play_alike_with_and_without_projections(where: tuple[str, ...], count: int,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Ninety-Eight (half the ground rules with the pass) and, with ``-m slow``, Scopa's choice
    among card sets as data against their rules without it."""
    path = GAMES / where[0] if len(where) == 1 else shared_path(*where)
    _agree(*_unprojected(path.read_text(), path.name, monkeypatch), count)


@pytest.mark.parametrize(("name", "count"), [pytest.param("unsw_BattleshipsFog.gdl", 1, marks=pytest.mark.slow),
                                             ("mastermind.gdl", 3),
                                             pytest.param("oneCardGame.gdl", 2, marks=pytest.mark.slow)])
def test_gdl_ii_games_written_elsewhere_play_alike_projected(name: str, count: int) -> None:
    """Games where the pass spares the most (Battleships in Fog, with ``-m slow``: 182,154 ground
    rules, 29,070 projected)."""
    path = shared_path("corpus", "gdl2", name)
    whole = load_game(path)
    _agree(GameDescription(tuple(project_rules(whole.rules))), whole, count)


def test_new_variable_names_that_are_old_ones_are_renamed_once() -> None:
    """The new relation's variables are ``?x0``, ``?x1``...: a rule already using those names
    is renamed in one step (``?x1`` and ``?x2`` swap), never chasing a name to another."""
    assert projected("(<= (next (r ?x0 ?f)) (does ?x1 (take ?x0 ?x2)) (kind ?x2) (true (at ?x0 ?f))) (kind a)") == [
        "(<= (proj_1 ?x0 ?x1) (does ?x2 (take ?x0 ?x1)) (kind ?x1))",
        "(<= (proj_2 ?x0) (proj_1 ?x0 ?x1) (kind ?x1))",
        "(<= (next (r ?x0 ?f)) (proj_2 ?x0) (true (at ?x0 ?f)))",
        "(kind a)"]
