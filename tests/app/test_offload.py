"""Long pairs scored in a worker process, off the server's interpreter (pages/_offload.py).

Issue 13, "Load": one session's long pair must not block the others.  Checked here:
the worker is another process, at a lower priority; its records are the ones the
server would have made (same score, signature, explanation); the library's errors
reach the page as they would in the server; a killed worker is replaced and loses
no answer; a worker dies with its server; the app sends a long pair there and shows
the library's number; and the worker never starts a worker of its own (the spawned
process imports the server's ``__main__``, app.py).  bench/bench_load_ws.py measures
what it buys.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

import meteor
from meteor import Meteor, ParamError
from meteor.memo import ByteBoundedMemo, Sized, deep_size
from pages import _cache, _offload
from pages._offload import (
    LONG_WORDS,
    Offloader,
    analyse_here,
    explain_pair,
    is_long,
    score_pair,
)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden" / "meteor15.en_default_norm.jsonl.gz"


def long_pair(n: int = 20) -> tuple[str, tuple[str, ...]]:
    """``n`` consecutive WMT segments of the committed golden subset joined into one pair."""
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for _, line in zip(range(n), f, strict=False)]
    return " ".join(r["hyp"] for r in rows), (" ".join(r["refs"][0] for r in rows),)


@pytest.fixture(scope="module")
def pool() -> Any:
    off = Offloader(1)
    yield off
    off.shutdown()


def test_long_means_more_words_than_the_threshold() -> None:
    hyp, refs = long_pair()
    assert is_long(hyp, refs)
    assert not is_long("the cat sat on the mat", ("a cat sat on the mat",))
    words = " ".join(["w"] * (LONG_WORDS // 2))
    assert _offload.pair_words(words, (words, "w")) == LONG_WORDS
    assert not is_long(words, (words,))
    assert is_long(words + " w", (words,))


def test_the_worker_is_another_process_at_a_lower_priority(pool: Offloader) -> None:
    pid = pool.run(os.getpid)
    assert pid != os.getpid()
    assert psutil.Process(pid).parent().pid == os.getpid()
    assert pool.run(os.nice, 0) == os.nice(0) + _offload.WORKER_NICENESS
    assert pool.run(os.getpid) == pid  # one worker, kept


def test_worker_records_equal_the_servers(pool: Offloader) -> None:
    hyp, refs = long_pair()
    sized = pool.run(score_pair, hyp, refs, "meteor-1.5", "{}")
    a = sized.value
    sized_why = pool.run(explain_pair, hyp, refs, "meteor-1.5", "{}")
    why = sized_why.value
    m = Meteor("meteor-1.5")
    here = analyse_here(m, hyp, refs)
    assert a.result.score == here.result.score == m.score(hyp, list(refs)).score
    assert a.result.signature == here.result.signature
    assert a.result.to_dict(candidates=True) == here.result.to_dict(candidates=True)
    assert a.breakdown == here.breakdown and a.curves == here.curves
    assert repr(why) == repr(meteor.explain(here.result, m))
    # measured in the worker as the server's cache would measure it (pickling shares or
    # unshares a few strings: the sizes agree within a few per cent)
    assert sized.nbytes == pytest.approx(deep_size(a, shared=(a.params,)), rel=0.05)
    assert sized_why.nbytes == pytest.approx(deep_size(why, shared=(a.params,)), rel=0.05)


def test_the_worker_freezes_its_resources_and_pauses_the_collector_per_job(
    pool: Offloader,
) -> None:
    """A long pair's job makes millions of objects and no cycles: in the worker (whose
    watch thread keeps meteor.runtime.gc_paused from pausing) each job runs with the
    collector off, and the resources loaded by warm() are frozen out of it."""
    import gc

    pool.run(_offload.warm, "meteor-1.5")
    assert pool.run(gc.get_freeze_count) > 100_000  # WordNet, the paraphrase trie, nltk ...
    pool.run(score_pair, "a b", ("a b",), "meteor-1.5", "{}")
    assert pool.run(gc.isenabled) is True  # on again between jobs
    assert gc.isenabled()


def test_the_apps_worker_drives_the_batch_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long pair is scored as a corpus run's pairs are (issue 32, item 6): by
    meteor.batch.score_segments, with the process's scorer for the setting
    (meteor.batch.process_scorer) and the collector off for the job."""
    import gc

    from meteor import batch

    seen: list[tuple[Any, ...]] = []
    loop, keep = batch.score_segments, batch.process_scorer

    def scored(m: Any, hyps: Any, refs: Any, **kw: Any) -> Any:
        seen.append(("score_segments", list(hyps), [list(r) for r in refs], gc.isenabled()))
        return loop(m, hyps, refs, **kw)

    def kept(key: Any, build: Any, **kw: Any) -> Any:
        seen.append(("process_scorer", key))
        return keep(key, build, **kw)

    monkeypatch.setattr(batch, "score_segments", scored)
    monkeypatch.setattr(batch, "process_scorer", kept)
    hyp, refs = "the cat sat on the mat", ("a cat sat on the mat",)
    a = score_pair(hyp, refs, "meteor-1.5", "{}").value
    why = explain_pair(hyp, refs, "meteor-1.5", "{}").value
    pair = ("score_segments", [hyp], [list(refs)], False)  # the collector off
    key = ("process_scorer", ("app", "meteor-1.5", "{}"))
    assert seen == [key, pair, key, pair]
    m = Meteor("meteor-1.5")
    assert a.result.to_dict(candidates=True) == m.score(hyp, list(refs)).to_dict(candidates=True)
    assert repr(why) == repr(meteor.explain(m.score(hyp, list(refs)), m))
    assert gc.isenabled()


