"""The C synonym pair loop (``meteor_native._synonym``) finds what the Python loop finds.

``meteor.stages.synonym`` hands sentences with at most 64 hypothesis words that have
synsets to ``meteor_native._synonym.synonym_pairs`` when it is installed; its pairs, their
order and each pair's smallest shared synset must equal :func:`synonym_pairs` (Python).
Without the extension these tests are skipped on a user's machine and fail in CI.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Hashable
from typing import Any

import pytest
from conftest import native_part
from hypothesis import given, settings
from hypothesis import strategies as st

import meteor
from meteor.runtime import PURE_PYTHON_ENV
from meteor.stages import synonym
from meteor.stages.base import CandidateLimitError, MatchContext
from meteor.stages.synonym import SYNONYM, synonym_pairs

Entries = list[tuple[int, Any]]


@pytest.fixture(scope="module")
def native() -> Any:
    return native_part("_synonym", "the synonym pair loop")


@st.composite
def sentences(draw: st.DrawFn, max_words: int = 20, synsets: Any = None) -> tuple[Entries, list]:
    """``(entries, keys)``: words with synset sets (some empty ones left out, as
    ``with_synsets`` does) and their keys, a few repeated so that equal keys occur."""
    n = draw(st.integers(0, max_words))
    pool = st.integers(0, 40) if synsets is None else synsets
    keys: list[Hashable] = [draw(st.sampled_from("abcdefgh")) for _ in range(n)]
    entries = []
    for i in range(n):
        ss = draw(st.frozensets(pool, max_size=8))
        if ss:
            entries.append((i, ss))
    return entries, keys


def _both(native: Any, hyp: tuple[Entries, list], ref: tuple[Entries, list]) -> None:
    (h, hk), (r, rk) = hyp, ref
    assert native.synonym_pairs(h, r, hk, rk) == synonym_pairs(h, r, hk, rk)


@settings(max_examples=400, deadline=None)
@given(hyp=sentences(), ref=sentences())
def test_c_pairs_equal_python_pairs(native: Any, hyp: Any, ref: Any) -> None:
    _both(native, hyp, ref)


@settings(max_examples=60, deadline=None)
@given(hyp=sentences(max_words=90), ref=sentences(max_words=30))
def test_more_than_64_hypothesis_entries_compare_every_pair(
    native: Any, hyp: Any, ref: Any
) -> None:
    _both(native, hyp, ref)


big = st.sampled_from([0, 1, -5, 2**62, 2**63 - 1, 2**63, -(2**63), 2**70, 10**30])


@settings(max_examples=150, deadline=None)
@given(hyp=sentences(synsets=big), ref=sentences(synsets=big))
def test_synsets_past_64_bits(native: Any, hyp: Any, ref: Any) -> None:
    _both(native, hyp, ref)


@settings(max_examples=100, deadline=None)
@given(
    hyp=sentences(synsets=st.sampled_from(["x", "y", "z", 3, 4])),
    ref=sentences(synsets=st.sampled_from(["x", "y", 3, 5])),
)
def test_synsets_that_are_not_integers(native: Any, hyp: Any, ref: Any) -> None:
    """Not from a thesaurus of this library, but the C loop must not misread them: it
    compares every pair then, like the Python loop (min over one type only here)."""
    (h, hk), (r, rk) = hyp, ref
    h = [(i, frozenset(x for x in ss if isinstance(x, str)) or ss) for i, ss in h]
    r = [(j, frozenset(x for x in ss if isinstance(x, str)) or ss) for j, ss in r]
    try:
        want = synonym_pairs(h, r, hk, rk)
    except TypeError:  # min() over str and int: both must refuse
        with pytest.raises(TypeError):
            native.synonym_pairs(h, r, hk, rk)
        return
    assert native.synonym_pairs(h, r, hk, rk) == want


def test_bad_arguments_raise(native: Any) -> None:
    with pytest.raises(IndexError):
        native.synonym_pairs([(5, frozenset({1}))], [(0, frozenset({1}))], ["a"], ["b"])
    with pytest.raises(TypeError):
        native.synonym_pairs([(0, [1])], [(0, frozenset({1}))], ["a"], ["b"])
    with pytest.raises(TypeError):
        native.synonym_pairs([(0, frozenset({1}), 2)], [(0, frozenset({1}))], ["a"], ["b"])
    assert native.synonym_pairs([], [(0, frozenset({1}))], [], ["b"]) == []


def test_the_stage_uses_the_c_loop_and_counts_the_limit_as_python(
    native: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = meteor.Meteor("meteor-1.5")
    hyp = "the big house is large and huge and vast and enormous".split()
    ref = "a large home is big and great and immense and tremendous".split()
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(1)
        return native.synonym_pairs(*args)

    def run(limit: int | None) -> Any:
        ctx = MatchContext(hyp, ref, m.params, m.lang, limit=limit)
        try:
            return SYNONYM.candidates(ctx)
        except CandidateLimitError as exc:
            return ("limit", exc.found)

    monkeypatch.setattr(synonym, "NATIVE_PAIRS", counted)
    with_c = [run(limit) for limit in (None, 0, 1, 2, 3, 5)]
    assert calls
    monkeypatch.setattr(synonym, "NATIVE_PAIRS", None)
    assert [run(limit) for limit in (None, 0, 1, 2, 3, 5)] == with_c
    assert len(with_c[0]) > 3 and with_c[1][0] == "limit"


def test_the_environment_switches_the_c_loop_off(native: Any) -> None:
    code = "from meteor.stages import synonym; print(synonym.NATIVE_PAIRS is None)"
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr
    assert synonym.NATIVE_PAIRS is not None or os.environ.get(PURE_PYTHON_ENV)
