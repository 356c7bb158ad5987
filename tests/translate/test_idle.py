"""The engine's nodes a control walk crosses (``emit/idle.py``): counts along the paths of a
small graph in, each node's counts and where they come from out."""

from __future__ import annotations

from translators.recycle.emit.idle import anchors, path_counts
from translators.recycle.symbols.model import STUCK_NODES

#: From the root, a stage's end check either ends it (``done``) or runs a pass (``more``) that
#: skips its body and checks again (``again``), then ends it (``done2``): both meet at ``after``,
#: crossing one end check or two; a step (``leaf``) follows ``after`` alone.
LOOP = [("done", "root", 1), ("more", "root", 1), ("again", "more", 0), ("done2", "again", 1),
        ("after", "done", 0), ("after", "done2", 0), ("leaf", "after", 0)]


def test_paths_meeting_with_several_counts_keep_each() -> None:
    counts = path_counts(["root"], LOOP)
    assert counts["done"] == {1} and counts["done2"] == {2}
    assert counts["after"] == counts["leaf"] == {1, 2}


def test_a_node_below_a_meeting_takes_its_count_from_there() -> None:
    anchored = anchors(["root"], LOOP, path_counts(["root"], LOOP))
    assert anchored["done2"] == (None, 2)  # one count: a constant
    assert anchored["after"] == ("after", 0)  # where the paths meet: (idle_w after K)
    assert anchored["leaf"] == ("after", 0)


def test_counts_stop_at_the_engine_s_limit() -> None:
    chain = [(f"n{i + 1}", f"n{i}", 150) for i in range(3)]
    assert path_counts(["n0"], chain)["n3"] == {STUCK_NODES}
