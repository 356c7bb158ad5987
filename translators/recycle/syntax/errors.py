"""Syntax errors in RECYCLE programs, in plain words.

Lark reports a parse error as an unexpected token and a set of terminal names. This module
turns that into a sentence: where (file, line, column), inside which form (the source text of
the innermost open parenthesis), what was found, what was expected, and the form's usage,
e.g. "`(stage player` needs an `(end CONDITION)` first, found `(choice`".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ggp.errors import InputError, Location


class RecycleSyntaxError(InputError):
    """A RECYCLE program that does not parse; ``location`` is the offending text's position."""


#: How each form is written, for the "the form is ..." part of a message.
USAGE: dict[str, str] = {
    "game": "(game (declare ...)... (setup ...) STAGE-OR-ACTIONS... (scoring max|min INTEGER))",
    "declare": "(declare VALUE 'NAME)",
    "setup": "(setup (create players N) [(create teams ...)] (create deck ...)...)",
    "create": "(create players N), (create teams (0, 2) (1, 3)) or (create deck LOCATION (deck ...))",
    "create players": "(create players N)",
    "create teams": "(create teams (0, 2) (1, 3))",
    "create deck": "(create deck LOCATION (deck (KEY (VALUE, ...)) ...))",
    "shuffle faro": "(shuffle faro CARDS CARDS)",
    "repeat all": "(repeat all (move CARD CARD))",
    "scoring": "(scoring max|min INTEGER)",
    "stage": "(stage player|team (end CONDITION) BODY...)",
    "end": "(end CONDITION)",
    "choice": "(choice (ACTION...))",
    "do": "(do (ACTION...))",
    "let": "(let VALUE 'NAME BODY)",
    "all": "(all COLLECTION 'NAME BODY)",
    "any": "(any COLLECTION 'NAME BODY)",
    "move": "(move CARD CARD)",
    "remember": "(remember CARD CARD)",
    "forget": "(forget CARD)",
    "shuffle": "(shuffle CARDS)",
    "set": "(set (OWNER sto NAME) INTEGER), (set (OWNER str NAME) STRING) or "
    "(set (OWNER points NAME) (((KEY : VALUE) POINTS)...))",
    "inc": "(inc (OWNER sto NAME) INTEGER)",
    "dec": "(dec (OWNER sto NAME) INTEGER)",
    "put": "(put points 'NAME (((KEY (VALUE)) POINTS)...))",
    "cycle": "(cycle next|current (owner CARD)|'PLAYER|current|next|previous)",
    "turn": "(turn pass)",
    "repeat": "(repeat N ACTION) or (repeat all (move CARD CARD))",
    "teams": "(create teams (0, 2) (1, 3))",
    "deck": "(deck (KEY (VALUE, VALUE...)) ...)",
    "owner": "(owner CARD)",
    "team": "(team PLAYER)",
    "mod": "(mod INTEGER INTEGER)",
    "tri": "(tri INTEGER)",
    "fib": "(fib INTEGER)",
    "random": "(random INTEGER) or (random LOW..HIGH)",
    "size": "(size COLLECTION)",
    "sum": "(sum CARDS using POINTMAP)",
    "score": "(score CARD using POINTMAP)",
    "cardatt": "(cardatt KEY CARD)",
    "actual": "(actual CARD)",
    "max": "(max CARDS using POINTMAP)",
    "min": "(min CARDS using POINTMAP)",
    "top": "(top CARDS) or (top N CARDS)",
    "bottom": "(bottom CARDS) or (bottom N CARDS)",
    "union": "(union CARDS...)",
    "intersect": "(intersect CARDS...)",
    "disjunction": "(disjunction CARDS...)",
    "sort": "(sort CARDS using POINTMAP)",
    "filter": "(filter COLLECTION 'NAME CONDITION)",
    "run": "(run top|bottom N CARDS using POINTMAP)",
    "tuples": "(tuples N CARDS using POINTMAP)",
    "partition": "(partition KEY CARDS...)",
    "subsets": "(subsets CARDS)",
    "runs": "(runs largest|all N CARDS using POINTMAP)",
    "other": "(other player|team)",
    "range": "(range LOW..HIGH)",
    "and": "(and CONDITION CONDITION...)",
    "or": "(or CONDITION CONDITION...)",
    "not": "(not CONDITION)",
}

_ACTION_WORDS = ("move", "set", "inc", "dec", "shuffle", "cycle", "repeat", "turn", "remember",
                 "forget", "all", "any", "do", "let")
_CONDITION_WORDS = ("and", "or", "not", "all", "any")
_INTEGER_WORDS = ("size", "sum", "score", "mod", "tri", "fib", "random")
_OWNER_PARTS = ("sto", "str", "points", "vloc", "iloc", "hloc", "oloc", "mem")

