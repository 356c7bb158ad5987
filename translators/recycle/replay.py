"""Replay a game the CardStock engine played through the translation, decision by decision.

The engine's trace (:func:`translators.recycle.engine.engine_trace`) says which card each move
took (its transcript's ``M:`` lines) and, at each decision, the options offered and the index
chosen. The replay walks the translated game from its initial state: where ``random`` draws from
a shuffled heap (``(draw C)``), it draws the next card the engine moved from where the translation
has that card (where the translation lays a shuffled pile out card by card, the cards of the
engine's shuffled order, its ``O:`` line, bottom first); where it breaks a tie of ``max``/``min``
(``(pick C)``), it picks a tied card after which the engine's next deciding seat decides (when
that tells them apart), the one the engine moved next first; where it picks an integer
(``(random A..B)``), the next value the engine set that it may pick; where a seat decides, the translation must offer as many options as the engine
did, to the same seat, and the replay plays the translation's move matching the engine's chosen
option (by the cards it moves or the values it sets; else, when the other roles wait, by which
move's next state shows the option's effects, ties broken by what the engine did right after the
decision; else by position among the options; moves naming either of two identical cards are
alike); before each decision every card must be where the
engine has it (pile by pile, order aside; memories are not compared); at the end the scores must
be the engine's, and the game must end normally, or where the engine stopped it (its choice
limit; a choice with no option, where the engine throws and the translation ends ``stuck``).
Every difference is recorded (:class:`Mismatch`); the replay stops at the first one that makes
the two games part (a seat or a card not found), since after it nothing more can be compared.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from ggp.gdl.terms import Constant, Function, Term
from ggp.reasoner.machine import State, StateMachine
from ggp.view.scheme import stored_values
from translators.recycle.engine import Decision, GameEnd, TranscriptLine
from translators.recycle.ir.made import HOLD_PREFIX
from translators.recycle.playstats import ending_of
from translators.recycle.symbols.vocabulary import RANDOM, card_constant
from translators.recycle.transcript import (
    MADE,
    MOVE_PLACES,
    SET_FULL,
    VIS,
    canonical,
    card_places,
    effects_seen,
    engine_card_key,
    move_words,
    place,
    words,
)
from translators.recycle.translation import Translation

NOOP = Constant("noop")


@dataclass(frozen=True)
class Mismatch:
    """One difference between the engine's game and the translation's replay of it."""

    decision: int | None
    what: str

    def __str__(self) -> str:
        where = f"decision {self.decision}: " if self.decision is not None else ""
        return where + self.what


@dataclass
class ReplayResult:
    """What a replay compared: decisions matched (same seat and number of options), of which
    matched by content (card or value) rather than by position, draws reproduced, chance steps
    the engine's trace could not steer (ties broken by ``random``), the differences found, and
    whether the whole game was followed to the engine's end with the same scores."""

    decisions: int = 0
    by_content: int = 0
    draws: int = 0
    unsteered_chance: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    places_compared: int = 0
    finished: bool = False
    scores: dict[str, int] = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        """The translation followed the engine's game to its end, with no difference."""
        return self.finished and not self.mismatches


def card_names(translation: Translation) -> dict[frozenset[tuple[str, str]], set[str]]:
    """The translation's card constants by attributes (identical cards share a key)."""
    out: dict[frozenset[tuple[str, str]], set[str]] = {}
    for card in translation.model.cards:
        out.setdefault(frozenset(card.attrs), set()).add(card_constant(translation.model, card.id).name)
    return out


