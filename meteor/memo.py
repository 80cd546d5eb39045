"""The one byte-bounded cache of the project: :class:`ByteBoundedMemo`.

Bounded by (estimated) bytes, not by entry count: one 5,000-token document weighs as
much as 200 ordinary segments.  The scorer's memos share one budget per process,
:data:`MAX_BYTES`, with sizes estimated by the caller (:meth:`ByteBoundedMemo.put`); the
app's cache has its own budget and measures values with :func:`deep_size`.  Purely a
cache: results never depend on what it holds.
"""

from __future__ import annotations

import gc
import sys
import threading
import types
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

__all__ = ["MAX_BYTES", "ByteBoundedMemo", "Sized", "deep_size", "total_bytes"]

T = TypeVar("T")

#: Estimated bytes the memos without a budget of their own may hold together.
MAX_BYTES = 300 * 1024 * 1024

_LOCK = threading.Lock()
#: The memos drawing on :data:`MAX_BYTES` (made without ``max_bytes``).
_MEMOS: weakref.WeakSet[ByteBoundedMemo] = weakref.WeakSet()
#: Bytes stored minus bytes dropped over :data:`_MEMOS`: never below the true total (a
#: memo that died still counts until the next recount), recounted when over the budget.
_TOTAL = 0

#: Objects never counted in a value's size: they are shared by the whole process.
_SHARED_TYPES = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.CodeType,
)


def deep_size(obj: Any, *, shared: tuple[Any, ...] = (), limit: int = 5_000_000) -> int:
    """Bytes held by ``obj`` and everything it references (``gc.get_referents``), each
    object counted once; types, modules, functions and the objects in ``shared`` are not
    counted.  Stops after ``limit`` objects (the size so far is then a lower bound).
    """
    seen = {id(x) for x in shared}
    stack = [obj]
    total = 0
    count = 0
    while stack and count < limit:
        x = stack.pop()
        if id(x) in seen or isinstance(x, _SHARED_TYPES):
            continue
        seen.add(id(x))
        count += 1
        total += sys.getsizeof(x)
        stack.extend(gc.get_referents(x))
    return total


@dataclass(frozen=True)
class Sized(Generic[T]):
    """A value whose size in bytes is already known (measured where it was made, e.g. in
    the app's worker process): :meth:`ByteBoundedMemo.get` does not measure it again."""

    value: T
    nbytes: int


@dataclass
class _Flight:
    """A computation in progress: the other callers wait on ``done``."""

    done: threading.Event = field(default_factory=threading.Event)
    value: Any = None
    error: BaseException | None = None


class ByteBoundedMemo:
    """A memo whose entries carry a size in bytes, least recently stored or used dropped first.

    ``max_bytes=None`` (the scorer's memos): the memo draws on :data:`MAX_BYTES`, shared
    with every other such memo.  An int: a budget of its own (``0`` keeps nothing).
    An entry larger than the whole budget is not kept.

    ``get(key)`` reads without a lock (the scorer's hot path, with :meth:`put`);
    ``get(key, compute)`` computes and stores a missing value (sized by ``sizer``), one
    computation per key at a time.  Thread-safe: writes and eviction take one module lock.
    """

    __slots__ = ("__weakref__", "_data", "_flights", "_sizer", "_sizes", "max_bytes", "nbytes")

    def __init__(
        self, max_bytes: int | None = None, *, sizer: Callable[[Any], int] = deep_size
    ) -> None:
        if max_bytes is not None and max_bytes < 0:
            raise ValueError(f"max_bytes must be >= 0, got {max_bytes}")
        self.max_bytes = max_bytes
        self._sizer = sizer
        self._data: dict[Hashable, Any] = {}  # in order of last store or use
        self._sizes: dict[Hashable, int] = {}
        self._flights: dict[Hashable, _Flight] = {}
        self.nbytes = 0
        if max_bytes is None:
            with _LOCK:
                _MEMOS.add(self)

    @overload
    def get(self, key: Hashable) -> Any: ...

    @overload
    def get(self, key: Hashable, compute: Callable[[], T]) -> T: ...

    def get(self, key: Hashable, compute: Callable[[], Any] | None = None) -> Any:
        """The value stored under ``key``: ``None`` when missing, or, given ``compute``,
        ``compute()``'s value (computed once however many callers ask at the same time)."""
        if compute is None:
            return self._data.get(key)
        with _LOCK:
            if key in self._data:
                value = self._data[key] = self._data.pop(key)  # used: last to go
                return value
            flight = self._flights.get(key)
            owner = flight is None
            if flight is None:
                flight = self._flights[key] = _Flight()
        if not owner:
            flight.done.wait()
            if flight.error is not None:
                raise flight.error
            return flight.value
        try:
            value = compute()
        except BaseException as exc:
            flight.error = exc
            raise
        else:
            flight.value = value
            if self.max_bytes != 0:  # measured only when it may be kept
                size = value.nbytes if isinstance(value, Sized) else self._sizer(value)
                self.put(key, value, size)
            return value
        finally:
            with _LOCK:
                self._flights.pop(key, None)
            flight.done.set()

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Store ``value`` (about ``size`` bytes) under ``key``, replacing any, dropping the
        oldest entries as needed (an entry larger than the whole budget is not stored)."""
        global _TOTAL
        budget = MAX_BYTES if self.max_bytes is None else self.max_bytes
        if size > budget or not budget:
            return
        with _LOCK:
            self._drop(key)  # a value stored before is replaced, as a dict would
            self._data[key] = value
            self._sizes[key] = size
            self.nbytes += size
            if self.max_bytes is not None:
                while self.nbytes > self.max_bytes:
                    self._drop(next(iter(self._data)))
                return
            _TOTAL += size
            if _TOTAL > MAX_BYTES:  # recount first: memos that died took their bytes
                _TOTAL = sum(m.nbytes for m in _MEMOS)
                while _TOTAL > MAX_BYTES:  # the oldest entries of the largest memo go
                    largest = max(_MEMOS, key=lambda m: m.nbytes)
                    largest._drop(next(iter(largest._data)))

    def _drop(self, key: Hashable) -> None:
        """Forget ``key`` if it is stored, its size taken off the totals (lock held)."""
        global _TOTAL
        if key in self._data:
            del self._data[key]
            size = self._sizes.pop(key)
            self.nbytes -= size
            if self.max_bytes is None:
                _TOTAL -= size

    def discard(self, key: Hashable) -> None:
        """Forget ``key`` if it is stored (a value that will not be asked for again)."""
        with _LOCK:
            self._drop(key)

    def clear(self) -> None:
        global _TOTAL
        with _LOCK:
            if self.max_bytes is None:
                _TOTAL -= self.nbytes
            self._data.clear()
            self._sizes.clear()
            self.nbytes = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def keys(self) -> list[Hashable]:
        """The keys stored now, oldest (next to go) first."""
        with _LOCK:
            return list(self._data)


def total_bytes() -> int:
    """Estimated bytes held by the memos drawing on :data:`MAX_BYTES`."""
    with _LOCK:
        return sum(m.nbytes for m in _MEMOS)
