"""The jar's Snowball stemmers, reproduced: ``snowballstemmer`` classes with what Snowball
changed since about 2010 undone around them, and the Arabic lookup table.

The stems were compared word by word with the jar on 32,000-78,000 words per language
(``docs/languages.md``): the plain classes agree for da, es, it, nl, no, ro, sv and tr; for
de, fi, fr, hu and pt they agree once the later changes are undone (:func:`_german`,
:func:`_finnish`, :func:`_french`, :func:`_hungarian`, :func:`_portuguese`).
Reduced-Buckwalter Arabic uses the jar's lookup table (:func:`_lookup_table`).
:func:`jar_stemmer` is the entry point; :mod:`meteor.languages.snowball` uses it.
"""

from __future__ import annotations

import functools
import re
import threading
from array import array
from bisect import bisect_left
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any

from meteor.errors import ResourceError
from meteor.resources import cache_sections, read_cache_sections, write_cache_file
from meteor.rules import java_hash
from meteor.runtime import gc_paused

__all__ = ["TABLE_PREFIX", "jar_stemmer"]

SNOWBALL_HINT = "pip install snowballstemmer==2.2.0"
STEM_CACHE_SIZE = 1 << 18


# Each adapter runs a snowballstemmer 2.2.0 class and undoes, around it, the rules
# Snowball changed after the jar's version (the checks: docs/languages.md).


def _plain(cls: Any) -> Callable[[str], str]:
    stemmer = cls()
    return stemmer.stemWord  # type: ignore[no-any-return]


#: German: newer Snowball deletes the ``s`` of ``-niss`` after removing ``e``/``en``/``es``
#: (``ergebnisse`` → ``ergebnis``); the jar keeps it (``ergebniss``).  A private-use
#: stand-in for that ``s`` (a non-vowel, as ``s`` is) keeps the rule from firing.
_NISS = re.compile(r"niss(e|en|es)$")
_NISS_S = "\ue010"


def _german(cls: Any) -> Callable[[str], str]:
    stem = _plain(cls)

    def run(word: str) -> str:
        m = _NISS.search(word)
        if m is None:
            return stem(word)
        hidden = word[: m.start()] + "nis" + _NISS_S + m.group(1)
        return stem(hidden).replace(_NISS_S, "s")

    return run


#: Hungarian: the jar's generated Java has ``õ``/``û`` (U+00F5/U+00FB, the Latin-1 bytes of
#: Latin-2 ``ő``/``ű``) where Snowball now has ``ő``/``ű``: it treats ``õ``/``û`` as the
#: long vowels and ``ő``/``ű`` as consonants.  Swapping the pairs around the current
#: stemmer reproduces that (``őket`` stays ``őket``).
_HU_SWAP = str.maketrans("őűŐŰõûÕÛ", "õûÕÛőűŐŰ")


def _hungarian(cls: Any) -> Callable[[str], str]:
    stem = _plain(cls)
    return lambda word: stem(word.translate(_HU_SWAP)).translate(_HU_SWAP)


#: Portuguese: newer Snowball removes ``-ução``/``-uções`` (``revolução`` → ``revolu``);
#: the jar's table has the Spanish spelling ``-ución``/``-uciones`` there, so it keeps
#: ``revoluçã`` and reduces ``revolución`` to ``revolu``.  Hiding the ``ç`` of the one
#: and spelling the other the current way reproduces the jar.
_UCAO = re.compile(r"uç(ão|ões)$")
_UCAO_C = "\ue011"


_UCION = re.compile(r"uci(ón|ones)$")
_UCION_AS_UCAO = {"ón": "ção", "ones": "ções"}


def _portuguese(cls: Any) -> Callable[[str], str]:
    stem = _plain(cls)

    def run(word: str) -> str:
        m = _UCAO.search(word)
        if m is not None:
            return stem(word[: m.start()] + "u" + _UCAO_C + m.group(1)).replace(_UCAO_C, "ç")
        m = _UCION.search(word)
        if m is not None:
            # the jar's rule: -ución/-uciones in R2 becomes -u, as -ução does now
            base = word[: m.start()]
            out = stem(base + "u" + _UCION_AS_UCAO[m.group(1)])
            if out == base + "u":
                return out
        return stem(word)

    return run


