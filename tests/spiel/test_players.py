"""``cfr`` and ``spiel_ismcts`` as players, and ``ggp exploitability``."""

from __future__ import annotations

import json
import random

import pytest

from tests.conftest import RULESHEETS, env, ggp  # noqa: F401  (env is a fixture)
from tests.spiel.support import bridged  # first: skips the module without OpenSpiel

# isort: split
from ggp.belief import Belief, Observation  # noqa: E402
from ggp.deadline import Deadline  # noqa: E402
from ggp.gdl.terms import Term  # noqa: E402
from ggp.players.base import MatchInfo, StartView, TurnView  # noqa: E402
from ggp.players.registry import available_players  # noqa: E402
from ggp.reasoner import make_machine  # noqa: E402
from ggp.reasoner.play import history_states, random_joint_move  # noqa: E402
from ggp.spiel.exploitability import player_exploitability  # noqa: E402
from ggp.spiel.players import CfrPlayer, view_records  # noqa: E402
from ggp.spiel.records import information_key, seen_record  # noqa: E402


def test_registered() -> None:
    names = {cls.name for cls in available_players()}
    assert {"cfr", "spiel_ismcts"} <= names


def test_match_views_map_to_the_trees_keys() -> None:
    """At every decision of seeded random matches, the key the players build from what their role
    was told (moves and percepts, as a manager sends them) is the bridged tree's key there."""
    game = bridged("kuhn.rcy")
    machine = make_machine(game.description)
    tree = game.tree
    decisions = 0
    for seed in range(20):
        rng = random.Random(seed)
        history: list[tuple[Term, ...]] = []
        state = machine.initial_state()
        while not machine.is_terminal(state):
            legal = machine.all_legal_moves(state)
            states = history_states(machine, history)
            for p, r in enumerate(tree.players):
                if len(legal[r]) < 2:
                    continue
                node = tree.follow(history)
                while node.role != r:
                    node = node.child(node.actions[0])
                records = [seen_record(joint[r], machine.percepts(before, joint)[tree.roles[r]])
                           for joint, before in zip(history, states)]
                assert information_key(tree.roles[r], records, True, legal[r]) == node.key(p)
                decisions += 1
            joint = random_joint_move(machine, state, rng)
            history.append(joint)
            state = machine.next_state(state, joint)
    assert decisions >= 40


def test_cfr_policy_from_a_view() -> None:
    """The cfr player, shown views built as the session builds them (its belief from its moves and
    percepts), plays its average policy: after 300 CFR+ iterations Kuhn's equilibrium, in which
    player1 facing a bet calls with one card (the king), folds with another (the jack) and calls
    a third of the time with the queen. Moves are found by structure, not by name: a bet is the
    move after which the other player's options change, a call the one that ends with 2 chips won."""
    game = bridged("kuhn.rcy")
    machine = make_machine(game.description)
    player = type("CountedCfr", (CfrPlayer,), {"iterations": 300})(rng=random.Random(1))
    role = game.tree.roles[1]
    match = MatchInfo("m", role, game.description, 10, 1)
    player.start(StartView(match, machine, Deadline.after(10)))
    root = game.new_initial_state()
    calls = []
    for p0_card in root.legal_actions():
        dealt = root.child(p0_card)
        for p1_card in dealt.legal_actions():
            state = dealt.child(p1_card)
            bet = next(a for a in state.legal_actions() if state.child(a).legal_actions() != state.legal_actions())
            state.apply_action(bet)
            call = next(a for a in state.legal_actions() if abs(state.child(a).returns()[0]) == 2)
            records = game.tree.tries[1].sequence(state.node.obs[1])
            belief = Belief(machine, role, description=game.description, rng=random.Random(0))
            moves = tuple(record[0] for record in records)
            seen = tuple(frozenset(record[1]) for record in records)  # type: ignore[arg-type]
            for move, percepts in zip(moves, seen):
                belief.update(Observation(move, percepts))
            view = TurnView(match, machine, len(records), moves, seen, None, belief, belief.legal_moves(),
                            Deadline.after(1))
            assert view_records(view) == records
            probs = player.move_probabilities(view)
            assert probs is not None and set(probs) == set(view.legal_moves)
            assert sum(probs.values()) == pytest.approx(1.0)
            assert player.play(view) in view.legal_moves
            calls.append((p1_card, probs[state.node.move(call)]))
    by_card: dict[int, set[float]] = {}
    for card, p in calls:
        by_card.setdefault(card, set()).add(round(p, 2))
    assert all(len(ps) == 1 for ps in by_card.values())  # a key per card: the other card is unseen
    assert sorted(p for ps in by_card.values() for p in ps) == pytest.approx([0.0, 1 / 3, 1.0], abs=0.05)


