"""Compiling a game's generated C into a Python extension module, and loading it.

The C of one game (:mod:`ggp.reasoner.ccode`) and the runtime ``native.c`` make one translation
unit, compiled by the system's C compiler (``$CC``, else the compiler Python was built with,
else ``cc``) against the running Python's headers into a shared library, which is then loaded
as an extension module. Nothing here is needed to install the project: without a compiler or
without the Python headers :func:`unavailable` says why and the compiled machine is not offered.

A machine built with the disk cache (:mod:`ggp.reasoner.cache`) keeps the library in the game's
entry (``compiled.so``, with its SHA-256 and the compile figures beside it), so the C is
generated and compiled once per game and generator version; the module name is derived from the
source, so two versions never collide in one process.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ggp.errors import ReasonerError

RUNTIME = Path(__file__).resolve().with_name("native.c")
#: The optimisation level: on this straight-line boolean code ``-O2`` compiles two to five
#: times slower than ``-O1`` (translated Agram: 32 s against 15 s) and runs no faster.
OPTIMIZE = "-O1"
#: Past this many bytes of code (tables not counted) ``-O0``: gcc's ``-O1`` takes about 25 s of
#: CPU per megabyte of this code (blackjack's 4.3 MB: 100 s on a loaded machine, 25 s at
#: ``-O0``), and ``-O0`` code runs about half as fast.
LARGE_CODE = 2_000_000


def optimization(source: str) -> str:
    """The optimisation flag for ``source``: ``-O1``, or ``-O0`` for very large code."""
    code = sum(len(line) + 1 for line in source.splitlines() if not line.startswith("static const"))
    return OPTIMIZE if code <= LARGE_CODE else "-O0"
#: Seconds a compilation may take before it is given up.
COMPILE_TIMEOUT = 900
#: The share of the machine's memory the compiler may take: gcc at ``-O0`` on the 4.3 MB of a
#: four-player Blackjack's C grew past 8 GB; past the limit the compilation fails and the game
#: is played by the fast machine instead of the machine running out of memory.
MEMORY_SHARE = 0.5


def memory_limit() -> int | None:
    """Bytes of address space the compiler may use (``MEMORY_SHARE`` of the physical memory),
    or None where the platform does not tell."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * MEMORY_SHARE)
    except (AttributeError, ValueError, OSError):
        return None


def limited(command: list[str], limit: int | None) -> list[str]:
    """``command`` run with its address space capped at ``limit`` bytes, by the shell's
    ``ulimit -v`` (a ``preexec_fn`` is not safe in a threaded process, and games are compiled
    in a background thread)."""
    if limit is None or sys.platform == "win32" or shutil.which("sh") is None or shutil.which(command[0]) is None:
        return command  # (a missing compiler is an OSError of its own)
    return ["sh", "-c", f'ulimit -v {limit // 1024} && exec "$@"', "sh", *command]

_problem: list[str | None] = []
_loaded: dict[str, ModuleType] = {}
_guard = threading.Lock()


@dataclass(frozen=True)
class Built:
    """A compiled game: its module and what building it cost (seconds; 0 when loaded)."""

    module: ModuleType
    name: str
    generate_seconds: float
    compile_seconds: float
    source_bytes: int
    from_cache: bool


def compiler_command() -> list[str]:
    """The C compiler's command: ``$CC``, else the one Python was built with, else ``cc``."""
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")


def unavailable() -> str | None:
    """Why compiled machines cannot be built here (no C compiler, no Python headers), or None."""
    if not _problem:
        _problem.append(_find_problem())
    return _problem[0]


def _find_problem() -> str | None:
    if sys.implementation.name != "cpython":
        return f"compiled machines need CPython, not {sys.implementation.name}"
    command = compiler_command()
    if not command or shutil.which(command[0]) is None:
        return f"no C compiler found: {' '.join(command) or 'cc'!r} is not a program here (set $CC to a C compiler)"
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").exists():
        return f"the Python headers are not installed ({include / 'Python.h'} is missing; on Debian: python3-dev)"
    return None


def module_name(source: str) -> str:
    """The extension module's name for ``source`` (unique per source text)."""
    return "_ggp_game_" + hashlib.sha256(source.encode()).hexdigest()[:24]


def compile_source(source: str, name: str, target: Path) -> float:
    """Compile the game's C ``source`` with the runtime into the library ``target`` (module
    ``name``); the seconds it took. Raises :class:`ReasonerError` with the compiler's messages."""
    problem = unavailable()
    if problem is not None:
        raise ReasonerError(f"cannot compile the game: {problem}")
    include = sysconfig.get_paths()["include"]
    with tempfile.TemporaryDirectory(prefix="ggp-cc-") as folder:
        path = Path(folder) / f"{name}.c"
        path.write_text(source + RUNTIME.read_text(encoding="utf-8"), encoding="utf-8")
        out = Path(folder) / f"{name}.so"
        command = compiler_command() + [optimization(source), "-fPIC", "-shared", "-w", f"-I{include}",
                                        f"-DMODULE_NAME={name}", "-o", str(out), str(path)]
        if sys.platform == "darwin":
            command += ["-undefined", "dynamic_lookup"]
        start = time.perf_counter()
        limit = memory_limit()
        try:
            done = subprocess.run(limited(command, limit), capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ReasonerError(f"cannot compile the game with {command[0]}: {exc}") from None
        seconds = time.perf_counter() - start
        if done.returncode != 0 or not out.exists():
            lines = (done.stderr or done.stdout).strip().splitlines()
            detail = "\n".join(lines[:20])
            within = f" (its memory is limited to {limit // 2**20:,} MiB, half the machine's)" if limit else ""
            raise ReasonerError(f"compiling the game with {command[0]} failed (exit {done.returncode}){within}:\n{detail}")
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.close(handle)
        try:
            shutil.copyfile(out, temp)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    return seconds


def load(name: str, path: Path) -> ModuleType:
    """The extension module ``name`` from the library at ``path`` (loaded once per process)."""
    with _guard:
        module = _loaded.get(name)
        if module is None:
            loader = importlib.machinery.ExtensionFileLoader(name, str(path))
            spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
            if spec is None:
                raise ReasonerError(f"cannot load the compiled game {path}")
            try:
                module = importlib.util.module_from_spec(spec)
                loader.exec_module(module)
            except ImportError as exc:
                raise ReasonerError(f"cannot load the compiled game {path}: {exc}") from None
            _loaded[name] = module
    return module


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (empty when it cannot be read)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""
