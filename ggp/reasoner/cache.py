"""A disk cache of built fast machines, shared by every process on the machine.

Building a fast machine (grounding, the network, generated code compiled to bytecode) costs
seconds on a large game, and every player process builds its own at START. The cache keeps
what a build produces, one directory per game and generator::

    CACHE/reasoner/KEY/interface.pickle   roles, fluents, moves, percept terms, build figures
                       network.pickle     the whole network (for code not yet compiled)
                       main.code          marshalled code objects of generated modules
                       sees.code, sees0.code, ...
                       percept_moves0.pickle, ...   analyses of the network

``CACHE`` is :func:`ggp.paths.cache_dir` (``$GGP_CACHE_DIR``, else ``DATA/cache``);
``GGP_NO_CACHE=1`` turns the cache off; ``GGP_CACHE_ENTRIES=N`` keeps N entries in place of
:data:`KEPT_ENTRIES`. ``KEY`` hashes the rules' digest, the generator's
version (:data:`GENERATOR_VERSION` and the source text of every module of :mod:`ggp.reasoner`
and of the term classes, so no code change can load an entry written by other code) and the
Python bytecode format. Each file is written to a temporary file and renamed over its name, so
processes writing the same entry at once never leave a torn file; each carries a SHA-256 of its
payload, and a file that fails the check or does not load is ignored (logged at debug level)
and rebuilt. Files hold pickles: the cache directory must be writable only by its user.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import marshal
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from types import CodeType

from ggp.gdl.terms import Function, Term
from ggp.paths import cache_dir

log = logging.getLogger(__name__)

#: Bump when the cached content changes in a way the source hash below cannot see.
GENERATOR_VERSION = "1"
#: Entries kept (``$GGP_CACHE_ENTRIES`` sets another number), and bytes they may take together:
#: past either, the least recently used are removed when a new entry is made (a large card
#: game's entry takes up to 250 MB).
KEPT_ENTRIES = 32
KEPT_BYTES = 2 << 30
_MAGIC = b"GGPCACHE1\n"
_PROTOCOL = 4
_version: str | None = None


def interned(terms: Iterable[Term], table: dict[Term, Term]) -> tuple[Term, ...]:
    """``terms`` rebuilt so that equal subterms are one object (``table`` maps each term to
    its one copy): a pickle then holds each once, several times smaller and faster to load."""
    def one(term: Term) -> Term:
        found = table.get(term)
        if found is None:
            if isinstance(term, Function):
                term = Function(term.name, tuple(one(a) for a in term.args))
            found = table[term] = term
        return found

    return tuple(one(t) for t in terms)


def enabled() -> bool:
    """False when ``$GGP_NO_CACHE`` is set to anything but ``""`` or ``"0"``."""
    return os.environ.get("GGP_NO_CACHE", "") in ("", "0")


def kept_entries() -> int:
    """How many entries the cache keeps: ``$GGP_CACHE_ENTRIES`` when it is a positive whole
    number, else :data:`KEPT_ENTRIES` (a warning says why the variable was not used)."""
    text = os.environ.get("GGP_CACHE_ENTRIES", "").strip()
    if not text:
        return KEPT_ENTRIES
    if text.isdigit() and int(text) > 0:
        return int(text)
    log.warning("GGP_CACHE_ENTRIES=%r is not a positive whole number; keeping %d entries", text, KEPT_ENTRIES)
    return KEPT_ENTRIES


def generator_version() -> str:
    """A hash of :data:`GENERATOR_VERSION` and the source of the modules that shape an entry."""
    global _version
    if _version is None:
        here = Path(__file__).resolve().parent
        sources = sorted(here.glob("*.py")) + sorted(here.glob("*.c"))
        sources += [here.parent / "gdl" / "terms.py", here.parent / "gdl" / "rules.py"]
        digest = hashlib.sha256(GENERATOR_VERSION.encode())
        for path in sources:
            digest.update(path.name.encode() + b"\0")
            try:
                digest.update(path.read_bytes())
            except OSError:
                digest.update(b"unreadable")
        _version = digest.hexdigest()
    return _version


def entry_key(game_digest: str) -> str:
    """The directory name of a game's entry: rules, generator and bytecode format hashed."""
    python = f"{sys.implementation.cache_tag}:{importlib.util.MAGIC_NUMBER.hex()}"
    text = f"{game_digest}\n{generator_version()}\n{python}"
    return hashlib.sha256(text.encode()).hexdigest()[:40]


