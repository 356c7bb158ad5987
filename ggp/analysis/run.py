"""Running an analysis: its matches through the tournament machinery, then each match traced.

Each experiment is a tournament (:func:`ggp.manager.tournament.play_tournament`, built on
:func:`ggp.manager.batch.run_matches`): in this process, in worker processes or on Ray, stored
in the match database as it is played, the players rotated over the seats, the seeds derived
from the analysis's seed. Its id is saved in the plan before the first match, so a stopped
analysis resumes its tournaments (:func:`ggp.manager.tournament.resume_tournament`). Then
every match not traced yet is traced (:mod:`ggp.analysis.tracing`), in ``workers`` processes of
this machine (also with Ray: tracing needs the game's machine, not the players), each trace
appended to the traces file as it is made.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ggp.analysis.metric import Dataset
from ggp.analysis.plan import MAIN, ORDER, AnalysisPlan, TraceWriter, read_traces
from ggp.analysis.trace import MatchTrace
from ggp.analysis.tracing import AnalysisError, Moves, trace_match
from ggp.gdl.kif import parse_kif
from ggp.gdl.rules import RANDOM, GameDescription
from ggp.gdl.validate import prepare
from ggp.manager.clocks import Clocks
from ggp.manager.record import MatchRecord
from ggp.manager.store import MatchStore, StoreError
from ggp.manager.tournament import PLAYED, TournamentResult, new_tournament_id, play_tournament, resume_tournament
from ggp.reasoner import make_machine


class Hooks(Protocol):
    """What a caller hears of an analysis's progress (a progress bar, a log)."""

    def begin(self, what: str, total: int, done: int) -> None:
        """A stage begins: ``total`` items, ``done`` of them done before."""

    def step(self) -> None:
        """One more item done."""

    def end(self) -> None:
        """The stage ended."""

    def say(self, line: str) -> None:
        """A line for the user."""


class Silent:
    """Hooks that say nothing."""

    def begin(self, what: str, total: int, done: int) -> None:
        """Nothing."""

    def step(self) -> None:
        """Nothing."""

    def end(self) -> None:
        """Nothing."""

    def say(self, line: str) -> None:
        """Nothing."""


@dataclass
class Outcome:
    """What :func:`run_analysis` did: the dataset (None when it stopped), the signal that
    stopped it, and the problems met (matches that could not be traced, not played)."""

    dataset: Dataset | None
    signal: int | None = None
    problems: list[str] = field(default_factory=list)
    played: dict[str, int] = field(default_factory=dict)


def description_of(plan: AnalysisPlan) -> GameDescription:
    """The plan's rules, checked against their SHA-256."""
    description, _ = prepare(parse_kif(plan.game_kif, plan.game_source))
    if description.digest() != plan.game_sha256:
        raise AnalysisError("the rules saved in the plan do not match their SHA-256: the plan was altered")
    return description


def seat_count(description: GameDescription) -> int:
    """The number of roles other than ``random``."""
    return sum(1 for r in description.roles if r != RANDOM)


def experiment_specs(plan: AnalysisPlan, experiment: str, seats: int) -> list[str]:
    """The player specs of an experiment's tournament: the players under study (one spec: in
    every seat); or the strong player and ``seats - 1`` baseline players (one seat: the strong
    player and the baseline, alternately)."""
    if experiment == MAIN:
        return plan.players * seats if len(plan.players) == 1 else list(plan.players)
    assert plan.order_player is not None
    return [plan.order_player] + [plan.baseline] * max(seats - 1, 1)


def experiments(plan: AnalysisPlan) -> list[tuple[str, int]]:
    """The experiments to run and their number of matches."""
    out = [(MAIN, plan.games)]
    if plan.order_player is not None and plan.order_games > 0:
        out.append((ORDER, plan.order_games))
    return out


def run_analysis(plan: AnalysisPlan, folder: Path, hooks: Hooks | None = None, *, workers: int | None = None,
                 ray: str | None = None) -> Outcome:
    """Play the plan's matches (or finish playing them), trace them and return the dataset
    (see the module doc). Stops early, with ``signal`` set, on Ctrl-C or SIGTERM."""
    hooks = hooks or Silent()
    description = description_of(plan)
    seats = seat_count(description)
    outcome = Outcome(None)
    records: dict[str, dict[int, MatchRecord]] = {}
    for experiment, games in experiments(plan):
        if experiment not in plan.tournaments:
            plan.tournaments[experiment] = new_tournament_id(description) + f".{experiment}"
            plan.save(folder)
        result = _tournament(plan, description, experiment, games, seats, hooks, workers, ray)
        outcome.played[experiment] = result.matches
        outcome.problems.extend(f"{experiment}: {line}" for line in result.errors)
        if result.interrupted:
            outcome.signal = result.signal or int(signal.SIGINT)
            return outcome
        records[experiment] = result.records
    traced = read_traces(folder)
    todo = [(e, i, r) for e, found in records.items() for i, r in sorted(found.items())
            if (e, r.match_id) not in traced]
    hooks.begin("traced", sum(len(f) for f in records.values()), sum(len(f) for f in records.values()) - len(todo))
    writer = TraceWriter(folder)
    try:
        for key, trace in _traces(plan, description, todo, workers):
            if isinstance(trace, str):
                outcome.problems.append(trace)
            else:
                writer.write(trace)
                traced[key] = trace
            hooks.step()
    except KeyboardInterrupt as exc:
        from ggp.manager.stopping import signal_of

        outcome.signal = signal_of(exc)
        return outcome
    finally:
        writer.close()
        hooks.end()

    def kept(experiment: str) -> tuple[MatchTrace, ...]:
        ids = [r.match_id for _, r in sorted(records.get(experiment, {}).items())]
        return tuple(traced[(experiment, m)] for m in ids if (experiment, m) in traced)

    outcome.dataset = Dataset(str(description.source or plan.game), tuple(str(r) for r in description.roles if r != RANDOM),
                              kept(MAIN), kept(ORDER), plan.order_player, plan.baseline, plan.seed)
    return outcome


