"""``.rcy`` files as game descriptions: translated on the fly, cached by content hash.

:func:`load_recycle` is declared as the ``rcy`` loader of the entry-point group ``ggp.loaders``
(``pyproject.toml``; see :mod:`ggp.gdl.loaders`), so every command that reads a game file (``validate``, ``perft``, ``playout``, ``verify``,
``match``...) accepts RECYCLE games. Translations are cached as KIF in a user cache directory:
``$GGP_CACHE_DIR``, else ``$XDG_CACHE_HOME/ggp``, else ``~/.cache/ggp``, under
``recycle/<sha256 of the file and of the translator's own source>.kif``. A cache that cannot be read or
written is ignored: the game is translated again.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

from ggp.errors import Location, Problem
from ggp.gdl.rules import GameDescription


@cache
def translator_version() -> str:
    """A digest of the translator's source files (modules and grammar): any change to the
    translator makes earlier cached translations unused."""
    return source_digest(Path(__file__).resolve().parent)


def source_digest(package: Path) -> str:
    """The sha256 of the ``.py`` and ``.lark`` files under ``package``, with their paths."""
    digest = hashlib.sha256()
    for path in sorted(p for p in package.rglob("*") if p.suffix in (".py", ".lark")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_dir() -> Path:
    """Where translations are cached."""
    explicit = os.environ.get("GGP_CACHE_DIR")
    if explicit:
        return Path(explicit) / "recycle"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ggp" / "recycle"


def cache_key(data: bytes) -> str:
    """The cache key of a RECYCLE source text."""
    return hashlib.sha256(translator_version().encode() + b"\0" + data).hexdigest()


def _read_cache(key: str) -> str | None:
    try:
        return (cache_dir() / f"{key}.kif").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _write_cache(key: str, text: str) -> None:
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(folder / f"{key}.kif")
    except OSError:
        pass


def load_recycle(path: Path) -> tuple[GameDescription, list[Problem]]:
    """Translate a ``.rcy`` file (or take its cached translation): the rules and the problems met
    (RECYCLE errors and translation warnings at their RECYCLE position)."""
    # Imported here, not at the top: a cached translation needs none of the translator, whose
    # import takes 0.3 s (every player process loads the rules this way).
    from ggp.gdl.kif import read_kif
    from translators.recycle.symbols.check import check
    from translators.recycle.syntax.errors import RecycleSyntaxError
    from translators.recycle.syntax.parser import parse_recycle
    from translators.recycle.translate import compile_game, warnings_in_kif
    from translators.recycle.translation_error import TranslationError

    source = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        return GameDescription((), source), [Problem(Location(source, 1, 1), f"cannot read file: {exc.strerror}")]
    key = cache_key(data)
    cached = _read_cache(key)
    if cached is not None:
        description, problems = read_kif(cached, source)
        if not any(p.is_error for p in problems):
            return description, warnings_in_kif(cached, source)
    try:
        game = parse_recycle(data.decode("utf-8-sig"), source)
    except UnicodeDecodeError as exc:
        return GameDescription((), source), [Problem(Location(source, 1, 1), f"not UTF-8 text: {exc.reason}")]
    except RecycleSyntaxError as exc:
        return GameDescription((), source), [exc.as_problem()]
    errors = [p for p in check(game) if p.is_error]
    if errors:
        return GameDescription((), source), errors
    try:
        translation = compile_game(game)
    except TranslationError as exc:
        return GameDescription((), source), [exc.as_problem()]
    _write_cache(key, translation.kif)
    return translation.description, list(translation.warnings)


__all__ = ["cache_dir", "cache_key", "load_recycle", "source_digest", "translator_version"]
