"""The app's shared caches (pages/_cache.py): bounded in bytes, one computation per key,
one resource load per process shared by the sessions that ask at once (issue 13, load).

Plain Python and threads: no Streamlit server, no browser.  The load benchmark
(bench/bench_load.py) measures the same under real browser sessions.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from meteor.memo import ByteBoundedMemo, deep_size
from pages import _cache
from pages._cache import load_once


def test_deep_size_counts_what_a_record_holds() -> None:
    import meteor

    m = meteor.Meteor("meteor-1.5-paper2005")
    short = m.score("the cat sat on the mat", ["the cat sat on a mat"])
    long = m.score(
        " ".join(["the cat sat on the mat"] * 40), [" ".join(["a cat sat on a mat"] * 40)]
    )
    small, big = deep_size(short), deep_size(long)
    assert 2_000 < small < 200_000
    assert big > 10 * small  # grows with the pair, as the byte bound needs
    # a shared object is not counted again
    assert deep_size((long, short), shared=(short,)) < deep_size((long, short))


def test_byte_cache_is_bounded_by_bytes_not_entries() -> None:
    cache = ByteBoundedMemo(1000, sizer=len)
    for k in range(50):
        cache.get(k, lambda k=k: "x" * 300)  # 300 "bytes" each
    assert cache.nbytes <= 1000
    assert len(cache) == 3  # the three most recent
    assert 49 in cache and 47 in cache and 46 not in cache
    # used recently → kept; the least recently used goes first
    cache.get(47, lambda: "never computed")
    cache.get(100, lambda: "y" * 300)
    assert 47 in cache and 48 not in cache


def test_value_larger_than_the_budget_is_returned_not_kept() -> None:
    cache = ByteBoundedMemo(100, sizer=len)
    assert cache.get("big", lambda: "z" * 500) == "z" * 500
    assert "big" not in cache and cache.nbytes == 0


def test_zero_budget_caches_nothing() -> None:
    cache = ByteBoundedMemo(0, sizer=len)
    calls = []
    for _ in range(3):
        cache.get("k", lambda: calls.append(1) or "v")
    assert len(calls) == 3 and len(cache) == 0


def test_concurrent_callers_share_one_computation() -> None:
    cache = ByteBoundedMemo(10_000, sizer=len)
    calls = []
    gate = threading.Event()

    def compute() -> str:
        calls.append(1)
        gate.wait(5)
        return "value"

    out: list[str] = []
    threads = [
        threading.Thread(target=lambda: out.append(cache.get("k", compute))) for _ in range(8)
    ]
    for th in threads:
        th.start()
    time.sleep(0.2)
    gate.set()
    for th in threads:
        th.join(10)
    assert out == ["value"] * 8
    assert len(calls) == 1


def test_an_error_reaches_every_waiting_caller_and_is_not_cached() -> None:
    cache = ByteBoundedMemo(10_000, sizer=len)
    gate = threading.Event()

    def fail() -> str:
        gate.wait(5)
        raise ValueError("bad pair")

    errors: list[str] = []

    def call() -> None:
        try:
            cache.get("k", fail)
        except ValueError as exc:
            errors.append(str(exc))

    threads = [threading.Thread(target=call) for _ in range(4)]
    for th in threads:
        th.start()
    time.sleep(0.2)
    gate.set()
    for th in threads:
        th.join(10)
    assert errors == ["bad pair"] * 4
    assert cache.get("k", lambda: "ok now") == "ok now"


def test_load_once_runs_one_job_and_the_others_see_its_progress() -> None:
    key = ("test", time.time())
    runs = []
    gate = threading.Event()

    def job(report: Any) -> None:
        runs.append(1)
        report(0.5, "half way")
        gate.wait(5)
        report(1.0, "ready")

    seen: list[tuple[float, str]] = []
    owner = threading.Thread(target=load_once, args=(key, job))
    owner.start()
    time.sleep(0.1)
    waiter = threading.Thread(
        target=lambda: load_once(key, job, lambda f, m: seen.append((f, m)), poll=0.02)
    )
    waiter.start()
    time.sleep(0.3)
    gate.set()
    owner.join(10)
    waiter.join(10)
    assert runs == [1]
    assert (0.5, "half way") in seen
    load_once(key, job)  # done: nothing runs again
    assert runs == [1]


def test_load_once_forgets_a_failed_job() -> None:
    key = ("failing", time.time())
    runs = []

    def job(report: Any) -> None:
        runs.append(1)
        if len(runs) == 1:
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        load_once(key, job)
    load_once(key, job)
    assert runs == [1, 1]


def test_budget_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_cache.APP_CACHE_ENV, "12.5")
    assert _cache._budget_from_env() == int(12.5 * 1024 * 1024)
    monkeypatch.setenv(_cache.APP_CACHE_ENV, "lots")
    assert _cache._budget_from_env() == _cache.DEFAULT_APP_CACHE_MB * 1024 * 1024
    monkeypatch.delenv(_cache.APP_CACHE_ENV)
    assert _cache.APP_CACHE.max_bytes <= 300 * 1024 * 1024  # the bound


def test_app_analyses_are_shared_by_sessions_and_counted_in_bytes() -> None:
    """The pages' analyses live once in the byte-bounded cache (st.cache_data copied each
    value into every session that read it, and bounded only the number of entries)."""
    from pages import _scoring

    args = ("the cat sat on the mat", ("a cat sat on the mat",), "meteor-1.5-paper2005", "{}")
    before = _cache.APP_CACHE.nbytes
    first = _scoring.analyse(*args)
    again: list[Any] = []
    th = threading.Thread(target=lambda: again.append(_scoring.analyse(*args)))  # another session
    th.start()
    th.join(30)
    assert again[0] is first  # one shared object, not a copy per session
    assert (
        _scoring._analyse_here.__qualname__,
        *args,
    ) in _cache.APP_CACHE  # a short pair: made here
    assert _cache.APP_CACHE.nbytes > before


class _Stop(BaseException):
    """Stands for Streamlit's StopException (a BaseException raised at a session's st call)."""


def test_a_session_stopped_during_its_load_does_not_cut_the_load_for_the_others() -> None:
    key = ("stopped", time.time())
    runs = []
    gate = threading.Event()

    def job(report: Any) -> None:
        runs.append(1)
        report(0.1, "start")
        gate.wait(5)
        report(1.0, "ready")

    def show_then_stop(f: float, m: str) -> None:
        raise _Stop

    results: dict[str, str] = {}

    def owner() -> None:
        try:
            load_once(key, job, show_then_stop)
            results["owner"] = "returned"
        except _Stop:
            results["owner"] = "stopped"

    def waiter() -> None:
        load_once(key, job, lambda f, m: None, poll=0.02)
        results["waiter"] = "returned"

    th1 = threading.Thread(target=owner)
    th1.start()
    time.sleep(0.1)
    th2 = threading.Thread(target=waiter)
    th2.start()
    time.sleep(0.2)
    gate.set()
    th1.join(10)
    th2.join(10)
    assert results == {"owner": "stopped", "waiter": "returned"}
    assert runs == [1]  # the load ran to its end once
    load_once(key, job)
    assert runs == [1]
