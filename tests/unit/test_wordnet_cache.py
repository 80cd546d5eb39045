"""WordNet's lemma table and exception lists are kept in the cache folder, read back equal.

``English`` parses WordNet's four ``index.*`` and ``*.exc`` files once per process (about
0.4 s, most of the start-up of ``meteor-1.5`` and the 2005 presets); it keeps the lemma
table's buffers and the exception lists in ``<cache>/wordnet/`` and later processes read
them (about 0.03 s).  What is read must equal a fresh parse; a damaged or stale cache must
only cost the parse.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from meteor import resources
from meteor.languages import english
from meteor.languages.english import ENGLISH, English
from meteor.languages.lemma_table import LemmaTable


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("METEOR_CACHE_DIR", str(root))
    return root / "wordnet"


def _loaded(monkeypatch: pytest.MonkeyPatch | None = None) -> English:
    lang = English()
    if monkeypatch is not None:

        def fail(self: Any, wdir: Path) -> None:
            raise AssertionError("WordNet's files were parsed: the cache was not used")

        monkeypatch.setattr(English, "_parse_wordnet", fail)
    lang.lemma_synsets()
    return lang


def _same(a: English, b: English) -> None:
    assert [bytes(x) for x in a.lemma_synsets().to_bytes()] == [
        bytes(x) for x in b.lemma_synsets().to_bytes()
    ]
    assert a.exceptions() == b.exceptions()
    for word in ("dog", "quick", "leapt", "geese", "run", "best", "no-such-word"):
        assert a.synsets(word) == b.synsets(word)


def test_the_table_comes_back_equal_from_the_cache(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed = _loaded()
    (file,) = cache.iterdir()
    assert file.suffix == ".bin"
    with monkeypatch.context() as mp:
        cached = _loaded(mp)
    _same(cached, parsed)
    _same(cached, ENGLISH)
    assert len(cached.lemma_synsets()) == 147_306
    assert cached.exceptions()["geese"] == ("goose",)


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],
        lambda b: b"",
        lambda b: b"{}\n" + b,
        lambda b: b.replace(b'"sizes": [', b'"sizes": [4, ', 1),  # one more part
        lambda b: b[:-40] + b"x" * 40,  # the exception lists spoiled at the end
    ],
)
def test_a_damaged_cache_only_costs_the_parse(cache: Path, damage: Any) -> None:
    parsed = _loaded()
    (file,) = cache.iterdir()
    file.write_bytes(damage(file.read_bytes()))
    _same(_loaded(), parsed)


def test_other_files_make_another_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _loaded()
    copy = tmp_path / "wn"
    copy.mkdir()
    src = resources.wordnet_dir()
    for name in english._POS_FILES:
        for f in (f"index.{name}", f"{name}.exc"):
            (copy / f).write_bytes((src / f).read_bytes())
    with (copy / "verb.exc").open("a", encoding="utf-8") as fh:
        fh.write("blorked blork\n")
    monkeypatch.setattr(resources, "wordnet_dir", lambda: copy)
    other = _loaded()
    assert other.exceptions()["blorked"] == ("blork",)
    assert len(list(cache.iterdir())) == 2


def test_tables_that_do_not_hold_together_are_refused() -> None:
    parts = LemmaTable({"dog": [1, 2], "cat": [3]}).to_bytes()
    assert LemmaTable.from_bytes(parts).get("dog") == {1, 2}
    with pytest.raises(ValueError):
        LemmaTable.from_bytes(parts[:5])
    with pytest.raises(ValueError):
        LemmaTable.from_bytes([parts[0], parts[1][:4], *parts[2:]])  # one row missing
    with pytest.raises(ValueError):
        LemmaTable.from_bytes([*parts[:5], parts[5] + b"\0\0\0\0"])  # an offset too many
