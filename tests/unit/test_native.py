"""The C beam search (``meteor_native``, ``pip install ./native``) chooses as the Python one.

``meteor.aligners.beam.beam_choice`` hands pairs to ``meteor_native._beam.beam_choice``
when it is installed: sides of at most 256 words to its searches on fixed-width masks,
longer ones (documents) to its wide search (``beam_choice_wide`` runs that one on any
pair).  All must equal the literal transcription of Meteor 1.5's search (test_beam.py)
and each other, ties included.
Without the extension these tests are skipped on a user's machine (the library then
runs the Python search) and fail in CI, where both searches are tested.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from conftest import native_part
from hypothesis import given, settings
from hypothesis import strategies as st
from test_beam import _java_search, lattices, repetitive_lattices

import meteor
from meteor.aligners import beam
from meteor.module_registry import Module
from meteor.runtime import PURE_PYTHON_ENV
from meteor.types import Match

Plain = tuple[Module, int, int, int, int]


@pytest.fixture(scope="module")
def native() -> Any:
    return native_part("_beam", "the beam search")


def _python(n_hyp: int, n_ref: int, plain: list[Plain], beam_size: int) -> list[int]:
    return beam._python_search(n_hyp, n_ref, [(*c, "", None) for c in plain], beam_size)


def _c(native: Any, n_hyp: int, n_ref: int, plain: list[Plain], beam_size: int) -> Any:
    return native.beam_choice(
        n_hyp, n_ref, [(*c, "", None) for c in plain], beam_size, Module.EXACT
    )


def _wide(native: Any, n_hyp: int, n_ref: int, plain: list[Plain], beam_size: int) -> Any:
    return native.beam_choice_wide(
        n_hyp, n_ref, [(*c, "", None) for c in plain], beam_size, Module.EXACT
    )


def _plain(cands: list[Match]) -> list[Plain]:
    return [(m.module, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end) for m in cands]


@settings(max_examples=400, deadline=None)
@given(case=lattices(), beam_size=st.sampled_from([1, 2, 3, 5, 40]))
def test_c_search_equals_the_java_transcription(
    native: Any, case: tuple[int, int, list[Match]], beam_size: int
) -> None:
    n_hyp, n_ref, cands = case
    plain = _plain(cands)
    assert _c(native, n_hyp, n_ref, plain, beam_size) == _java_search(
        n_hyp, n_ref, plain, beam_size
    )


@settings(max_examples=400, deadline=None)
@given(case=repetitive_lattices(), beam_size=st.sampled_from([1, 2, 3, 5, 40]))
def test_c_search_on_repetitive_text(
    native: Any, case: tuple[int, int, list[Plain]], beam_size: int
) -> None:
    n_hyp, n_ref, plain = case
    assert _c(native, n_hyp, n_ref, plain, beam_size) == _java_search(
        n_hyp, n_ref, plain, beam_size
    )


@settings(max_examples=400, deadline=None)
@given(case=lattices(), beam_size=st.sampled_from([1, 2, 3, 5, 40]))
def test_wide_search_equals_the_java_transcription(
    native: Any, case: tuple[int, int, list[Match]], beam_size: int
) -> None:
    n_hyp, n_ref, cands = case
    plain = _plain(cands)
    assert _wide(native, n_hyp, n_ref, plain, beam_size) == _java_search(
        n_hyp, n_ref, plain, beam_size
    )


@settings(max_examples=400, deadline=None)
@given(case=repetitive_lattices(), beam_size=st.sampled_from([1, 2, 3, 5, 40]))
def test_wide_search_on_repetitive_text(
    native: Any, case: tuple[int, int, list[Plain]], beam_size: int
) -> None:
    n_hyp, n_ref, plain = case
    assert _wide(native, n_hyp, n_ref, plain, beam_size) == _java_search(
        n_hyp, n_ref, plain, beam_size
    )


@st.composite
def wide_lattices(draw: st.DrawFn) -> tuple[int, int, list[Plain]]:
    """Up to 256 words a side (masks of one, two and four 64-bit words, their edges
    included), hundreds of candidates, n:m spans."""
    sides = st.one_of(
        st.integers(1, 64), st.integers(60, 70), st.integers(124, 132), st.integers(250, 256)
    )
    n_hyp = draw(sides)
    n_ref = draw(sides)
    out: list[Plain] = []
    for _ in range(draw(st.integers(0, 300))):
        hs = draw(st.integers(0, n_hyp - 1))
        rs = draw(st.integers(0, n_ref - 1))
        he = draw(st.integers(hs + 1, min(n_hyp, hs + 4)))
        re_ = draw(st.integers(rs + 1, min(n_ref, rs + 4)))
        out.append(
            (draw(st.sampled_from([Module.EXACT, Module.STEM, Module.SYNONYM])), hs, he, rs, re_)
        )
    out.sort(key=lambda c: c[3])
    return n_hyp, n_ref, out


@settings(max_examples=300, deadline=None)
@given(case=wide_lattices(), beam_size=st.sampled_from([1, 4, 40]))
def test_c_search_equals_python_up_to_256_words(
    native: Any, case: tuple[int, int, list[Plain]], beam_size: int
) -> None:
    n_hyp, n_ref, plain = case
    assert _c(native, n_hyp, n_ref, plain, beam_size) == _python(n_hyp, n_ref, plain, beam_size)


@st.composite
def long_lattices(draw: st.DrawFn) -> tuple[int, int, list[Plain]]:
    """Sides of 257 to 700 words (the wide search in ``beam_choice``): text from a small
    vocabulary, so rows of dozens of one-word candidates as in a document, plus n:m spans
    anywhere (across the 64-bit words of a set)."""
    n_hyp = draw(st.integers(257, 700))
    n_ref = draw(st.integers(257, 700))
    vocab = draw(st.integers(3, 40))
    hyp = [draw(st.integers(0, vocab - 1)) for _ in range(n_hyp)]
    ref = [draw(st.integers(0, vocab - 1)) for _ in range(n_ref)]
    out: list[Plain] = []
    for j, rw in enumerate(ref):
        out += [(Module.EXACT, i, i + 1, j, j + 1) for i, hw in enumerate(hyp) if hw == rw]
    stem = draw(st.integers(1, vocab))
    for j, rw in enumerate(ref):
        out += [(Module.STEM, i, i + 1, j, j + 1) for i, hw in enumerate(hyp) if hw + stem == rw]
    for _ in range(draw(st.integers(0, 80))):
        hs = draw(st.integers(0, n_hyp - 1))
        rs = draw(st.integers(0, n_ref - 1))
        he = draw(st.integers(hs + 1, min(n_hyp, hs + 4)))
        re_ = draw(st.integers(rs + 1, min(n_ref, rs + 4)))
        out.append((Module.PARAPHRASE, hs, he, rs, re_))
    order = {Module.EXACT: 0, Module.STEM: 1, Module.PARAPHRASE: 2}
    out.sort(key=lambda c: (order[c[0]], c[3], c[1]))
    return n_hyp, n_ref, out


@settings(max_examples=40, deadline=None)
@given(case=long_lattices(), beam_size=st.sampled_from([1, 5, 40]))
def test_c_search_equals_python_on_long_sides(
    native: Any, case: tuple[int, int, list[Plain]], beam_size: int
) -> None:
    n_hyp, n_ref, plain = case
    assert _c(native, n_hyp, n_ref, plain, beam_size) == _python(n_hyp, n_ref, plain, beam_size)


@settings(max_examples=100, deadline=None)
@given(case=wide_lattices(), beam_size=st.sampled_from([1, 4, 40]))
def test_wide_search_equals_the_narrow_ones(
    native: Any, case: tuple[int, int, list[Plain]], beam_size: int
) -> None:
    n_hyp, n_ref, plain = case
    assert _wide(native, n_hyp, n_ref, plain, beam_size) == _c(
        native, n_hyp, n_ref, plain, beam_size
    )


@pytest.mark.parametrize("width", [63, 64, 65, 127, 128, 129, 255, 256, 257, 320, 321, 1000])
def test_full_width_masks(native: Any, width: int) -> None:
    """Spans over every word, and across the 64-bit words of a mask, are searched in C."""
    assert native.NARROW_WORDS == 256
    assert native.MAX_WORDS == beam.NATIVE_MAX_WORDS == 1 << 20
    whole = [
        (Module.PARAPHRASE, 0, width, 0, width),
        (Module.EXACT, width - 1, width, width - 1, width),
    ]
    assert _c(native, width, width, whole, 40) == _python(width, width, whole, 40) == [0]
    across = [(Module.EXACT, i, i + 2, i, i + 2) for i in range(0, width - 1, 3)]
    across += [(Module.STEM, width - 1, width, 0, 1), (Module.EXACT, 0, 1, width - 1, width)]
    across.sort(key=lambda c: c[3])
    got = _c(native, width, width, across, 40)
    assert got == _python(width, width, across, 40) == _java_search(width, width, across, 40)
    assert _wide(native, width, width, across, 40) == got


def test_longer_sides_and_other_lattices_go_back_to_python(native: Any) -> None:
    one = [(Module.EXACT, 0, 1, 0, 1)]
    assert _c(native, 1 << 20, 3, one, 40) == [0]
    assert _c(native, (1 << 20) + 1, 3, one, 40) is None
    assert _c(native, 3, (1 << 20) + 1, one, 40) is None
    # two generations of a beam of 10,000 paths of 2·100,000 words: over 256 MB of sets
    assert _c(native, 100_000, 3, one, 10_000) is None
    assert _c(native, 100_000, 3, one, 40) == [0]
    for search in (_c, _wide):
        assert search(native, 3, 3, [(Module.EXACT, 2, 4, 0, 1)], 40) is None  # not 3 words
    for search in (native.beam_choice, native.beam_choice_wide):
        assert search(3, 3, [(Module.EXACT, 0, 1)], 40, Module.EXACT) is None  # too short


def test_scores_use_the_c_search_and_equal_the_python_ones(
    native: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert beam.NATIVE_SEARCH is native.beam_choice
    hyp = "the cat sat on the mat and the dog sat on the rug near the cat"
    ref = "a cat was sitting on the mat while the dog sat on a rug by the cat"
    with_c = meteor.Meteor("meteor-1.5").score(hyp, ref)
    monkeypatch.setattr(beam, "NATIVE_SEARCH", None)
    meteor.metric._SHARED_CACHES.clear()
    assert meteor.Meteor("meteor-1.5").score(hyp, ref).to_dict(candidates=True) == with_c.to_dict(
        candidates=True
    )


def test_the_environment_switches_the_c_search_off(native: Any) -> None:
    code = "from meteor.aligners import beam; print(beam.NATIVE_SEARCH is None)"
    for value, off in (("1", "True"), ("0", "False"), ("", "False")):
        env = {**os.environ, PURE_PYTHON_ENV: value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == off, (value, out.stderr)
