"""Loading game descriptions from files or text, in either syntax.

KIF is recognised by its first parenthesis; anything else is read as infix. Files of other
languages (RECYCLE's ``.rcy``) go to the loader registered for their suffix
(:mod:`ggp.gdl.loaders`).
"""

from __future__ import annotations

from pathlib import Path

from ggp.collector import rare_collections
from ggp.errors import GDLSyntaxError, InvalidGameError, Location, Problem
from ggp.gdl.infix import parse_infix
from ggp.gdl.kif import read_kif
from ggp.gdl.loaders import loader_for
from ggp.gdl.rules import GameDescription
from ggp.gdl.validate import prepare, unique_problems, validate


def looks_like_kif(text: str) -> bool:
    """True when the text is KIF (its first non-comment character is a parenthesis), not infix."""
    for line in text.lstrip("\ufeff").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith((";", "%")):
            continue
        return stripped.startswith("(")
    return True


def read_game(text: str, source: str | None = None) -> tuple[GameDescription, list[Problem]]:
    """Parse rules in either syntax; returns the description and the problems met reading it."""
    try:
        if looks_like_kif(text):
            return read_kif(text, source)
        return parse_infix(text, source), []
    except GDLSyntaxError as exc:
        return GameDescription((), source), [exc.as_problem()]


def read_game_file(path: str | Path) -> tuple[GameDescription, list[Problem]]:
    """Read a game file; a missing or unreadable file is reported as a problem, not raised."""
    path = Path(path)
    loader = loader_for(path)
    try:
        if loader is not None:
            return loader(path)
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        return GameDescription((), str(path)), [Problem(Location(str(path), 1, 1), f"cannot read file: {exc.strerror}")]
    except UnicodeDecodeError as exc:
        return GameDescription((), str(path)), [Problem(Location(str(path), 1, 1), f"not UTF-8 text: {exc.reason}")]
    return read_game(text, str(path))


def load_game_with_warnings(path: str | Path) -> tuple[GameDescription, list[Problem]]:
    """Read, validate and repair a game file (see :func:`load_game`); also the warnings, each
    at its file, line and column: what reading found and what validation found. For a file in
    another language (RECYCLE) only its own warnings: the rules generated from it are not the
    user's text (``ggp validate`` reports their problems at the source). Python's cyclic garbage
    collector runs rarely meanwhile (:func:`~ggp.collector.rare_collections`)."""
    with rare_collections():
        description, problems = read_game_file(path)
        errors = [p for p in problems if p.is_error]
        if errors:
            raise InvalidGameError(errors)
        description, warnings = prepare(description)
    if loader_for(Path(path)) is not None:
        warnings = []
    return description, sorted(dict.fromkeys(problems + warnings),
                               key=lambda p: (p.location.line, p.location.column))


def load_game(path: str | Path, check: bool = True) -> GameDescription:
    """Read a game file and (with ``check``) validate it and repair its clear slips.

    Raises :class:`InvalidGameError` on errors. The repairs (see :mod:`ggp.gdl.normalise`) make
    games with warnings playable as a reference game manager plays them.
    """
    if check:
        return load_game_with_warnings(path)[0]
    description, problems = read_game_file(path)
    errors = [p for p in problems if p.is_error]
    if errors:
        raise InvalidGameError(errors)
    return description


def validate_file(path: str | Path) -> list[Problem]:
    """Every problem of a game file, in source order: what reading found, then validation.

    When some rules do not parse the others are still validated, without the whole-game checks
    (see :func:`~ggp.gdl.validate.validate`); when the text cannot be read at all (unbalanced
    parentheses, not UTF-8) only that is reported.
    """
    with rare_collections():
        try:
            description, problems = read_game_file(path)
        except GDLSyntaxError as exc:
            return [exc.as_problem()]
        if any(p.is_error for p in problems) and not description.rules:
            return unique_problems(problems)
        return unique_problems(problems + validate(description, complete=not any(p.is_error for p in problems)))
