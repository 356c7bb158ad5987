"""TAG's game metrics (seed 003, section 5, "Game Analysis": μ1 action space, μ2 branching factor,
μ3 state size, μ6 game length, μ7 reward sparsity) and the lead metrics that complete them,
computed from traced matches.

A GDL state's "components" (μ3) are its fluents; a "tick" (μ6) is a step, a joint move of every
role; a "decision" is a turn with two or more legal moves, as TAG asks its agents only then.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

from ggp.analysis.cardstock import lead_points
from ggp.analysis.metric import TAG, Dataset, Metric, pooled
from ggp.analysis.outcome import win_shares, winners
from ggp.analysis.stats import Estimate, bootstrap_estimate, mean_estimate, proportion_estimate
from ggp.analysis.trace import MatchTrace

_SEED = "TAG (seed 003, 5: Game Analysis"


def action_space(data: Dataset) -> Metric:
    """μ1: the legal moves of a seat at its turns (a forced move counts as one option)."""
    meaning = "How many moves a player has to choose from when it is its turn (forced moves count as one)."
    estimate = pooled(data, "action_space", data.main, lambda t: (sum(d.options for d in t.turns), len(t.turns)))
    at_decisions = pooled(data, "action_space.decisions", data.main,
                          lambda t: (sum(d.options for d in t.decisions()), len(t.decisions())))
    def of_seat(seat: int) -> Callable[[MatchTrace], tuple[float, float]]:
        return lambda t: (sum(d.options for d in t.turns if d.seat == seat), sum(1 for d in t.turns if d.seat == seat))

    by_seat = tuple(pooled(data, f"action_space.{s}", data.main, of_seat(s)) for s in range(len(data.seats)))
    return Metric("action_space", "Action space", TAG, f"{_SEED}, μ1 action space size)", meaning, estimate, "moves",
                  by_seat, (("at decisions (two or more moves)", at_decisions),))


def branching_factor(data: Dataset) -> Metric:
    """μ2: the distinct states a seat's moves lead to from its turn."""
    meaning = ("How many different positions a player's moves lead to at its turn (moves with the same effect count "
               "once); the plot shows it over the course of the game.")
    estimate = pooled(data, "branching", data.main, lambda t: (sum(d.branching for d in t.turns), len(t.turns)))
    return Metric("branching_factor", "Branching factor", TAG, f"{_SEED}, μ2 branching factor)", meaning, estimate,
                  "states")


def game_length(data: Dataset) -> Metric:
    """μ6: steps per match, with decisions and turns per match as parts."""
    meaning = ("How long a match lasts, in steps (joint moves, TAG's ticks); its parts count the decisions (turns with "
               "a choice, TAG's #decisions) and every turn (CardStock's choices, forced moves included).")
    done = data.finished
    return Metric("game_length", "Game length", TAG, f"{_SEED}, μ6 game length)", meaning,
                  mean_estimate([float(t.steps) for t in done]), "steps",
                  parts=(("decisions per match", mean_estimate([float(len(t.decisions())) for t in done])),
                         ("turns per match", mean_estimate([float(len(t.turns)) for t in done]))))


def decisions_per_player(data: Dataset) -> Metric:
    """μ6: each seat's decisions per match."""
    meaning = "How many real choices each player makes in a match (the value: their mean over the seats)."
    done = data.finished
    by_seat = tuple(mean_estimate([float(sum(1 for d in t.decisions() if d.seat == s)) for t in done])
                    for s in range(len(data.seats)))
    per_match = [len(t.decisions()) / len(data.seats) for t in done] if data.seats else []
    return Metric("decisions_per_player", "Decisions per player", TAG, f"{_SEED}, μ6 #decisions)", meaning,
                  mean_estimate(per_match), "decisions", by_seat)


def state_size(data: Dataset) -> Metric:
    """μ3: fluents per state, over every state of the matches."""
    meaning = "How much a game state holds: the number of facts (fluents) true in it, over every state of the matches."
    estimate = pooled(data, "state_size", data.main, lambda t: (float(sum(t.sizes)), len(t.sizes)))
    first = mean_estimate([float(t.sizes[0]) for t in data.main if t.sizes])
    last = mean_estimate([float(t.sizes[-1]) for t in data.finished if t.sizes])
    return Metric("state_size", "State size", TAG, f"{_SEED}, μ3 state size)", meaning, estimate, "fluents",
                  parts=(("first state", first), ("last state", last)))


def state_size_growth(data: Dataset) -> Metric:
    """The change of the state size per step, from the first state to the last."""
    meaning = ("How fast the state grows (or shrinks) as the game goes on: fluents gained per step from the first "
               "state to the last.")
    values = [(t.sizes[-1] - t.sizes[0]) / t.steps for t in data.finished if t.steps]
    return Metric("state_size_growth", "State-size growth", TAG, f"{_SEED}, μ3 state size, over time)", meaning,
                  mean_estimate(values), "fluents per step")