_TERMINAL_WORDS: dict[str, str] = {
    "LPAR": "`(`",
    "RPAR": "`)`",
    "COMMA": "`,`",
    "COLON": "`:`",
    "__ANON_0": "`..`",
    "NAME": "a NAME in capitals",
    "VAR": "a 'VARIABLE",
    "INT": "a number",
    "COMPARE_OP": "a comparison (==, !=, <, >, <=, >=)",
    "ARITH_OP": "an operator (+, -, *, //, %, ^)",
    "$END": "the end of the file",
}


def _words(expected: Iterable[str], keywords: Mapping[str, str]) -> set[str]:
    return {keywords[t] for t in expected if t in keywords}


def describe_expected(expected: Iterable[str], keywords: Mapping[str, str]) -> str:
    """The expected terminals in words, with families (actions, conditions...) named as one.

    ``keywords`` maps the names of keyword terminals to their text.
    """
    terminals = set(expected)
    words = _words(terminals, keywords)
    phrases: list[str] = []
    if {"move", "set"} <= words:
        phrases.append("an action (" + ", ".join(w for w in _ACTION_WORDS if w in words) + ")")
        words -= set(_ACTION_WORDS) | {"put", "create"}
        if "LPAR" in terminals:
            phrases.append("a conditional action `((CONDITION) ACTION)`")
            terminals.discard("LPAR")
    if {"and", "not"} <= words:
        phrases.append("a condition (and, or, not, ==, <, ..., all, any)")
        words -= set(_CONDITION_WORDS)
        terminals.discard("COMPARE_OP")
    if {"size", "sum"} <= words:
        phrases.append("an integer expression (+, -, " + ", ".join(_INTEGER_WORDS) + ", ...)")
        words -= set(_INTEGER_WORDS)
        terminals.discard("ARITH_OP")
    if {"sto", "vloc"} <= words:
        phrases.append("`sto`, `str`, `points` or a location kind (`vloc`, `iloc`, `hloc`, `oloc`, `mem`)")
        words -= set(_OWNER_PARTS)
    phrases.extend(f"`{w}`" for w in sorted(words))
    for name in sorted(terminals):
        if name in _TERMINAL_WORDS:
            phrases.append(_TERMINAL_WORDS[name])
    if not phrases:
        return "something else"
    if len(phrases) > 8:
        phrases = phrases[:8] + ["..."]
    return phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " or " + phrases[-1]