def replay(events: Sequence[Decision | GameEnd | TranscriptLine], translation: Translation,
           machine: StateMachine, rng: random.Random | None = None, max_steps: int = 20000) -> ReplayResult:
    """Replay one game's engine ``events`` (see the module doc) through ``machine``, the machine
    of ``translation``. ``rng`` breaks the ties the engine's trace cannot steer."""
    rng = rng or random.Random(0)
    names = card_names(translation)
    moved = [entry for e in events if isinstance(e, TranscriptLine) for entry in _card_moves(e.text, names)]
    decisions = [e for e in events if isinstance(e, Decision)]
    done = _done_after(events)
    places = engine_places(events)
    attrs = {card_constant(translation.model, c.id).name: frozenset(c.attrs) for c in translation.model.cards}
    places_differ = False
    end = next((e for e in events if isinstance(e, GameEnd)), None)
    roles = list(machine.roles)
    result = ReplayResult()
    if end is not None and end.ending == "exception" and "no choice available" not in (end.error or ""):
        result.mismatches.append(Mismatch(None, f"the engine threw after {end.choices} decisions ({end.error}): "
                                                "the translation is followed up to there only"))
    past_limit = end is not None and end.ending == "choice_limit"
    state = machine.initial_state()
    next_move = 0
    next_decision = 0
    values = [e.text for e in events if isinstance(e, TranscriptLine) and e.text.startswith("S:")]
    next_value = 0
    for _ in range(max_steps):
        if machine.is_terminal(state):
            break
        joint: list[Term] = []
        legals = [list(machine.legal_moves(state, role)) for role in roles]
        for index, role in enumerate(roles):
            legal = legals[index]
            move: Term | None
            if role == RANDOM and _numbers(legal):
                move, next_value = _number(legal, values, next_value, result, rng,
                                           _stores(_previewer(machine, state, legals, index), legal))
            elif role == RANDOM and past_limit and next_decision >= len(decisions):
                # the engine stopped at its choice limit: the translation's chance moves up to its
                # own limit, at the next decision, are followed unsteered
                move = legal[rng.randrange(len(legal))]
            elif role == RANDOM:
                deciding = f"player{decisions[next_decision].seat}" if next_decision < len(decisions) else None
                move, next_move = _chance(legal, moved, next_move, state, result, rng,
                                          _tie_fits(machine, _previewer(machine, state, legals, index), deciding))
            elif legal == [NOOP]:
                move = NOOP
            else:
                if next_decision >= len(decisions):
                    result.mismatches.append(Mismatch(None, f"the translation asks {role} to decide after the "
                                                            f"engine's last decision ({len(decisions)})"))
                    return result
                decision = decisions[next_decision]
                next_decision += 1
                if not places_differ and decision.index in places:
                    differ = _places_differ(places[decision.index], translation_places(state, attrs))
                    result.places_compared += 1
                    if differ:
                        places_differ = True  # once: after it, every place that follows differs too
                        result.mismatches.append(Mismatch(decision.index, differ))
                preview = _previewer(machine, state, legals, index)
                # the cards the option moves out of a hidden pile (where random may draw them)
                drawn = {c for action in decision.options[decision.chosen].split("; ")
                         for cards, source in [_moved_card(action, names)] if source and source[1] != "vloc" for c in cards}
                found = _decide(decision, index, legal, names, result, preview, card_places(state),
                                translation.option_places, done.get(next_decision - 1, ""),
                                _previewer(machine, state, legals, index, drawn) if drawn else None)
                if found is None:
                    return result
                move = found
            if move is None:
                return result
            joint.append(move)
        state = machine.next_state(state, tuple(joint))
    else:
        result.mismatches.append(Mismatch(None, f"no end within {max_steps} steps"))
        return result
    if next_decision < len(decisions):
        result.mismatches.append(Mismatch(next_decision, f"the translation ended; the engine decided "
                                                         f"{len(decisions) - next_decision} more times"))
        return result
    ending, scores = ending_of(translation.description, state)
    result.scores = scores
    result.finished = True
    stopped = end is not None and (
        (ending == "limit" and end.ending == "choice_limit")  # both stopped at the choice limit
        or (ending == "stuck" and end.ending == "exception" and "no choice available" in (end.error or "")))
    if ending != "end" and not stopped:
        result.mismatches.append(Mismatch(None, f"the translation's game ended by {ending!r}, not normally"))
    if end is not None and end.scores:
        theirs = {f"player{i}": s for i, s in enumerate(end.scores)}
        if not scores:
            result.mismatches.append(Mismatch(None, f"final scores: the translation gives none (no score "
                                                    f"relation in its last state), the engine {theirs}"))
        elif {k: v for k, v in scores.items() if k in theirs} != theirs:
            result.mismatches.append(Mismatch(None, f"final scores: translation {scores}, engine {theirs}"))
    return result


