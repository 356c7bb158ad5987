"""One role's percepts (``role_percepts``) and the moves a percept reveals (``percept_moves``).

``role_percepts`` is checked against ``percepts`` on every joint move (500 at most) of every
state of seeded playouts; ``percept_moves`` is checked for soundness on the same transitions (whenever a role
sees a percept, every constrained role played one of the moves the analysis names), against a
hand-derived table on a small game written for it, and for being informative on Agram.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from ggp.gdl import parse_kif
from ggp.gdl.load import load_game
from ggp.gdl.terms import Constant, Function, Term
from ggp.gdl.validate import prepare
from ggp.reasoner.fast import FastMachine
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import joint_moves, random_joint_move
from tests.conftest import RULESHEETS, SHARED

GDL2 = SHARED / "corpus" / "gdl2"
QUICK = [GDL2 / f"{name}.gdl" for name in (
    "blind_breakthrough_5x5", "guessSix", "kriegTTT_4x4", "kuleuven_ii_meier", "montyhall", "transit",
    "unsw_BankerAndThief", "unsw_MontyHall", "unsw_minesweeper", "unsw_numberguessing", "unsw_rockpaperscissors",
)] + [RULESHEETS / "kuhn.rcy", RULESHEETS / "agram.rcy", RULESHEETS / "blind_tictactoe.kif"]
# Seconds to build each (100,000 to 435,000 ground rules): only the slow run checks them.
SLOW = [GDL2 / f"{name}.gdl" for name in ("mastermind", "unsw_BattleshipsFog", "unsw_blackjack")]
# small_dominion and twogenerals do not ground (the oracle plays them).


@cache
def _machine(path: Path) -> FastMachine:
    if not path.exists():
        pytest.skip(f"needs {path}")
    return FastMachine(load_game(path))


def _transitions(machine: StateMachine, playouts: int, seed: int = 7,
                 most: int = 500) -> Iterator[tuple[State, JointMove]]:
    """Every joint move of every state of ``playouts`` seeded random playouts (``most`` random
    ones of a state with more: BattleshipsFog has 50,000)."""
    for n in range(playouts):
        rng = random.Random(seed + n)
        state = machine.initial_state()
        for _ in range(500):
            if machine.is_terminal(state):
                break
            if math.prod(len(moves) for moves in machine.all_legal_moves(state)) <= most:
                yield from ((state, joint) for joint in joint_moves(machine, state))
            else:
                yield from ((state, random_joint_move(machine, state, rng)) for _ in range(most))
            state = machine.next_state(state, random_joint_move(machine, state, rng))


def _check_role_percepts(machine: FastMachine, playouts: int) -> int:
    checked = 0
    for state, joint in _transitions(machine, playouts):
        seen = machine.percepts(state, joint)
        for role in machine.roles:
            assert machine.role_percepts(state, joint, role) == seen[role], (state, joint, role)
            checked += 1
    return checked


def _check_sound(machine: StateMachine, playouts: int) -> int:
    """Whenever a role sees a percept with constraints, the joint move meets every one of them."""
    analyses = {role: machine.percept_moves(role) for role in machine.roles}
    constrained = 0
    for state, joint in _transitions(machine, playouts):
        for role in machine.roles:
            for percept in machine.role_percepts(state, joint, role):
                for move, allowed in zip(joint, analyses[role].get(percept, ())):
                    if allowed is not None:
                        assert move in allowed, (state, joint, role, percept, sorted(map(str, allowed)))
                        constrained += 1
    return constrained


@pytest.mark.parametrize("path", QUICK, ids=lambda p: p.name)
def test_role_percepts_equal_percepts(path: Path) -> None:
    assert _check_role_percepts(_machine(path), 5) > 0


@pytest.mark.slow
@pytest.mark.parametrize("path", SLOW, ids=lambda p: p.name)
def test_role_percepts_equal_percepts_slow_games(path: Path) -> None:
    assert _check_role_percepts(_machine(path), 3) > 0


@pytest.mark.parametrize("path", QUICK, ids=lambda p: p.name)
def test_percept_moves_are_sound(path: Path) -> None:
    machine = _machine(path)
    _check_sound(machine, 5)
    for role in machine.roles:  # percepts the role can see that constrain a move, one item per role
        analysis = machine.percept_moves(role)
        assert set(analysis) <= {term for term, _ in machine.network.sees[machine.role_index(role)]}
        assert all(len(per_role) == len(machine.roles) and any(m is not None for m in per_role)
                   for per_role in analysis.values())


@pytest.mark.slow
@pytest.mark.parametrize("path", SLOW, ids=lambda p: p.name)
def test_percept_moves_are_sound_slow_games(path: Path) -> None:
    _check_sound(_machine(path), 2)


def test_the_defaults_of_the_interface() -> None:
    """A reasoner without its own versions: one role's percepts out of all of them; nothing known."""
    description = load_game(RULESHEETS / "montyhall.kif")
    oracle, fast = OracleMachine(description), FastMachine(description)
    for state, joint in _transitions(fast, 2):
        for role in fast.roles:
            assert oracle.role_percepts(oracle.convert(state), joint, role) == fast.role_percepts(state, joint, role)
    assert oracle.percept_moves(fast.roles[0]) == {}
    assert fast.role_percepts(fast.initial_state(), next(joint_moves(fast, fast.initial_state())),
                              Constant("nobody")) == frozenset()
    assert fast.percept_moves(Constant("nobody")) == {}


