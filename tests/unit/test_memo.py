"""The scorer's memos are bounded by bytes (one budget per process), not by entry count."""

from __future__ import annotations

import weakref

import pytest

import meteor
from meteor import batch, memo, metric


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


def test_discard_forgets_one_entry() -> None:
    m = memo.ByteBoundedMemo()
    m.put("a", 1, 100)
    m.put("b", 2, 50)
    m.discard("a")
    m.discard("missing")  # nothing stored: nothing happens
    assert "a" not in m and m.get("b") == 2 and m.nbytes == 50
    m.clear()


def test_single_use_hypotheses() -> None:
    """Hypotheses occurring once, nowhere a reference and not memoised yet: forgotten once scored."""
    held = memo.ByteBoundedMemo()
    held.put("memoised", (), 10)
    hyps = ["once", "twice", "twice", "also a ref", "memoised", 7]
    refs = ["r1", ["r2", "also a ref"], "r3", "r4", "r5", "r6"]
    assert batch.single_use(hyps, refs, held) == {"once"}
    held.clear()


def test_a_corpus_run_keeps_references_not_single_use_hypotheses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A corpus run's memory: 7,882 distinct WMT21 hypotheses kept took 125 MB (471 → 343 MB peak)."""
    monkeypatch.setattr(metric, "_SHARED_CACHES", {})
    m = meteor.Meteor("meteor-1.5")
    hyps = ["the cat sat on the mat", "a cat sat on a mat", "the cat sat on the mat", "on the mat"]
    refs = ["the cat is on the mat", "the cat is on the mat", "the cat is on the mat", "a dog"]
    recs = m.score_segments(hyps, refs, candidates=False)
    assert "a cat sat on a mat" not in m._tok_cache and "on the mat" not in m._tok_cache
    assert ("a", "cat", "sat", "on", "a", "mat") not in m._sent_cache
    assert "the cat sat on the mat" in m._tok_cache  # twice: kept while the run needs it
    assert "the cat is on the mat" in m._tok_cache and "a dog" in m._tok_cache  # references
    assert ("the", "cat", "is", "on", "the", "mat") in m._sent_cache
    fresh = meteor.Meteor("meteor-1.5")
    alone = [fresh.score(h, r) for h, r in zip(hyps, refs, strict=True)]
    assert [r.score for r in recs] == [r.score for r in alone]
    assert [r.alignment for r in recs] == [r.alignment for r in alone]


def test_the_running_total_never_undercounts_and_forgets_dead_memos(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``put`` keeps a running total (summing every memo on each put cost 2 % of a run);
    it is recounted when over the budget, so a memo that died stops counting then."""
    monkeypatch.setattr(memo, "MAX_BYTES", 1_000)
    monkeypatch.setattr(memo, "_MEMOS", weakref.WeakSet())
    monkeypatch.setattr(memo, "_TOTAL", 0)
    keep, dead = memo.ByteBoundedMemo(), memo.ByteBoundedMemo()
    dead.put("x", 1, 600)
    keep.put("a", 1, 300)
    keep.put("a", 2, 200)  # replaced: 200, not 500
    keep.discard("missing")
    assert memo._TOTAL == memo.total_bytes() == 800
    del dead  # its 600 bytes still count in the running total (never fewer than held) …
    assert memo.total_bytes() == 200 and memo._TOTAL == 800
    keep.put("b", 2, 300)  # … until the budget is passed: recounted, nothing evicted
    assert keep.get("a") == 2 and keep.get("b") == 2
    assert memo._TOTAL == memo.total_bytes() == 500
    keep.put("c", 3, 600)  # over the budget for real: the oldest goes
    assert keep.get("a") is None and keep.get("b") == 2 and keep.get("c") == 3
    assert memo._TOTAL == memo.total_bytes() == 900
    keep.clear()
    assert memo._TOTAL == 0