_FR_VOWELS = frozenset("aeiouyâàëéêèïîôûù")


def _french(cls: Any) -> Callable[[str], str]:
    """French as the jar has it: ``ë``/``ï`` are plain vowels, ``H`` is a plain letter.

    Newer Snowball rewrites ``ë``/``ï`` as ``He``/``Hi`` in its prelude and deletes every
    ``H`` in its postlude (so ``Homme`` → ``omm``); the jar does neither.  This subclass
    replaces the prelude and postlude with the older ones: mark ``u``/``i`` between
    vowels, ``y`` next to a vowel and ``u`` after ``q`` as capitals, and lowercase them
    after; plus the older residual rule "``ë`` after ``gu`` in RV is deleted"
    (``ambiguë`` → ``ambigu``, but ``aiguë`` whose ``g`` is before RV stays).
    """

    class OldFrench(cls):  # type: ignore[misc, valid-type]
        current: str
        cursor: int
        limit: int
        I_pV: int  # noqa: N815 (snowballstemmer's name)

        def _FrenchStemmer__r_prelude(self) -> bool:  # noqa: N802 (overrides the mangled name)
            s = list(self.current)
            n = len(s)
            for i, c in enumerate(s):
                prev = s[i - 1] if i > 0 else ""
                nxt = s[i + 1] if i + 1 < n else ""
                if prev and prev in _FR_VOWELS and c in "ui" and nxt and nxt in _FR_VOWELS:
                    s[i] = c.upper()
                elif prev and prev in _FR_VOWELS and c == "y":
                    s[i] = "Y"
                elif c == "y" and nxt and nxt in _FR_VOWELS:
                    s[i] = "Y"
                elif c == "u" and prev == "q":
                    s[i] = "U"
            self.current = "".join(s)
            self.cursor = 0
            self.limit = len(self.current)
            return True

        def _FrenchStemmer__r_postlude(self) -> bool:  # noqa: N802
            cur = self.current
            if cur.endswith("guë") and len(cur) - 3 >= self.I_pV:  # "gu" inside RV too
                cur = cur[:-1]
            self.current = cur.translate(_FR_POSTLUDE)
            self.cursor = 0
            self.limit = len(self.current)
            return True

    return _plain(OldFrench)


_FR_POSTLUDE = str.maketrans("IUY", "iuy")


def _finnish(cls: Any) -> Callable[[str], str]:
    """Finnish as the jar runs it: the conditions inside the case-ending table never hold.

    In the old Snowball Java runtime an ``among`` entry with a condition routine
    (``'den' VI``, ``'tten' VI``, ``'siin' VI``, ``'seen' LONG``) calls that routine on
    a separate, empty stemmer object, so the condition always fails and the shorter
    entry (``'n'``) applies instead: ``asioiden`` → ``asioid`` in the jar, ``asio`` in
    current Snowball.  The subclass hands ``find_among_b`` a copy of that table whose
    conditions always fail.  And the jar's consonant class ``C`` is "not a vowel", where
    Snowball now lists ``b``-``z``: ``maría`` → ``marí`` in the jar.  Everything else is the
    current code.
    """
    from snowballstemmer.among import Among

    table = cls.a_6
    jar_table = [
        Among(a.s, a.substring_i, a.result, "_jar_condition" if a.method else None) for a in table
    ]

    consonants, vowels = cls.g_C, cls.g_V1

    class OldFinnish(cls):  # type: ignore[misc, valid-type]
        def _jar_condition(self) -> bool:
            return False

        def find_among_b(self, v: Any) -> int:
            return super().find_among_b(jar_table if v is table else v)  # type: ignore[no-any-return]

        def in_grouping_b(self, s: Any, lo: int, hi: int) -> bool:
            if s is consonants:  # the jar's C is "not a vowel": í, é, ž ... count
                return super().out_grouping_b(vowels, 97, 246)  # type: ignore[no-any-return]
            return super().in_grouping_b(s, lo, hi)  # type: ignore[no-any-return]

    return _plain(OldFinnish)


