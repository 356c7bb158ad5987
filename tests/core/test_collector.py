"""``rare_collections``: a higher threshold inside, the caller's threshold back after the last block."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from ggp.collector import BUILD_THRESHOLD, rare_collections


@pytest.fixture(autouse=True)
def default_threshold() -> Iterator[tuple[int, ...]]:
    """Each test starts from Python's default thresholds and leaves the caller's as they were."""
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield (700, 10, 10)
    gc.set_threshold(*saved)


def test_inside_the_youngest_generation_runs_rarely_and_the_others_keep_theirs() -> None:
    with rare_collections():
        assert gc.get_threshold() == (BUILD_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_an_error_inside_restores_the_threshold() -> None:
    with pytest.raises(KeyError), rare_collections():
        raise KeyError("x")
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_blocks_restore_at_the_outermost() -> None:
    with rare_collections():
        with rare_collections():
            pass
        assert gc.get_threshold()[0] == BUILD_THRESHOLD
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_of_the_caller_is_kept() -> None:
    gc.set_threshold(BUILD_THRESHOLD * 2, 10, 10)
    with rare_collections():
        assert gc.get_threshold()[0] == BUILD_THRESHOLD * 2
    assert gc.get_threshold() == (BUILD_THRESHOLD * 2, 10, 10)


def test_blocks_overlapping_in_two_threads_restore_after_the_last() -> None:
    """Thread A enters, B enters, A leaves (still raised: B is inside), B leaves (restored)."""
    a_inside, b_inside, a_left = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, int] = {}

    def first() -> None:
        with rare_collections():
            a_inside.set()
            b_inside.wait(5)
        a_left.set()

    def second() -> None:
        a_inside.wait(5)
        with rare_collections():
            b_inside.set()
            a_left.wait(5)
            seen["after A left"] = gc.get_threshold()[0]

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == {"after A left": BUILD_THRESHOLD}
    assert gc.get_threshold() == (700, 10, 10)


KEEP_OUT = """
import gc
from ggp.collector import keep_out
assert gc.get_freeze_count() == 0
kept = [object() for _ in range(10)]
with keep_out():
    frozen = gc.get_freeze_count()
    assert frozen >= len(kept)
    with keep_out():  # a second match in the same process
        assert gc.get_freeze_count() >= frozen
    assert gc.get_freeze_count() >= frozen
assert gc.get_freeze_count() == 0
"""


def test_keep_out_freezes_until_the_last_block_ends() -> None:
    # in a process of its own: a match another test left open in this one keeps its block
    done = subprocess.run([sys.executable, "-c", KEEP_OUT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
