"""The C word look-ups (``meteor_native._lexicon``) equal the Python code's.

``meteor.rules.java_hash`` is ``meteor_native._lexicon.java_hash`` when it is installed and
``LemmaTable._row`` calls ``lemma_row``: both must give what ``python_java_hash`` and the
Python body of ``_row`` give, on every word of the shared WMT data and on odd strings
(astral characters, lone surrogates, NUL, non-ASCII).  Without the extension these tests
are skipped on a user's machine and fail in CI.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import native_part, wmt_en_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor.languages import lemma_table
from meteor.languages.lemma_table import LemmaTable
from meteor.rules import python_java_hash
from meteor.text import normalize

_ODD = st.lists(
    st.one_of(
        st.integers(0, 0x10FFFF),  # lone surrogates included
        st.sampled_from([0, 0x7F, 0xE9, 0xD800, 0xDFFF, 0xFFFF, 0x10000, 0x1F600]),
    ),
    max_size=12,
).map(lambda cs: "".join(map(chr, cs)))


@pytest.fixture(scope="module")
def native() -> Any:
    return native_part("_lexicon", "the word look-ups")


@pytest.fixture(scope="module")
def wmt_words() -> set[str]:
    """Every normalised token and every whitespace word of the shared WMT segments."""
    return set(_words())


def _words() -> Iterator[str]:
    for text in wmt_en_texts():
        yield from text.split()
        yield from (t.text for t in normalize.tokenize(normalize.jar_line(text)))


def _python_row(table: LemmaTable, word: str) -> int:
    keep, lemma_table._NATIVE = lemma_table._NATIVE, None
    try:
        return table._row(word)
    finally:
        lemma_table._NATIVE = keep


def _c_row(native: Any, table: LemmaTable, word: str) -> int:
    return native.lemma_row(  # type: ignore[no-any-return]
        table._hashes, table._rows, table._blob, table._offsets, word
    )


def test_java_hash_on_every_wmt_word(native: Any, wmt_words: set[str]) -> None:
    assert len(wmt_words) > 20_000
    for w in wmt_words:
        assert native.java_hash(w) == python_java_hash(w), w


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word=st.one_of(_ODD, st.text(max_size=20)))
def test_java_hash_on_odd_strings(native: Any, word: str) -> None:
    assert native.java_hash(word) == python_java_hash(word)


def test_java_hash_worked_examples(native: Any) -> None:
    assert native.java_hash("") == 0
    assert native.java_hash("Aa") == native.java_hash("BB") == 2112  # a Java collision
    assert native.java_hash("polygenelubricants") == -(2**31)  # Integer.MIN_VALUE
    assert native.java_hash("\U0001f600") == 31 * 0xD83D + 0xDE00  # a surrogate pair
    with pytest.raises(TypeError):
        native.java_hash(b"abc")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lemmas=st.dictionaries(
        st.text(max_size=8),  # WordNet's lemmas are UTF-8: no lone surrogate
        st.frozensets(st.integers(0, 10**8), max_size=3),
        max_size=30,
    ),
    probes=st.lists(st.one_of(_ODD, st.text(max_size=8)), max_size=10),
)
def test_lemma_rows_of_small_tables(native: Any, lemmas: dict[str, Any], probes: list[str]) -> None:
    table = LemmaTable(lemmas)
    for word in [*lemmas, *probes]:
        assert _c_row(native, table, word) == _python_row(table, word), word
    for word in lemmas:
        assert table.get(word) == frozenset(lemmas[word])


def test_lemma_rows_share_a_hash(native: Any) -> None:
    """Two lemmas with one crc32 (``plumless``/``buckeroo``): each finds its own row."""
    table = LemmaTable({"plumless": {1}, "buckeroo": {2}, "x": {3}})
    assert [_c_row(native, table, w) for w in ("plumless", "buckeroo", "x", "y")] == [0, 1, 2, -1]


def test_lemma_rows_of_every_wmt_word(native: Any, wmt_words: set[str]) -> None:
    """WordNet's table (the synonym stage's) on every WMT word and its morphological bases."""
    from meteor.languages import get_language

    table = get_language("en").lemma_synsets()  # type: ignore[attr-defined]
    assert isinstance(table, LemmaTable)
    found = 0
    for w in wmt_words:
        for probe in (w, w[:-1], w[:-2] + "e"):
            row = _c_row(native, table, probe)
            assert row == _python_row(table, probe), probe
            found += row >= 0
    assert found > 10_000


def test_bad_buffers(native: Any) -> None:
    table = LemmaTable({"a": {1}})
    with pytest.raises(ValueError, match="4-byte"):
        native.lemma_row(b"abc", table._rows, table._blob, table._offsets, "a")
    with pytest.raises(ValueError, match="do not agree"):
        native.lemma_row(table._hashes, table._rows, b"", table._offsets, "a")
