"""The C paraphrase look-up (``meteor_native._phrases``) finds the phrases numpy finds.

``ParaphraseTable.phrases_many`` hands a block of sentences to
``meteor_native._phrases.phrases_block`` when it is installed: the records, occurrences
and packed occurrences must equal the numpy block code's.

``ParaphraseTable._phrase_ids`` hands its work to ``meteor_native._phrases.phrase_ids``
when it is installed; the phrase id of every window must equal the numpy code's
(``_numpy_phrase_ids``) on Meteor 1.5's English table.  Without the extension these tests
are skipped on a user's machine and fail in CI.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from conftest import native_part, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

import meteor
from meteor.languages import paraphrase
from meteor.runtime import PURE_PYTHON_ENV

TEXTS = [
    "the european union has decided to take further steps in order to",
    "at the same time , it is necessary to point out that in spite of all",
    "he said that they would have to come back later , as soon as possible .",
    "unknownwordxyz in the middle of nowhere unknownwordabc as well as",
]


@pytest.fixture(scope="module")
def native() -> Any:
    return native_part("_phrases", "the paraphrase look-up")


@pytest.fixture(scope="module")
def table() -> Any:
    return meteor.Meteor("meteor-1.5").lang.paraphrases()


def _ids(table: Any, words: list[str]) -> np.ndarray:
    return np.array(table._word_ids(words), dtype=np.int64)


def _numpy(table: Any, ids: np.ndarray) -> np.ndarray:
    out = np.full((ids.size, table._width), -1, dtype=np.int64)
    return table._numpy_phrase_ids(ids, out)


def test_c_finds_what_numpy_finds_in_real_text(native: Any, table: Any) -> None:
    assert paraphrase.NATIVE_PHRASE_IDS is not None
    flat: list[int] = []
    for text in TEXTS:
        flat += table._word_ids(text.split()) + [-1] * table._width
    ids = np.array(flat, dtype=np.int64)
    got = table._phrase_ids(ids)
    assert np.array_equal(got, _numpy(table, ids))
    assert (got[:, 1:] >= 0).sum() > 10  # multi-word phrases were found


# Word ids of frequent words (so that windows are phrases) and unknown ones (-1).
_COMMON = "the of to in and a that is for it on be as with by at this are we not have has".split()


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.sampled_from([*_COMMON, "zzunknownzz"]), min_size=0, max_size=40))
def test_c_finds_what_numpy_finds_in_random_word_runs(
    native: Any, table: Any, words: list[str]
) -> None:
    ids = _ids(table, words)
    assert np.array_equal(table._phrase_ids(ids), _numpy(table, ids))


@settings(max_examples=100, deadline=None)
@given(raw=st.lists(st.integers(-1, 2_000), min_size=1, max_size=30))
def test_c_finds_what_numpy_finds_for_any_ids(native: Any, table: Any, raw: list[int]) -> None:
    ids = np.array(raw, dtype=np.int64)
    assert np.array_equal(table._phrase_ids(ids), _numpy(table, ids))


def test_the_words_are_checked_after_the_hash(native: Any, table: Any) -> None:
    """A phrase whose stored words differ from the window (what a hash collision looks
    like) is no match in either look-up; nor is a window that is the phrase's prefix."""
    import copy

    ids = _ids(table, "in order to take further steps".split())
    found = _numpy(table, ids)
    r, c = np.argwhere(found[:, 1:] >= 0)[0]  # a phrase of at least two words
    pid = found[r, c + 1]
    changed = copy.copy(table)
    changed._tokens = table._tokens.copy()
    changed._tokens[pid, 0] += 1  # its first word is another word now
    want = _numpy(changed, ids)
    assert want[r, c + 1] == -1
    assert np.array_equal(changed._phrase_ids(ids), want)
    longer = copy.copy(table)
    longer._tokens = table._tokens.copy()
    longer._tokens[pid, c + 2] = 5  # the stored phrase is one word longer than the window
    want = _numpy(longer, ids)
    assert want[r, c + 1] == -1
    assert np.array_equal(longer._phrase_ids(ids), want)


