"""Benchmark: drawing weighted states from a belief, and the sampler's bias.

    python benchmarks/belief_sampling.py [--samples K] [--seed S] [--budget SECONDS]
                                         [--reasoner auto|fast|oracle] [--games a,b,...] [--no-bias]

1. Sampling speed. For Krieg-TicTacToe 4x4, Small Dominion and Mastermind (``../shared/corpus/
   gdl2``), a seeded random match gives one role's observations; at the middle and at the end
   of the match, the belief is built (one ``update`` per step: the time to ground the steps
   and check them) and K weighted states are drawn with the solver-guided sampler (the
   state machine replays the sampled histories). A case that would exceed the budget stops
   early and its time for K samples is extrapolated (marked ``~``). ESS is the effective
   sample size of the final weights (Kish); resampling repeats histories, so the numbers of
   distinct histories and of distinct states are shown too.
2. Bias. Where the information set can be enumerated (Monty Hall; Krieg-TicTacToe after three
   steps) the exact posterior probability of every uncertain fluent is compared with the
   estimates from R independent samples of K states: the mean error (the bias of the
   self-normalised estimate, of order 1/K) and its root mean square, for the default sampler,
   for importance sampling without resampling, and for the latter's particles counted without
   their weights (what an unweighted sampler would say). ``--games ""`` skips part 1.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ggp.belief import Belief, Observation, SamplerSettings
from ggp.gdl.load import load_game
from ggp.gdl.rules import GameDescription
from ggp.gdl.terms import Constant, Term
from ggp.reasoner import make_machine
from ggp.reasoner.machine import StateMachine
from ggp.reasoner.play import random_joint_move

CORPUS = ROOT.parent / "shared" / "corpus" / "gdl2"
GAMES = {"krieg": ("kriegTTT_4x4.gdl", "xplayer"), "dominion": ("small_dominion.gdl", "duke"), "mastermind": ("mastermind.gdl", "player")}


def observe(machine: StateMachine, role: Constant, seed: int) -> list[Observation]:
    """What ``role`` sees in a uniformly random match."""
    rng = random.Random(seed)
    state = machine.initial_state()
    seen = []
    while not machine.is_terminal(state):
        joint = random_joint_move(machine, state, rng)
        seen.append(Observation(joint[machine.roles.index(role)], machine.percepts(state, joint)[role]))
        state = machine.next_state(state, joint)
    return seen


def speed(game: GameDescription, machine: StateMachine, role: Constant, seen: list[Observation], k: int, seed: int, budget: float) -> str:
    """One row of the speed table."""
    start = time.perf_counter()
    belief = Belief(game, role, seen, machine=machine)
    built = time.perf_counter() - start
    start = time.perf_counter()
    sample = belief.sample(k, random.Random(seed), method="guided", budget=budget)
    took = time.perf_counter() - start
    mark = " " if len(sample) == k else "~"
    total = took * k / len(sample)
    histories = len({p.history for p in sample})
    return f"{len(seen):>5} {built:9.2f} {mark}{total:10.2f} {1000 * total / k:10.1f} {sample.effective_size():6.1f} {histories:>9} {len(sample.distribution()):>6}"


def bias(belief: Belief, k: int, repeats: int, seed: int) -> tuple[float, ...]:
    """Worst |mean error| and RMS error over the uncertain fluents: weighted estimates of the
    default sampler, then weighted and unweighted ones of importance sampling alone."""
    exact = belief.information_set(cap=100_000)
    assert exact is not None
    fluents = sorted(belief.possible() - belief.certain(), key=str)
    truth = {f: exact.probability(f) for f in fluents}
    tables: list[dict[Term, list[float]]] = [{f: [] for f in fluents} for _ in range(3)]
    plain = Belief(belief.description, belief.role, belief.observations, machine=belief.machine,
                   settings=SamplerSettings(resample_below=0.0))
    rng = random.Random(seed)
    for _ in range(repeats):
        smc = belief.sample(k, rng, method="guided")
        sis = plain.sample(k, rng, method="guided")
        for f in fluents:
            tables[0][f].append(smc.probability(f) - truth[f])
            tables[1][f].append(sis.probability(f) - truth[f])
            tables[2][f].append(sum(f in p.state.fluents for p in sis) / k - truth[f])
    out: list[float] = []
    for table in tables:
        out.append(max(abs(statistics.fmean(e)) for e in table.values()))
        out.append(math.sqrt(statistics.fmean(x * x for e in table.values() for x in e)))
    return tuple(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=100, help="weighted states per draw (default 100)")
    parser.add_argument("--seed", type=int, default=8, help="seed of the random matches and the sampler")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per case before extrapolating")
    parser.add_argument("--reasoner", default="auto", help="state machine for play and replay (auto|fast|oracle)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated: " + ", ".join(GAMES))
    parser.add_argument("--no-bias", action="store_true", help="skip the bias measurement")
    args = parser.parse_args()
    if not CORPUS.exists():
        print(f"needs {CORPUS}", file=sys.stderr)
        return 1
    k = args.samples
    games = [name for name in args.games.split(",") if name]
    if games:
        print(f"Drawing {k} weighted states (solver-guided sampler, seed {args.seed}, {args.reasoner} machine)\n")
        print(f"{'game':<12} {'point':<7} {'steps':>5} {'build s':>9} {'draw s':>11} {'ms/state':>10} {'ESS':>6} {'histories':>9} {'states':>6}")
    for name in games:
        file, role_name = GAMES[name]
        game = load_game(CORPUS / file, check=False)
        machine = make_machine(game, args.reasoner)
        role = Constant(role_name)
        seen = observe(machine, role, args.seed)
        for point, steps in (("middle", len(seen) // 2), ("end", len(seen))):
            row = speed(game, machine, role, seen[:steps], k, args.seed, args.budget)
            print(f"{name:<12} {point:<7} {row}", flush=True)
    if args.no_bias:
        return 0
    repeats = 40
    print(f"{chr(10) if games else ''}Bias: {repeats} samples of {k} states; error = estimate - exact posterior; worst |mean")
    print("error| (bias) and RMS error over the uncertain fluents, for the default sampler and for")
    print("importance sampling alone (no resampling), with and without the weights\n")
    print(f"{'case':<26} {'states':>6} {'default bias':>13} {'rms':>6} {'IS bias':>8} {'rms':>6} {'unweighted':>10} {'rms':>6}")
    monty = load_game(CORPUS / "montyhall.gdl", check=False)
    cases = [("montyhall", monty, Constant("candidate"), [
        Observation(Term.parse("(choose 1)"), frozenset({Term.parse("(does candidate (choose 1))")})),
        Observation(Term.parse("noop"), frozenset({Term.parse("(does candidate noop)"), Term.parse("(open_door 3)")})),
    ])]
    krieg = load_game(CORPUS / "kriegTTT_4x4.gdl", check=False)
    x = Constant("xplayer")
    for seed in (1, 2):
        cases.append((f"kriegTTT 3 steps, seed {seed}", krieg, x, observe(make_machine(krieg, args.reasoner), x, seed)[:3]))
    for label, game, role, seen in cases:
        belief = Belief(game, role, seen, machine=make_machine(game, args.reasoner))
        size = belief.information_set(cap=100_000).size  # type: ignore[union-attr]
        db, dr, ib, ir, ub, ur = bias(belief, k, repeats, args.seed)
        print(f"{label:<26} {size:>6} {db:>13.4f} {dr:>6.4f} {ib:>8.4f} {ir:>6.4f} {ub:>10.4f} {ur:>6.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
