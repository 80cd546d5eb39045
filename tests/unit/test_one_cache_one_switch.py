"""One byte-bounded cache class (meteor.memo) and one switch for the C parts (meteor.runtime).

Issue 32, item 7: the app had a second byte-bounded cache class and six modules read
``METEOR_PURE_PYTHON`` each in their own way.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
import weakref

import pytest

from meteor import memo
from meteor.aligners import greedy
from meteor.languages import english
from meteor.runtime import PURE_PYTHON_ENV
from pages import _cache, _offload


def test_the_app_cache_is_the_library_class() -> None:
    assert type(_cache.APP_CACHE) is memo.ByteBoundedMemo
    assert _offload.Sized is memo.Sized and _offload.deep_size is memo.deep_size


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


def test_the_synonym_memo_lives_on_its_reader_with_no_cache_of_it() -> None:
    """nltk's synonym memo is an attribute of the WordNet reader: no process-wide table of
    readers, and no second cache remembering the last reader asked about."""

    class Reader:
        def synsets(self, lemma: str) -> list[object]:
            return []

    a, b = Reader(), Reader()
    memo_a = greedy._synonym_cache(a)
    assert memo_a == {} and greedy._synonym_cache(a) is memo_a
    assert vars(a) == {greedy._MEMO_ATTR: memo_a} and greedy._synonym_cache(b) is not memo_a
    assert greedy._synonyms(a, "cat") == {} and memo_a == {"cat": {}}

    class Slotted:
        __slots__ = ()

        def synsets(self, lemma: str) -> list[object]:
            return []

    assert greedy._synonym_cache(Slotted()) is None  # takes no attribute: nothing kept
    assert greedy._synonyms(Slotted(), "cat") == {}


#: The six modules with a C part, and the constant each keeps it in.
_PARTS = {
    "meteor.text.records": "NATIVE_TOKENS",
    "meteor.text.normalize": "NATIVE_NORMALIZE",
    "meteor.stages.synonym": "NATIVE_PAIRS",
    "meteor.languages.paraphrase": "NATIVE_PHRASE_IDS",
    "meteor.aligners.greedy": "NATIVE_ALIGN",
    "meteor.aligners.beam": "NATIVE_SEARCH",
}

#: Prints which C parts are on: first as imported, then after the environment variable
#: flips and every module is imported again (the switch was read once: nothing moves).
_PROBE = f"""
import importlib, json, os, sys
import meteor
from meteor import runtime
from meteor.languages import english
parts = {_PARTS!r}

def state():
    out = {{m: getattr(sys.modules[m], c) is not None for m, c in parts.items()}}
    out["english snowball"] = english.snowball_backend().startswith("C")
    return out

first = {{m: getattr(importlib.import_module(m), c) is not None for m, c in parts.items()}}
on = runtime.use_native()
if on:
    os.environ[runtime.PURE_PYTHON_ENV] = "1"
else:
    os.environ.pop(runtime.PURE_PYTHON_ENV, None)
for m in parts:
    importlib.reload(sys.modules[m])
print(json.dumps({{"on": on, "first": first, "after": state()}}))
"""


def _pystemmer_release() -> str:
    try:
        return importlib.metadata.version("PyStemmer")
    except importlib.metadata.PackageNotFoundError:
        return ""


def _probe(pure: str | None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON_ENV}
    if pure is not None:
        env[PURE_PYTHON_ENV] = pure
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("pure", ["1", "yes"])
def test_pure_python_turns_every_c_part_off_for_good(pure: str) -> None:
    got = _probe(pure)
    assert got["on"] is False
    assert got["first"] == dict.fromkeys(_PARTS, False)
    assert got["after"] == dict.fromkeys([*_PARTS, "english snowball"], False)


@pytest.mark.skipif(
    importlib.util.find_spec("meteor_native") is None, reason="meteor_native not installed"
)
@pytest.mark.parametrize("pure", [None, "0", "false"])
def test_without_pure_python_every_c_part_is_on_for_good(pure: str | None) -> None:
    got = _probe(pure)
    assert got["on"] is True
    assert got["first"] == dict.fromkeys(_PARTS, True)
    want = dict.fromkeys(_PARTS, True)
    want["english snowball"] = _pystemmer_release().startswith(english.C_SNOWBALL_RELEASE)
    assert got["after"] == want
