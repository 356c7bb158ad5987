"""Reading RECYCLE text: the LALR(1) parser of ``recycle.lark``, built once, and its entry points.

:func:`parse_recycle` reads a whole game (``;;`` comments, a leading byte-order mark, and text
after the game, which the engine ignores and we report as a warning); :func:`parse_fragment`
reads one construct (an action, a condition, an integer...), for tests and tools.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from lark import Lark, Token
from lark.exceptions import UnexpectedInput, VisitError
from lark.lexer import PatternStr

from ggp.errors import Location, Problem
from translators.recycle.syntax.errors import RecycleSyntaxError, friendly_error
from translators.recycle.syntax.kinds import resolve
from translators.recycle.syntax.nodes import Game
from translators.recycle.syntax.transformer import ToNodes

#: The constructs :func:`parse_fragment` reads, by the name of their grammar rule.
FragmentKind = Literal["item", "flow", "boolean", "int", "str", "card", "collection", "owner", "value"]
FRAGMENT_KINDS: tuple[FragmentKind, ...] = (
    "item", "flow", "boolean", "int", "str", "card", "collection", "owner", "value",
)

_NAME = re.compile(r"[A-Z]+")
_VAR = re.compile(r"'[A-Z]+")


def _check_name(token: Token) -> Token:
    """Names are capitals only; any other word that is not a keyword is an unknown word."""
    if not _NAME.fullmatch(token):
        token.type = "WORD"
    return token


def _check_var(token: Token) -> Token:
    if not _VAR.fullmatch(token):
        token.type = "BAD_VAR"
    return token


_PARSER = Lark.open(
    str(Path(__file__).with_name("recycle.lark")),
    parser="lalr",
    lexer="basic",
    start=["start"] + [f"frag_{kind}" for kind in FRAGMENT_KINDS],
    propagate_positions=True,
    maybe_placeholders=False,
    # NAME last: Lark chains a callback on NAME with its keyword check through a closure over
    # its loop variable, which is right only for the last entry.
    lexer_callbacks={"VAR": _check_var, "NAME": _check_name},
)


#: Keyword terminals of the grammar, by name: ``{"STAGE": "stage", ...}``.
KEYWORDS: dict[str, str] = {
    t.name: t.pattern.value
    for t in _PARSER.terminals
    if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()
}


def _error(exc: UnexpectedInput, text: str, source: str | None) -> RecycleSyntaxError:
    return friendly_error(exc, text, source, KEYWORDS)


def _tree(text: str, start: str, source: str | None) -> Any:
    try:
        return _PARSER.parse(text, start=start)
    except UnexpectedInput as exc:
        raise _error(exc, text, source) from None


def _error_offset(exc: UnexpectedInput) -> int | None:
    token = getattr(exc, "token", None)
    if isinstance(token, Token):
        return token.start_pos if token.type != "$END" else None
    pos = getattr(exc, "pos_in_stream", None)
    return pos if isinstance(pos, int) else None


def _game_before(text: str, exc: UnexpectedInput) -> Any:
    """The parse tree of the text before a parse error, when that text is a whole game."""
    offset = _error_offset(exc)
    if offset is None:
        return None
    try:
        return _PARSER.parse(text[:offset], start="start")
    except UnexpectedInput:
        return None


def _to_nodes(tree: Any, source: str | None) -> Any:
    try:
        return ToNodes().transform(tree)
    except VisitError as exc:  # a bug in the transformer, not bad input: keep the cause
        raise exc.orig_exc from None


def parse_recycle(text: str, source: str | None = None) -> Game:
    """The syntax tree of a RECYCLE game; raises :class:`RecycleSyntaxError` on bad input.

    Variables and comparisons get their kinds (:func:`.resolve.resolve`). Text after the
    game is ignored, with a warning in ``Game.warnings``.
    """
    text = text.removeprefix("\ufeff")
    _check_depth(text, source)
    warnings: list[Problem] = []
    try:
        tree = _PARSER.parse(text, start="start")
    except UnexpectedInput as exc:
        tree = _game_before(text, exc)
        if tree is None:
            raise _error(exc, text, source) from None
        junk = " ".join(text[_error_offset(exc) or 0 :].split())
        shown = junk if len(junk) <= 30 else junk[:27] + "..."
        warnings.append(Problem(
            Location(source, exc.line, exc.column),
            f"text after the end of the game is ignored (as the engine does): `{shown}`",
            "warning",
        ))
    game = _to_nodes(tree, source)
    assert isinstance(game, Game)
    return replace(resolve(game), source=source, warnings=tuple(warnings))


#: The deepest nesting of forms read (the corpus's deepest is 21; the passes recurse per level).
MAX_DEPTH = 120


def _check_depth(text: str, source: str | None) -> None:
    """A located error at the first ``(`` nested more than :data:`MAX_DEPTH` deep (comments and
    the rest of a line after ``;`` are skipped)."""
    depth, line, column, comment = 0, 1, 0, False
    for ch in text:
        column += 1
        if ch == "\n":
            line, column, comment = line + 1, 0, False
        elif comment:
            continue
        elif ch == ";":
            comment = True
        elif ch == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise RecycleSyntaxError(f"forms nested more than {MAX_DEPTH} deep: the game cannot be read",
                                         Location(source, line, column))
        elif ch == ")":
            depth -= 1


def parse_recycle_file(path: str | Path) -> Game:
    """Read and parse a ``.rcy`` file; an unreadable file is a :class:`RecycleSyntaxError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise RecycleSyntaxError(f"cannot read file: {exc.strerror}", Location(str(path), 1, 1)) from None
    except UnicodeDecodeError as exc:
        raise RecycleSyntaxError(f"not UTF-8 text: {exc.reason}", Location(str(path), 1, 1)) from None
    return parse_recycle(text, str(path))


def parse_fragment(text: str, kind: FragmentKind, source: str | None = None) -> Any:
    """One construct of the given kind (``"item"`` for an action, ``"boolean"``, ``"int"``...).

    Variables are not resolved (a fragment has no declarations); raises
    :class:`RecycleSyntaxError`.
    """
    if kind not in FRAGMENT_KINDS:
        raise ValueError(f"unknown fragment kind {kind!r}; one of {', '.join(FRAGMENT_KINDS)}")
    return _to_nodes(_tree(text, f"frag_{kind}", source), source)
