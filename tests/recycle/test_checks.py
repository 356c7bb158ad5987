"""The static checks, each shown on a small program, with the place and words it reports."""

from __future__ import annotations

import pytest

from ggp.errors import Problem
from tests.recycle.support import small_game
from translators.recycle import check, parse_recycle


def problems(body: str, **kw: str) -> list[Problem]:
    return check(parse_recycle(small_game(body, **kw), "t.rcy"))


def only(body: str, **kw: str) -> Problem:
    found = problems(body, **kw)
    assert len(found) == 1, [str(p) for p in found]
    return found[0]


def at(problem: Problem) -> tuple[int, int]:
    return problem.location.line, problem.location.column


def where(body: str, piece: str, nth: int = 1) -> tuple[int, int]:
    """Line and column of the ``nth`` ``piece`` in ``body`` as :func:`small_game` places it."""
    offset = -1
    for _ in range(nth):
        offset = body.index(piece, offset + 1)
    return 4, offset + 2


def test_a_clean_program_has_no_problems() -> None:
    assert problems("(do ((all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))") == []


# ------------------------------------------------------------------ variables

def test_undeclared_variable() -> None:
    body = "(do ((move (top (game iloc STOCK)) (top ('P iloc HAND)))))"
    p = only(body)
    assert p.is_error and at(p) == where(body, "'P")
    assert p.message.startswith("'P is not declared")


def test_variable_out_of_scope_of_all() -> None:
    body = "(do ((all player 'P (inc ('P sto X) 1)) (inc ('P sto X) 1)))"
    p = only(body)
    assert at(p) == where(body, "'P", 3)
    assert p.message == "'P is used out of scope: it is only defined inside the `all` at line 4"


def test_variable_out_of_scope_of_filter() -> None:
    body = ("(do (((> (size (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) ACE))) 0) "
            "(move 'C (top (game vloc X))))))")
    p = only(body)
    assert "only defined inside the `filter`" in p.message and at(p) == where(body, "'C", 3)


def test_let_variable_is_visible_in_its_body_only() -> None:
    assert problems("(do ((let (size (game iloc STOCK)) 'N (repeat 'N (turn pass)))))") == []
    found = problems("(do ((let (size (game iloc STOCK)) 'N (turn pass)) (repeat 'N (turn pass))))")
    assert [p.message for p in found] == [
        "'N is defined but never used",
        "'N is used out of scope: it is only defined inside the `let` at line 4",
    ]


def test_declared_constant_is_global() -> None:
    assert problems("(stage player (end (> ('P sto X) 1)) (do ((inc (game sto X) 'N))))",
                    declare="(declare 2 'N)")[0].message.startswith("'P is not declared")
    assert problems("(do ((repeat 'N (turn pass))))", declare="(declare 2 'N)") == []


def test_unused_declaration_and_let_are_warnings() -> None:
    p = only("(do ((turn pass)))", declare="(declare 3 'N)")
    assert p.severity == "warning" and p.message == "'N is defined but never used"
    body = "(do ((let (size (game iloc STOCK)) 'N (turn pass))))"
    p = only(body)
    assert p.severity == "warning" and at(p) == where(body, "'N")


def test_variable_of_the_wrong_kind() -> None:
    p = only("(do ((all (game iloc STOCK) 'C (inc (game sto X) 'C))))")
    assert p.is_error and p.message == "'C is a card, but an integer is expected here"
    p = only("(do ((all player 'P (move 'P (top (game vloc X))))))")
    assert p.message == "'P is a player, but a card is expected here"
    p = only("(do ((all (A, B) 'S (shuffle 'S))))")
    assert p.message == "'S is a string, but a card collection is expected here"
    p = only("(do ((all (range 1..3) 'I (inc ('I sto X) 1))))")
    assert p.message == "'I is an integer, but a player or a team is expected here"


def test_groups_used_as_cards_is_a_warning() -> None:
    p = only("(do ((let (tuples 2 (game iloc STOCK) using (game points P)) 'G "
             "(move (top 'G) (top (game vloc X))))))".replace("(do (", "(do ((set (game points P) (((RANK : ACE) 1))) "))
    assert p.severity == "warning" and "collection of card collections" in p.message


def test_comparisons_compare_like_with_like() -> None:
    body = "(do (((== (size (game iloc STOCK)) HEARTS) (turn pass))))"
    p = only(body)
    assert p.is_error and p.message == "`==` compares an integer with a string"
    assert at(p) == where(body, "(==")
    p = only("(do ((all (game iloc STOCK) 'C ((== 'C HEARTS) (turn pass)))))")
    assert p.message == "`==` compares a card with a string"
    p = only("(do (((< (game str A) (game str B)) (turn pass))))")
    assert p.message == "`<` compares integers only, not strings"
    p = only("(do ((let (game iloc STOCK) 'L ((== 'L 'L) (turn pass)))))")
    assert p.message.startswith("cannot compare a card collection")


