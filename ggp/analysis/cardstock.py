"""CardStock's heuristics (seed 000, section 3.2.3, and the engine's ``Scoring/Heuristics/*.cs``
in ``../shared/tools/cardstock``), computed from traced matches.

CardStock measures most of them on the estimates its PIPMC players make at their own
decisions; here every decision of the matches is valued by an observer's rollouts
(:mod:`ggp.analysis.tracing`): a seat's **standing** after its decision is its estimated
inverse rank, 1 when it surely wins, 0 when it surely comes last. Where the engine's code and
its own comments disagree (coolness, clarity), the comment's meaning is followed, as
docs/analysis.md says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ggp.analysis.metric import CARDSTOCK, Dataset, Metric, pooled
from ggp.analysis.outcome import win_shares, winners
from ggp.analysis.stats import Estimate, bootstrap_estimate, mean_estimate, proportion_estimate, ratio
from ggp.analysis.trace import MatchTrace

#: Drama counts the winner's decisions below this standing (``Drama.cs``).
DRAMA_THRESHOLD = 0.5
#: Decisiveness: the winner's standing above which the game counts as decided (``Decisiveness.cs``).
DECIDED = 0.8
#: Clarity: how far the best option must stand above the options' mean (``Clarity.cs``).
CLEAR = 0.3

_NO_ROLLOUTS = "not measured: the options were not valued (--rollouts 0)"


def _source(heuristic: str) -> str:
    return f"CardStock heuristic {heuristic} (seed 000, 3.2.3; Scoring/Heuristics/{heuristic}.cs)"


def own_values(trace: MatchTrace, seat: int) -> list[float]:
    """``seat``'s standing after each of its evaluated decisions, in order (CardStock's lead list)."""
    return [t.standings[seat] for t in trace.turns if t.seat == seat and t.standings]


def lead_points(trace: MatchTrace) -> list[tuple[float, ...]]:
    """Every seat's standing after each evaluated decision, in order."""
    return [t.standings for t in trace.turns if t.standings]


def fairness_of(share: float, seats: int) -> float:
    """CardStock's fairness of a first-seat win share: 1 at 1 / seats, falling linearly to 0 at
    0 and at 1."""
    fair = 1 / seats
    return share / fair if share <= fair else (1 - share) / (1 - fair)


def fairness(data: Dataset) -> Metric:
    """How close the first seat's win share is to an equal share (``Fairness.cs``)."""
    meaning = ("1 when the first seat wins exactly its equal share of the matches (1/seats), falling to 0 when it "
               "always or never wins.")
    seats = len(data.seats)
    done = data.finished
    if seats < 2 or not done:
        return Metric("fairness", "Fairness", CARDSTOCK, _source("Fairness"), meaning, Estimate.empty(len(done)),
                      "score", note="not defined for one seat" if seats < 2 else "no finished match")
    share = proportion_estimate(sum(win_shares(t.goals or ())[0] for t in done), len(done))
    assert share.value is not None and share.low is not None and share.high is not None
    ends = [fairness_of(share.low, seats), fairness_of(share.high, seats)]
    high = 1.0 if share.low <= 1 / seats <= share.high else max(ends)
    estimate = Estimate(fairness_of(share.value, seats), min(ends), high, share.n)
    return Metric("fairness", "Fairness", CARDSTOCK, _source("Fairness"), meaning, estimate, "score",
                  parts=(("first seat's win share", share),))


