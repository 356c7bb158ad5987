"""Which moves a percept reveals, read from the rules (:mod:`ggp.reasoner.rule_reveals`), as the
oracle's ``percept_moves``.

Checked for soundness against the oracle's own percepts on seeded playouts of every GDL-II corpus
game (whenever a role sees a percept, each constrained role played one of the moves named), against
the fast reasoner's analysis of the ground network (the rule-level sets may be less precise, never
smaller), against tables derived by hand for small games written for it, and on Small Dominion,
where a dealt hand pins random's move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from ggp.errors import InvalidGameError
from ggp.gdl import parse_kif
from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Function, Term
from ggp.gdl.validate import prepare
from ggp.reasoner.fast import FastMachine
from ggp.reasoner.machine import JointMove, State, StateMachine
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import joint_moves, random_joint_move
from ggp.reasoner.rule_reveals import MAX_DEPTH, PerceptMoves, Revealed
from tests.conftest import RULESHEETS, SHARED, corpus_files, shared_path

GDL2 = SHARED / "corpus" / "gdl2"
# Games on which the sampled transitions below meet percepts the rules tie to moves.
INFORMATIVE = {"kriegTTT_4x4", "kuleuven_ii_meier", "mastermind", "montyhall", "small_dominion",
               "unsw_BankerAndThief", "unsw_blackjack", "unsw_twogenerals"}
# Games the fast reasoner grounds in a few seconds at most, for the comparison with its analysis.
GROUNDED = [GDL2 / f"{name}.gdl" for name in (
    "blind_breakthrough_5x5", "guessSix", "kriegTTT_4x4", "kuleuven_ii_meier", "montyhall", "transit",
    "unsw_BankerAndThief", "unsw_MontyHall", "unsw_minesweeper", "unsw_numberguessing", "unsw_rockpaperscissors",
)] + [RULESHEETS / "kuhn.rcy", RULESHEETS / "montyhall.kif", RULESHEETS / "blind_tictactoe.kif"]

t = Term.parse


def _moves(*texts: str) -> frozenset[Term]:
    return frozenset(t(x) for x in texts)


def _game(text: str) -> GameDescription:
    description, _ = prepare(parse_kif(text, "test.kif"))
    return description


def _transitions(machine: StateMachine, playouts: int, steps: int, most: int,
                 seed: int = 11) -> Iterator[tuple[State, JointMove]]:
    """Every joint move of the first ``steps`` states of seeded random playouts (``most`` random
    ones of a state with more), and the joint move each playout goes on with."""
    for n in range(playouts):
        rng = random.Random(seed + n)
        state = machine.initial_state()
        for _ in range(steps):
            if machine.is_terminal(state):
                break
            if math.prod(len(moves) for moves in machine.all_legal_moves(state)) <= most:
                yield from ((state, joint) for joint in joint_moves(machine, state))
            else:
                yield from ((state, random_joint_move(machine, state, rng)) for _ in range(most))
            played = random_joint_move(machine, state, rng)
            yield state, played
            state = machine.next_state(state, played)


def _check_sound(machine: StateMachine, playouts: int, steps: int, most: int) -> int:
    """Whenever a role sees a percept, each constrained role's move is in its set; returns how many
    constrained moves were checked."""
    analyses = {role: machine.percept_moves(role) for role in machine.roles}
    constrained = 0
    for state, joint in _transitions(machine, playouts, steps, most):
        for role, seen in machine.percepts(state, joint).items():
            for percept in seen:
                revealed = analyses[role][percept]
                assert len(revealed) == len(machine.roles)
                for move, allowed in zip(joint, revealed):
                    if allowed is not None:
                        assert move in allowed, (state, joint, role, percept, sorted(map(str, allowed)))
                        constrained += 1
    return constrained


@pytest.mark.parametrize("path", corpus_files("gdl2", "*.gdl"), ids=lambda p: p.stem)
def test_sound_on_the_corpus(path: Path) -> None:
    try:
        description = load_game(path)
    except InvalidGameError:
        pytest.skip(f"{path.name} does not validate")
    steps = 2 if path.stem == "unsw_BattleshipsFog" else 6  # its every transition costs the oracle 25 ms
    constrained = _check_sound(OracleMachine(description), playouts=2, steps=steps, most=10)
    if path.stem in INFORMATIVE:
        assert constrained > 0


@pytest.mark.parametrize("path", GROUNDED, ids=lambda p: p.name)
def test_never_more_precise_than_the_network(path: Path) -> None:
    """Per percept of the fast reasoner's table and per role: a rule-level set contains the
    network-level one; where the network knows nothing, neither do the rules."""
    if not path.exists():
        pytest.skip(f"needs {path}")
    description = load_game(path)
    fast, oracle = FastMachine(description), OracleMachine(description)
    for role in fast.roles:
        rules = oracle.percept_moves(role)
        for percept, network in fast.percept_moves(role).items():
            for known, read in zip(network, rules[percept], strict=True):
                if read is not None:
                    assert known is not None and known <= read, (role, percept, known, read)


def test_small_dominion_deal_pins_random() -> None:
    """Duke sees the hand random dealt him: one move among hundreds."""
    oracle = OracleMachine(load_game(shared_path("corpus", "gdl2", "small_dominion.gdl")))
    duke, earl = Constant("duke"), Constant("earl")
    assert oracle.roles == (duke, earl, Constant("random"))
    assert oracle.percept_moves(duke)[t("(hand 0 2 4)")] == (None, None, _moves("(deal duke 0 2 4)"))
    assert oracle.percept_moves(earl).get(t("(hand 0 2 4)")) == (None, None, _moves("(deal earl 0 2 4)"))
    state = oracle.initial_state()
    legal = oracle.all_legal_moves(state)
    assert len(legal[2]) > 100
    joint = random_joint_move(oracle, state, random.Random(3))
    (hand,) = [p for p in oracle.percepts(state, joint)[duke] if p.name == "hand"]
    allowed = oracle.percept_moves(duke)[hand][2]
    assert allowed is not None and [m for m in legal[2] if m in allowed] == [joint[2]]


LOOKOUT = """
(role spy) (role guard) (role random)
(spot a) (spot b) (spot c) (zone a) (zone b) (adj a b) (adj b c) (adj c a)
(init (round 0))
(<= (legal random (hide ?x)) (spot ?x))
(<= (legal guard (look ?x)) (spot ?x))
(legal spy wait)
(legal spy shout)
(<= (hidden ?x) (does random (hide ?x)) (zone ?x))
(<= (caught ?x) (hidden ?x) (does guard (look ?x)))
(<= (sees guard (found ?x)) (caught ?x))
(<= (sees spy near) (hidden ?x) (true (round 0)))
(<= (sees guard either) (does guard (look a)))
(<= (sees guard either) (does guard (look b)) (true (round 0)))
(<= (sees spy loud) (does spy shout) (does guard (look c)))
(<= (sees spy loud) (does spy shout))
(<= (sees spy never) (does guard (look a)) (does guard (look b)))
(<= (sees spy (hint ?x)) (does random (hide ?x)) (not (does guard (look ?x))))
(<= (sees spy (other ?x)) (does random (hide ?x)) (distinct ?x a))
(<= (sees guard (check ?x)) (does guard (look ?y)) (does guard (look ?x)))
(<= (sees guard rustle) (does random (hide ?x)))
(<= (sees guard idle) (does ?r wait))
(<= (sees guard (echo ?x)) (spot ?x) (or (does random (hide ?x)) (does spy shout)))
(<= (reach ?x) (does random (hide ?x)))
(<= (reach ?y) (reach ?x) (adj ?x ?y))
(<= (sees guard (trail ?x)) (reach ?x))
(<= (sees spy (round ?n)) (true (round ?n)))
(<= (next (round 1)) (true (round 0)))
(<= terminal (true (round 1)))
(<= (goal ?r 0) (role ?r))
"""


def test_lookout_by_hand() -> None:
    """Each percept's entry as derived by hand from the rules above."""
    oracle = OracleMachine(_game(LOOKOUT))
    spy, guard = Constant("spy"), Constant("guard")
    never: Revealed = (frozenset(), frozenset(), frozenset())
    expected: dict[Constant, dict[str, Revealed]] = {
        guard: {
            # through two derived move-dependent predicates, caught and hidden
            "(found a)": (None, _moves("(look a)"), _moves("(hide a)")),
            "(found c)": (None, _moves("(look c)"), _moves("(hide c)")),  # zone c is a static fact: not read
            "either": (None, _moves("(look a)", "(look b)"), None),
            "(check b)": (None, _moves("(look b)"), None),  # (look ?y) filters {(look b)}
            "rustle": (None, None, None),  # a non-ground pattern: nothing known
            "idle": (None, None, None),  # a variable role: nothing known
            "(echo a)": (None, None, None),  # or constrains nothing
            "(trail a)": (None, None, None),  # reach is recursive
            "near": (None, None, None),  # no rule for guard
        },
        spy: {
            "near": (None, None, None),  # hidden ?x: the pattern (hide ?x)
            "loud": (_moves("shout"), None, None),  # the second rule leaves guard free
            "never": never,  # two moves of one role
            "(hint b)": (None, None, _moves("(hide b)")),  # a negative literal constrains nothing
            "(other b)": (None, None, _moves("(hide b)")),
            "(other a)": never,  # (distinct a a)
            "(round 0)": (None, None, None),
            "(unknown 1)": (None, None, None),  # no rule produces it
        },
    }
    for role, table in expected.items():
        analysis = oracle.percept_moves(role)
        assert isinstance(analysis, PerceptMoves) and analysis is oracle.percept_moves(role)
        assert len(analysis) == 0 and list(analysis) == []  # nothing computed before the first lookup
        assert {p: analysis[t(p)] for p in table} == table
        assert set(analysis) == {t(p) for p in table} and len(analysis) == len(table)
    fast = FastMachine(_game(LOOKOUT))  # the network is at least as precise
    for role in fast.roles:
        for percept, network in fast.percept_moves(role).items():
            for known, read in zip(network, oracle.percept_moves(role)[percept]):
                assert read is None or (known is not None and known <= read), (role, percept)
    assert _check_sound(oracle, playouts=1, steps=2, most=100) > 0


