"""Every corpus game translates to valid GDL-II; played at random it keeps its invariants; the
fast reasoner agrees with the clingo oracle on it.

The default run translates and validates all 67 games and plays a few small ones; ``-m slow``
plays 20 seeded random games of every game, checks the invariants on each, cross-checks the two
reasoners on 20 playouts of each, and counts the games that finish within CardStock's 500
choices.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ggp.gdl.validate import validate
from ggp.reasoner.domains import DEFAULT_MAX_SECONDS
from ggp.reasoner.verify import cross_check
from tests.conftest import ROOT, RULESHEETS
from tests.translate.support import (
    BLIND_PICK,
    GROUNDING_SECONDS,
    check_playout,
    corpus,
    translation,
    undefined_reads,
)

ALL = corpus()
#: Small games played in the default run (quick to ground).
QUICK = [RULESHEETS / "agram.rcy", RULESHEETS / "kuhn.rcy"] + [
    p for p in ALL if p.stem in ("NinetyEight2", "LAMA2", "KuhnPoker2")
]


#: Games whose validation is slow (tens of seconds: 85k rules): slow-marked; the default run
#: still translates them (test_slow_to_validate_games_translate).
SLOW_TO_VALIDATE = {"Cribbage2"}
VALIDATED = [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW_TO_VALIDATE else p for p in ALL]


@pytest.mark.parametrize("path", VALIDATED, ids=[p.stem for p in ALL])
def test_translates_and_validates(path: Path) -> None:
    t = translation(str(path))
    errors = [p for p in validate(t.description) if p.is_error]
    assert not errors, errors[:3]
    assert not t.warnings, t.warnings[:3]
    assert undefined_reads(t.description) == []
    assert t.description.roles[: t.model.players] == tuple(
        r for r in t.description.roles if str(r).startswith("player"))
    assert len(t.description.rules) < 100_000


@pytest.mark.parametrize("path", [p for p in ALL if p.stem in SLOW_TO_VALIDATE],
                         ids=[p.stem for p in ALL if p.stem in SLOW_TO_VALIDATE])
def test_slow_to_validate_games_translate(path: Path) -> None:
    """The default run still translates them (validation is slow-marked)."""
    t = translation(str(path))
    assert t.description.roles
    assert len(t.description.rules) < 100_000


def test_translation_budget_names_the_construct(monkeypatch: pytest.MonkeyPatch) -> None:
    """A translation that would grow without bound stops with an error at the RECYCLE construct."""
    from translators.recycle.rulebook import book as rulebook
    from translators.recycle.translation_error import TranslationError

    monkeypatch.setattr(rulebook, "RULE_BUDGET", 500)
    with pytest.raises(TranslationError) as info:
        translation.__wrapped__(str(RULESHEETS / "agram.rcy"))
    assert "the translation is too large" in str(info.value)
    assert info.value.location is not None and info.value.location.line > 1


def test_rulesheets_translate() -> None:
    for name in ("agram", "kuhn", "euchre", "santase"):
        t = translation(str(RULESHEETS / f"{name}.rcy"))
        assert not [p for p in validate(t.description) if p.is_error]


@pytest.mark.parametrize("path", QUICK, ids=[p.stem for p in QUICK])
def test_quick_playouts_keep_invariants(path: Path) -> None:
    # two seeds for the project's rulesheets, one for each corpus game (all of them: -m slow)
    for seed in range(2 if path.parent == RULESHEETS else 1):
        steps, ending = check_playout(str(path), seed)
        assert ending == "end", f"seed {seed} ended with {ending} after {steps} steps"


def test_playout_check_catches_legal_moves_naming_hidden_cards(tmp_path: Path) -> None:
    """The invariant has teeth: a choice over a hidden pile names cards its chooser cannot see."""
    game = tmp_path / "blindpick.rcy"
    game.write_text(BLIND_PICK)
    with pytest.raises(AssertionError, match=r"player0 may play \(\w+ (\w+)\) but \1 is in"):
        check_playout(str(game), 0)


@pytest.mark.parametrize("path", QUICK[:3], ids=[p.stem for p in QUICK[:3]])
def test_quick_cross_check(path: Path) -> None:
    report = cross_check(translation(str(path)).description, 1, 0)
    assert report.ok, report.describe()


@pytest.mark.parametrize("names", [("Pitch4",), pytest.param(("Euchre4", "GoFish4"), marks=pytest.mark.slow)],
                         ids=["quick", "more"])
def test_same_bytes_in_other_processes(names: tuple[str, ...]) -> None:
    """Translation does not depend on hash randomisation or anything else of the process."""
    # Pitch4: the order of the cards a step picks by max/min once followed set iteration
    games = ([RULESHEETS / "agram.rcy"] if names == ("Pitch4",) else []) + [p for p in ALL if p.stem in names]
    code = ("import sys; from translators.recycle.translate import translate_file; "
            "sys.stdout.write(translate_file(sys.argv[1]).kif)")
    for game in games:
        runs = [subprocess.Popen([sys.executable, "-c", code, str(game)], stdout=subprocess.PIPE, text=True,
                                 env=dict(os.environ, PYTHONHASHSEED=seed), cwd=ROOT)
                for seed in ("1", "2")]  # side by side: the two processes share nothing
        outputs = {run.communicate(timeout=600)[0] for run in runs}
        assert [run.returncode for run in runs] == [0, 0], game
        assert len(outputs) == 1, game
        assert translation(str(game)).kif in outputs


# -- slow: the whole corpus played ------------------------------------------------------------

#: Games that may pass the 500-choice limit under random play (listed with the reason).
LONG_GAMES = {
    "CrazyEights4": "random players rarely empty a hand; CardStock itself passes the limit in 123 of 500 games",
}


@pytest.mark.slow
@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_random_playouts_keep_invariants(path: Path) -> None:
    endings: dict[str, int] = {}
    for seed in range(20):
        _, ending = check_playout(str(path), seed)
        endings[ending] = endings.get(ending, 0) + 1
    allowed = {"end", "limit"} if path.stem in LONG_GAMES else {"end"}
    assert set(endings) <= allowed, endings


@pytest.mark.slow
@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_cross_check_20(path: Path) -> None:
    description = translation(str(path)).description
    report = cross_check(description, 20, 0, max_seconds=GROUNDING_SECONDS.get(path.stem, DEFAULT_MAX_SECONDS))
    assert report.ok, report.describe()