HIDE_AND_SEEK = """
(role spy) (role guard) (role random)
(spot a) (spot b) (spot c) (zone a) (zone b) (adj a b) (adj b c) (adj c a)
(init (round 0))
(<= (legal random (hide ?x)) (spot ?x))
(<= (legal guard (look ?x)) (spot ?x))
(legal spy wait)
(legal spy shout)
(<= (sees guard (found ?x)) (does random (hide ?x)) (does guard (look ?x)))
(<= (sees guard either) (does guard (look a)))
(<= (sees guard either) (does guard (look b)) (true (round 0)))
(<= (sees spy (hint ?x)) (does random (hide ?x)) (not (does guard (look ?x))))
(<= (hidden ?x) (does random (hide ?x)) (zone ?x))
(<= (sees spy near) (hidden ?x) (true (round 0)))
(<= (sees spy loud) (hidden ?x) (does spy shout))
(<= (sees spy loud) (does spy shout) (does guard (look c)))
(<= (sees spy never) (does guard (look a)) (does guard (look b)))
(<= (sees spy (round ?n)) (true (round ?n)))
(<= (sees spy (quiet ?x)) (does random (hide ?x)) (not (does spy shout)))
(<= (reach ?x) (does random (hide ?x)))
(<= (reach ?y) (reach ?x) (adj ?x ?y))
(<= (sees guard (trail ?x)) (reach ?x))
(<= (next (round 1)) (true (round 0)))
(<= terminal (true (round 1)))
(<= (goal ?r 0) (role ?r))
"""


def test_percept_moves_by_hand() -> None:
    """Each percept's entry as derived by hand from the rules above."""
    description, _ = prepare(parse_kif(HIDE_AND_SEEK, "hide_and_seek.kif"))
    machine = FastMachine(description)
    spy, guard = Constant("spy"), Constant("guard")
    t = Term.parse

    def moves(*texts: str) -> frozenset[Term]:
        return frozenset(t(x) for x in texts)

    assert dict(machine.percept_moves(guard)) == {
        t("(found a)"): (None, moves("(look a)"), moves("(hide a)")),
        t("(found b)"): (None, moves("(look b)"), moves("(hide b)")),
        t("(found c)"): (None, moves("(look c)"), moves("(hide c)")),
        t("either"): (None, moves("(look a)", "(look b)"), None),
        # (trail ?x) is left out: reach is recursive, so its atoms constrain nothing (though
        # each needs some hide).
    }
    assert dict(machine.percept_moves(spy)) == {
        t("(hint a)"): (None, None, moves("(hide a)")),  # a negative does literal constrains nothing
        t("(hint b)"): (None, None, moves("(hide b)")),
        t("(hint c)"): (None, None, moves("(hide c)")),
        t("near"): (None, None, moves("(hide a)", "(hide b)")),  # through the derived atom hidden
        t("loud"): (moves("shout"), None, None),  # the second rule leaves random unconstrained
        t("never"): (frozenset(), frozenset(), frozenset()),  # two moves of one role: never seen
        # (round ?n) is left out: it reads the state only.
        t("(quiet a)"): (None, None, moves("(hide a)")),
        t("(quiet b)"): (None, None, moves("(hide b)")),
        t("(quiet c)"): (None, None, moves("(hide c)")),
    }
    assert _check_sound(machine, 3) > 0


def test_percept_moves_on_agram() -> None:
    """What a player's percepts reveal in Agram: which card random dealt it, and which card a
    player played face up."""
    machine = _machine(RULESHEETS / "agram.rcy")
    roles = [str(r) for r in machine.roles]
    player0, player2 = Constant("player0"), Constant("player2")
    dealt = machine.percept_moves(player0)[Term.parse("(moved 0 (loc game iloc stock) (loc player0 iloc hand) eight_spades)")]
    assert dealt == tuple(frozenset({Term.parse("(draw eight_spades)")}) if r == "random" else None for r in roles)
    hand = Term.parse("(loc player1 iloc hand)")
    played = [(p, per_role) for p, per_role in machine.percept_moves(player2).items()
              if isinstance(p, Function) and p.name == "moved" and p.args[1] == hand]
    assert played
    index = roles.index("player1")
    for percept, per_role in played:
        assert isinstance(percept, Function)
        card = percept.args[-1]
        for role, allowed in zip(roles, per_role):
            if role == "player1":
                assert allowed and all(isinstance(m, Function) and m.args[-1] == card for m in allowed)
            else:
                assert allowed is None
    # Together the percepts of the four of spades leaving player1's hand name every move of
    # player1's playing it.
    four = [per_role[index] for p, per_role in played if isinstance(p, Function) and str(p.args[-1]) == "four_spades"]
    assert len(four) == 2
    named = frozenset().union(*(allowed or () for allowed in four))
    assert named == frozenset(m for m in machine.network.moves[index] if str(m).endswith(" four_spades)"))


def test_the_cross_check_compares_role_percepts(monkeypatch: pytest.MonkeyPatch) -> None:
    """``compare_machines`` asks a machine with its own ``role_percepts`` for every role."""
    from ggp.reasoner.verify import compare_machines

    description = load_game(RULESHEETS / "montyhall.kif")
    monkeypatch.setattr(FastMachine, "role_percepts", lambda self, state, joint, role: frozenset())
    report = compare_machines(FastMachine(description), OracleMachine(description), 5, seed=1)
    assert report.disagreement is not None and report.disagreement.query.startswith("percepts of ")