def _snippet(text: str, start: int, end: int, limit: int = 48) -> str:
    """Source text between two offsets on one line, comments dropped, shortened in the middle."""
    piece = re.sub(r";[^\n]*", " ", text[start:end])
    piece = " ".join(piece.split())
    if len(piece) > limit:
        piece = piece[: limit // 2 - 2] + " ... " + piece[-(limit // 2 - 3) :]
    return piece


def _found(token: Token, text: str) -> str:
    """What the parser found, in words: a keyword after ``(`` is shown with it."""
    if token.type == "$END":
        return "the end of the file"
    if token.type == "LPAR":
        m = re.match(r"\(\s*([^\s()]*)", text[int(token.start_pos or 0) :])
        return f"`({m.group(1) if m else ''}`"
    if token.type == "WORD":
        return f"the unknown word `{token}`"
    if token.type == "BAD_VAR":
        return f"`{token}`"
    return f"`{token}`"


def _open_forms(stack: list[Any]) -> list[int]:
    """Indexes in the parser's value stack of the parentheses still open (outermost first).

    A form whose ``)`` has been read but not yet reduced (the token after it decides) is closed.
    """
    opened: list[int] = []
    for i, item in enumerate(stack):
        if isinstance(item, Token) and item.type == "LPAR":
            opened.append(i)
        elif isinstance(item, Token) and item.type == "RPAR" and opened:
            opened.pop()
    return opened


def _keyword_text(item: Any) -> str | None:
    """The keyword an item of the value stack stands for (a token or a one-keyword rule)."""
    if isinstance(item, Tree) and len(item.children) == 1:
        item = item.children[0]
    if isinstance(item, Token) and (
        (str(item).isalpha() and str(item).islower()) or item.type in ("ARITH_OP", "COMPARE_OP")
    ):
        return str(item)
    return None


#: The parts of a form's usage in words.
_PART_WORDS = {
    "CARD": "a card", "CARDS": "a card collection", "COLLECTION": "a collection",
    "CONDITION": "a condition", "INTEGER": "an integer", "VALUE": "a value", "KEY": "a key name",
    "POINTMAP": "a point map", "PLAYER": "a player", "ACTION": "an action", "BODY": "an action",
    "LOCATION": "a card location", "STRING": "a string",
}
#: Forms too large to be worth naming as the context of a smaller mistake.
_FRAMES = {"game", "setup", "stage", "do", "choice", None}
_OWNER_USAGE = "(OWNER sto|str|points NAME) or (OWNER vloc|iloc|hloc|oloc|mem NAME)"
_CONDITION_RULES = {"conj", "disj", "neg", "compare", "bool_all", "bool_any"}
_OWNER_RULES = {"game_owner", "var", "relative_player", "player_at", "owner_of", "relative_team",
                "team_at", "team_of"}


def _form_usage(stack: list[Any], index: int) -> str | None:
    """How the form opened at ``stack[index]`` is written, if we can tell which form it is."""
    first = _keyword_text(stack[index + 1]) if index + 1 < len(stack) else None
    if first == "game" and index > 0:
        return _OWNER_USAGE
    if first is not None and not first.isalpha():
        return f"({first} INTEGER INTEGER)" if first not in ("==", "!=") else f"({first} VALUE VALUE)"
    if first is not None:
        second = _keyword_text(stack[index + 2]) if index + 2 < len(stack) else None
        return USAGE.get(f"{first} {second}") or USAGE.get(first)
    if index + 1 < len(stack) and isinstance(stack[index + 1], Tree):
        rule = str(stack[index + 1].data)
        if rule in _CONDITION_RULES:
            return "(CONDITION ACTION)"
        if rule in _OWNER_RULES:
            return _OWNER_USAGE
    return None


def edit_distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace, swap two neighbours) turning ``a`` into ``b``."""
    previous: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        before, previous, row = previous, row, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], before[j - 2] + 1)
    return row[len(b)]


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to a misspelt word, if it is near enough (a third of its letters)."""
    scored = sorted((edit_distance(word, c), c) for c in candidates)
    if scored and scored[0][0] <= max(1, len(word) // 3):
        return scored[0][1]
    return None


def _word_hint(token: Token, expected: set[str], keywords: Mapping[str, str]) -> str:
    """Did-you-mean for unknown words and badly written names and variables."""
    word = str(token)
    if token.type == "BAD_VAR":
        return "; a variable is a quote followed by capital letters, e.g. 'P"
    if token.type != "WORD":
        return ""
    close = closest(word.lower(), _words(expected, keywords))
    if close:
        return f"; did you mean `{close}`?"
    if "NAME" in expected:
        upper = re.sub(r"[^A-Za-z]", "", word).upper()
        return f"; names are written in capitals (`{upper}`)"
    close = closest(word.lower(), [w for w in USAGE if w.isalpha()])
    return f"; did you mean `{close}`?" if close else ""


def _special(
    form: str | None, form_empty: bool, token: Token, expected: set[str], has_setup: bool
) -> str | None:
    """Messages for the mistakes that deserve more than the generic sentence."""
    if form == "stage" and form_empty and expected == {"END"}:
        return "`(stage player|team` needs an `(end CONDITION)` first"
    if form == "game" and form_empty and "SETUP" in expected and token.type != "WORD":
        return "`(game` starts with `(declare ...)` lines, then `(setup ...)`"
    if form == "setup" and form_empty and expected == {"CREATE"} and token.type != "WORD":
        return "`(setup` starts with `(create players N)`"
    if form == "game" and not form_empty and token.type == "RPAR" and expected == {"LPAR"}:
        if not has_setup:
            return "`(game` needs a `(setup ...)`, stages or actions, and a `(scoring ...)`"
        return "`(game` needs a `(scoring max|min INTEGER)` as its last part"
    if form == "setup" and not form_empty and token.type == "RPAR" and expected == {"LPAR"}:
        return "`(setup` needs at least one `(create deck LOCATION (deck ...))`"
    if form in ("do", "choice") and form_empty and token.type != "LPAR" and "LPAR" in expected:
        return f"`({form}` takes its actions in a list: `({form} ((ACTION) (ACTION) ...))`"
    return None


def _head(stack: list[Any], opens: list[int], index: int) -> str:
    """``(`` and the keywords that open the form at ``stack[index]``: ``(stage player``.

    A bare parenthesis (the list of a ``do``) is shown with its form: ``(do (``.
    """
    words = []
    for item in stack[index + 1 :]:
        word = _keyword_text(item)
        if word is None:
            break
        words.append(word)
    position = opens.index(index)
    if not words and position > 0 and opens[position - 1] == index - 2:
        return _head(stack, opens, opens[position - 1]) + " ("
    return "(" + " ".join(words)


def _expected_part(usage: str | None, done: int) -> str | None:
    """The name of part number ``done`` (from 0) of a form, from its usage ``(word PART PART)``."""
    if usage is None:
        return None
    first = usage.split(" or ")[0].split("), ")[0]
    parts = [p for p in first.strip("()").split() if not p.islower()]
    if not parts or "[" in first or "|" in first:
        return None
    if done < len(parts):
        part = parts[done]
    elif parts[-1].endswith("..."):
        part = parts[-1]
    else:
        return None
    part = part.rstrip(".")
    if part == "N":
        return "INTEGER"
    return part if part.isalpha() and part.isupper() else None


def _done_parts(stack: list[Any], index: int) -> int:
    """How many parts of the form opened at ``stack[index]`` follow its keyword (or two)."""
    items = stack[index + 1 :]
    if not items or _keyword_text(items[0]) is None:
        return len(items)
    second = _keyword_text(items[1]) if len(items) > 1 else None
    return len(items) - (2 if f"{_keyword_text(items[0])} {second}" in USAGE else 1)


def friendly_error(
    exc: UnexpectedInput, text: str, source: str | None, keywords: Mapping[str, str]
) -> RecycleSyntaxError:
    """A :class:`RecycleSyntaxError` in plain words for a Lark parse error on ``text``.

    ``keywords`` maps the names of the grammar's keyword terminals to their text.
    """
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        char = text[pos] if pos < len(text) else ""
        loc = Location(source, exc.line, exc.column)
        hint = {
            '"': " (a string is written in capitals without quotes)",
            "=": " (comparisons are written ==, !=, <, >, <= and >=)",
            ".": " (a range is written LOW..HIGH)",
        }.get(char, "")
        return RecycleSyntaxError(f"unexpected character `{char}`{hint}", loc, char)
    if not isinstance(exc, UnexpectedToken):
        return RecycleSyntaxError(str(exc), Location(source, max(exc.line, 1), max(exc.column, 1)))
    token = exc.token
    expected = set(exc.accepts or exc.expected)
    parser = exc.interactive_parser
    stack: list[Any] = list(parser.parser_state.value_stack) if parser is not None else []
    opens = _open_forms(stack)
    loc = Location(source, token.line or 1, token.column or 1)
    found = _found(token, text)
    if not opens:
        return RecycleSyntaxError(f"expected a `(game ...)`, found {found}", loc, str(token))
    inner = opens[-1]
    # Right after a `(`, the form being written is the enclosing one.
    form_empty = inner == len(stack) - 1
    index = opens[-2] if form_empty and len(opens) > 1 else inner
    end = len(text) if token.type == "$END" else int(token.start_pos or 0)
    context = _snippet(text, int(stack[index].start_pos or 0), end)
    if form_empty and index != inner:
        context = _head(stack, opens, index) + " ... ("
    form = _keyword_text(stack[index + 1]) if index + 1 < len(stack) else None
    if form == "game" and index > 0:
        form = None
    if token.type == "$END":
        opener: Token = stack[inner]
        message = (f"the file ends inside `{context}` (opened at line {opener.line}, column "
                   f"{opener.column}): {len(opens)} `)` missing")
        return RecycleSyntaxError(message, loc, "")
    hint = _word_hint(token, expected, keywords)
    if form_empty and token.type != "LPAR":
        found = f"`({token}`"
    has_setup = any(isinstance(item, Tree) and item.data == "setup" for item in stack)
    special = _special(form, form_empty, token, expected, has_setup)
    if special is not None:
        return RecycleSyntaxError(f"{special}, found {found}{hint}", loc, str(token))
    usage = _form_usage(stack, index)
    enclosing = ""
    if form is None and not form_empty:
        outer = [i for i in opens if i < index and _keyword_text(stack[i + 1]) not in _FRAMES]
        if outer and _form_usage(stack, outer[-1]):
            enclosing = f"; inside `{_head(stack, opens, outer[-1])}`, written `{_form_usage(stack, outer[-1])}`"
    wanted = describe_expected(expected, keywords)
    part = _expected_part(usage, _done_parts(stack, inner)) if not form_empty else None
    if part is not None and not (_words(expected, keywords) - {"all", "any", "player", "team"}):
        wanted = _PART_WORDS.get(part, f"a {part}")
    if token.type == "RPAR" and "RPAR" not in expected:
        what = f"`{context}` is not complete: expected {wanted} before `)`"
    elif expected == {"RPAR"}:
        what = f"`{context}` is complete: expected `)`, found {found}"
    else:
        after = " after `(`" if form_empty else ""
        what = f"in `{context}`: expected {wanted}{after}, found {found}"
    suffix = f" (the form is `{usage}`)" if usage else ""
    return RecycleSyntaxError(f"{what}{hint}{suffix}{enclosing}", loc, str(token))
