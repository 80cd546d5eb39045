"""WordNet's lemma → synset offsets, in flat buffers that forked workers share untouched.

Meteor 1.5's ``SynonymDictionary`` keeps, per lemma, the union of its synset offsets over
the four parts of speech (``meteor-1.5.md`` section 6).  As a ``dict`` of ``frozenset``
every look-up in a forked worker touches a shared object's reference count and the
kernel copies its page (16 MB per worker on 8,500 WMT segments); here the table is six
buffers, read into new, private objects.  A look-up finds the word's ``zlib.crc32`` by
bisection in the sorted hashes and compares the lemmas' bytes.
"""

from __future__ import annotations

import zlib
from array import array
from bisect import bisect_left
from collections.abc import Collection, Mapping
from itertools import accumulate, chain

import numpy as np

from meteor.runtime import compiled

__all__ = ["LemmaTable"]

#: ``meteor_native._lexicon`` (:meth:`LemmaTable._row` in C), or ``None``.
_NATIVE = compiled("_lexicon")


class LemmaTable:
    """An immutable mapping lemma → ``frozenset`` of synset offsets (what ``dict.get`` gave).

    Only :meth:`get`, ``in`` and ``len`` are offered: what Meteor's look-ups and
    ``SynonymDictionary.morph`` (:func:`meteor.languages.english.meteor_morph`) need.
    """

    __slots__ = ("_blob", "_hashes", "_offsets", "_rows", "_syn", "_syn_off")

    def __init__(self, table: Mapping[str, Collection[int]]) -> None:
        # Rows in the mapping's order (sequential, fast to build); the hashes sorted,
        # each with its row.
        words = [w.encode("utf-8") for w in table]
        hashes = np.fromiter(map(zlib.crc32, words), dtype=np.uint32, count=len(words))
        order = np.argsort(hashes, kind="stable")
        self._hashes = array("I", hashes[order].tobytes())
        self._rows = array("i", order.astype(np.int32).tobytes())
        self._blob = b"".join(words)
        self._offsets = array("I", accumulate(map(len, words), initial=0))
        sets = table.values()
        self._syn_off = array("I", accumulate(map(len, sets), initial=0))
        self._syn = array("i", chain.from_iterable(sets))

    def __len__(self) -> int:
        return len(self._hashes)

    # The buffers in the order :meth:`to_bytes` writes them, with their item types.
    _PARTS = (("_hashes", "I"), ("_rows", "i"), ("_blob", ""), ("_offsets", "I"),
              ("_syn_off", "I"), ("_syn", "i"))  # fmt: skip

    def to_bytes(self) -> list[bytes]:
        """The table's buffers (for a cache file; :meth:`from_bytes` reads them back)."""
        buffers: list[array[int] | bytes] = [getattr(self, name) for name, _ in self._PARTS]
        return [b if isinstance(b, bytes) else b.tobytes() for b in buffers]

    @classmethod
    def from_bytes(cls, parts: list[bytes]) -> LemmaTable:
        """The table whose :meth:`to_bytes` gave ``parts``.

        Raises:
            ValueError: when the parts do not make a table (wrong count or sizes).
        """
        if len(parts) != len(cls._PARTS):
            raise ValueError("a lemma table has six buffers")
        obj = object.__new__(cls)
        for (name, code), data in zip(cls._PARTS, parts, strict=True):
            if code:
                buf = array(code)
                buf.frombytes(data)
                object.__setattr__(obj, name, buf)
            else:
                object.__setattr__(obj, name, bytes(data))
        n = len(obj._hashes)
        if not (
            len(obj._rows) == n
            and len(obj._offsets) == len(obj._syn_off) == n + 1
            and obj._offsets[n] == len(obj._blob)
            and obj._syn_off[n] == len(obj._syn)
            and (n == 0 or (min(obj._rows) >= 0 and max(obj._rows) < n))
        ):
            raise ValueError("the buffers of a lemma table do not agree")
        return obj

    def _row(self, word: str) -> int:
        """The row of ``word``, or -1 (in C when installed: ``lemma_row``)."""
        if _NATIVE is not None:
            return _NATIVE.lemma_row(  # type: ignore[no-any-return]
                self._hashes, self._rows, self._blob, self._offsets, word
            )
        data = word.encode("utf-8", "surrogatepass")
        h = zlib.crc32(data)
        hashes = self._hashes
        k = bisect_left(hashes, h)
        n = len(hashes)
        offsets = self._offsets
        while k < n and hashes[k] == h:
            row = self._rows[k]
            if self._blob[offsets[row] : offsets[row + 1]] == data:
                return row
            k += 1
        return -1

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._row(word) >= 0

    def get(self, word: str, default: frozenset[int] = frozenset()) -> frozenset[int]:
        """The lemma's synset offsets (a new set each call), or ``default``."""
        k = self._row(word)
        if k < 0:
            return default
        return frozenset(self._syn[self._syn_off[k] : self._syn_off[k + 1]])