def _tournament(plan: AnalysisPlan, description: GameDescription, experiment: str, games: int, seats: int,
                hooks: Hooks, workers: int | None, ray: str | None) -> TournamentResult:
    """Play an experiment's tournament, or finish it when the database has it."""
    tournament_id = plan.tournaments[experiment]
    label = "matches" if experiment == MAIN else f"matches of {plan.order_player} against {plan.baseline}"

    def progress(done: int, record: MatchRecord) -> None:
        hooks.step()

    try:
        with MatchStore(plan.db) as store:
            stored = store.tournament_records(tournament_id) if _exists(store, tournament_id) else None
    except StoreError:
        stored = None
    if stored is not None:
        hooks.begin(label, games, sum(1 for tries in stored.values() if any(r.status in PLAYED for r in tries)))
        try:
            return resume_tournament(tournament_id, plan.db, progress, workers=workers, ray=ray)
        finally:
            hooks.end()
    specs = experiment_specs(plan, experiment, seats)
    hooks.begin(label, games, 0)
    try:
        return play_tournament(description, specs, games, Clocks(*plan.clocks), _seed(plan, experiment), plan.reasoner,
                               progress=progress, db=plan.db, workers=workers, ray=ray, tournament_id=tournament_id)
    finally:
        hooks.end()


def _exists(store: MatchStore, tournament_id: str) -> bool:
    try:
        store.tournament(tournament_id)
    except StoreError:
        return False
    return True


def _seed(plan: AnalysisPlan, experiment: str) -> int:
    """The tournament seed of an experiment, derived from the analysis's."""
    import random

    return random.Random(f"{plan.seed}/{experiment}").getrandbits(31)


def trace_seed(plan: AnalysisPlan, experiment: str, index: int) -> str:
    """The seed of a match's rollouts: the same for the same analysis seed and match number."""
    return f"{plan.seed}/{experiment}/{index}"


def _traces(plan: AnalysisPlan, description: GameDescription, todo: list[tuple[str, int, MatchRecord]],
            workers: int | None) -> Iterator[tuple[tuple[str, str], MatchTrace | str]]:
    """Trace ``todo`` (experiment, match number, record), yielding (key, trace) as each is
    done, or (key, the problem) for a match that cannot be traced."""
    tasks = [(Moves.of(r).to_json(), e, plan.rollouts if e == MAIN else 0, trace_seed(plan, e, i))
             for e, i, r in todo]
    if not tasks:
        return
    if (workers or 1) <= 1 or len(tasks) == 1:
        machine = make_machine(description, plan.reasoner or "auto")
        for task in tasks:
            yield _key(task), _trace(machine, task)
        return
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(min(workers or 1, len(tasks)), _worker_start,
                        (description.to_kif(), description.source, plan.reasoner))
    try:
        for key, result in pool.imap_unordered(_worker_trace, tasks):
            yield key, MatchTrace.from_json(result) if isinstance(result, dict) else result
        pool.close()
    finally:
        pool.terminate()
        pool.join()


Task = tuple[dict[str, Any], str, int, str]


def _key(task: Task) -> tuple[str, str]:
    return task[1], str(task[0]["match_id"])


def _trace(machine: Any, task: Task) -> MatchTrace | str:
    moves, experiment, rollouts, seed = task
    try:
        return trace_match(Moves.from_json(moves), experiment, machine, rollouts, seed)
    except AnalysisError as exc:
        return f"{experiment}: not traced: {exc}"


_MACHINE: Any = None


def _worker_start(kif: str, source: str | None, reasoner: str | None) -> None:
    """A tracing process: ignore Ctrl-C (the parent stops the pool) and build the machine once."""
    global _MACHINE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    description, _ = prepare(parse_kif(kif, source))
    _MACHINE = make_machine(description, reasoner or "auto")


def _worker_trace(task: Task) -> tuple[tuple[str, str], dict[str, Any] | str]:
    result = _trace(_MACHINE, task)
    return _key(task), result if isinstance(result, str) else result.to_json()


__all__ = ["Hooks", "Outcome", "Silent", "description_of", "experiment_specs", "experiments", "run_analysis",
           "seat_count", "trace_seed"]
