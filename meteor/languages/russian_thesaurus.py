"""Russian thesauri for the synonym stage: the protocol and two SQLite readers.

Meteor 1.5 has no Russian synonym module.  The default thesaurus is ``wiki-ru-wordnet``
1.0.3 (Russian Wiktionary, CC BY-SA), read **read-only** from its SQLite file:
``WikiWordnet()`` is never instantiated because it writes to the database inside
site-packages (``dependencies.md`` section 4).  Words are looked up by their pymorphy3
lemmas with ``ё``→``е`` folded on both sides.  Any :class:`Thesaurus` can replace it,
e.g. :class:`RuWordNetDb` for a RuWordNet SQLite file the user downloaded
(:class:`meteor.languages.russian.Russian` takes one).
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable
from pathlib import Path
from sys import intern
from typing import Any, Protocol, runtime_checkable

from meteor.errors import ResourceError
from meteor.resources import (
    cache_sections,
    int32_bytes,
    int32_list,
    keyed_cache_file,
    package_dir,
    read_cache_sections,
    write_cache_file,
)
from meteor.rules import fold_yo
from meteor.runtime import gc_paused

__all__ = ["RuWordNetDb", "SqliteThesaurus", "Thesaurus", "WikiRuWordnet"]

WIKI_RU_WORDNET_HINT = "pip install wiki-ru-wordnet==1.0.3"


def thesaurus_key(lemma: str) -> str:
    """Lookup key on both sides of a thesaurus: lowercase, ``ё`` folded (``dependencies.md`` s. 4)."""
    return fold_yo(lemma.strip().lower())


# --------------------------------------------------------------------------- thesauri


@runtime_checkable
class Thesaurus(Protocol):
    """A source of synonym sets for lemmas.

    Implementations take a lemma as pymorphy3 gives it (lowercase) and fold case and
    ``ё`` themselves.  Synset identifiers are ``int`` so that they fit
    :meth:`meteor.languages.Language.synsets`; they only need to be stable for one
    thesaurus file.
    """

    @property
    def source(self) -> str:
        """Name, version and licence of the data, for records and signatures."""
        ...

    def synsets(self, lemma: str) -> frozenset[int]:
        """Identifiers of the synsets ``lemma`` belongs to (empty when unknown)."""
        ...

    def members(self, synset: int) -> frozenset[str]:
        """The lemmas of one synset, lowercased (empty for an unknown identifier)."""
        ...


class SqliteThesaurus:
    """A thesaurus read once, read-only, from an SQLite file into two dicts.

    Integer synset identifiers are kept; others (RuWordNet's ``"126228-N"``) are
    numbered densely in query order (give the query an ``ORDER BY``).  Lemmas are
    indexed lowercased with ``ё`` folded; :meth:`members` keeps ``ё``.

    The file is opened with an SQLite ``mode=ro`` URI on first use, under a lock, and
    closed after loading.  The dicts are kept in the cache folder (``thesaurus/``,
    :func:`_encode`), keyed by the file's path, size, modification time and the query:
    the next process loads them in a fifth of the time.  A missing, stale or unreadable
    cache is ignored.

    Args:
        path: the SQLite file (or ``None`` when a subclass finds it lazily).
        query: SQL returning ``(synset_id, lemma)`` rows.
        source: the name returned by :attr:`source`.
        install_hint: what to tell the user when the file is missing.
    """

    def __init__(
        self,
        path: str | Path | None,
        query: str,
        source: str,
        install_hint: str = "",
    ) -> None:
        self._path = Path(path) if path is not None else None
        self._query = query
        self._source = source
        self._hint = install_hint
        self._lock = threading.Lock()
        self._index: dict[str, tuple[int, ...]] | None = None
        self._members: dict[int, tuple[str, ...]] = {}
        # a cached thesaurus's members, decoded on the first members() call (teaching UIs)
        self._members_later: Callable[[], dict[int, tuple[str, ...]]] | None = None
        self._labels: dict[int, str] = {}

    @property
    def source(self) -> str:
        """Name of the data, for records and signatures."""
        return self._source

    def path(self) -> Path:
        """The SQLite file this thesaurus reads.

        Raises:
            ResourceError: when the file does not exist.
        """
        if self._path is None or not self._path.is_file():
            where = f" ({self._path})" if self._path is not None else ""
            raise ResourceError(
                f"the thesaurus file for {self._source} is missing{where}"
                + (f": {self._hint}" if self._hint else "")
            )
        return self._path

    def _load(self) -> dict[str, tuple[int, ...]]:
        index = self._index
        if index is not None:
            return index
        with self._lock:
            if self._index is None:
                cache = self._cache_file()
                with gc_paused():  # 200,000 new containers: no collections meanwhile
                    got = _decode(cache[0], cache[1]) if cache is not None else None
                    if got is not None:
                        self._index, self._members_later, self._labels = got
                    else:
                        self._index = self._read()
                if got is None and cache is not None:
                    data = _encode(cache[1], self._index, self._members, self._labels)
                    if data is not None:  # a thesaurus _encode cannot hold is read each time
                        write_cache_file(cache[0], data)
            return self._index

    def _cache_file(self) -> tuple[Path, str] | None:
        """(the cache file of this thesaurus's dicts, the key it must hold), or ``None``
        when the SQLite file cannot be found (:meth:`_read` then says why)."""
        try:
            path = self.path().resolve()
            st = path.stat()
        except (OSError, ResourceError):
            return None
        key = json.dumps(
            [_CACHE_FORMAT, str(path), st.st_size, st.st_mtime_ns, self._query],
            ensure_ascii=False,
        )
        return keyed_cache_file("thesaurus", key), key

    def _read(self) -> dict[str, tuple[int, ...]]:
        import sqlite3  # here, not at module level: importing this module stays cheap

        path = self.path()
        uri = path.resolve().as_uri() + "?mode=ro"
        index: dict[str, tuple[int, ...]] = {}
        members: dict[int, tuple[str, ...]] = {}
        dense: dict[Any, int] = {}
        try:
            con = sqlite3.connect(uri, uri=True, check_same_thread=False)
            try:
                # streamed, stored as small tuples (half the memory of dicts of sets)
                for raw_id, lemma in con.execute(self._query):
                    if not isinstance(lemma, str) or not lemma.strip():
                        continue
                    if isinstance(raw_id, int):
                        sid = raw_id
                    else:
                        sid = dense.setdefault(raw_id, len(dense))
                        self._labels.setdefault(sid, str(raw_id))
                    shown = lemma.strip().lower()
                    key = fold_yo(shown)
                    if key == shown:
                        key = shown  # share one string object
                    ids = index.get(key, ())
                    if sid not in ids:
                        index[key] = (*ids, sid)
                    names = members.get(sid, ())
                    if shown not in names:
                        members[sid] = (*names, shown)
            finally:
                con.close()
        except sqlite3.Error as exc:
            raise ResourceError(
                f"cannot read {path} as {self._source}: {exc}"
                + (f" ({self._hint})" if self._hint else "")
            ) from exc
        self._members = members
        return index

    def synsets(self, lemma: str) -> frozenset[int]:
        """Synset identifiers of ``lemma`` (case and ``ё`` folded); empty when unknown."""
        return frozenset(self._load().get(thesaurus_key(lemma), ()))

    def members(self, synset: int) -> frozenset[str]:
        """Lemmas of one synset, lowercased; empty for an unknown identifier."""
        self._load()
        later = self._members_later
        if later is not None:
            with self._lock:
                if self._members_later is not None:
                    try:
                        with gc_paused():
                            self._members = self._members_later()
                    except ValueError:  # a damaged cache: the file has them
                        self._read()
                    self._members_later = None
        return frozenset(self._members.get(synset, ()))

    def label(self, synset: int) -> str:
        """The identifier as the file spells it (``"126228-N"`` for RuWordNet)."""
        self._load()
        return self._labels.get(synset, str(synset))

    def __len__(self) -> int:
        """Number of distinct (folded) lemmas."""
        return len(self._load())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self._path)!r})"


# ------------------------------------------------------------------ the cache file

#: Version of the cache layout (:func:`_encode`); part of each file's key.
_CACHE_FORMAT = 1


def _grouped(d: dict[Any, tuple[Any, ...]]) -> tuple[list[Any], list[Any], list[list[int]]]:
    """``d``'s keys and flattened values, grouped by value length (shortest first), and
    the groups as ``[length, count]``: tuples of one length are rebuilt in one call."""
    by_len: dict[int, list[Any]] = {}
    for k, v in d.items():
        by_len.setdefault(len(v), []).append(k)
    keys: list[Any] = []
    values: list[Any] = []
    groups: list[list[int]] = []
    for n in sorted(by_len):
        keys += by_len[n]
        values += [x for k in by_len[n] for x in d[k]]
        groups.append([n, len(by_len[n])])
    return keys, values, groups


def _encode(
    key: str,
    index: dict[str, tuple[int, ...]],
    members: dict[int, tuple[str, ...]],
    labels: dict[int, str],
) -> bytes | None:
    """The three dicts as a JSON header line (the key, section sizes, groups) and six
    sections: index keys (UTF-8, one per line) and their ids; member synsets and their
    members (one per line); label synsets and labels, entries grouped by how many ids or
    members they have (:func:`_grouped`).  ``None`` when a string is empty or holds a
    line break, or an id is not a 32-bit integer (such a thesaurus is not cached)."""
    strings = [*index, *(m for ms in members.values() for m in ms), *labels.values()]
    if any(not t or "\n" in t for t in strings):
        return None
    ids = [*(i for ids in index.values() for i in ids), *members, *labels]
    if any(not -(2**31) <= i < 2**31 for i in ids):
        return None
    keys, key_ids, index_groups = _grouped(index)
    sids, names, member_groups = _grouped(members)
    sections = [
        "\n".join(keys).encode("utf-8"),
        int32_bytes(key_ids),
        int32_bytes(sids),
        "\n".join(names).encode("utf-8"),
        int32_bytes(list(labels)),
        "\n".join(labels.values()).encode("utf-8"),
    ]
    return cache_sections(key, sections, groups=[index_groups, member_groups])


def _split(blob: bytes) -> list[str]:
    """One string per line, each string object shared with equal interned ones (a
    member spelled as its index key is one object, as :meth:`SqliteThesaurus._read`
    makes it)."""
    return list(map(intern, blob.decode("utf-8").split("\n"))) if blob else []


def _check_groups(groups: Any, n_keys: int, n_values: int) -> None:
    """``ValueError`` unless ``groups`` are ``[length, count]`` pairs covering ``n_keys``
    keys and ``n_values`` values."""
    if not isinstance(groups, list) or not all(
        isinstance(g, list) and len(g) == 2 and all(type(x) is int and x > 0 for x in g)
        for g in groups
    ):
        raise ValueError("bad groups")
    if sum(n for _, n in groups) != n_keys or sum(c * n for c, n in groups) != n_values:
        raise ValueError("groups do not cover the sections")


def _ungroup(keys: list[Any], values: list[Any], groups: Any) -> dict[Any, tuple[Any, ...]]:
    """The dict :func:`_grouped` flattened (``ValueError`` when the parts disagree)."""
    _check_groups(groups, len(keys), len(values))
    out: dict[Any, tuple[Any, ...]] = {}
    k = v = 0
    for c, n in groups:
        flat = iter(values[v : v + c * n])
        out.update(zip(keys[k : k + n], zip(*[flat] * c, strict=False), strict=True))
        k += n
        v += c * n
    if len(out) != len(keys):
        raise ValueError("a key occurs twice")
    return out


def _decode(
    path: Path, key: str
) -> (
    tuple[dict[str, tuple[int, ...]], Callable[[], dict[int, tuple[str, ...]]], dict[int, str]]
    | None
):
    """The dicts :func:`_encode` wrote to ``path`` for ``key``, the members as a function
    that decodes them (only teaching UIs ask); ``None`` when the file is missing, made
    for another key or inconsistent."""
    got = read_cache_sections(path, key, 6)
    if got is None:
        return None
    head, parts = got
    try:
        groups = head["groups"]
        if len(groups) != 2:
            return None
        index = _ungroup(_split(parts[0]), int32_list(parts[1]), groups[0])
        label_ids, label_texts = int32_list(parts[4]), _split(parts[5])
        labels = dict(zip(label_ids, label_texts, strict=True))
        sids, names = int32_list(parts[2]), parts[3]
        member_groups = groups[1]
        _check_groups(member_groups, len(sids), names.count(b"\n") + 1 if names else 0)
    except (OSError, ValueError, KeyError, TypeError):
        return None

    def members() -> dict[int, tuple[str, ...]]:
        return _ungroup(sids, _split(names), member_groups)

    return index, members, labels


class WikiRuWordnet(SqliteThesaurus):
    """``wiki-ru-wordnet`` 1.0.3: synsets built from the Russian Wiktionary (CC BY-SA).

    Reads ``wiki_ru_wordnet/database/wikiwordnet.db`` (table ``synsets(synset_id,
    lemma, definition)``: 115,435 rows, 94,037 lemmas) read-only: 0.4–0.7 s and 80–90 MB
    the first time (``dependencies.md`` section 4).  The package is located, never imported.

    Args:
        path: another copy of ``wikiwordnet.db``; by default the installed package's.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        super().__init__(
            path,
            "SELECT synset_id, lemma FROM synsets ORDER BY synset_id",
            "wiki-ru-wordnet",
            WIKI_RU_WORDNET_HINT,
        )

    @property
    def source(self) -> str:
        """E.g. ``"wiki-ru-wordnet 1.0.3 (Russian Wiktionary, CC BY-SA)"``."""
        return _wiki_ru_wordnet_source()

    def path(self) -> Path:
        """The database inside the installed package (or the path given).

        Raises:
            ResourceError: when ``wiki-ru-wordnet`` is not installed.
        """
        if self._path is None:
            base = package_dir("wiki_ru_wordnet")
            if base is None:
                raise ResourceError(
                    "Russian synonyms come from the wiki-ru-wordnet package, which is not "
                    f"installed: {WIKI_RU_WORDNET_HINT}"
                )
            self._path = base / "database" / "wikiwordnet.db"
        return super().path()


@functools.cache
def _wiki_ru_wordnet_source() -> str:
    import importlib.metadata  # about 20 ms, so only when asked

    try:
        version = importlib.metadata.version("wiki-ru-wordnet")
    except importlib.metadata.PackageNotFoundError:
        version = "(not installed)"
    return f"wiki-ru-wordnet {version} (Russian Wiktionary, CC BY-SA)"


class RuWordNetDb(SqliteThesaurus):
    """A RuWordNet SQLite file as written by the ``ruwordnet`` package (``ruwordnet-2021.db``).

    ``ruwordnet`` downloads its database at run time, so it is not a dependency: point
    this class at a file you obtained.  Its schema (``ruwordnet/models.py``) has
    ``sense(id, name, lemma, synset_id)``, uppercase lemmas (``RuWordNet.get_senses``
    matches them uppercased; here folded) and synset ids such as ``"126228-N"``.
    ``source``: the name for records (default ``"RuWordNet (<file name>)"``).
    """

    def __init__(self, path: str | Path, source: str | None = None) -> None:
        super().__init__(
            path,
            "SELECT synset_id, lemma FROM sense ORDER BY synset_id, id",
            source or f"RuWordNet ({Path(path).name})",
            "download a RuWordNet database (e.g. `ruwordnet download`) and pass its path",
        )
