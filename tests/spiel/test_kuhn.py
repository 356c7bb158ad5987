"""Translated Kuhn poker through the bridge against OpenSpiel's own ``kuhn_poker``.

The two games are written independently (``rulesheets/kuhn.rcy`` translated to GDL-II and run by
the fast reasoner; OpenSpiel's C++ game), so equal trees, information states, values and CFR
curves check the bridge: chance from ``random``, forced steps played through, information
states from what each player saw, returns in chips.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.spiel.support import bridged, pyspiel, tree_figures, uniform_figures

from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

CHECKPOINTS = (1, 10, 50, 200)


@pytest.fixture(scope="module")
def games() -> tuple[Any, Any]:
    return bridged("kuhn.rcy"), pyspiel.load_game("kuhn_poker")


def test_same_tree(games: tuple[Any, Any]) -> None:
    ours, native = games
    mine, theirs = tree_figures(ours), tree_figures(native)
    assert mine == theirs
    assert mine["histories"] == 58 and mine["information_states"] == [6, 6]


def test_game_description(games: tuple[Any, Any]) -> None:
    ours, native = games
    assert ours.units == "score"
    assert ours.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert ours.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert ours.num_players() == native.num_players() == 2
    assert ours.max_game_length() == native.max_game_length() == 3
    assert (ours.min_utility(), ours.max_utility()) == (native.min_utility(), native.max_utility()) == (-2, 2)
    assert ours.summary.complete and ours.summary.nodes == 58


def test_uniform_policy(games: tuple[Any, Any]) -> None:
    (ours, ours_expl), (native, native_expl) = (uniform_figures(game) for game in games)
    assert ours == pytest.approx(native, abs=1e-12)
    assert ours_expl == pytest.approx(native_expl, abs=1e-12)
    assert ours_expl == pytest.approx(0.4583, abs=0.002)


def test_cfr_curves_agree(games: tuple[Any, Any]) -> None:
    curves = []
    for game in games:
        plus, vanilla = cfr.CFRPlusSolver(game), pyspiel.CFRSolver(game)
        curve = []
        for i in range(1, CHECKPOINTS[-1] + 1):
            plus.evaluate_and_update_policy()
            vanilla.evaluate_and_update_policy()
            if i in CHECKPOINTS:
                curve.append(float(exploitability.exploitability(game, plus.average_policy())))
                curve.append(float(pyspiel.exploitability(game, vanilla.average_policy())))
        curves.append(curve)
    ours, native = curves
    assert ours == pytest.approx(native, rel=1e-6, abs=1e-9)
    assert ours[-1] == pytest.approx(0.0033, abs=0.0005)  # CFR after 200 iterations
    assert ours[-2] < 0.001  # CFR+


def test_information_states_hold_only_what_a_player_saw(games: tuple[Any, Any]) -> None:
    ours, _ = games
    state = ours.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # player0's card
    mine, theirs = set(), set()
    for card in state.legal_actions():  # player1's card: player1 sees it, player0 does not
        child = state.child(card)
        assert child.current_player() == 0
        mine.add(child.information_state_string(0))
        theirs.add(child.information_state_string(1))
    assert len(mine) == 1, "player0's information state depends on player1's hidden card"
    assert len(theirs) == 2
    key = next(iter(mine))
    legal = " ".join(str(ours.tree.moves[0][a]) for a in child.legal_actions())
    assert key.startswith("player0 | ") and key.endswith(f" | legal: {legal}")


def test_tensors_tell_information_states_apart(games: tuple[Any, Any]) -> None:
    ours, _ = games
    seen: dict[str, tuple[float, ...]] = {}
    stack = [ours.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            player = state.current_player()
            key = state.information_state_string(player)
            tensor = tuple(state.information_state_tensor(player))
            assert seen.setdefault(key, tensor) == tensor
            assert len(tensor) == ours.information_state_tensor_size()
            observation = state.observation_tensor(player)
            assert len(observation) == ours.observation_tensor_size() and sum(observation) > 0
        stack.extend(state.child(a) for a in state.legal_actions())
    assert len(seen) == 12
    assert len(set(seen.values())) == 12


def test_load_by_name_and_parameters() -> None:
    game = pyspiel.load_game("ggp", {"file": str(bridged("kuhn.rcy").description.source)})
    assert game.num_players() == 2 and game.get_parameters()["returns"] == "auto"
    goals = pyspiel.load_game("ggp", {"file": str(bridged("kuhn.rcy").description.source), "returns": "goals"})
    assert goals.units == "goals" and (goals.min_utility(), goals.max_utility()) == (0, 100)
    assert goals.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and goals.utility_sum() == 100


def test_resampling_follows_the_prior(games: tuple[Any, Any]) -> None:
    ours, _ = games
    for expand in (None, 0):  # the whole tree, and the belief of a game not walked whole
        game = ours if expand is None else bridged("kuhn.rcy", expand=0)
        state = game.new_initial_state()
        state.apply_action(state.legal_actions()[0])
        state.apply_action(state.legal_actions()[0])
        key = state.information_state_string(0)
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        counts: dict[str, int] = {}
        for _ in range(400):
            world = state.resample_from_infostate(0, sampler)
            assert world.information_state_string(0) == key
            counts[world.history_str()] = counts.get(world.history_str(), 0) + 1
        assert len(counts) == 2
        assert all(150 <= n <= 250 for n in counts.values()), counts
