"""``ByIdentity``: a memo by the identity of objects that Python would otherwise free and reuse."""

from __future__ import annotations

from translators.recycle.analysis.memo import ByIdentity


def test_a_short_lived_key_is_not_answered_for_by_the_next_object_at_its_address() -> None:
    memo: ByIdentity[int] = ByIdentity()
    # each key object dies right after its call unless the memo keeps it; a plain dict keyed by
    # id() then answers for a later object given the same address (as 'P bound to player0 did
    # for player1 in the pile analysis)
    got = [memo.get((object(),), lambda i=i: i) for i in range(1000)]  # type: ignore[misc]
    assert got == list(range(1000))
    key = object()
    assert memo.get((key,), lambda: 1, "a") == 1 and memo.get((key,), lambda: 2, "a") == 1
    assert memo.get((key,), lambda: 3, "b") == 3
