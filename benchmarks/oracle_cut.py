"""The clingo oracle with and without the relevance cut, on translated RECYCLE games.

Run: ``python benchmarks/oracle_cut.py [--states N] [--seed S] [GAME ...]`` from the project root
(games are RECYCLE corpus names, default Hearts4, Pairs3 and Cribbage2). For each game it plays one
seeded random playout of at most N states (default 30) twice, asking the oracle the legal moves,
percepts and next state at every state, once grounding the whole program for each state and once
only the rules that can fire in it (``ggp.reasoner.relevance``). It prints the rules (with a body) of the program and those kept per state, the CPU
seconds per state of each and their ratio.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.gdl.terms import Term
from ggp.reasoner.oracle import OracleMachine
from ggp.reasoner.play import random_joint_move
from translators.recycle.translate import translate_file

CORPUS = ROOT.parent / "shared" / "corpus" / "recycle"
DEFAULT_GAMES = ["Hearts4", "Pairs3", "Cribbage2"]


def seconds_per_state(machine: OracleMachine, states: int, seed: int) -> tuple[float, int]:
    """CPU seconds per state over one seeded playout of at most ``states`` states, and the count."""
    rng = random.Random(seed)
    state = machine.initial_state()
    count = 0
    start = time.process_time()
    while count < states and not machine.is_terminal(state):
        joint: tuple[Term, ...] = random_joint_move(machine, state, rng)
        machine.percepts(state, joint)
        state = machine.next_state(state, joint)
        count += 1
    return (time.process_time() - start) / max(count, 1), count


def rules(statements: tuple[str, ...]) -> int:
    """How many of the statements (clingo text) are rules with a body."""
    return sum(1 for s in statements if " :- " in s)


def rules_kept(machine: OracleMachine, states: int, seed: int) -> float:
    """The mean number of rules the cut keeps per state along the same playout."""
    rng = random.Random(seed)
    state = machine.initial_state()
    kept: list[int] = []
    while len(kept) < states and not machine.is_terminal(state):
        kept.append(rules(machine.relevant(state.fluents)))
        state = machine.next_state(state, random_joint_move(machine, state, rng))
    return sum(kept) / max(len(kept), 1)


def main() -> None:
    """Print, per game, the rules kept and the oracle's cost per state with and without the cut."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", default=DEFAULT_GAMES,
                        help="RECYCLE corpus game names (default: %(default)s)")
    parser.add_argument("--states", type=int, default=30, metavar="N", help="states per playout (default 30)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"oracle_cut: {CORPUS} not found (../shared beside the project)")
    print(f"{'game':<14}{'rules':>8}{'kept':>8}{'states':>8}{'whole s':>10}{'cut s':>9}{'ratio':>7}")
    for game in args.games:
        description = translate_file(CORPUS / f"{game}.rcy").description
        whole_machine = OracleMachine(description, cut=False)
        whole, count = seconds_per_state(whole_machine, args.states, args.seed)
        cut_machine = OracleMachine(description)
        cut, _ = seconds_per_state(cut_machine, args.states, args.seed)
        kept = rules_kept(cut_machine, args.states, args.seed)
        print(f"{game:<14}{rules(whole_machine.relevant(())):>8}{kept:>8.0f}{count:>8}{whole:>10.3f}{cut:>9.3f}"
              f"{whole / cut:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
