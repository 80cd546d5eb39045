"""One byte-bounded cache class (meteor.memo) and one switch for the C parts (meteor.runtime).

Issue 32, item 7: the app had a second byte-bounded cache class and six modules read
``METEOR_PURE_PYTHON`` each in their own way.
"""

from __future__ import annotations

import threading
import time
import weakref

import pytest

from meteor import memo
from pages import _cache


def test_the_app_cache_is_the_library_class() -> None:
    assert type(_cache.APP_CACHE) is memo.ByteBoundedMemo
    assert _cache.Sized is memo.Sized and _cache.deep_size is memo.deep_size
    own = [
        name
        for name, obj in vars(_cache).items()
        if isinstance(obj, type) and obj.__module__ == _cache.__name__
    ]
    assert own == ["LoadJob"]  # the app keeps its one-time loads, not a cache class


def test_an_own_budget_evicts_by_bytes_least_recently_used_first() -> None:
    cache = memo.ByteBoundedMemo(1_000, sizer=len)
    for k in range(4):
        cache.get(k, lambda: "x" * 300)
    assert cache.nbytes == 900 and 0 not in cache and cache.keys() == [1, 2, 3]
    cache.get(1, lambda: "never computed")  # used: now the last to go
    cache.put("p", "v", 250)  # put and get(key, compute) draw on the same budget
    assert cache.keys() == [3, 1, "p"] and cache.nbytes == 850
    cache.discard(3)
    assert cache.nbytes == 550
    assert cache.get("missing") is None  # a plain read neither computes nor stores
    assert memo.ByteBoundedMemo(0).get("k", lambda: "v") == "v"


def test_an_own_budget_leaves_the_process_budget_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo, "MAX_BYTES", 1_000)
    monkeypatch.setattr(memo, "_MEMOS", weakref.WeakSet())
    monkeypatch.setattr(memo, "_TOTAL", 0)
    shared, own = memo.ByteBoundedMemo(sizer=len), memo.ByteBoundedMemo(5_000, sizer=len)
    shared.put("s", 1, 600)
    own.get("o", lambda: "y" * 3_000)
    assert memo.total_bytes() == 600 and own.nbytes == 3_000 and "s" in shared
    shared.get("t", lambda: "z" * 500)  # the shared memo measures too: over 1,000
    assert "s" not in shared and shared.nbytes == 500 == memo._TOTAL


@pytest.mark.parametrize("max_bytes", [None, 10_000])
def test_concurrent_callers_compute_once(max_bytes: int | None) -> None:
    cache = memo.ByteBoundedMemo(max_bytes, sizer=len)
    calls: list[int] = []
    started, gate = threading.Event(), threading.Event()

    def compute() -> str:
        calls.append(1)
        started.set()
        gate.wait(10)
        return "value"

    out: list[str] = []
    first = threading.Thread(target=lambda: out.append(cache.get("k", compute)))
    first.start()
    assert started.wait(10)
    others = [
        threading.Thread(target=lambda: out.append(cache.get("k", compute))) for _ in range(7)
    ]
    for th in others:
        th.start()
    time.sleep(0.2)  # let them find the computation under way (a hit later is fine too)
    gate.set()
    for th in [first, *others]:
        th.join(10)
    assert out == ["value"] * 8 and calls == [1]
    assert cache.get("k") == "value" and cache.nbytes == len("value")
    cache.clear()
