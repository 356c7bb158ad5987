"""Static checks of a parsed RECYCLE game, and :func:`check_file` for ``ggp validate``.

The checks: variables (:mod:`.scopes`); point maps used before any ``set``; choices with no
option that can ever be enabled, options and actions that never run, stages that never run or
never end (:mod:`.truth`); seats and teams that do not exist. Errors make the game unusable;
warnings do not.
"""

from __future__ import annotations

from pathlib import Path

from ggp.errors import Location, Problem, Severity
from translators.recycle.symbols.scopes import check_variables
from translators.recycle.symbols.truth import truth
from translators.recycle.syntax.errors import RecycleSyntaxError
from translators.recycle.syntax.nodes import (
    ActionAgg,
    Choice,
    Conditional,
    CreateTeams,
    ExtremeCard,
    Filter,
    Game,
    IntLit,
    Item,
    Let,
    Node,
    PlayerAt,
    PointStorage,
    Run,
    Runs,
    Score,
    SetPoints,
    Sort,
    Stage,
    Sum,
    TeamSpec,
    Tuples,
    Var,
)
from translators.recycle.syntax.parser import parse_recycle_file

_POINT_USERS = (Sum, Score, ExtremeCard, Sort, Run, Tuples, Runs)


def _problem(game: Game, node: Node, message: str, severity: Severity = "error") -> Problem:
    return Problem(Location(game.source, node.line, node.column), message, severity)


def _point_key(target: object) -> str | None:
    if isinstance(target, Var):
        return f"'{target.name}"
    if isinstance(target, PointStorage) and hasattr(target.name, "text"):
        return str(target.name.text)
    return None


def early_point_maps(game: Game) -> list[tuple[str, Node, Node | None]]:
    """Point maps used (``using``) before the first ``set`` of that name in the text: the name,
    the use and the first ``set`` (None when the map is never set).

    The text order is the order of a first play-through: stages run in order, and a map used
    early in a stage's body and set later in it is unset on the first turn.
    """
    first_set: dict[str, Node] = {}
    for node in game.walk():
        if isinstance(node, SetPoints):
            key = _point_key(node.target)
            if key is not None:
                first_set.setdefault(key, node)
    early: list[tuple[str, Node, Node | None]] = []
    seen: set[str] = set()
    for node in game.walk():
        if isinstance(node, SetPoints):
            key = _point_key(node.target)
            if key is not None:
                seen.add(key)
        elif isinstance(node, _POINT_USERS):
            key = _point_key(node.points)
            if key is not None and key not in seen:
                early.append((key, node.points, first_set.get(key)))
    return early


def check_point_maps(game: Game) -> list[Problem]:
    """Point maps used before they are set (warnings: as in CardStock, a map not set yet is
    empty, every card scores 0 under it)."""
    problems: list[Problem] = []
    for key, use, setter in early_point_maps(game):
        if setter is None:
            problems.append(_problem(game, use, f"point map {key} is never set (no `(set (... points {key}) ...)` "
                                     "in the game): every card scores 0 under it", "warning"))
        else:
            problems.append(_problem(game, use, f"point map {key} is used before it is set (its first `set` is at "
                                     f"line {setter.line}): until then every card scores 0 under it", "warning"))
    return problems


def _never_enabled(item: Item) -> bool:
    """True when an item of a choice can never be an option."""
    if isinstance(item, Conditional):
        return truth(item.condition) is False or _never_enabled(item.body)
    if isinstance(item, ActionAgg) and item.quantifier == "any":
        collection = item.collection
        if isinstance(collection, Filter) and truth(collection.condition) is False:
            return True
        return _never_enabled(item.body)
    if isinstance(item, Let) and not isinstance(item.body, Choice):
        return _never_enabled(item.body)
    return False


def check_conditions(game: Game) -> list[Problem]:
    """Choices without any possible option, dead options and actions, stuck stages."""
    problems: list[Problem] = []
    for node in game.walk():
        if isinstance(node, Choice):
            dead = [item for item in node.items if _never_enabled(item)]
            if len(dead) == len(node.items):
                problems.append(_problem(game, node, "no option of this `choice` can ever be "
                                         "enabled: every condition is always false"))
            else:
                problems.extend(_problem(game, item, "this option can never be enabled: its "
                                         "condition is always false", "warning") for item in dead)
        elif isinstance(node, Stage):
            value = truth(node.end)
            if value is True:
                problems.append(_problem(game, node, "this stage never runs: its end condition "
                                         "is always true", "warning"))
            elif value is False:
                problems.append(_problem(game, node, "this stage never ends: its end condition "
                                         "is always false"))
    choice_items = {id(i) for n in game.walk() if isinstance(n, Choice) for i in n.items}
    for node in game.walk():
        if isinstance(node, Conditional) and id(node) not in choice_items and truth(node.condition) is False:
            problems.append(_problem(game, node, "this action never runs: its condition is "
                                     "always false", "warning"))
    return problems


def check_seats(game: Game) -> list[Problem]:
    """Players and team members that do not exist, and players put on two teams."""
    count = game.player_count()
    problems: list[Problem] = []
    if count is not None and count < 1:
        problems.append(_problem(game, game.setup.players, "a game needs at least one player"))
    for node in game.walk():
        if isinstance(node, CreateTeams):
            placed: dict[int, Node] = {}  # within one `create teams`
            for spec in (n for n in node.walk() if isinstance(n, TeamSpec)):
                for member in spec.members:
                    if count is not None and member >= count:
                        problems.append(_problem(game, spec, f"team member {member} does not exist: "
                                                 f"the players are 0 to {count - 1}"))
                    if member in placed:
                        problems.append(_problem(game, spec, f"player {member} is already on the "
                                                 f"team at line {placed[member].line}"))
                    placed[member] = spec
        elif (isinstance(node, PlayerAt) and isinstance(node.index, IntLit) and count is not None
              and node.index.value >= count):
            problems.append(_problem(game, node, f"player {node.index.value} does not exist: "
                                     f"the players are 0 to {count - 1}"))
    return problems


def check(game: Game) -> list[Problem]:
    """Every problem found in a parsed game (the parser's warnings included), in text order."""
    problems = list(game.warnings)
    problems += check_variables(game)
    problems += check_point_maps(game)
    problems += check_conditions(game)
    problems += check_seats(game)
    return sorted(problems, key=lambda p: (p.location.line, p.location.column))


def check_file(path: str | Path) -> list[Problem]:
    """Parse a ``.rcy`` file and check it; a syntax error is returned as one problem."""
    try:
        game = parse_recycle_file(path)
    except RecycleSyntaxError as exc:
        return [exc.as_problem()]
    return check(game)


__all__ = ["check", "check_conditions", "check_file", "check_point_maps", "check_seats", "early_point_maps"]