def test_bad_arguments_raise(native: Any, table: Any) -> None:
    ids = _ids(table, ["the", "union"])
    args = (table._width, table._seed, paraphrase.HASH_MULT, int(table._bucket_shift))
    arrays = (table._bucket_off, table._hash_keys, table._hash_ids, table._tokens)
    out = np.full((ids.size, table._width), -1, dtype=np.int64)
    with pytest.raises(ValueError, match="bad shapes"):
        native.phrase_ids(ids, *args, *arrays, out[:1])
    with pytest.raises(TypeError):
        native.phrase_ids(ids.astype(np.int32), *args, *arrays, out)
    with pytest.raises(ValueError, match="do not fit"):  # a shift that points past the buckets
        native.phrase_ids(ids, table._width, table._seed, paraphrase.HASH_MULT, 1, *arrays, out)
    with pytest.raises((TypeError, ValueError, BufferError)):
        native.phrase_ids(ids, *args, *arrays, np.full_like(out, -1).copy().view(np.int64)[::2])


def _block_both_ways(table: Any, sentences: list[list[str]]) -> tuple[list[Any], list[Any]]:
    """``phrases_many`` by ``phrases_block`` (C) and by the numpy code."""
    saved = paraphrase.NATIVE_PHRASES_BLOCK
    try:
        paraphrase.NATIVE_PHRASES_BLOCK = None
        want = table.phrases_many(sentences)
    finally:
        paraphrase.NATIVE_PHRASES_BLOCK = saved
    return table.phrases_many(sentences), want


def _check_block(table: Any, sentences: list[list[str]]) -> None:
    from meteor.aligners.beam import pack_occ

    assert paraphrase.NATIVE_PHRASES_BLOCK is not None
    got, want = _block_both_ways(table, sentences)
    assert len(got) == len(want) == len(sentences)
    for g, w in zip(got, want, strict=True):
        assert g._occ is None  # made from packed when read
        assert g.wants == w.wants
        assert g.occ == w.occ
        assert g == w
        assert g.packed == pack_occ(w.occ)


def test_phrases_block_finds_what_numpy_finds_in_real_text(native: Any, table: Any) -> None:
    """Real WMT21 sentences, an empty one and a repeated phrase: the same records (walk
    order), occurrences and packed occurrences as the numpy block code."""
    m = meteor.Meteor("meteor-1.5")
    path = shared_path("wmt21_ru-en_da/all_outputs.tsv")
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))[:1000]
    sents = [[t.text for t in m.tokenize(row[side])] for row in rows for side in ("hyp", "ref")]
    sents += [[], ["the"], "the united states and the united states".split() * 5]
    sents += [text.split() for text in TEXTS]
    _check_block(table, sents)
    assert sum(len(p.wants) for p in table.phrases_many(sents)) > 0


@settings(max_examples=100, deadline=None)
@given(
    sents=st.lists(
        st.lists(st.sampled_from([*_COMMON, "zzunknownzz"]), max_size=30), min_size=1, max_size=5
    )
)
def test_phrases_block_finds_what_numpy_finds_in_random_word_runs(
    native: Any, table: Any, sents: list[list[str]]
) -> None:
    _check_block(table, sents)


def test_phrases_block_refuses_bad_arguments(native: Any, table: Any) -> None:
    args = (table._vocab, table._width, table._seed, paraphrase.HASH_MULT)
    arrays = (table._bucket_off, table._hash_keys, table._hash_ids, table._tokens)
    records = (table._rec_off, table._rec_b, table._lengths)
    shift = int(table._bucket_shift)
    assert native.phrases_block([], *args, shift, table._n_a, *arrays, *records) == []
    with pytest.raises(ValueError, match="do not fit"):  # a shift that points past the buckets
        native.phrases_block([["the", "union"]], *args, 1, table._n_a, *arrays, *records)
    with pytest.raises(TypeError):  # rec_off of other items
        native.phrases_block(
            [["the"]], *args, shift, table._n_a, *arrays, table._rec_off.astype(np.int64),
            table._rec_b, table._lengths,
        )  # fmt: skip
    with pytest.raises(TypeError, match="sequence"):
        native.phrases_block([3], *args, shift, table._n_a, *arrays, *records)


def test_sentence_phrases_need_occurrences() -> None:
    with pytest.raises(ValueError, match="occ or packed"):
        paraphrase.SentencePhrases(None, b"")


def test_the_environment_switches_the_c_look_up_off(native: Any) -> None:
    code = "from meteor.languages import paraphrase; print(paraphrase.NATIVE_PHRASE_IDS is None)"
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr
