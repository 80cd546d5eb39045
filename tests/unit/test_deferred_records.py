"""Corpus runs build a segment's match and chunk records only when they are read.

``Meteor.score_segments`` keeps each alignment as :meth:`Alignment.deferred`: the chosen
matches as plain tuples (packed until read), the statistics counted from them (:func:`stats_from_raw`).  What a
caller reads must be the record the eager path makes, field for field.
"""

from __future__ import annotations

import dataclasses
import math
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meteor
from meteor import types
from meteor.chunking import chunk_matches
from meteor.module_registry import MODULE_ORDER, Module
from meteor.scoring import stats_from_alignment, stats_from_raw
from meteor.types import Alignment, Match, Token, candidate_of, shared_span

HYPS = [
    "The cat sat on the mat today.",
    "He doesn't like it at all, said the U.S. official.",
    "a quick brown fox jumps over the lazy dog",
    "",
    "nothing in common here",
    "the the the the",
]
REFS = [
    ["The cat is sitting on the mat."],
    ["He does not like that at all, the American official said."],
    ["the fast brown fox jumped over a lazy dog", "a quick brown fox jumped over the dog"],
    ["an empty hypothesis"],
    ["completely different words"],
    ["the the"],
]


@pytest.mark.parametrize("preset", ["meteor-1.5", "meteor-1.5-paper2005", "nltk", "hf"])
def test_corpus_records_equal_the_eager_ones(preset: str) -> None:
    m = meteor.Meteor(preset)
    eager = [m.score(h, r) for h, r in zip(HYPS, REFS, strict=True)]
    segs = m.score_segments(HYPS, REFS, candidates=False)
    for got, want in zip(segs, eager, strict=True):
        nums = (want.precision, want.recall, want.fmean, want.frag, want.penalty)
        if not any(map(math.isnan, nums)):  # a NaN equals nothing, itself included
            assert got == want
        assert got.stats == want.stats
        assert got.alignment.matches == want.alignment.matches
        assert got.alignment.chunks == want.alignment.chunks
        assert repr(got.alignment) == repr(want.alignment)
        assert hash(got.alignment) == hash(want.alignment)
        assert got.to_dict() == want.to_dict()


def _deferred_segment() -> tuple[Alignment, Alignment]:
    m = meteor.Meteor("meteor-1.5")
    (seg,) = m.score_segments([HYPS[1]], [REFS[1]], candidates=False)
    return seg.alignment, m.score(HYPS[1], REFS[1]).alignment


def test_a_deferred_alignment_builds_its_records_once() -> None:
    al, eager = _deferred_segment()
    with pytest.raises(AttributeError):
        object.__getattribute__(al, "matches")  # not built yet
    packed = object.__getattribute__(al, "_deferred")  # kept packed until read
    assert isinstance(packed[0], bytes) and len(packed[0]) == 16 * len(eager.matches)
    assert types.unpack_raw(packed) == al.pending()
    assert al.pending() == tuple(candidate_of(m) for m in eager.matches)
    assert eager.pending() is None
    matches = al.chunks and al.matches  # reading either builds both
    assert matches == eager.matches
    assert al.matches is matches and al.chunks is al.chunks
    with pytest.raises(AttributeError):
        object.__getattribute__(al, "_deferred")  # dropped once the records exist
    assert al.pending() is None
    with pytest.raises(AttributeError):
        al.no_such_field  # noqa: B018
    assert [f.name for f in dataclasses.fields(Alignment)] == ["hyp", "ref", "matches", "chunks"]


def test_a_deferred_alignment_pickles_and_copies_as_the_eager_one() -> None:
    al, eager = _deferred_segment()
    back = pickle.loads(pickle.dumps(al))
    assert back == eager and back.matches == eager.matches
    assert dataclasses.replace(_deferred_segment()[0]) == eager
    with pytest.raises(dataclasses.FrozenInstanceError):
        al.matches = ()  # type: ignore[misc]


def test_a_deferred_alignment_is_checked_like_an_eager_one() -> None:
    toks = tuple(Token(w, 0, 1) for w in "abcd")
    exact = MODULE_ORDER[0]
    twice = ((exact, 0, 2, 1, 3, "", None), (exact, 1, 2, 3, 4, "", None))
    with pytest.raises(ValueError, match="hypothesis token 1 is aligned twice"):
        Alignment.deferred(toks, toks, twice)
    with pytest.raises(ValueError, match="reference token 2 is aligned twice"):
        Alignment.deferred(
            toks, toks, ((exact, 0, 1, 1, 3, "", None), (exact, 2, 3, 2, 3, "", None))
        )
    with pytest.raises(ValueError, match="hypothesis token 4 is aligned twice or out of range"):
        Alignment.deferred(toks, toks, ((exact, 3, 5, 0, 2, "", None),))


@st.composite
def _alignments(draw: st.DrawFn) -> tuple[list[Match], list[bool], list[bool]]:
    """One-to-one matches of 1-3 words a side between random sentences, any order."""

    def blocks(n: int) -> list[tuple[int, int]]:
        out, pos = [], 0
        while pos < n:
            size = draw(st.integers(1, 3))
            out.append((pos, min(n, pos + size)))
            pos += size
        return out

    n_h, n_r = draw(st.integers(0, 14)), draw(st.integers(0, 14))
    hb, rb = blocks(n_h), blocks(n_r)
    hb = draw(st.permutations(hb))
    k = draw(st.integers(0, min(len(hb), len(rb))))
    refs_chosen = sorted(draw(st.permutations(rb))[:k])
    matches = []
    for (hs, he), (rs, re_) in zip(hb[:k], refs_chosen, strict=True):
        module = draw(st.sampled_from(MODULE_ORDER))
        words = tuple("w" for _ in range(he - hs)), tuple("w" for _ in range(re_ - rs))
        matches.append(Match(module, shared_span(hs, he), shared_span(rs, re_), *words))
    flags = st.lists(st.booleans(), min_size=0, max_size=0)
    hf = draw(st.lists(st.booleans(), min_size=n_h, max_size=n_h)) if n_h else draw(flags)
    rf = draw(st.lists(st.booleans(), min_size=n_r, max_size=n_r)) if n_r else draw(flags)
    return draw(st.permutations(matches)), hf, rf


@settings(max_examples=300, deadline=None)
@given(_alignments())
def test_statistics_from_plain_matches_equal_those_from_records(
    case: tuple[list[Match], list[bool], list[bool]],
) -> None:
    matches, hf, rf = case
    in_ref_order = sorted((candidate_of(m) for m in matches), key=lambda c: c[3])
    raw = stats_from_raw(in_ref_order, hf, rf)
    chunks = chunk_matches(matches)
    assert raw == stats_from_alignment(matches, hf, rf)
    assert raw.chunks == len(chunks)
    hyp = tuple(Token("w", i, i + 1) for i in range(len(hf)))
    ref = tuple(Token("w", i, i + 1) for i in range(len(rf)))
    ordered = tuple(sorted(matches, key=lambda m: m.ref.start))
    assert Alignment.deferred(hyp, ref, tuple(in_ref_order)) == Alignment(
        hyp, ref, ordered, chunk_matches(ordered)
    )


@given(
    st.lists(
        st.tuples(
            st.sampled_from([Module.EXACT, Module.STEM, Module.SYNONYM, Module.PARAPHRASE, "mine"]),
            st.integers(0, 2**31 - 1),
            st.integers(0, 2**31 - 1),
            st.integers(0, 2**31 - 1),
            st.integers(0, 2**31 - 1),
            st.sampled_from(["", "run", "0"]),
            st.one_of(st.none(), st.floats(allow_nan=False), st.just(0.0)),
        ),
        max_size=30,
    )
)
def test_packed_matches_are_the_tuples_given(raw: list[Any]) -> None:
    """A deferred alignment's packed matches unpack to equal tuples: modules (custom
    ones too), positions up to 2^31 - 1, details and similarities in their places."""
    got = types.unpack_raw(types.pack_raw(raw))
    assert got == tuple(raw)
    assert [type(c[6]) for c in got] == [type(c[6]) for c in raw]