def test_the_librarys_errors_reach_the_caller(pool: Offloader) -> None:
    for job in (score_pair, explain_pair):
        with pytest.raises(ParamError, match="alpha"):
            pool.run(job, "a b", ("a b",), "meteor-1.5", '{"alpha": 2}')
        with pytest.raises(ParamError, match="at least one stage"):
            pool.run(job, "a b", ("a b",), "meteor-1.5", '{"modules": []}')


def test_a_killed_worker_is_replaced_and_no_answer_is_lost() -> None:
    off = Offloader(1)
    try:
        first = off.run(os.getpid)
        os.kill(first, signal.SIGKILL)
        psutil.Process(first).wait(10)
        args = ("the cat sat on the mat", ("a cat sat on the mat",), "meteor-1.5", "{}")
        sized = off.run(score_pair, *args)  # the broken pool: scored here instead
        assert (
            sized.value.result.score == Meteor("meteor-1.5").score(*args[:1], list(args[1])).score
        )
        assert off.restarts == 1
        second = off.run(os.getpid)
        assert second not in (first, os.getpid())
    finally:
        off.shutdown()


def test_the_cache_keeps_a_sized_value_with_its_own_size() -> None:
    calls: list[Any] = []

    def sizer(v: Any) -> int:
        calls.append(v)
        return 10

    c = ByteBoundedMemo(1000, sizer=sizer)
    got = c.get("k", lambda: Sized(("x",), 123))
    assert got.value == ("x",) and c.nbytes == 123 and not calls
    c.get("j", lambda: ("y",))
    assert c.nbytes == 133 and calls == [("y",)]


def test_a_worker_dies_with_its_server() -> None:
    """A server killed with SIGKILL cannot stop its pool: the worker notices and exits."""
    code = textwrap.dedent(
        f"""
        import os, sys
        sys.path.insert(0, {str(ROOT)!r})
        from pages._offload import Offloader
        off = Offloader(1)
        print(off.run(os.getpid), flush=True)
        os.kill(os.getpid(), 9)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    worker = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while psutil.pid_exists(worker) and psutil.Process(worker).status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the worker outlived its server"
        time.sleep(0.2)


def test_the_app_scores_a_long_pair_in_the_worker(app_test: Any) -> None:
    from pages._offload import OFFLOADER

    hyp, refs = long_pair()
    at = app_test()
    at.run()
    at.text_area(key="ref").set_value(refs[0]).run()
    at.text_area(key="hyp").set_value(hyp).run()
    assert not at.exception, [e.value for e in at.exception]
    r = Meteor("meteor-1.5").score(hyp, list(refs))
    shown = {m.label: m.value for m in at.metric}
    assert shown["METEOR"] == f"{r.score:.4f}"
    assert at.code[0].value == r.signature
    made = [k for k in _cache.APP_CACHE.keys() if k[:3] == ("offloaded", hyp, refs)]
    # made by the worker, kept once for every session: the score card's, then the explanation
    assert sorted(k[-1] for k in made) == ["analysis", "explanation"]
    worker = OFFLOADER.run(os.getpid)
    assert worker != os.getpid()
    # the worker imported app.py as __mp_main__ and started nothing of its own
    assert psutil.Process(worker).children() == []


def test_the_server_runs_no_full_collection_after_each_script_run() -> None:
    """Streamlit's ``gc.collect(2)`` after every run walked the resources' millions of
    objects: a quarter of the server's time with ten sessions typing (docs/app-load.md)."""
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["runner"]["postScriptGC"] is False


def test_the_warm_up_freezes_the_loaded_resources_out_of_the_collector() -> None:
    import gc

    from pages._scoring import warm_up

    warm_up().join(300)
    assert gc.get_freeze_count() > 100_000  # WordNet, the paraphrase trie, nltk ...


def test_the_server_hands_the_interpreter_over_every_millisecond() -> None:
    """Python's 5 ms switch interval made each hand-over between sessions' threads (and the
    event loop's) wait up to 5 ms: health p95 0.76 s with ten sessions, 0.12 s at 1 ms."""
    import sys

    from pages._scoring import SWITCH_INTERVAL, warm_up

    warm_up()
    assert SWITCH_INTERVAL == 0.001
    assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
