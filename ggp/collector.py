"""The cyclic garbage collector kept off large, long-lived structures: while they are built
(:func:`rare_collections`) and while a match uses them (:func:`keep_out`)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Allocations between runs of the collector's youngest generation while building (Python's
#: default is 700).
BUILD_THRESHOLD = 50_000

_lock = threading.Lock()
_builds = 0
_saved: tuple[int, ...] = ()
_frozen = 0


@contextmanager
def rare_collections() -> Iterator[None]:
    """Run the youngest generation every :data:`BUILD_THRESHOLD` allocations inside the block.

    Translating a card game or building a ground network allocates hundreds of thousands of
    long-lived terms and rules; at the default threshold the collector keeps walking them
    (translating Cribbage2 takes 4.3 s with it, 3.5 s without; building Hearts4's fast machine
    8.0 s, 7.1 s). Blocks may nest or overlap in several threads: the threshold is restored when
    the last one ends.
    """
    global _builds, _saved
    with _lock:
        if _builds == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(max(_saved[0], BUILD_THRESHOLD), *_saved[1:])
        _builds += 1
    try:
        yield
    finally:
        with _lock:
            _builds -= 1
            if _builds == 0:
                gc.set_threshold(*_saved)


@contextmanager
def keep_out() -> Iterator[None]:
    """Keep the objects that exist now out of the collector's full collections in the block.

    A player builds its rules, its state machine and its belief at the start of a match and
    keeps them to the end: millions of objects that a full collection, which Python starts after
    enough allocations, walks every time (translated Agram: about 80 ms, in the middle of a
    20 ms belief update). Frozen (:func:`gc.freeze`), they are skipped; they are released (and
    cyclic garbage among them collected) when the last block ends.
    """
    global _frozen
    with _lock:
        if _frozen == 0:
            gc.freeze()
        _frozen += 1
    try:
        yield
    finally:
        with _lock:
            _frozen -= 1
            if _frozen == 0:
                gc.unfreeze()