def test_variable_kinds_come_from_bindings() -> None:
    assert problems("(do ((all (A, B) 'S ((== 'S (game str X)) (set (game str Y) 'S)))))") == []
    assert problems("(do ((all team 'T (all 'T 'P (inc ('P sto X) ('T sto Y))))))") == []


# ------------------------------------------------------------------ point maps

SCORE_TOP = "(inc (game sto X) (score (top (game iloc STOCK)) using (game points PM)))"
SET_PM = "(set (game points PM) (((RANK : ACE) 1)))"


def test_point_map_set_before_use_is_fine() -> None:
    assert problems(f"(do ({SET_PM} {SCORE_TOP}))") == []


def test_point_map_used_before_set() -> None:
    body = f"(do ({SCORE_TOP} {SET_PM}))"
    p = only(body)
    # CardStock's maps start empty: a warning (every card scores 0 until the set), not an error
    assert not p.is_error and at(p) == where(body, "(game points PM)")
    assert p.message == ("point map PM is used before it is set (its first `set` is at line 4): "
                         "until then every card scores 0 under it")


def test_point_map_never_set() -> None:
    p = only(f"(do ({SCORE_TOP}))")
    assert p.message.startswith("point map PM is never set")


def test_point_map_used_early_in_a_stage_body_set_later_in_it() -> None:
    p = only(f"(stage player (end (== (size (game iloc STOCK)) 0)) (do ({SCORE_TOP})) (do ({SET_PM})))")
    assert "used before it is set" in p.message


def test_old_style_point_map_variable() -> None:
    assert problems("(do ((put points 'PM (((RANK (ACE)) 1))) "
                    "(inc (game sto X) (score (top (game iloc STOCK)) using 'PM))))") == []
    p = only("(do ((inc (game sto X) (score (top (game iloc STOCK)) using 'PM)) "
             "(put points 'PM (((RANK (ACE)) 1)))))")
    assert p.message.startswith("point map 'PM is used before it is set")


# ------------------------------------------------------------------ choices and conditions

def test_choice_without_any_possible_option() -> None:
    body = ("(stage player (end (== (size (game iloc STOCK)) 0)) (choice ("
            "((== 1 2) (turn pass)) "
            "((and (== (game str S) A) (== (game str S) B)) (turn pass)) "
            "((and (== (game sto N) 1) (!= (game sto N) 1)) (turn pass)) "
            "(any (filter (game iloc STOCK) 'C (< (size (game iloc STOCK)) 0)) 'C (turn pass)))))")
    p = only(body)
    assert p.is_error and at(p) == where(body, "(choice")
    assert p.message.startswith("no option of this `choice` can ever be enabled")


def test_dead_option_is_a_warning() -> None:
    body = ("(stage player (end (== (size (game iloc STOCK)) 0)) (choice (((!= A A) (turn pass)) "
            "(move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))")
    p = only(body)
    assert p.severity == "warning" and at(p) == where(body, "((!= A A)")
    assert p.message == "this option can never be enabled: its condition is always false"


def test_conditions_that_can_hold_are_not_reported() -> None:
    assert problems("(stage player (end (== (size (game iloc STOCK)) 0)) (choice ("
                    "((== (random 3) (random 3)) (turn pass)) "
                    "((and (== (game str S) A) (== (game str T) B)) (turn pass)) "
                    "((or (== 1 2) (> (size (game iloc STOCK)) 0)) (turn pass)))))") == []


def test_stages_that_never_run_or_never_end() -> None:
    p = only("(stage player (end (< (size (game iloc STOCK)) 0)) (do ((turn pass))))")
    assert p.is_error and p.message == "this stage never ends: its end condition is always false"
    p = only("(stage player (end (not (!= 3 3))) (do ((turn pass))))")
    assert p.severity == "warning" and "never runs" in p.message


def test_action_that_never_runs() -> None:
    p = only("(do (((> 1 2) (turn pass))))")
    assert p.severity == "warning" and p.message == "this action never runs: its condition is always false"


# ------------------------------------------------------------------ seats and teams

def test_team_members_must_exist_once() -> None:
    found = problems("(do ((turn pass)))", setup="(create players 2) (create teams (0, 2) (1, 0))")
    assert [p.message for p in found] == [
        "team member 2 does not exist: the players are 0 to 1",
        "player 0 is already on the team at line 2",
    ]


def test_player_index_must_exist() -> None:
    p = only("(do ((inc ((3 player) sto X) 1)))")
    assert p.message == "player 3 does not exist: the players are 0 to 1"
    assert problems("(do ((inc ((2 player) sto X) 'N)))", declare="(declare 3 'N)",
                    setup="(create players 'N)") == []


@pytest.mark.parametrize("body", ["(do ((turn pass)))", "(choice ((turn pass)))"])
def test_problems_are_sorted_and_located(body: str) -> None:
    found = problems(body, setup="(create players 1) (create teams (0) (3) (0))")
    assert [at(p) for p in found] == sorted(at(p) for p in found)
    assert all(p.location.file == "t.rcy" for p in found)