Places = dict[tuple[str, str, str], Counter[frozenset[tuple[str, str]]]]


def _done_after(events: Sequence[Decision | GameEnd | TranscriptLine]) -> dict[int, str]:
    """For each decision (by its place among the decisions), the cards moved and values set
    right after it (the transcript's ``M:`` and ``S:`` lines up to the next other line), joined
    as the engine joins an option's actions."""
    out: dict[int, str] = {}
    at, lines, reading = -1, [], False
    for e in [*events, None]:
        if reading and isinstance(e, TranscriptLine) and e.text.startswith(("M:", "S:")):
            lines.append(e.text)
            continue
        if reading and lines:
            out[at] = "; ".join(lines)
        reading = isinstance(e, Decision)
        if reading:
            at, lines = at + 1, []
    return out


def engine_places(events: Sequence[Decision | GameEnd | TranscriptLine]) -> dict[int, Places]:
    """Where the engine's cards are (by their attributes) before each decision, from its transcript's
    ``C:`` (made) and ``M:`` (moved) lines; places are (owner, visibility, NAME) in the translation's
    words (``p1`` is ``player1``, the table ``game``, ``INVISIBLE`` ``iloc``...)."""
    where: dict[str, tuple[tuple[str, str, str], frozenset[tuple[str, str]]]] = {}
    out: dict[int, Places] = {}
    for e in events:
        if isinstance(e, TranscriptLine):
            made = MADE.match(e.text)
            moved = MOVE_PLACES.match(e.text)
            if made:
                card, spot = made.group(1), place(made.group(2), made.group(3), made.group(4))
            elif moved:
                card, spot = moved.group(1), place(moved.group(5), moved.group(6), moved.group(7))
            else:
                continue
            key = engine_card_key(card)
            if key is not None:
                where[card.split("!", 1)[0]] = (spot, key)
        elif isinstance(e, Decision):
            snapshot: Places = {}
            for spot, key in where.values():
                if spot[1] in VIS.values():
                    snapshot.setdefault(spot, Counter())[key] += 1
            out[e.index] = snapshot
    return out


def translation_places(state: State, attrs: dict[str, frozenset[tuple[str, str]]]) -> Places:
    """Where the translation's cards are in ``state`` (its ``(at CARD (loc OWNER VIS NAME))``
    fluents), by attributes, memories and the cards of decks not yet created left out."""
    out: Places = {}
    for fluent in state.fluents:
        if isinstance(fluent, Function) and fluent.name == "at" and len(fluent.args) == 2:
            loc = fluent.args[1]
            if isinstance(loc, Function) and loc.name == "loc" and len(loc.args) == 3:
                owner, vis, name = (str(a) for a in loc.args)
                key = attrs.get(str(fluent.args[0]))
                made = owner == "game" and name.upper().startswith(HOLD_PREFIX)  # not made yet
                if key is not None and vis in VIS.values() and not made:
                    out.setdefault((owner, vis, name.upper().rstrip("_")), Counter())[key] += 1
    return out


def _places_differ(engine: Places, ours: Places) -> str | None:
    """The first piles holding different cards, said in words, or None."""
    def show(cards: Counter[frozenset[tuple[str, str]]]) -> str:
        return ", ".join(sorted("/".join(v for _, v in sorted(k)) + (f" x{n}" if n > 1 else "") for k, n in cards.items()))
    lines = []
    for spot in sorted(set(engine) | set(ours)):
        a, b = engine.get(spot, Counter()), ours.get(spot, Counter())
        if a != b:
            lines.append(f"({' '.join(spot)}): engine [{show(a)}], translation [{show(b)}]")
    if not lines:
        return None
    more = f" (and {len(lines) - 2} more piles)" if len(lines) > 2 else ""
    return "cards differ before it: " + "; ".join(lines[:2]) + more