def _chain(length: int) -> str:
    links = "".join(f"(<= (d{i + 1} ?x) (d{i} ?x))\n" for i in range(length))
    return f"""
(role spy) (role random)
(spot a) (spot b)
(init (round 0))
(<= (legal random (hide ?x)) (spot ?x))
(legal spy wait)
(<= (d0 ?x) (does random (hide ?x)))
{links}
(<= (sees spy (deep ?x)) (d{length} ?x))
(<= (sees spy (shallow ?x)) (d{MAX_DEPTH - 4} ?x))
(<= (next (round 1)) (true (round 0)))
(<= terminal (true (round 1)))
(<= (goal ?r 0) (role ?r))
"""


def test_depth_guard() -> None:
    """A chain of derived predicates deeper than the guard reveals nothing; a shallower query
    afterwards, through part of the same chain, is not spoiled by the cut."""
    oracle = OracleMachine(_game(_chain(MAX_DEPTH + 6)))
    spy = Constant("spy")
    analysis = oracle.percept_moves(spy)
    assert analysis[t("(deep a)")] == (None, None)
    assert analysis[t("(shallow a)")] == (None, _moves("(hide a)"))
    assert _check_sound(oracle, playouts=1, steps=2, most=10) > 0


ECHO = """
(role speaker) (role random)
(word hello) (word (pair hello hello))
(init (turn 0))
(<= (legal speaker (say ?w)) (word ?w))
(legal random noop)
(<= (sees speaker ?p) (does speaker (say ?p)))
(<= (next (turn 1)) (true (turn 0)))
(<= terminal (true (turn 1)))
(goal speaker 0)
"""


def test_never_raises_for_a_ground_term() -> None:
    """Any ground term is answered, however odd; other keys are simply missing."""
    oracle = OracleMachine(_game(ECHO))
    speaker = Constant("speaker")
    analysis = oracle.percept_moves(speaker)
    deep: Term = Constant("x")
    for _ in range(5000):
        deep = Function("f", (deep,))
    assert analysis[t("hello")] == (_moves("(say hello)"), None)
    for term in (t("(pair hello hello)"), t("12"), t("(sees speaker hello)"), deep):
        revealed = analysis.get(term)
        assert revealed is not None and len(revealed) == 2
    assert oracle.percept_moves(Constant("nobody")).get(t("hello")) == (None, None)
    assert analysis.get(t("(pair ?x hello)")) is None
    assert analysis.get("hello") is None  # type: ignore[call-overload]
    with pytest.raises(KeyError):
        analysis[t("?x")]
    assert _check_sound(oracle, playouts=2, steps=1, most=10) > 0
