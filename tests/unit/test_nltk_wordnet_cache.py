"""The nltk WordNet reader's index cache (start-up of the nltk and hf presets, issue #17).

nltk's reader parses the four index files and scans data.adj at every start (about 1 s);
``FastWordNetCorpusReader`` keeps both results as JSON next to the private WordNet copy.
The reader built from the cache must hold exactly what nltk builds from the files, and a
damaged or stale cache must be rebuilt, never trusted.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from nltk.corpus.reader.wordnet import WordNetCorpusReader

from meteor.languages import nltk_wordnet as nw


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


def test_damaged_or_stale_cache_is_rebuilt(tmp_path: Path) -> None:
    target = _fresh(tmp_path)
    cache = target / nw.INDEX_CACHE_NAME
    nw._build_reader(target)
    good = json.loads(cache.read_bytes())

    cache.write_bytes(b"\x00not json")
    reader = nw._build_reader(target)
    assert reader._loaded_cache is None  # not trusted: parsed from the files
    assert json.loads(cache.read_bytes())["key"] == good["key"]  # and written again

    stale = dict(good, map={"dog": {"n": [1]}})
    stale["key"] = dict(good["key"], nltk="0.0")
    cache.write_text(json.dumps(stale), encoding="utf-8")
    reader = nw._build_reader(target)
    assert reader._loaded_cache is None
    assert reader._lemma_pos_offset_map["dog"] == _plain(target)._lemma_pos_offset_map["dog"]
