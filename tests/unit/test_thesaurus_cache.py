"""The Russian thesaurus's dicts are kept in the cache folder and read back equal.

``SqliteThesaurus`` reads its SQLite file once per process (wiki-ru-wordnet: 115,435
rows, 0.3–0.5 s, most of the ``ru`` preset's start-up); it keeps the dicts it read in
``<cache>/thesaurus/`` and later processes decode them (about 0.05 s).  The decoded
dicts must equal a fresh read of the file; a stale, damaged or unwritable cache must
only cost the read.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from meteor.languages import russian_thesaurus as rt
from meteor.languages.russian_thesaurus import RuWordNetDb, WikiRuWordnet


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("METEOR_CACHE_DIR", str(root))
    return root / "thesaurus"


def _mini_db(path: Path, extra: str = "") -> Path:
    """A small file with RuWordNet's schema: string synset ids, ё, a two-word lemma."""
    con = sqlite3.connect(path)
    con.executescript(
        """
        CREATE TABLE sense (id TEXT PRIMARY KEY, name TEXT, lemma TEXT, synset_id TEXT);
        INSERT INTO sense VALUES ('1', 'ПРЫГНУТЬ', 'ПРЫГНУТЬ', '106944-V'),
                                 ('2', 'СКАКНУТЬ', 'СКАКНУТЬ', '106944-V'),
                                 ('3', 'СДЕЛАТЬ ПРЫЖОК', 'СДЕЛАТЬ ПРЫЖОК', '106944-V'),
                                 ('4', 'СОБАКА', 'СОБАКА', '2500-N'),
                                 ('5', 'ПЁС', 'ПЁС', '2500-N'),
                                 ('6', 'СОБАЧИЙ', 'СОБАЧИЙ', '2500-A');
        """
        + extra
    )
    con.commit()
    con.close()
    return path


def _dicts(t: Any) -> tuple[Any, ...]:
    t._load()
    t.members(0)  # decodes a cached thesaurus's members
    return t._index, t._members, t._labels


def _no_read(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(self: Any) -> None:
        raise AssertionError("the SQLite file was read: the cache was not used")

    monkeypatch.setattr(rt.SqliteThesaurus, "_read", fail)


def test_the_wiki_thesaurus_comes_back_equal_from_the_cache(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = WikiRuWordnet()
    want = _dicts(fresh)
    assert len(want[0]) > 90_000 and len(want[1]) > 100_000
    (file,) = cache.iterdir()
    assert file.suffix == ".bin"
    with monkeypatch.context() as mp:
        _no_read(mp)
        cached = WikiRuWordnet()
        assert cached.synsets("быстрый") == {973}  # the index only: members not decoded yet
        assert cached._members_later is not None
        assert "стремительный" in cached.members(973)
        assert cached._members_later is None
        assert _dicts(cached) == want
        assert len(cached) == len(fresh)


def test_string_ids_labels_and_yo_survive_the_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _mini_db(tmp_path / "mini.db")
    first = RuWordNetDb(db)
    want = _dicts(first)
    _no_read(monkeypatch)
    again = RuWordNetDb(db)
    assert _dicts(again) == want
    (jump,) = again.synsets("прыгнуть")
    assert again.label(jump) == "106944-V"
    assert again.members(jump) == {"прыгнуть", "скакнуть", "сделать прыжок"}
    assert again.synsets("пес") == again.synsets("ПЁС") == again.synsets("собака")
    assert "пёс" in again.members(next(iter(again.synsets("пес"))))


def test_a_changed_file_is_read_again(tmp_path: Path, cache: Path) -> None:
    db = _mini_db(tmp_path / "mini.db")
    assert RuWordNetDb(db).synsets("кошка") == frozenset()
    con = sqlite3.connect(db)
    con.execute("INSERT INTO sense VALUES ('7', 'КОШКА', 'КОШКА', '3000-N')")
    con.commit()
    con.close()
    changed = RuWordNetDb(db)
    (cat,) = changed.synsets("кошка")
    assert changed.label(cat) == "3000-N"
    assert len(list(cache.iterdir())) == 2  # one file per (path, size, time, query)


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],  # cut short
        lambda b: b"",  # empty
        lambda b: b"not json\n" + b,
        lambda b: b.replace(b'"groups": [[[1, ', b'"groups": [[[2, ', 1),  # groups disagree
        lambda b: b.replace(b'"sizes": [', b'"sizes": [1, ', 1),  # a section too many
        lambda b: b[:-3] + b"\xff\xfe\xfd",  # not UTF-8 at the end (the labels)
    ],
)
def test_a_damaged_cache_only_costs_the_read(tmp_path: Path, cache: Path, damage: Any) -> None:
    db = _mini_db(tmp_path / "mini.db")
    want = _dicts(RuWordNetDb(db))
    (file,) = cache.iterdir()
    file.write_bytes(damage(file.read_bytes()))
    assert _dicts(RuWordNetDb(db)) == want


def test_damaged_members_are_read_from_the_file(tmp_path: Path, cache: Path) -> None:
    db = _mini_db(tmp_path / "mini.db")
    want = _dicts(RuWordNetDb(db))
    (file,) = cache.iterdir()
    data = file.read_bytes()
    file.write_bytes(data.replace("пёс".encode(), b"\xff\xfe\xfd\xfc\xfb\xfa", 1))  # same size
    t = RuWordNetDb(db)
    t._load()
    assert t._members_later is None  # the CRC-32 caught it: all read from the file
    assert _dicts(t) == want
    file.write_bytes(data)
    t = RuWordNetDb(db)
    t._load()
    assert t._members_later is not None  # the index decoded; the members not yet

    def spoiled() -> Any:
        raise ValueError("a member section that does not decode")

    t._members_later = spoiled
    assert _dicts(t) == want  # read from the file instead


def test_no_cache_where_it_cannot_be_written(tmp_path: Path, cache: Path) -> None:
    cache.parent.mkdir(parents=True)
    cache.write_text("a file where the folder should be")
    db = _mini_db(tmp_path / "mini.db")
    first = _dicts(RuWordNetDb(db))
    assert _dicts(RuWordNetDb(db)) == first
    assert cache.is_file()


def test_what_the_format_cannot_hold_is_not_cached(tmp_path: Path, cache: Path) -> None:
    db = _mini_db(tmp_path / "mini.db", "INSERT INTO sense VALUES ('8', 'x', 'ДВА\nСЛОВА', '9-N');")
    t = RuWordNetDb(db)
    assert t.synsets("два\nслова")
    assert not cache.exists() or not any(cache.iterdir())
    assert rt._encode("k", {"a": (2**31,)}, {}, {}) is None
    assert rt._encode("k", {"a": (1,)}, {1: ("",)}, {}) is None
