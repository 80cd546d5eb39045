"""WordNet's lemma table in flat buffers (``meteor.languages.lemma_table``) equals the dict it
replaced, and forked workers read it without copying its pages."""

from __future__ import annotations

import gc
import os
import types
from pathlib import Path

import pytest

from meteor import resources
from meteor.languages import lemma_table
from meteor.languages.english import _POS_FILES, ENGLISH, meteor_morph
from meteor.languages.lemma_table import LemmaTable


def _dict_table() -> dict[str, frozenset[int]]:
    """The table as Meteor 1.5's SynonymDictionary reads it, built the plain way."""
    sets: dict[str, set[int]] = {}
    for pos in _POS_FILES:
        path = resources.wordnet_dir() / f"index.{pos}"
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line or line[0] == " ":
                continue
            parts = line.split()
            n = int(parts[2])
            sets.setdefault(parts[0], set()).update(int(o) for o in parts[len(parts) - n :])
    return {k: frozenset(v) for k, v in sets.items()}


def test_every_lemma_and_its_synsets_as_the_dict() -> None:
    plain = _dict_table()
    table = ENGLISH.lemma_synsets()
    assert isinstance(table, LemmaTable)
    assert len(table) == len(plain) == 147_306
    assert all(table.get(w) == s and w in table for w, s in plain.items())
    for word in ("dogx", "", "DOG", "ünïcödé", "a" * 300, "pre\ud800", "c++x"):
        assert (word in table) is (word in plain)
        assert table.get(word) == plain.get(word, frozenset())
    assert 3 not in table  # not a string: never a lemma
    sentinel = frozenset({-1})
    assert table.get("dogx", sentinel) is sentinel
    # meteor_morph gives the same base forms through either
    for word in ("dogs", "churches", "wolves", "running", "stopped", "biggest", "ss", "happiness"):
        assert meteor_morph(word, table) == meteor_morph(word, plain)


def test_real_crc32_collisions_are_told_apart_by_the_words() -> None:
    """Two words with one zlib.crc32 (0x4ddb0c25) keep their own rows, in C or Python."""
    import zlib

    assert zlib.crc32(b"plumless") == zlib.crc32(b"buckeroo")
    table = LemmaTable({"plumless": [1], "buckeroo": [2, 3]})
    assert table.get("plumless") == frozenset({1})
    assert table.get("buckeroo") == frozenset({2, 3})
    assert "plumlesz" not in table


def test_equal_hashes_are_told_apart_by_the_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a hash that collides on every word of a length, look-ups still compare bytes
    (the Python look-up: the C one computes zlib's crc32 itself, which the patch leaves)."""
    monkeypatch.setattr(lemma_table, "zlib", types.SimpleNamespace(crc32=len))
    monkeypatch.setattr(lemma_table, "_NATIVE", None)
    words = {"cat": [1, 2], "dog": [3], "cow": [4, 4, 5], "horse": [6], "é": [7]}
    table = LemmaTable(words)
    for w, offs in words.items():
        assert table.get(w) == frozenset(offs)
    assert "cap" not in table and "owl" not in table and table.get("ox") == frozenset()
    assert len(LemmaTable({})) == 0 and "a" not in LemmaTable({})


def _private_dirty_kb() -> int:
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        if line.startswith("Private_Dirty:"):
            return int(line.split()[1])
    raise AssertionError("no Private_Dirty line")


@pytest.mark.skipif(
    not Path("/proc/self/smaps_rollup").exists() or not hasattr(os, "fork"),
    reason="needs Linux's /proc/self/smaps_rollup and fork",
)
def test_a_forked_worker_reads_the_table_without_copying_it() -> None:
    """Looking up 20,000 lemmas in a forked child dirties (almost) no page: as a dict of
    sets the same look-ups copied 16 MB (each set's reference count is in its page)."""
    table = ENGLISH.lemma_synsets()
    words = [w for w, _ in zip(_dict_table(), range(20_000), strict=False)]
    probe = "".join(words)  # one object: iterating a list would touch every string's page
    lengths = [len(w) for w in words]
    gc.collect()
    gc.freeze()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        gc.disable()
        before = _private_dirty_kb()
        pos = 0
        found = 0
        for n in lengths:
            found += bool(table.get(probe[pos : pos + n]))
            pos += n
        os.write(write, f"{found} {_private_dirty_kb() - before}".encode())
        os._exit(0)
    os.close(write)
    out = os.read(read, 100).decode()
    os.waitpid(pid, 0)
    gc.unfreeze()
    found, grown_kb = map(int, out.split())
    assert found == len(words)
    assert grown_kb < 2_000, f"the child copied {grown_kb} kB reading the table"