def win_rate_by_seat(data: Dataset) -> Metric:
    """Each seat's share of the wins (ties split); the value is the gap between the most and the
    least winning seat."""
    meaning = ("How often each seat wins (a tie split between the tied seats); the value is the gap between the best "
               "and the worst seat: 0 when every seat wins as often.")
    done = data.finished
    seats = len(data.seats)
    by_seat = tuple(proportion_estimate(sum(win_shares(t.goals or ())[s] for t in done), len(done))
                    for s in range(seats))

    def gap(sample: Sequence[MatchTrace]) -> float | None:
        if not sample:
            return None
        shares = [sum(win_shares(t.goals or ())[s] for t in sample) / len(sample) for s in range(seats)]
        return max(shares) - min(shares)

    return Metric("win_rate_by_seat", "Win rate by seat", TAG, "TAG's win rate statistics (seed 003, 3, Algorithm 1), by seat",
                  meaning, bootstrap_estimate(done, gap, data.rng("win_rate_by_seat")), "share", by_seat)


def score_convergence(data: Dataset) -> Metric:
    """The point of a match (the share of its evaluated decisions) after which the eventual
    winner always leads the estimated standings."""
    meaning = ("When the final result shows: the share of a match's decisions after which the eventual winner leads "
               "the estimated standings to the end (0: it leads from the start; near 1: only at the very end).")
    values = []
    for t in data.finished:
        won = set(winners(t.goals or ()))
        points = lead_points(t)
        if not won or not points:
            continue
        settled = 0
        for j, p in enumerate(points):
            best = max(p)
            if not any(p[w] == best for w in won):
                settled = j + 1
        values.append(settled / len(points))
    return _evaluated(data, Metric("score_convergence", "Score convergence", TAG,
                                   "TAG's score over time (seed 003, 5); the settling point as defined in docs/analysis.md",
                                   meaning, mean_estimate(values, (0.0, 1.0)), "share of the match"))


def lead_security(data: Dataset) -> Metric:
    """The share of consecutive decisions at which the seat in the lead keeps it."""
    meaning = ("How secure a lead is: the share of consecutive decisions at which the player in the lead (highest "
               "estimated standing) keeps it; about 1/seats when the lead changes hands at random.")

    def per_match(t: MatchTrace) -> tuple[float, float]:
        leaders = [_leader(p) for p in lead_points(t)]
        pairs = [(a, b) for a, b in zip(leaders, leaders[1:]) if a is not None and b is not None]
        return sum(1 for a, b in pairs if a == b), len(pairs)

    return _evaluated(data, Metric("lead_security", "Security of the lead", TAG,
                                   "'Security' of Goadrich's lead histories (../shared/notes/reference-numbers.md)",
                                   meaning, pooled(data, "lead_security", data.main, per_match), "share"))


def _leader(point: Sequence[float]) -> int | None:
    best = max(point)
    top = [s for s, v in enumerate(point) if v == best]
    return top[0] if len(top) == 1 else None


def action_diversity(data: Dataset) -> Metric:
    """The normalised entropy of the moves played at decisions: 0 when one move is always
    played, 1 when every move seen is played equally often."""
    meaning = ("How varied the moves played are: the entropy of the moves chosen at decisions, divided by its "
               "largest possible value (0: always the same move; 1: every move as often).")
    counters = [Counter(d.played for d in t.decisions()) for t in data.main]
    counters = [c for c in counters if c]

    def entropy(sample: Sequence[Counter[str]]) -> float | None:
        total: Counter[str] = Counter()
        for c in sample:
            total.update(c)
        n = sum(total.values())
        if n == 0:
            return None
        if len(total) < 2:
            return 0.0
        h = -sum(k / n * math.log(k / n) for k in total.values())
        return h / math.log(len(total))

    return Metric("action_diversity", "Action diversity", TAG, "TAG's action statistics (seed 003, 5); normalised entropy",
                  meaning, bootstrap_estimate(counters, entropy, data.rng("action_diversity")), "entropy")


def reward_sparsity(data: Dataset) -> Metric:
    """μ7: the standard deviation of the final goals, with their least and greatest values."""
    meaning = ("How finely the results are graded: the standard deviation of the final goal values (0 to 100), with "
               "the lowest and highest seen.")
    done = data.finished
    goals = [g for t in done for g in (t.goals or ())]

    def sd(sample: Sequence[MatchTrace]) -> float | None:
        values = [g for t in sample for g in (t.goals or ())]
        if len(values) < 2:
            return None
        mean = sum(values) / len(values)
        return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))

    parts: tuple[tuple[str, Estimate], ...] = ()
    if goals:
        parts = (("lowest goal", Estimate.exact(min(goals), len(done))),
                 ("highest goal", Estimate.exact(max(goals), len(done))))
    return Metric("reward_sparsity", "Reward sparsity", TAG, f"{_SEED}, μ7 reward sparsity)", meaning,
                  bootstrap_estimate(done, sd, data.rng("reward_sparsity")), "goal points", parts=parts)


def _evaluated(data: Dataset, metric: Metric) -> Metric:
    if data.rollouts == 0:
        return Metric(metric.name, metric.title, metric.family, metric.source, metric.meaning,
                      Estimate.empty(len(data.main)), metric.unit,
                      note="not measured: the options were not valued (--rollouts 0)")
    return metric


#: TAG's metrics, in report order.
METRICS = (game_length, decisions_per_player, action_space, branching_factor, state_size, state_size_growth,
           win_rate_by_seat, score_convergence, lead_security, action_diversity, reward_sparsity)

__all__ = ["METRICS", "action_diversity", "action_space", "branching_factor", "decisions_per_player", "game_length",
           "lead_security", "reward_sparsity", "score_convergence", "state_size", "state_size_growth",
           "win_rate_by_seat"]
