"""Malformed versions of real corpus games: each error names the right place, in plain words.

Each case takes a corpus file, replaces the N-th occurrence of a piece of text (a deletion, a
swap or a misspelling), and states where the parser must stop (line and column) and a piece
of the message. The place is where the text stops making sense: the misspelt word, the token
after a missing part, the `(` of a form that comes too early.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.recycle.support import CORPUS, corpus_text, position
from translators.recycle import (
    RecycleSyntaxError,
    check_file,
    parse_fragment,
    parse_recycle,
)

needs_corpus = pytest.mark.skipif(not CORPUS, reason="needs ../shared/corpus/recycle (absent)")


@dataclass(frozen=True)
class Mutation:
    """Replace the ``nth`` occurrence of ``old`` by ``new`` in corpus file ``game``."""

    game: str
    old: str
    new: str
    line: int
    column: int
    message: str
    nth: int = 1

    def apply(self) -> tuple[str, int]:
        text = corpus_text(f"{self.game}.rcy")
        at = -1
        for _ in range(self.nth):
            at = text.index(self.old, at + 1)
        return text[:at] + self.new + text[at + len(self.old) :], at


KUHN_END = """(end 
         (or (any player 'P (== ('P str MOVE) FOLD))
             (all player 'P (== ('P str MOVE) CHECK))
             (and (== ((previous player) str MOVE) BET)
                  (== ((current player) str MOVE) CALL))))"""

MUTATIONS = [
    # misspelt keywords: stop at the word, suggest the keyword
    Mutation("Agram4", "(stage player", "(stge player", 30, 3, "found `(stge`; did you mean `stage`?"),
    Mutation("KuhnPoker2", "(choice", "(choise", 43, 17, "did you mean `choice`?"),
    Mutation("Euchre4", "(cardatt SUIT", "(cardat SUIT", 31, 41, "did you mean `cardatt`?"),
    Mutation("GoFish4", "(partition RANK", "(partion RANK", 28, 23, "did you mean `partition`?"),
    Mutation("Cribbage2", "(remember 'C", "(remeber 'C", 110, 27, "expected an action (move, set"),
    Mutation("LAMA4", "(repeat all", "(repaet all", 31, 8, "did you mean `repeat`?"),
    Mutation("Pitch4", "vloc", "vlok", 91, 87, "expected `hloc`, `iloc`, `mem`, `oloc` or `vloc`", nth=3),
    Mutation("Hearts4", "(shuffle ", "(shufle ", 27, 15, "did you mean `shuffle`?"),
    Mutation("Hearts4", " sto ", " sot ", 33, 25, "the unknown word `sot`; did you mean `sto`?", nth=2),
    Mutation("Sueca4", "(cycle next", "(cycle nxt", 103, 20, "expected `current` or `next`"),
    Mutation("Comet4", "(scoring max", "(scoring mx", 183, 11, "expected `max` or `min`"),
    Mutation("Cribbage2", "(runs largest 3", "(runs longest 3", 232, 28, "did you mean `largest`?"),
    Mutation("Euchre4", "(any team 'T", "(any teams 'T", 40, 25, "expected a collection, found `teams`"),
    Mutation("Blackjack2", "(create players", "(create player", 8, 11, "expected `players`, found `player`"),
    Mutation("Agram4", "(stage player", "(stage players", 30, 9, "expected `player` or `team`"),
    # badly written names, variables, strings and operators
    Mutation("Agram4", "(game iloc STOCK)", "(game iloc Stock)", 11, 27, "names are written in capitals (`STOCK`)"),
    Mutation("Agram4", "'P", "'p", 27, 32, "a variable is a quote followed by capital letters", nth=2),
    Mutation("Agram4", "(set (game str LEAD) NONE)", '(set (game str LEAD) "NONE")', 23, 28,
             "a string is written in capitals without quotes"),
    Mutation("Agram4", "(set (game str LEAD) NONE)", "(set (game str LEAD) {NONE})", 23, 28,
             "unexpected character `{`"),
    Mutation("KuhnPoker2", "(== ('P str MOVE) FOLD)", "(= ('P str MOVE) FOLD)", 37, 30,
             "comparisons are written =="),
    Mutation("LAMA4", "(range 1..8)", "(range 1...8)", 110, 32, "a range is written LOW..HIGH"),
    Mutation("KuhnPoker2", "(create players 2)", "(create players TWO)", 7, 19, "expected an integer, found `TWO`"),
    Mutation("Euchre4", "(create teams (0, 2) (1, 3))", "(create teams (0, A) (1, 3))", 9, 21, "expected a number"),
    # missing parts
    Mutation("KuhnPoker2", KUHN_END, "", 39, 17, "`(stage player|team` needs an `(end CONDITION)` first, found `(choice`"),
    Mutation("KuhnPoker2", " (scoring max ((current player) sto CHIPS))", "", 80, 1,
             "`(game` needs a `(scoring max|min INTEGER)` as its last part"),
    Mutation("KuhnPoker2", "(setup", "", 7, 4, "`(game` starts with `(declare ...)` lines, then `(setup ...)`"),
    Mutation("KuhnPoker2", "(create players 2)", "", 10, 11, "expected `players`, found `deck`"),
    Mutation("Agram4", "(scoring max ((current player) sto SCORE)))", "(scoring max ((current player) sto SCORE))",
             104, 43, "the file ends inside `(game"),
    Mutation("Agram4", "(top ('P iloc HAND)))))))", "(top ('P iloc HAND))))))", 30, 2,
             "is complete: expected `)`, found `(stage`"),
    Mutation("Agram4", "(move (top ('P vloc TRICK)) \n                        (top (game vloc DISCARD)))",
             "(move (top ('P vloc TRICK)))", 95, 46, "is not complete: expected a card before `)`"),
    Mutation("Agram4", "(all player 'P \n           (repeat", "(all player \n           (repeat", 25, 12,
             "expected a 'VARIABLE, found `(repeat`"),
    Mutation("Agram4", " using (game points PRECEDENCE)", " (game points PRECEDENCE)", 92, 78,
             "expected `using`, found `(game`"),
    Mutation("Agram4", "(do \n     (\n      (shuffle", "(do \n      (shuffle", 21, 8,
             "`(do` takes its actions in a list"),
    Mutation("KuhnPoker2", "((RANK : K) 3)", "((RANK :) 3)", 16, 21, "`(RANK :` is not complete"),
    Mutation("KuhnPoker2", "(game sto POT)", "(game POT)", 28, 24, "expected `sto`, found `POT`"),
    Mutation("Agram4", "(size ('P iloc HAND))", "(size)", 33, 24, "`(size` is not complete: expected a collection"),
    Mutation("Agram4", "(== (size ('P iloc HAND)) 0)", "(== (size ('P iloc HAND)))", 33, 40, "expected a value before `)`"),
    Mutation("Agram4", "(and (!= (game str LEAD) NONE)", "(and", 49, 67, "expected a condition before `)`"),
    Mutation("Caterpillar2", "(% 'SUM 5)", "(% 'SUM)", 83, 39, "expected an integer before `)`"),
    Mutation("CalamitiesContinuousPairs4", "(tuples 2", "(tuples", 131, 50,
             "inside `(tuples`, written `(tuples N CARDS using POINTMAP)`"),
    Mutation("Agram4", "(top ('P iloc HAND))", "(top 'P iloc HAND))", 27, 34, "`(top 'P` is complete: expected `)`"),
    Mutation("Pitch4", "(let (filter", "(let filter", 168, 22, "expected a value, found `filter`"),
    Mutation("Euchre4", "(create teams (0, 2) (1, 3))", "(create teams (0 2) (1, 3))", 9, 20, "expected `,`, `(` or `)`"),
    # swapped parts
    Mutation("Agram4", "(game iloc STOCK)", "(iloc game STOCK)", 11, 17, "found `(iloc`"),
    Mutation("Agram4", "(all player 'P", "(all 'P player", 24, 15, "expected a 'VARIABLE, found `player`"),
    Mutation("Agram4", "(scoring max", "(max scoring", 104, 3, "found `(max`"),
    Mutation("Agram4", "sto SCORE", "SCORE sto", 102, 35, "expected `sto`, found `SCORE`"),
    Mutation("Agram4", "(stage player", "(player stage", 30, 3, "found `(player`"),
    Mutation("Agram4", "(cycle next", "(next cycle", 92, 15, "found `(next`"),
    Mutation("Agram4", "(deck (RANK", "(RANK (deck", 11, 35, "expected `deck` after `(`, found `(RANK`"),
    Mutation("Agram4", "(repeat 6", "(6 repeat", 25, 13, "found `(6`"),
    Mutation("Agram4", "(create deck", "(deck create", 11, 4, "expected `create` or `repeat` after `(`"),
    Mutation("Agram4", "(declare 4 'NUMP)", "(declare 'NUMP 4)", 6, 17, "expected a 'VARIABLE, found `4`"),
    # extra parts
    Mutation("LAMA4", "(turn pass)", "(turn pass pass)", 55, 23, "`(turn pass` is complete: expected `)`"),
    Mutation("Agram4", "(shuffle (game iloc STOCK))", "(shuffle (game iloc STOCK) (game iloc STOCK))", 22, 34,
             "`(shuffle (game iloc STOCK)` is complete: expected `)`, found `(game`"),
]


def test_enough_mutations() -> None:
    assert len(MUTATIONS) >= 40


@needs_corpus
@pytest.mark.parametrize("mutation", MUTATIONS, ids=[f"{m.game}:{m.new[:24]}" for m in MUTATIONS])
def test_error_names_place_and_problem(mutation: Mutation) -> None:
    text, at = mutation.apply()
    with pytest.raises(RecycleSyntaxError) as info:
        parse_recycle(text, f"{mutation.game}.rcy")
    error = info.value
    assert error.location is not None
    assert (error.location.line, error.location.column) == (mutation.line, mutation.column), str(error)
    assert mutation.message in error.message
    assert error.location.line >= position(text, at)[0]
    assert str(error).startswith(f"{mutation.game}.rcy:{mutation.line}:{mutation.column}: ")
    for internal in ("Token(", "RULE", "$END", "__ANON", "LPAR", "RPAR", "Traceback"):
        assert internal not in str(error)


@needs_corpus
def test_check_file_turns_a_syntax_error_into_one_problem(tmp_path: pytest.TempPathFactory) -> None:
    text, _ = MUTATIONS[0].apply()
    path = tmp_path / "broken.rcy"  # type: ignore[operator]
    path.write_text(text)
    (problem,) = check_file(path)
    assert problem.is_error and problem.location.line == 30 and problem.location.file == str(path)


def test_unreadable_file_is_a_problem(tmp_path: pytest.TempPathFactory) -> None:
    (problem,) = check_file(tmp_path / "missing.rcy")  # type: ignore[operator]
    assert problem.is_error and "cannot read file" in problem.message


def test_empty_and_non_game_inputs() -> None:
    for text, fragment in (("", "found the end of the file"), ("   ;; only a comment\n", "found the end"),
                           ("(stage player)", "expected `game` after `(`, found `(stage`"),
                           ("HEARTS", "expected a `(game ...)`, found `HEARTS`"),
                           ("(game)", "`(game` needs a `(setup ...)`"),
                           ("(game (setup (create players 2)))", "needs at least one `(create deck")):
        with pytest.raises(RecycleSyntaxError) as info:
            parse_recycle(text)
        assert fragment in info.value.message, info.value.message


def test_fragment_errors_and_kinds() -> None:
    with pytest.raises(RecycleSyntaxError, match="found `HEARTS`"):
        parse_fragment("(move HEARTS (top (game vloc X)))", "item")
    with pytest.raises(ValueError, match="unknown fragment kind"):
        parse_fragment("1", "number")  # type: ignore[arg-type]


def test_forms_nested_too_deeply_are_a_located_error_not_a_recursion_error() -> None:
    # 400 nested `do`s: a RecursionError in the translator before; the corpus nests 21 deep
    text = ("(game (setup (create players 2) (create deck (game iloc S) (deck (R (A)))))\n (do ("
            + "(do (" * 400 + "(turn pass)" + "))" * 400 + "))\n (scoring max 1))")
    with pytest.raises(RecycleSyntaxError) as info:
        parse_recycle(text, "deep.rcy")
    assert str(info.value).startswith("deep.rcy:2:") and "nested more than 120 deep" in str(info.value)
    # comments do not count, and 50 `do`s (100 deep) are read
    shallow = text.replace("(do (" * 400, "; ((((\n" + "(do (" * 50).replace("))" * 400, "))" * 50)
    assert parse_recycle(shallow, "ok.rcy").source == "ok.rcy"
