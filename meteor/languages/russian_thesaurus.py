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
import threading
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from meteor.errors import ResourceError
from meteor.resources import package_dir
from meteor.rules import fold_yo

__all__ = ["RuWordNetDb", "SqliteThesaurus", "Thesaurus", "WikiRuWordnet"]

WIKI_RU_WORDNET_HINT = "pip install wiki-ru-wordnet==1.0.3"


def _thesaurus_key(lemma: str) -> str:
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

    ``query`` must return ``(synset_id, lemma)`` rows.  Integer identifiers are kept;
    any other identifiers (RuWordNet's ``"126228-N"``) are numbered densely in the
    order the query returns them, so give the query an ``ORDER BY``.  Lemmas are
    indexed lowercased with ``ё`` folded; :meth:`members` returns them lowercased,
    with ``ё`` kept.

    The file is opened with an SQLite ``mode=ro`` URI and closed after loading;
    nothing is ever written.  Loading happens on first use, under a lock.

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
                self._index = self._read()
            return self._index

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
                # Streamed, and stored as small tuples: about half the memory of
                # fetchall() plus dicts of sets (``dependencies.md`` section 4).
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
        return frozenset(self._load().get(_thesaurus_key(lemma), ()))

    def members(self, synset: int) -> frozenset[str]:
        """Lemmas of one synset, lowercased; empty for an unknown identifier."""
        self._load()
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


class WikiRuWordnet(SqliteThesaurus):
    """``wiki-ru-wordnet`` 1.0.3: synsets built from the Russian Wiktionary (CC BY-SA).

    Reads ``wiki_ru_wordnet/database/wikiwordnet.db`` (table ``synsets(synset_id,
    lemma, definition)``: 115,435 rows, 94,037 lemmas, 104,696 synsets) read-only and
    loads two dicts: about 0.4–0.7 s and 80–90 MB the first time
    (``dependencies.md`` section 4).  The package is located, never imported.

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
        self._explicit = path is not None

    @property
    def source(self) -> str:
        """E.g. ``"wiki-ru-wordnet 1.0.3 (Russian Wiktionary, CC BY-SA)"``."""
        return _wiki_ru_wordnet_source()

    def path(self) -> Path:
        """The database inside the installed package (or the path given).

        Raises:
            ResourceError: when ``wiki-ru-wordnet`` is not installed.
        """
        if not self._explicit and self._path is None:
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
    this class at a file you obtained yourself.  Its schema (``ruwordnet/models.py``)
    has ``sense(id, name, lemma, synset_id)`` with uppercase lemmas and string synset
    ids such as ``"126228-N"``; ``RuWordNet.get_senses`` matches ``lemma`` uppercased.
    Here the ``lemma`` column is folded to lowercase without ``ё`` instead.

    Args:
        path: the SQLite file.
        source: the name for records; defaults to ``"RuWordNet (<file name>)"``.
    """

    def __init__(self, path: str | Path, source: str | None = None) -> None:
        super().__init__(
            path,
            "SELECT synset_id, lemma FROM sense ORDER BY synset_id, id",
            source or f"RuWordNet ({Path(path).name})",
            "download a RuWordNet database (e.g. `ruwordnet download`) and pass its path",
        )
