"""Process-wide memos bounded by (estimated) bytes, not by entry count.

The scorer memoises per text (tokens) and per sentence (the matchers' work,
:class:`~meteor.stages.base.Sentence`): references repeat across systems, and the app
rescores the same pair as sliders move.  A bound by entry count says nothing about
memory -- one 5,000-token document weighs as much as 200 ordinary segments -- so
every memo of the process draws on one budget (:data:`MAX_BYTES`, 300 MB by
default).  Sizes are estimates measured on WMT21 ru-en (about 130 bytes per token,
650 bytes per sentence word with paraphrases; ``docs/performance.md``).  When an
entry would take the total over the budget, the oldest entries of the largest memo
are dropped first.  Purely a cache: results never depend on what it holds.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Hashable
from typing import Any

__all__ = ["MAX_BYTES", "ByteBoundedMemo", "total_bytes"]

#: Estimated bytes all memos of the process may hold together.
MAX_BYTES = 300 * 1024 * 1024

_LOCK = threading.Lock()
_MEMOS: weakref.WeakSet[ByteBoundedMemo] = weakref.WeakSet()
#: Bytes stored minus bytes dropped over all memos: never below the true total (a memo
#: that died still counts until the next recount), recounted when over the budget.
_TOTAL = 0


class ByteBoundedMemo:
    """A dict-like memo whose entries carry a size estimate; all memos share :data:`MAX_BYTES`.

    ``get`` takes no lock (a dict read is atomic in CPython); ``put`` and eviction
    take the module lock, so threads (app sessions) may share a memo.
    """

    __slots__ = ("__weakref__", "_data", "_sizes", "nbytes")

    def __init__(self) -> None:
        self._data: dict[Hashable, Any] = {}
        self._sizes: dict[Hashable, int] = {}
        self.nbytes = 0
        with _LOCK:
            _MEMOS.add(self)

    def get(self, key: Hashable) -> Any:
        """The value stored under ``key``, or ``None``."""
        return self._data.get(key)

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Store ``value`` (about ``size`` bytes) under ``key``, evicting the oldest entries
        as needed; a value already stored under ``key`` is replaced.

        An entry larger than the whole budget is not stored.
        """
        global _TOTAL
        if size > MAX_BYTES:
            return
        with _LOCK:
            if key in self._data:  # replaced, as a dict would (keeps its place in line)
                self.nbytes -= self._sizes[key]
                _TOTAL -= self._sizes[key]
            self._data[key] = value
            self._sizes[key] = size
            self.nbytes += size
            _TOTAL += size
            if _TOTAL > MAX_BYTES:  # recount first: memos that died took their bytes
                _TOTAL = sum(m.nbytes for m in _MEMOS)
                while _TOTAL > MAX_BYTES:
                    largest = max(_MEMOS, key=lambda m: m.nbytes)
                    _TOTAL -= largest._evict_oldest()

    def _evict_oldest(self) -> int:
        """Drop the oldest entry (insertion order); returns its size (0 when empty).

        The caller holds the lock and takes the size off :data:`_TOTAL`."""
        if not self._data:
            return 0
        key = next(iter(self._data))
        del self._data[key]
        size = self._sizes.pop(key)
        self.nbytes -= size
        return size

    def discard(self, key: Hashable) -> None:
        """Forget ``key`` if it is stored (a value that will not be asked for again)."""
        global _TOTAL
        with _LOCK:
            if key in self._data:
                del self._data[key]
                size = self._sizes.pop(key)
                self.nbytes -= size
                _TOTAL -= size

    def clear(self) -> None:
        global _TOTAL
        with _LOCK:
            _TOTAL -= self.nbytes
            self._data.clear()
            self._sizes.clear()
            self.nbytes = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def keys(self) -> Any:
        return self._data.keys()

    def values(self) -> Any:
        return self._data.values()


def total_bytes() -> int:
    """Estimated bytes held by every memo of the process."""
    with _LOCK:
        return sum(m.nbytes for m in _MEMOS)