class CacheEntry:
    """One game's files in the cache: pickled values and compiled code, each under a name."""

    def __init__(self, directory: Path):
        self.directory = directory

    @classmethod
    def for_game(cls, game_digest: str) -> CacheEntry | None:
        """The entry of the game with this digest; None when the cache is turned off."""
        if not enabled():
            return None
        return cls(cache_dir() / "reasoner" / entry_key(game_digest))

    # -- reading -------------------------------------------------------------------------------

    def _read(self, filename: str) -> bytes | None:
        path = self.directory / filename
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.debug("cache: cannot read %s: %s", path, exc)
            return None
        head = len(_MAGIC)
        payload = data[head + 32:]
        if data[:head] != _MAGIC or data[head:head + 32] != hashlib.sha256(payload).digest():
            log.debug("cache: %s is damaged; rebuilding it", path)
            return None
        return payload

    def load_value(self, name: str) -> object | None:
        """The value stored under ``name``, or None when absent or unreadable."""
        payload = self._read(f"{name}.pickle")
        if payload is None:
            return None
        try:
            value: object = pickle.loads(payload)
        except Exception as exc:  # noqa: BLE001 - any unreadable entry is only a cache miss
            log.debug("cache: %s/%s.pickle does not load (%s); rebuilding it", self.directory, name, exc)
            return None
        return value

    def load_code(self, name: str) -> CodeType | None:
        """The code object stored under ``name``, or None when absent or unreadable."""
        payload = self._read(f"{name}.code")
        if payload is None:
            return None
        try:
            code = marshal.loads(payload)
        except (ValueError, EOFError, TypeError) as exc:
            log.debug("cache: %s/%s.code does not load (%s); rebuilding it", self.directory, name, exc)
            return None
        return code if isinstance(code, CodeType) else None

    # -- writing -------------------------------------------------------------------------------

    def _write(self, filename: str, payload: bytes) -> None:
        """Write atomically (a temporary file renamed over the name); failures are logged only."""
        try:
            fresh = not self.directory.exists()
            self.directory.mkdir(parents=True, exist_ok=True)
            if fresh:
                _prune(self.directory.parent, kept_entries(), keep=self.directory)
            handle, temp = tempfile.mkstemp(prefix=f".{filename}.", dir=self.directory)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
                os.replace(temp, self.directory / filename)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            log.debug("cache: cannot write %s/%s: %s", self.directory, filename, exc)

    def store_value(self, name: str, value: object) -> None:
        """Keep ``value`` (picklable) under ``name``."""
        self._write(f"{name}.pickle", pickle.dumps(value, protocol=_PROTOCOL))

    def store_code(self, name: str, code: CodeType) -> None:
        """Keep a code object under ``name``."""
        self._write(f"{name}.code", marshal.dumps(code))

    def touch(self) -> None:
        """Mark the entry as just used (the least recently used are pruned first)."""
        try:
            os.utime(self.directory)
        except OSError:
            pass


def _size(entry: Path) -> int:
    try:
        return sum(f.stat().st_size for f in entry.iterdir())
    except OSError:
        return 0


def _prune(root: Path, kept: int, keep: Path) -> None:
    """Remove the least recently used entries under ``root`` until fewer than ``kept`` remain
    besides ``keep`` and all of them take at most :data:`KEPT_BYTES`."""
    try:
        entries = sorted(((p.stat().st_mtime, p) for p in root.iterdir() if p.is_dir() and p != keep), reverse=True)
    except OSError:
        return
    total = 0
    for count, (_, entry) in enumerate(entries):  # most recently used first
        total += _size(entry)
        if count + 1 >= kept or total > KEPT_BYTES:
            log.debug("cache: removing the old entry %s", entry)
            shutil.rmtree(entry, ignore_errors=True)
