"""The scorer's memos are bounded by bytes (one budget per process), not by entry count."""

from __future__ import annotations

import weakref

import pytest

import meteor
from meteor import memo, metric


def test_oldest_entries_of_the_largest_memo_go_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo, "MAX_BYTES", 1_000)
    monkeypatch.setattr(memo, "_MEMOS", weakref.WeakSet())  # the other memos of the process
    big, small = memo.ByteBoundedMemo(), memo.ByteBoundedMemo()
    small.put("s", 1, 100)
    for k in range(8):
        big.put(k, k, 100)
    assert memo.total_bytes() <= 1_000
    assert small.get("s") == 1 and len(big) == 8
    big.put(8, 8, 250)
    assert memo.total_bytes() <= 1_000
    assert small.get("s") == 1  # the largest memo gave way
    assert big.get(0) is None and big.get(1) is None and big.get(2) == 2  # oldest first
    assert big.get(8) == 8 and big.get(7) == 7
    big.put(8, "eight", 50)  # replaced, as a dict would
    assert big.get(8) == "eight" and big.nbytes == 6 * 100 + 50
    big.put("huge", 0, 2_000)  # larger than the whole budget: not stored
    assert "huge" not in big
    big.clear()
    small.clear()
    assert memo.total_bytes() == 0


def test_long_texts_count_by_their_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """50 texts of 2,000 tokens each: about 13 MB of tokens, held within a 1 MB budget.

    An entry-count bound (50,000 texts) kept every one of them.
    """
    monkeypatch.setattr(memo, "MAX_BYTES", 1_000_000)
    monkeypatch.setattr(memo, "_MEMOS", weakref.WeakSet())
    monkeypatch.setattr(metric, "_SHARED_CACHES", {})
    m = meteor.Meteor("meteor-1.5-paper2005")
    texts = [" ".join(f"w{k}x{i}" for i in range(2_000)) for k in range(50)]
    for t in texts:
        assert len(m.tokenize(t)) == 2_000
    assert memo.total_bytes() <= 1_000_000
    assert m._tok_cache.nbytes >= 130 * 2_000  # the last text at least is kept
    assert 0 < len(m._tok_cache) < 50
    # scores never depend on what the memo holds
    before = m.score(texts[0], texts[1]).score
    m._tok_cache.clear()
    m._sent_cache.clear()
    assert m.score(texts[0], texts[1]).score == before


def test_scorers_with_equal_settings_share_one_memo() -> None:
    a, b = meteor.Meteor("meteor-1.5"), meteor.Meteor("meteor-1.5", alpha=0.5)
    assert a._tok_cache is b._tok_cache and a._sent_cache is b._sent_cache
    a.tokenize("a memo shared by both scorers")
    assert "a memo shared by both scorers" in b._tok_cache
