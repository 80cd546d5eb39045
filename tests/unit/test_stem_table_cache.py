"""The jar's lookup-table stemmer (Arabic, reduced Buckwalter) is read back from the cache folder.

``meteor.languages.jar_stemmers._lookup_table`` parsed the jar's 17.5 MB table at every
start (590,000 lines, a second: the ``meteor-1.5-ar-bw-red`` preset's whole start-up).  It
keeps the sorted Java hashes and their stems in the cache folder (``StemTable``) and looks
words up there by binary search.  The stems must be the jar's (``Hashtable.get`` of the
word's ``String.hashCode``, the last line of a hash winning); a stale, damaged or
unwritable cache must only cost the parse.
"""

from __future__ import annotations

import gzip
import re
import zipfile
from pathlib import Path

import pytest

from meteor.languages import jar_stemmers
from meteor.languages.jar_stemmers import StemTable
from meteor.resources import jar_path
from meteor.stages.base import java_hash

MEMBER = "stem/arabic-buckwalter-reduced.gz"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("METEOR_CACHE_DIR", str(root))
    return root / f"jar-stem-{MEMBER.replace('/', '-')}.bin"


def _jar_rows() -> list[tuple[str, str]]:
    """(word, stem) of every line of the jar's table, read the plain way."""
    with zipfile.ZipFile(jar_path()) as zf:
        text = gzip.decompress(zf.read(MEMBER)).decode("utf-8")
    rows = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        # StringTokenizer's separators only: str.split() would also split at U+0085 …
        parts = [p for p in re.split("[ \t\f]+", line) if p]
        if len(parts) >= 3:
            rows.append((parts[0], parts[2]))
    return rows


def test_a_table_keyed_by_java_hashes() -> None:
    # "Aa" and "BB" share String.hashCode 2112: the later line wins for both
    assert java_hash("Aa") == java_hash("BB")
    rows = [(java_hash("Aa"), "a1"), (java_hash("xyz"), "x"), (java_hash("BB"), "b2")]
    table = StemTable.from_rows(rows)
    assert len(table) == 2
    assert table.stem("Aa") == table.stem("BB") == "b2"
    assert table.stem("xyz") == "x"
    assert table.stem("unlisted") == "unlisted" and table.stem("") == ""
    empty = StemTable.from_rows([])
    assert empty.stem("word") == "word"


def test_cached_table_is_the_jars(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = jar_stemmers._lookup_table(MEMBER)
    assert cache.is_file()

    def no_parse(gz: bytes) -> list[tuple[int, str]]:
        raise AssertionError("parsed again although the cache was there")

    monkeypatch.setattr(jar_stemmers, "_table_rows", no_parse)
    again = jar_stemmers._lookup_table(MEMBER)
    jar: dict[int, str] = {}
    rows = _jar_rows()
    for word, stem in rows:
        jar[java_hash(word)] = stem  # a later line wins, as Hashtable.put
    words = [w for w, _ in rows[::7]] + [s for _, s in rows[::50]] + ["qAl", "zzzz", "Aa"]
    for word in words:
        expected = jar.get(java_hash(word), word)
        assert first(word) == expected and again(word) == expected, word


def test_damaged_stale_or_unwritable_cache_costs_only_the_parse(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stems(words: list[str]) -> list[str]:
        stem = jar_stemmers._lookup_table(MEMBER)  # one load per call
        return [stem(w) for w in words]

    stem = jar_stemmers._lookup_table(MEMBER)
    probe = ["qAl", "yqwl", "Alktab", "zzzz"] + [f"{c}{d}" for c in "AbtvjHx" for d in "dwy"]
    expected = [stem(w) for w in probe]
    data = cache.read_bytes()
    cache.write_bytes(data[:-10] + bytes(10))  # damaged: the CRC-32 disagrees
    assert stems(probe) == expected
    assert cache.read_bytes() == data  # rewritten
    head, _, body = data.partition(b"\n")
    cache.write_bytes(head.replace(b'"jar-stem-table", 1', b'"jar-stem-table", 0') + b"\n" + body)
    assert StemTable.read(cache, ["jar-stem-table", 1, MEMBER, 0, 0]) is None  # another key
    assert stems(probe) == expected
    cache.unlink()
    cache.mkdir()  # a folder where the file should be: neither read nor written
    assert stems(probe) == expected
    assert cache.is_dir()
