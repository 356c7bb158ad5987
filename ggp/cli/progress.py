"""Progress bars for long commands: done, rate and time left on standard error (tqdm).

A bar is drawn only when standard error is a terminal and ``--quiet`` was not given, so scripts
and logs get no control characters; it appears once the work has taken half a second, so quick
runs (a few playouts) print nothing.
"""

from __future__ import annotations

import argparse
import sys
from types import TracebackType
from typing import Any, TextIO


def quiet_option(p: argparse.ArgumentParser) -> None:
    """Add ``--quiet`` (no progress bar) to ``p``."""
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar on standard error")


class Progress:
    """A progress bar of ``total`` steps counted in ``unit`` (see the module doc); a context
    manager. ``stream`` defaults to standard error."""

    def __init__(self, total: int | None, unit: str, *, quiet: bool = False, stream: TextIO | None = None,
                 initial: int = 0, description: str | None = None, delay: float = 0.5):
        self.stream = stream if stream is not None else sys.stderr
        self.active = not quiet and _is_terminal(self.stream)
        self._bar: Any = None
        if self.active:
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit=f" {unit}", file=self.stream, initial=initial, desc=description,
                             dynamic_ncols=True, smoothing=0.1, leave=True, delay=delay)

    def update(self, done: int = 1) -> None:
        """Count ``done`` more steps."""
        if self._bar is not None:
            self._bar.update(done)

    def write(self, line: str) -> None:
        """Print ``line`` on the stream above the bar."""
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def close(self) -> None:
        """Finish the bar (it stays on screen)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


__all__ = ["Progress", "quiet_option"]