#: Snowball algorithm → its adapter (the others run the plain class).
_ADAPTERS: dict[str, Callable[[Any], Callable[[str], str]]] = {
    "german": _german,
    "hungarian": _hungarian,
    "portuguese": _portuguese,
    "french": _french,
    "finnish": _finnish,
}

_STEM_LOCK = threading.Lock()
#: ``algorithm`` prefix of a lookup-table stemmer read from the jar (``LookupTableStemmer``).
TABLE_PREFIX = "table:"


def _lookup_table(member: str) -> Callable[[str], str]:
    """Meteor 1.5 ``LookupTableStemmer``: a gzip member of the jar, ``word count stem`` lines.

    Reproduces its quirks: the table is keyed by the word's Java ``String.hashCode``
    (a later line with the same hash wins, and a word whose hash collides with a
    listed one gets that word's stem); a word not in the table is its own stem.

    The table (Arabic: 590,000 lines, a second to parse) is kept in the cache folder as
    a :class:`StemTable`.
    """
    import zipfile

    from meteor.resources import cache_dir, jar_path

    try:
        with zipfile.ZipFile(jar_path()) as zf:
            info = zf.getinfo(member)
            key = ["jar-stem-table", 1, member, info.CRC, info.file_size]
            path = cache_dir() / f"jar-stem-{member.replace('/', '-')}.bin"
            table = StemTable.read(path, key)
            if table is None:
                with gc_paused():  # 1.8 million new objects, no cycles among them
                    table = StemTable.from_rows(_table_rows(zf.read(member)))
                write_cache_file(path, table.to_bytes(key))
    except KeyError as exc:
        raise ResourceError(f"{member} is not in {jar_path().name}") from exc
    return table.stem


class StemTable:
    """A lookup-table stemmer's table: Java hashes (sorted, distinct) and their stems, as
    the cache file holds them (:func:`meteor.resources.cache_sections`).

    ``stem(word)`` is the stem of the row whose hash equals the word's (binary search),
    else the word itself: ``Hashtable.get(word.hashCode())`` of the jar.
    """

    __slots__ = ("_blob", "_hashes", "_offsets")

    def __init__(self, hashes: array[int], offsets: array[int], blob: bytes) -> None:
        if len(offsets) != len(hashes) + 1:
            raise ValueError("a stem table needs one offset more than hashes")
        self._hashes, self._offsets, self._blob = hashes, offsets, blob

    @classmethod
    def from_rows(cls, rows: list[tuple[int, str]]) -> StemTable:
        """``(hash, stem)`` rows in file order; a later row with the same hash wins."""
        last = dict(rows)
        hashes = array("i", sorted(last))
        encoded = [last[h].encode("utf-8") for h in hashes]
        return cls(hashes, array("i", accumulate(map(len, encoded), initial=0)), b"".join(encoded))

    def to_bytes(self, key: Any) -> bytes:
        return cache_sections(key, [self._hashes.tobytes(), self._offsets.tobytes(), self._blob])

    @classmethod
    def read(cls, path: Path, key: Any) -> StemTable | None:
        """The table cached at ``path`` for ``key``; ``None`` when missing, stale or damaged."""
        got = read_cache_sections(path, key, 3)
        if got is None:
            return None
        hashes, offsets = array("i"), array("i")
        try:
            hashes.frombytes(got[1][0])
            offsets.frombytes(got[1][1])
            table = cls(hashes, offsets, got[1][2])
        except ValueError:
            return None
        if offsets[-1] != len(table._blob):
            return None
        return table

    def __len__(self) -> int:
        return len(self._hashes)

    def stem(self, word: str) -> str:
        h = java_hash(word)
        i = bisect_left(self._hashes, h)
        if i == len(self._hashes) or self._hashes[i] != h:
            return word
        return self._blob[self._offsets[i] : self._offsets[i + 1]].decode("utf-8")


