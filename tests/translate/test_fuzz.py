"""Fuzzing the translator: seeded mutations of the corpus's RECYCLE games (``tests/translate/fuzz.py``
says which edits) go through parse -> check -> translate and must end in a translation or a
located error (``FILE:LINE:COL: message``), never another exception and never a hang.

The default run mutates five small corpus games of different kinds (poker, a count to a
limit, tricks, shedding, tricks with penalty cards), 1,000 inputs, more of the games that
translate fastest (``QUICK``, 6-8 s a game); ``pytest -m slow tests/translate/test_fuzz.py`` runs 10,000 over ten games. A
failure names the game, the seed and the edit; ``mutants(text, seed, 1)`` gives the input back.
The regressions at the end are inputs the fuzzer once broke, one line each.
"""

from __future__ import annotations

import traceback
from pathlib import Path

import pytest

from tests.conftest import RULESHEETS
from tests.translate.fuzz import Hang, budget, mutants, outcome
from tests.translate.support import CORPUS

#: Seconds one input may take (translations of these games take 0.1-2.5 s).
BUDGET = 30.0
#: Small games of different kinds and their mutants in the default run (1,000 inputs).
QUICK = {"KuhnPoker2": 300, "NinetyEight2": 250, "LAMA2": 150, "Agram2": 150, "Polignac4": 150}
#: Ten games, 1,000 mutants each, behind the slow marker (a capture game among them: its
#: translation takes a second, too long for 200 mutants in the default run).
SLOW = tuple(QUICK) + ("CrazyEights4", "StealingBundles2", "GoFish2", "Pairs2", "Blackjack2")


def fuzz(game: str, seed: int, count: int) -> list[str]:
    """The mutants of ``game`` that escape with something other than a translation or a
    located error, described with their seed and edit."""
    path = CORPUS / f"{game}.rcy"
    if not path.exists():
        pytest.skip(f"needs {path} (../shared beside the project)")
    text = path.read_text(encoding="utf-8")
    failures = []
    for number, mutant, edit in mutants(text, seed, count):
        try:
            with budget(BUDGET):
                outcome(mutant, path.name)
        except Hang:
            failures.append(f"{game} seed {number}: hangs (over {BUDGET} s) after {edit}")
        except Exception as exc:  # everything that is not a located error is a failure
            where = traceback.extract_tb(exc.__traceback__)[-1]
            failures.append(f"{game} seed {number}: {type(exc).__name__}: {str(exc)[:200]} "
                            f"at {Path(where.filename).name}:{where.lineno} after {edit}")
    return failures


@pytest.mark.parametrize("game", QUICK)
def test_mutants_translate_or_fail_located(game: str) -> None:
    assert fuzz(game, 0, QUICK[game]) == []


def test_the_default_run_fuzzes_a_thousand_inputs() -> None:
    assert sum(QUICK.values()) >= 1000 and len(QUICK) >= 5


@pytest.mark.slow
@pytest.mark.parametrize("game", SLOW)
def test_many_mutants_translate_or_fail_located(game: str) -> None:
    assert fuzz(game, 100_000, 1000) == []


AGRAM = RULESHEETS / "agram.rcy"
KUHN = RULESHEETS / "kuhn.rcy"
KUHN_DECK = "(create deck (game iloc STOCK) (deck (RANK (JACK, QUEEN, KING))))"
SCOPA = Path(__file__).parents[1] / "conformance" / "games" / "scopa2.rcy"
AGRAM_ACES = "(RED (SUIT (HEARTS, DIAMONDS)))\n                            (BLACK (SUIT (CLUBS)))"

#: (rulesheet, text replaced, replacement, expected outcome): inputs the fuzzer broke once.
REGRESSIONS = [
    (AGRAM, "(repeat 6", "(repeat 10000000", "located"),  # unrolled ten million moves (hours)
    (AGRAM, "(> (size ('P vloc TRICK)) 0)", "(> (size ('P vloc TRICK)) 10000000)", "translated"),  # a 10M-row table
    (KUHN, KUHN_DECK, f"(repeat 10000000 {KUHN_DECK})", "located"),  # ten million cards made one by one
    (AGRAM, AGRAM_ACES, "(RED, BLACK)", "translated"),  # aces without a SUIT: KeyError 'SUIT' in the point map
    (KUHN, "(create players 2)", "(create players 10000000)", "located"),  # ten million roles (hours)
    # a Scopa table's sets summed under a map never set: every card 0, no set reaches a card's
    # score, and the enumeration of the sets went through all 2^28 (the differential fuzz)
    (SCOPA, "(sum 'S using (game points P))", "(sum 'S using (game points WON))", "translated"),
]


@pytest.mark.parametrize("sheet, old, new, expected", REGRESSIONS, ids=["repeat", "size", "cards", "pointmap", "players", "unset-sum"])
def test_regression(sheet: Path, old: str, new: str, expected: str) -> None:
    text = sheet.read_text(encoding="utf-8")
    assert old in text
    with budget(BUDGET):
        assert outcome(text.replace(old, new, 1), sheet.name) == expected


def test_a_control_walk_past_pythons_recursion_is_a_located_error() -> None:
    # GoFish2 with a `repeat 53` (fuzz seed 100436): the walk resolving control from one step
    # through guarded steps and stage ends passed Python's recursion bound (RecursionError)
    path = CORPUS / "GoFish2.rcy"
    if not path.exists():
        pytest.skip(f"needs {path} (../shared beside the project)")
    [(_, mutant, edit)] = list(mutants(path.read_text(encoding="utf-8"), 100436, 1))
    assert edit.startswith("'2' -> '53'")
    with budget(BUDGET):
        assert outcome(mutant, path.name) == "located"


def test_the_mutator_is_seeded_and_edits() -> None:
    text = AGRAM.read_text(encoding="utf-8")
    first = list(mutants(text, 5, 20))
    assert first == list(mutants(text, 5, 20))
    assert sum(mutant != text for _, mutant, _ in first) >= 15  # an atom may be replaced by itself
    assert len({edit.split()[0] for _, _, edit in first}) >= 4  # several kinds of edit


def test_a_hang_is_caught() -> None:
    with pytest.raises(Hang):
        with budget(0.2):
            while True:
                pass
