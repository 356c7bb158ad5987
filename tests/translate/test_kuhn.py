"""Kuhn poker translated: the whole game tree against an independent implementation.

The tree of the translated game (every deal ``random`` can make, every option of every choice)
is walked with the reasoner; its terminal histories, read as (cards dealt, actions), and the
chips each player ends with must be exactly those of Kuhn poker as written below in plain
Python: three cards, ante one chip each, player 0 acts first (check or bet one), facing a bet
fold or call, the higher card wins the pot at a showdown.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from ggp.reasoner import make_machine
from ggp.reasoner.machine import State
from ggp.reasoner.play import joint_moves
from tests.conftest import RULESHEETS, shared_path
from translators.recycle.playstats import ending_of
from translators.recycle.symbols.vocabulary import card_constant
from translators.recycle.translate import translate_file

RANKS = {"JACK": 1, "QUEEN": 2, "KING": 3, "J": 1, "Q": 2, "K": 3}


def kuhn_outcomes() -> dict[tuple[int, int, tuple[str, ...]], tuple[int, int]]:
    """(card of player 0, card of player 1, actions) -> chips won by each (independent rules)."""
    out: dict[tuple[int, int, tuple[str, ...]], tuple[int, int]] = {}
    for c0, c1 in permutations((1, 2, 3), 2):
        showdown_winner = 0 if c0 > c1 else 1
        for actions in (("check", "check"), ("check", "bet", "fold"), ("check", "bet", "call"),
                        ("bet", "fold"), ("bet", "call")):
            pot = 2 + actions.count("bet") + actions.count("call")
            paid = [1, 1]
            for i, action in enumerate(actions):
                if action in ("bet", "call"):
                    paid[i % 2] += 1
            if actions[-1] == "fold":
                winner = (len(actions) - 2) % 2  # the player who bet
            else:
                winner = showdown_winner
            chips = [-paid[0], -paid[1]]
            chips[winner] += pot
            out[(c0, c1, actions)] = (chips[0], chips[1])
    return out


ACTIONS = ("check", "bet", "fold", "call")


def tree(path: object) -> dict[tuple[int, int, tuple[str, ...]], tuple[tuple[int, int], dict[str, int]]]:
    """Every terminal history of the translated game: (cards, actions) -> (chips, goals)."""
    translation = translate_file(path)  # type: ignore[arg-type]
    machine = make_machine(translation.description)
    ranks: dict[str, int] = {}
    for card in translation.model.cards:
        ranks[card_constant(translation.model, card.id).name] = RANKS[dict(card.attrs)["RANK"]]
    found: dict[tuple[int, int, tuple[str, ...]], tuple[tuple[int, int], dict[str, int]]] = {}

    def visit(state: State, dealt: list[str], actions: list[str]) -> None:
        if machine.is_terminal(state):
            ending, scores = ending_of(translation.description, state)
            assert ending == "end"
            key = (ranks[dealt[0]], ranks[dealt[1]], tuple(actions))
            assert key not in found, f"two histories end as {key}"
            goals = {str(r): v for r, v in machine.goals(state).items()}
            found[key] = ((scores["player0"], scores["player1"]), goals)
            return
        for joint in joint_moves(machine, state):
            new_dealt, new_actions = list(dealt), list(actions)
            for move in joint:
                text = str(move)
                if text.startswith("(draw "):
                    new_dealt.append(str(move.args[0]))  # type: ignore[attr-defined]
                elif text in ACTIONS:  # the moves are named after the word each option sets
                    new_actions.append(text)
                else:
                    assert text == "noop", f"{text} is not a move of Kuhn poker"
            visit(machine.next_state(state, joint), new_dealt, new_actions)

    visit(machine.initial_state(), [], [])
    return found


@pytest.mark.parametrize("path", [RULESHEETS / "kuhn.rcy", "corpus"], ids=["rulesheet", "KuhnPoker2"])
def test_game_tree_is_kuhn_poker(path: object) -> None:
    if path == "corpus":
        path = shared_path("corpus", "recycle", "KuhnPoker2.rcy")
    found = tree(path)
    expected = kuhn_outcomes()
    assert set(found) == set(expected)
    for key, ((chips0, chips1), goals) in found.items():
        assert (chips0, chips1) == expected[key], key
        winner = "player0" if chips0 > chips1 else "player1"
        loser = "player1" if winner == "player0" else "player0"
        assert goals[winner] == 100 and goals[loser] == 0


def test_independent_rules_are_zero_sum() -> None:
    outcomes = kuhn_outcomes()
    assert len(outcomes) == 30
    assert all(a + b == 0 for a, b in outcomes.values())
    assert outcomes[(3, 1, ("bet", "call"))] == (2, -2)
    assert outcomes[(1, 3, ("check", "bet", "fold"))] == (-1, 1)

