"""What keeping track of the state costs: the tracker, the belief, the session's hypotheses.

    python benchmarks/knowledge.py [--games NAME ...] [--seed N] [--step-time S]

For a seeded random match of each game, per step (one role's view): the time of the depth-first
``HistoryTracker`` (one history), of the ``Belief`` update and its ``legal_everywhere`` query,
and of the session's ``Knowledge.observe`` (belief + 96 hypotheses carried by the machine,
refilled, backtracked, with the tracker as last resort), each given ``--step-time`` seconds
(default 0.5, as with a 1 s play clock). Prints the mean and worst time of each, how often the
tracker had to ignore percepts, and the mean number of distinct states among the hypotheses.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.belief import Belief
from ggp.errors import GGPError
from ggp.gdl.load import load_game
from ggp.players.deadline import Deadline
from ggp.players.knowledge import Knowledge
from ggp.players.tracker import HistoryTracker, Observation
from ggp.reasoner import make_machine
from ggp.reasoner.play import random_joint_move

CORPUS = ROOT.parent / "shared" / "corpus" / "gdl2"
GAMES = {
    "blind_ttt": (ROOT / "rulesheets" / "blind_tictactoe.kif", "white"),
    "krieg": (CORPUS / "kriegTTT_4x4.gdl", "xplayer"),
    "meier": (CORPUS / "kuleuven_ii_meier.gdl", "p1"),
    "transit": (CORPUS / "transit.gdl", "transit"),
    "mastermind": (CORPUS / "mastermind.gdl", "player"),
    "battleships": (CORPUS / "unsw_BattleshipsFog.gdl", "admiral"),
    "kuhn": (ROOT / "rulesheets" / "kuhn.rcy", "player0"),
    "agram": (ROOT / "rulesheets" / "agram.rcy", "player0"),
}
#: Games measured unless --games says otherwise (agram takes minutes).
DEFAULT = ["blind_ttt", "krieg", "meier", "transit", "mastermind", "battleships", "kuhn"]


def measure(path: Path, role_name: str, seed: int, step_time: float) -> None:
    description = load_game(path)
    machine = make_machine(description)
    role = next(r for r in machine.roles if str(r) == role_name)
    index = machine.role_index(role)
    tracker = HistoryTracker(machine, role, random.Random(seed))
    belief = Belief(description, role, machine=machine)
    knowledge = Knowledge(machine, description, role, random.Random(seed), play_clock=2 * step_time)
    knowledge.start()
    times: dict[str, list[float]] = {"tracker": [], "update": [], "legal": [], "knowledge": []}
    relaxed = 0
    distinct: list[int] = []
    rng = random.Random(seed)
    state = machine.initial_state()
    while not machine.is_terminal(state):
        joint = random_joint_move(machine, state, rng)
        seen = machine.percepts(state, joint)[role]
        state = machine.next_state(state, joint)
        live = not machine.is_terminal(state)
        obs = Observation(joint[index], seen)
        began = time.perf_counter()
        try:
            relaxed += not tracker.observe(obs, Deadline.after(step_time), live)
        except GGPError:
            relaxed += 1
        times["tracker"].append(time.perf_counter() - began)
        began = time.perf_counter()
        belief.update(joint[index], seen)
        times["update"].append(time.perf_counter() - began)
        began = time.perf_counter()
        belief.legal_everywhere()
        times["legal"].append(time.perf_counter() - began)
        began = time.perf_counter()
        knowledge.observe(obs, Deadline.after(step_time), live)
        knowledge.legal_moves()
        times["knowledge"].append(time.perf_counter() - began)
        distinct.append(len(knowledge.hypotheses().distribution()))
    steps = len(distinct)
    cells = "  ".join(f"{name} {1e3 * sum(v) / steps:6.1f}/{1e3 * max(v):6.0f}" for name, v in times.items())
    print(f"{path.stem[:22]:22} {steps:3} steps  {cells}  tracker relaxed {relaxed:2}  "
          f"states {sum(distinct) / steps:5.1f}  consistent {knowledge.consistent}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=DEFAULT, choices=list(GAMES))
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--step-time", type=float, default=0.5)
    args = parser.parse_args()
    print("per step, mean/worst milliseconds (tracker, belief update, legal_everywhere, session knowledge)")
    for name in args.games:
        path, role = GAMES[name]
        if not path.exists():
            print(f"{name}: skipped ({path} is absent)")
            continue
        measure(path, role, args.seed, args.step_time)


if __name__ == "__main__":
    main()