def _table_rows(gz: bytes) -> list[tuple[int, str]]:
    """``(String.hashCode of the word, stem)`` of each line of a gzip'd lookup table."""
    import gzip

    raw = gzip.decompress(gz)
    # BufferedReader.readLine ends a line at \n, \r or \r\n (not at \x0b, \x85, U+2028 ...);
    # StringTokenizer splits on " \t\n\r\f"; the first three tokens are word, count, stem
    # (many lines list more "count stem" pairs, which the jar ignores).
    text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    rows = _FIRST_THREE.findall(text)
    # in file order: a later row with the same hash wins, as Hashtable.put does
    return list(zip(_java_hashes([r[0] for r in rows]), [r[2] for r in rows], strict=True))


_TOK = r"([^ \t\n\r\f]+)"
_FIRST_THREE = re.compile(rf"^[ \t\f]*{_TOK}[ \t\f]+{_TOK}[ \t\f]+{_TOK}", re.MULTILINE)


def _java_hashes(words: list[str]) -> list[int]:
    """``String.hashCode`` of many words at once (numpy; equal to :func:`java_hash` each)."""
    import numpy as np

    codes = np.frombuffer("".join(words).encode("utf-16-le"), dtype="<u2")
    if len(codes) == sum(map(len, words)):  # no surrogate pairs: a character is a code unit
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    else:
        lengths = np.array([len(w.encode("utf-16-le")) // 2 for w in words], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    out = np.zeros(len(words), dtype=np.int32)
    for n in np.unique(lengths).tolist():
        idx = np.nonzero(lengths == n)[0]
        h = np.zeros(len(idx), dtype=np.uint32)
        for k in range(n):
            h = h * np.uint32(31) + codes[starts[idx] + k].astype(np.uint32)  # wraps mod 2**32
        out[idx] = h.view(np.int32)
    return out.tolist()  # type: ignore[no-any-return]


_LOAD_LOCK = threading.Lock()
_LOADED: dict[str, Callable[[str], str]] = {}


def _build_stemmer(algorithm: str) -> Callable[[str], str]:
    import importlib

    if algorithm.startswith(TABLE_PREFIX):
        return _lookup_table(algorithm[len(TABLE_PREFIX) :])

    try:
        module = importlib.import_module(f"snowballstemmer.{algorithm}_stemmer")
    except ImportError as exc:
        raise ResourceError(
            f"the {algorithm} Snowball stemmer comes from snowballstemmer: {SNOWBALL_HINT}"
        ) from exc
    # The class itself, never snowballstemmer.stemmer(): that hands off to PyStemmer 3.x.
    cls = getattr(module, algorithm.capitalize() + "Stemmer")
    return _ADAPTERS.get(algorithm, _plain)(cls)


def jar_stemmer(algorithm: str) -> Callable[[str], str]:
    """The stem function that reproduces the jar's ``org.tartarus.snowball.ext.<algorithm>Stemmer``.

    Case-sensitive, as the jar's (it stems what the tokeniser gives it).  Thread-safe
    and memoised; built once per process (concurrent first calls wait for one build).

    Raises:
        ResourceError: when snowballstemmer is not installed.
    """
    stem = _LOADED.get(algorithm)
    if stem is None:
        with _LOAD_LOCK:
            stem = _LOADED.get(algorithm)
            if stem is None:
                stem = _LOADED[algorithm] = _memoised(_build_stemmer(algorithm))
    return stem


def _memoised(stem: Callable[[str], str]) -> Callable[[str], str]:
    @functools.lru_cache(maxsize=STEM_CACHE_SIZE)
    def cached(word: str) -> str:
        # The pure-Python stemmers keep their working string on the instance.
        with _STEM_LOCK:
            return stem(word)

    return cached
