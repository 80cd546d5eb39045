"""The nltk WordNet reader's index cache (start-up of the nltk and hf presets, issue #17).

nltk's reader parses the four index files and scans data.adj at every start (about 1 s);
``FastWordNetCorpusReader`` keeps both results next to the private WordNet copy (a JSON
header line, then strings and 32-bit integers: ``nltk_wordnet_index.encode_index``).
The reader built from the cache must hold exactly what nltk builds from the files, and a
damaged or stale cache must be rebuilt, never trusted.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from nltk.corpus.reader.wordnet import WordNetCorpusReader

from meteor.languages import nltk_wordnet as nw
from meteor.languages import nltk_wordnet_index as nwi


def _fresh(tmp_path: Path) -> Path:
    root = nw.ensure_wordnet_copy(tmp_path)
    nw.register_data_root(root)
    return nw._target(root)


def _plain(target: Path) -> WordNetCorpusReader:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return WordNetCorpusReader(str(target), None)


def test_reader_from_the_cache_equals_nltk_from_the_files(tmp_path: Path) -> None:
    target = _fresh(tmp_path)
    cache = target / nw.INDEX_CACHE_NAME
    assert not cache.exists()
    first = nw._build_reader(target)  # parses the files, writes the cache
    assert cache.is_file()
    second = nw._build_reader(target)  # reads the cache
    assert second._loaded_cache is not None and first._loaded_cache is None
    plain = _plain(target)
    assert dict(second._lemma_pos_offset_map) == dict(plain._lemma_pos_offset_map)
    assert second.satellite_offsets == plain.satellite_offsets
    for word in ("dog", "quick", "leapt", "fast", "run", "good"):
        assert second.synsets(word) == plain.synsets(word)
    assert second._lemma_pos_offset_map["no-such-lemma"] == {}  # still a defaultdict


def _head(cache: Path) -> dict[str, Any]:
    data = cache.read_bytes()
    return json.loads(data[: data.index(b"\n")])  # type: ignore[no-any-return]


def test_damaged_or_stale_cache_is_rebuilt(tmp_path: Path) -> None:
    target = _fresh(tmp_path)
    cache = target / nw.INDEX_CACHE_NAME
    nw._build_reader(target)
    good = cache.read_bytes()
    key = _head(cache)["key"]

    for damaged in (
        b"\x00not json",
        good[: len(good) // 2],  # cut short
        good.replace(b'"sizes": [', b'"sizes": [1, ', 1),  # a section too many
        good.replace(b'[["n", 1]], ', b'[["n", 2]], ', 1),  # the shapes disagree with the offsets
    ):
        assert damaged != good
        cache.write_bytes(damaged)
        reader = nw._build_reader(target)
        assert reader._loaded_cache is None  # not trusted: parsed from the files
        assert _head(cache)["key"] == key  # and written again
        assert dict(reader._lemma_pos_offset_map) == dict(_plain(target)._lemma_pos_offset_map)

    stale = good.replace(json.dumps(key).encode(), json.dumps(dict(key, nltk="0.0")).encode(), 1)
    assert stale != good
    cache.write_bytes(stale)
    reader = nw._build_reader(target)
    assert reader._loaded_cache is None
    assert reader._lemma_pos_offset_map["dog"] == _plain(target)._lemma_pos_offset_map["dog"]


def test_the_index_keeps_nltk_order_and_shapes(tmp_path: Path) -> None:
    """Lemmas keep their order (nltk's ``all_lemma_names`` iterates the map), every shape
    comes back (several parts of speech, empty satellite lists), and what the format
    cannot hold is not cached."""
    lemma_map = {
        "dog": {"n": [2084071, 10114209], "v": [2006834]},
        "quick": {"a": [979366], "s": []},
        "a_b": {"n": [5]},
        "run": {"v": [1926311]},
        "zz": {"n": [7]},
    }
    key = {"files": {"x": "0"}, "nltk": "3"}
    data = nwi.encode_index(key, [3, 1], lemma_map)
    assert data is not None
    path = tmp_path / "index.bin"
    path.write_bytes(data)
    got = nwi.decode_index(path, key)
    assert got is not None
    assert got["map"] == lemma_map and list(got["map"]) == list(lemma_map)
    assert got["satellites"] == [3, 1]
    assert nwi.decode_index(path, dict(key, nltk="4")) is None
    path.write_bytes(data.replace(b"a_b", b"a_c"))  # same sizes, other bytes: the CRC
    assert nwi.decode_index(path, key) is None
    assert nwi.encode_index(key, [], {"two\nlines": {"n": [1]}}) is None
    assert nwi.encode_index(key, [], {"big": {"n": [2**31]}}) is None


def test_morphy_forms_equal_nltk_morphy() -> None:
    """``FastWordNetCorpusReader.morphy_forms`` (what ``synonym_names`` looks up) is nltk's
    ``_morphy(form, pos, True)`` on every 7th WordNet lemma and exception form, their
    inflections and some non-words, for each part of speech (once, by hand: all 173,294
    lemmas, exception forms, WMT tokens and their Porter stems, none differ)."""
    reader = nw.wordnet_reader()
    words: set[str] = set()
    for pos in "nvar":
        words.update(reader._exception_map[pos])
    words.update(reader._lemma_pos_offset_map)
    sample = sorted(words)[::7]
    sample += [
        w + suffix
        for w in sample[::50]
        for suffix in ("s", "es", "ies", "ed", "ing", "er", "est", "men")
    ]
    sample += ["", "s", "es", "xyzzy", "geese", "went", "better", "Dogs"]
    for word in sample:
        for pos in "nvars":
            assert reader.morphy_forms(word, pos) == reader._morphy(word, pos, True), (word, pos)