#: Where the translation lays a shuffled pile out from, card by card (``ir/layouts.py``): any
#: hidden heap of the game named ``SHUFFLE_...``.
LAYOUT = ("game", "iloc", "SHUFFLE_")


def _card_moves(text: str, names: dict[frozenset[tuple[str, str]], set[str]]) -> list[tuple[set[str], tuple[str, str, str] | None]]:
    """The cards a transcript line moves: one for an ``M:`` line; for an ``O:`` line (a pile
    shuffled, its cards listed bottom first) each card, bottom first, as the translation lays a
    shuffled pile out when its whole order is read."""
    if text.startswith("M:"):
        return [_moved_card(text, names)]
    if text.startswith("O:"):
        cards = [engine_card_key(line.strip()) for line in text.splitlines()[1:]]
        return [(names.get(key, set()), LAYOUT) for key in cards if key is not None]
    return []


def _moved_card(text: str, names: dict[frozenset[tuple[str, str]], set[str]]) -> tuple[set[str], tuple[str, str, str] | None]:
    """The translation's constants for the card an ``M:`` line moves, and the place it left."""
    m = MOVE_PLACES.match(text)
    if m is None:
        return set(), None
    key = engine_card_key(m.group(1))
    return (names.get(key, set()) if key is not None else set()), place(m.group(2), m.group(3), m.group(4))


def _chance(legal: list[Term], moved: list[tuple[set[str], tuple[str, str, str] | None]], at: int, state: State,
            result: ReplayResult, rng: random.Random, fits: Callable[[Term], bool] | None = None) -> tuple[Term | None, int]:
    """``random``'s move: the next card the engine moved, among the cards it may draw, from the
    place where the translation has that card. A tie broken (``(pick C)``) moves no card: the
    tied card is one after which the next decision is the engine's seat's (``fits``), the one
    the engine moved next first."""
    if legal == [NOOP]:
        return NOOP, at
    draws = {str(m.args[0]): m for m in legal if isinstance(m, Function) and m.name in ("draw", "pick") and m.args}
    if not draws:
        result.unsteered_chance += 1
        return legal[rng.randrange(len(legal))], at
    where = card_places(state)
    picks = all(m.name == "pick" for m in draws.values())
    if picks and fits is not None and len(draws) > 1:
        fitting = {c: m for c, m in draws.items() if fits(m)}
        draws = fitting or draws
        if len(draws) == 1:
            result.draws += 1
            return next(iter(draws.values())), at
    for k in range(at, len(moved)):
        cards, source = moved[k]
        hit = sorted(c for c in cards & draws.keys() if _from(source, where.get(c, set())))
        if hit:
            result.draws += 1
            return draws[hit[0]], (at if picks and fits is not None else k + 1)
    if len(draws) == 1:
        # The last card of a heap, read (its suit made trump, say) without the engine moving it.
        result.draws += 1
        return next(iter(draws.values())), at
    result.mismatches.append(Mismatch(None, f"random may draw {sorted(draws)}; the engine moved none of them "
                                            f"from where the translation has them after its move {at} (a card "
                                            f"read without being moved cannot be followed)"))
    return None, at


def _tie_fits(machine: StateMachine, preview: Callable[[Term], list[State]] | None,
              deciding: str | None) -> Callable[[Term], bool] | None:
    """Whether, after a move of ``random`` (other roles waiting), the next role to decide is
    ``deciding`` or not known yet; None when that cannot be previewed."""
    if preview is None or deciding is None:
        return None

    roles = list(machine.roles)

    def fits(move: Term) -> bool:
        state = preview(move)[-1]
        for _ in range(PREVIEW_STEPS):  # through random's draws (any card: they decide no seat)
            if machine.is_terminal(state):
                return False
            legal = {r: list(machine.legal_moves(state, r)) for r in roles}
            real = [r for r in roles if legal[r] != [NOOP]]
            if real != [RANDOM]:
                return deciding in (str(r) for r in real)
            state = machine.next_state(state, tuple(legal[r][0] for r in roles))
        return True
    return fits


def _from(source: tuple[str, str, str] | None, places: set[tuple[str, str, str]]) -> bool:
    """Whether a card at ``places`` can be the one taken from ``source`` (any layout heap for
    :data:`LAYOUT`)."""
    if source == LAYOUT:
        return any(p[:2] == LAYOUT[:2] and p[2].startswith(LAYOUT[2]) for p in places)
    return source in places


def _numbers(legal: list[Term]) -> dict[str, Term]:
    """``random``'s integer moves (``(num N)``, a ``(random A..B)``) by value."""
    return {str(m.args[0]): m for m in legal if isinstance(m, Function) and m.name == "num" and m.args}


def _number(legal: list[Term], values: list[str], at: int, result: ReplayResult, rng: random.Random,
            sets: dict[Term, set[tuple[str, str, str]]] | None = None) -> tuple[Term, int]:
    """``random``'s integer: the next value the engine set (its ``S:`` lines) that is one of the
    integers it may pick, when one is (an integer drawn and stored at once, as is usual); where
    the cells each pick sets can be previewed (``sets``: the (owner, name, value) each leaves),
    the next line that sets one of those cells to its value, so that a count set before it is
    not taken for the draw; else, unsteered, any."""
    numbers = _numbers(legal)
    if sets is not None:
        for k in range(at, len(values)):
            found = SET_FULL.match(values[k])
            if found:
                cell = (place(found.group(1), "VISIBLE", "X")[0], found.group(2).lower(), found.group(3).lower())
                hits = [m for m, cells in sets.items() if cell in cells]
                if len(hits) == 1:
                    return hits[0], k + 1
    for k in range(at, len(values)):
        value = values[k].rsplit(" ", 1)[-1]
        if value in numbers:
            return numbers[value], k + 1
    result.unsteered_chance += 1
    return legal[rng.randrange(len(legal))], at


def _stores(preview: Callable[[Term], list[State]] | None, moves: list[Term]) -> dict[Term, set[tuple[str, str, str]]] | None:
    """For each of ``random``'s ``moves``, the cells (owner, name, value) its own step leaves
    with a value that depends on the move (not the later steps': a count raised there by the
    number drawn would match a line the engine wrote before the draw), by preview."""
    if preview is None:
        return None
    after = {move: {(v.owner, v.name, v.value) for v in stored_values(preview(move)[0].fluents)} for move in moves}
    common = set.intersection(*after.values()) if after else set()
    return {move: cells - common for move, cells in after.items()}


#: At most this many steps in which every role waits are followed after a previewed move.
PREVIEW_STEPS = 64


def _previewer(machine: StateMachine, state: State, legals: list[list[Term]], seat: int,
               cards: AbstractSet[str] = frozenset()) -> Callable[[Term], list[State]] | None:
    """The states after the deciding role's move when every other role can only wait, else
    None: the next state and those of the steps that follow in which every role waits (an
    option's effects run after the step that records the choice), or in which ``random`` alone
    draws one of ``cards`` (the cards the engine's option moves: a card drawn from a shuffled
    pile by the option)."""
    if any(i != seat and legal != [NOOP] for i, legal in enumerate(legals)):
        return None
    roles = list(machine.roles)

    def after(move: Term) -> list[State]:
        states = [machine.next_state(state, tuple(move if i == seat else NOOP for i in range(len(legals))))]
        for _ in range(PREVIEW_STEPS):
            now = states[-1]
            if machine.is_terminal(now):
                break
            joint = [list(machine.legal_moves(now, r)) for r in roles]
            drawn = [m for r, legal in zip(roles, joint) if r == RANDOM for m in legal
                     if isinstance(m, Function) and m.name == "draw" and m.args and str(m.args[0]) in cards]
            if all(legal == [NOOP] for legal in joint):
                states.append(machine.next_state(now, tuple(NOOP for _ in roles)))
            elif drawn and all(legal == [NOOP] for r, legal in zip(roles, joint) if r != RANDOM):
                states.append(machine.next_state(now, tuple(min(drawn, key=str) if r == RANDOM else NOOP for r in roles)))
            else:
                break
        return states
    return after


def _decide(decision: Decision, seat: int, legal: list[Term], names: dict[frozenset[tuple[str, str]], set[str]],
            result: ReplayResult, preview: Callable[[Term], list[State]] | None = None,
            places: dict[str, set[tuple[str, str, str]]] | None = None,
            option_places: dict[str, int] | None = None, done: str = "",
            drawing: Callable[[Term], list[State]] | None = None) -> Term | None:
    """The translation's move for the engine's ``decision`` (None, recording why, when the two
    part): when the others wait, the move after which the most of the option's effects are seen
    (a card moved from the engine's source to its target, a value set), if one move has the
    most (ties broken by as many moves and values as the option has that the engine ``done``
    right after the decision: its option texts show a group's top card for every card it
    moves; where no move shows every effect, by ``drawing``, previews that draw from a shuffled
    pile the cards the option moves); else the move naming what the chosen option moves or sets;
    else the same position."""
    if decision.seat != seat:
        result.mismatches.append(Mismatch(decision.index, f"the engine's seat {decision.seat} decides, "
                                                          f"the translation's player{seat}"))
        return None
    if decision.count != len(legal):
        result.mismatches.append(Mismatch(decision.index, f"the engine offers {decision.count} options "
                                                          f"{list(decision.options)}, the translation "
                                                          f"{len(legal)}: {[str(m) for m in legal]}"))
    result.decisions += 1
    chosen = decision.options[decision.chosen]
    candidates = legal
    if preview is not None:
        seen = {m: max(effects_seen(chosen, s, names, places) for s in preview(m)) for m in legal}
        if drawing is not None and max(seen.values(), default=0) < len(chosen.split("; ")):
            # some effect unseen: it may follow a card the option draws from a shuffled pile
            drawn = {m: max(effects_seen(chosen, s, names, places) for s in drawing(m)) for m in legal}
            seen = drawn if max(drawn.values(), default=0) > max(seen.values(), default=0) else seen
        top = max(seen.values(), default=0)
        candidates = [m for m in legal if seen[m] == top] if top > 0 else legal
        if len(candidates) > 1 and done:
            own = "; ".join(done.split("; ")[:len(chosen.split("; "))])  # the option's, not what follows
            then = {m: max(effects_seen(own, s, names, places) for s in preview(m)) for m in candidates}
            most = max(then.values())
            candidates = [m for m in candidates if then[m] == most] if most > 0 else candidates
        if len(candidates) == 1:
            result.by_content += 1
            return candidates[0]
    named = words(chosen, names, places)
    overlap = {m: len(named & move_words(m)) for m in candidates}
    best = max(overlap.values(), default=0)
    matching = [m for m in candidates if best > 0 and overlap[m] == best]
    if len(matching) == 1 or (matching and len({canonical(m, names) for m in matching}) == 1):
        # One move, or moves that differ only in which of two identical cards they name.
        result.by_content += 1
        return matching[0]
    if decision.count == len(legal):
        # Same number of options, and content cannot tell them apart: the same position among
        # the options, the translation's sorted by choice index, then by name. The position
        # tells the choice's option; within it, the engine lists cards in its own order, so a
        # move of that option that content singles out is taken first.
        by_place = sorted(legal, key=lambda m: _order(m, option_places or {}))[decision.chosen]
        group = _order(by_place, option_places or {})[0]
        alike = [m for m in matching if _order(m, option_places or {})[0] == group]
        if alike and len({canonical(m, names) for m in alike}) == 1:
            result.by_content += 1
            return alike[0]
        return by_place
    result.mismatches.append(Mismatch(decision.index, f"no move of the translation matches the engine's "
                                                      f"choice {chosen!r}"))
    return None


def _order(move: Term, option_places: dict[str, int]) -> tuple[int, str]:
    """A move's option's place in its choice (``(choose K ...)``'s ``K``, a named move's
    recorded place), then its text."""
    if isinstance(move, Function) and move.name == "choose" and move.args and str(move.args[0]).isdigit():
        return int(str(move.args[0])), str(move)
    name = move.name if isinstance(move, (Constant, Function)) else ""
    return option_places.get(name, -1), str(move)