def order(data: Dataset) -> Metric:
    """How much a stronger player's advantage shows: its win rate among baseline players,
    scaled so that 0 is no better than them and 1 always winning (the CardStock "Order")."""
    title, source = "Order", ("CardStock's Order: (w - 1/n) / (1 - 1/n), w the AI's win rate among random players "
                              "(Goadrich's 'Shape of Card Games'; ../shared/notes/reference-numbers.md)")
    meaning = (f"0 when {data.strong or 'the strong player'} wins no more often than {data.baseline} players, 1 when it "
               "always wins: how much skill shows in the results.")
    done = [t for t in data.order if t.finished]
    if data.strong is None or not done:
        return Metric("order", title, CARDSTOCK, source, meaning, Estimate.empty(len(done)), "score",
                      note="not measured: no matches against the baseline (--order-games 0)")
    seats = len(data.seats)
    if seats >= 2:
        wins = sum(s for t in done for s, p in zip(win_shares(t.goals or ()), t.players) if p == data.strong)
        count = sum(1 for t in done for p in t.players if p == data.strong)
        rate = proportion_estimate(wins, count)
        b = 1 / seats
        return Metric("order", title, CARDSTOCK, source, meaning, rate.mapped(lambda w: (w - b) / (1 - b)), "score",
                      parts=((f"{data.strong}'s win rate", rate),))
    units = [(t.players[0] == data.strong, win_shares(t.goals or ())[0]) for t in done]

    def one_seat(sample: Sequence[tuple[bool, float]]) -> float | None:
        strong = [s for is_strong, s in sample if is_strong]
        base = [s for is_strong, s in sample if not is_strong]
        if not strong or not base or min(base) == 1 == max(base):
            return None
        b = sum(base) / len(base)
        return (sum(strong) / len(strong) - b) / (1 - b) if b < 1 else None

    strong_share = proportion_estimate(sum(s for k, s in units if k), sum(1 for k, _ in units if k))
    base_share = proportion_estimate(sum(s for k, s in units if not k), sum(1 for k, _ in units if not k))
    return Metric("order", title, CARDSTOCK, source, meaning + f" (One seat: against {data.baseline}'s own matches.)",
                  bootstrap_estimate(units, one_seat, data.rng("order")), "score",
                  parts=((f"{data.strong}'s win rate", strong_share), (f"{data.baseline}'s win rate", base_share)))


def drama(data: Dataset) -> Metric:
    """How far behind the eventual winner was: the mean of sqrt(0.5 - s) over the winner's
    decisions at which its standing s was below 0.5 (``Drama.cs``; 0 when it never was)."""
    meaning = ("How far behind the winners were on their way to winning: 0 when a winner was never behind, up to "
               "0.71 when winners came back from certain defeat.")

    def per_match(t: MatchTrace) -> tuple[float, float, int]:
        total = count = seen = 0.0
        for w in winners(t.goals or ()):
            values = own_values(t, w)
            seen += len(values)
            for v in values:
                if v < DRAMA_THRESHOLD:
                    total += math.sqrt(DRAMA_THRESHOLD - v)
                    count += 1
        return total, count, int(seen)

    units = [u for u in (per_match(t) for t in data.finished) if u[2] > 0]

    def statistic(sample: Sequence[tuple[float, float, int]]) -> float | None:
        return ratio([(a, b) for a, b, _ in sample]) or 0.0 if sample else None

    return _evaluated(data, Metric("drama", "Drama", CARDSTOCK, _source("Drama"), meaning,
                                   bootstrap_estimate(units, statistic, data.rng("drama")), "score"))


def decisiveness(data: Dataset) -> Metric:
    """How late the winner's win became clear (``Decisiveness.cs``): 1 minus the mean share of
    the winner's decisions made from the first one at which its standing passed 0.8."""
    meaning = ("How long a match stays open: near 1 when the winner's win becomes clear (standing above 0.8) only at "
               "its last decisions, 0 when it is clear from its first.")
    values: list[float] = []
    for t in data.finished:
        shares = []
        for w in winners(t.goals or ()):
            own = own_values(t, w)
            if own:
                decided = next((j for j, v in enumerate(own) if v > DECIDED), len(own) - 1)
                shares.append((len(own) - decided) / len(own))
        if shares:
            values.append(1 - sum(shares) / len(shares))
    return _evaluated(data, Metric("decisiveness", "Decisiveness", CARDSTOCK, _source("Decisiveness"), meaning,
                                   mean_estimate(values, (0.0, 1.0)), "score"))


def coolness(data: Dataset) -> Metric:
    """How often a seat's standing fell from one of its decisions to its next: players forced
    to harm their own position (the meaning ``Coolness.cs`` states; its code returns 1 minus
    this)."""
    meaning = ("The share of a player's consecutive decisions at which its standing fell: how often players must "
               "make moves that harm their own position.")

    def per_match(t: MatchTrace) -> tuple[float, float]:
        falls = pairs = 0
        for seat in range(len(t.seats)):
            own = own_values(t, seat)
            pairs += max(0, len(own) - 1)
            falls += sum(1 for a, b in zip(own, own[1:]) if b < a)
        return falls, pairs

    return _evaluated(data, Metric("coolness", "Coolness", CARDSTOCK, _source("Coolness"), meaning,
                                   pooled(data, "coolness", data.finished, per_match), "share"))