def test_exploitability_of_players() -> None:
    game = bridged("kuhn.rcy")
    cfr = player_exploitability(game, "cfr", iterations=300)
    assert cfr.exploitability < 0.01 and cfr.information_states == 12
    assert cfr.values == pytest.approx((-1 / 18, 1 / 18), abs=0.01)
    legal = player_exploitability(game, "legal")
    assert legal.exploitability == pytest.approx(legal.nash_conv / 2) and legal.nash_conv > 0.5


def test_exploitability_repeats_with_its_seed() -> None:
    game = bridged("kuhn.rcy")
    first = player_exploitability(game, "random", seed=5, samples=3)
    second = player_exploitability(game, "random", seed=5, samples=3)
    assert (first.exploitability, first.values) == (second.exploitability, second.values)


def test_exploitability_command(env: dict[str, str]) -> None:  # noqa: F811
    done = ggp(env, "exploitability", str(RULESHEETS / "kuhn.rcy"), "--player", "cfr", "--iterations", "200",
               "--json", timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["units"] == "score" and out["information_states"] == 12 and out["tree"]["nodes"] == 58
    assert 0 <= out["exploitability"] < 0.01
    text = ggp(env, "exploitability", str(RULESHEETS / "kuhn.rcy"), "--player", "legal", timeout=300)
    assert text.returncode == 0 and "exploitability: " in text.stdout
    bad = ggp(env, "exploitability", str(RULESHEETS / "kuhn.rcy"), "--player", "nobody", timeout=300)
    assert bad.returncode == 1 and "unknown player" in bad.stderr and "Traceback" not in bad.stderr


def test_cfr_and_spiel_ismcts_play_a_match(env: dict[str, str]) -> None:  # noqa: F811
    done = ggp(env, "match", str(RULESHEETS / "kuhn.rcy"), "--player", "cfr", "--player", "spiel_ismcts",
               "--startclock", "8", "--playclock", "1", "--seed", "4", timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["errors"] == [] and sorted(out["goals"].values()) == [0, 100]
    assert "substitut" not in done.stderr


def test_rules_that_cannot_be_bridged_leave_the_player_playing_at_random(caplog: pytest.LogCaptureFixture) -> None:
    game = bridged("montyhall.kif")
    machine = make_machine(game.description)
    insisting = type("ScoredCfr", (CfrPlayer,), {"game_parameters": {"returns": "score"}})(rng=random.Random(2))
    role = game.tree.roles[0]
    match = MatchInfo("m", role, game.description, 1, 1)
    insisting.start(StartView(match, machine, Deadline.after(1)))
    assert "cannot bridge" in caplog.text and "no (score ROLE N)" in caplog.text
    belief = Belief(machine, role, description=game.description, rng=random.Random(0))
    belief.update(Observation(Term.parse("noop"), frozenset()))
    view = TurnView(match, machine, 1, (Term.parse("noop"),), (frozenset(),), None, belief, belief.legal_moves(),
                    Deadline.after(1))
    probs = insisting.move_probabilities(view)
    assert probs == {move: pytest.approx(1 / 3) for move in view.legal_moves} and len(probs) == 3
    assert insisting.play(view) in view.legal_moves


def test_command_default_is_the_bridges() -> None:
    from ggp.cli.spiel_commands import DEFAULT_EXPAND as command
    from ggp.spiel.summary import DEFAULT_EXPAND as bridge

    assert command == bridge


class SampledCfr(CfrPlayer):
    """``cfr`` on a game it does not walk whole: external-sampling MCCFR."""

    game_parameters = {"expand": 0}
    iterations = 3000


def test_cfr_samples_a_game_it_does_not_walk() -> None:
    game = bridged("kuhn.rcy")
    first = player_exploitability(game, "tests.spiel.test_players:SampledCfr")
    assert first.exploitability < 0.05  # the uniform policy: 0.4583
    again = player_exploitability(game, "tests.spiel.test_players:SampledCfr")
    assert again.exploitability == first.exploitability  # seeded