def clarity(data: Dataset) -> Metric:
    """The share of decisions at which the best option's value stands at least 0.3 above the
    mean of the options: the right move is obvious (the meaning ``Clarity.cs`` states)."""
    meaning = ("The share of decisions at which the best move is obvious (its estimated standing at least 0.3 above "
               "the options' mean): low is confusing, high is boring.")

    def per_match(t: MatchTrace) -> tuple[float, float]:
        evaluated = [d for d in t.turns if d.values]
        clear = sum(1 for d in evaluated if max(d.values) - sum(d.values) / len(d.values) >= CLEAR)
        return clear, len(evaluated)

    return _evaluated(data, Metric("clarity", "Clarity", CARDSTOCK, _source("Clarity"), meaning,
                                   pooled(data, "clarity", data.main, per_match), "share"))


def meaningful_moves(data: Dataset) -> Metric:
    """The mean difference between the best and the worst option of a decision
    (``MeaningfulMoves.cs``; the blog's "Spread")."""
    meaning = ("How much a choice matters: the mean gap between the standings after the best and the worst option of "
               "a decision (0: choices never matter; 1: one option wins and another loses).")

    def per_match(t: MatchTrace) -> tuple[float, float]:
        spreads = [d.spread for d in t.turns if d.spread is not None]
        return sum(spreads), len(spreads)

    return _evaluated(data, Metric("meaningful_moves", "Meaningful moves", CARDSTOCK, _source("MeaningfulMoves"),
                                   meaning, pooled(data, "meaningful_moves", data.main, per_match), "standing"))


def variance(data: Dataset) -> Metric:
    """The largest best-to-worst gap of a match (``Variance.cs``'s "killer move"), averaged
    over matches."""
    meaning = ("The biggest difference one decision of a match makes (its best against its worst option), averaged "
               "over matches: whether games hold a killer move.")
    values = [max(spreads) for t in data.main if (spreads := [d.spread for d in t.turns if d.spread is not None])]
    return _evaluated(data, Metric("variance", "Variance", CARDSTOCK, _source("Variance"), meaning,
                                   mean_estimate(values, (0.0, 1.0)), "standing"))


def stability(data: Dataset) -> Metric:
    """How often the seats' order by standing stays the same from one decision to the next
    (``Stability.cs``): the share of rank positions held by the same seat."""
    meaning = "The share of rank positions held by the same player from one decision to the next: 1 when the order never changes."

    def per_match(t: MatchTrace) -> tuple[float, float]:
        ranks = [tuple(sorted(range(len(p)), key=lambda s: (-p[s], s))) for p in lead_points(t)]
        same = total = 0
        for a, b in zip(ranks, ranks[1:]):
            total += len(a)
            same += sum(1 for x, y in zip(a, b) if x == y)
        return same, total

    return _evaluated(data, Metric("stability", "Stability", CARDSTOCK, _source("Stability"), meaning,
                                   pooled(data, "stability", data.main, per_match), "share"))


def _evaluated(data: Dataset, metric: Metric) -> Metric:
    """``metric``, with a note when it could not be measured."""
    if data.rollouts == 0:
        return Metric(metric.name, metric.title, metric.family, metric.source, metric.meaning,
                      Estimate.empty(len(data.main)), metric.unit, note=_NO_ROLLOUTS)
    if not metric.defined:
        return Metric(metric.name, metric.title, metric.family, metric.source, metric.meaning, metric.estimate,
                      metric.unit, note="not defined: no decision (or no winner's decision) to measure")
    return metric


#: The CardStock heuristics, in report order.
HEURISTICS = (fairness, order, drama, decisiveness, meaningful_moves, variance, clarity, coolness, stability)

__all__ = ["HEURISTICS", "clarity", "coolness", "decisiveness", "drama", "fairness", "fairness_of",
           "lead_points", "meaningful_moves", "order", "own_values", "stability", "variance"]
