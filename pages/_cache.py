"""Process-wide caches of the app, shared by every session and bounded in bytes (not a page).

Streamlit's ``st.cache_data`` pickles a value when it is stored and unpickles a new
copy for every session on every hit: a 7,000-character pair's analysis is about
3 MB pickled and took 1.4 s to pickle, and with ``max_entries=256`` the cache grew
to 2.2 GB (issue 13).  The pages only read these values -- frozen dataclasses and
tuples made by :mod:`meteor` -- so one object can be shared by every session:

* :class:`ByteCache`: an LRU cache of immutable values whose bound is the sum of
  their sizes in bytes (:func:`deep_size`, measured once when a value is stored),
  not their number.  Values larger than the whole budget are returned and not kept.
  Concurrent callers asking for the same key wait for one computation
  ("single flight") instead of each computing it.
* :data:`APP_CACHE`: the one budget all app caches share, ``METEOR_APP_CACHE_MB``
  megabytes (default 256, at most 300 in the issue's terms; ``0`` turns caching off).
* :func:`load_once`: a one-time, process-wide job (loading a setting's resources)
  that several sessions may ask for at the same time: the first runs it, the others
  wait for it and see its progress.

Nothing here imports streamlit: it is plain Python, tested in tests/app/test_app_cache.py.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

__all__ = [
    "APP_CACHE",
    "APP_CACHE_ENV",
    "ByteCache",
    "LoadJob",
    "Sized",
    "deep_size",
    "load_once",
]

T = TypeVar("T")

APP_CACHE_ENV = "METEOR_APP_CACHE_MB"
DEFAULT_APP_CACHE_MB = 256

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
    """Bytes held by ``obj`` and everything it references, each object counted once.

    Follows ``gc.get_referents`` (what the garbage collector sees), so it counts
    tuples, dataclass instances and their ``__dict__``, strings and numbers.  Types,
    modules and functions are shared by the process and not counted, nor are the
    objects in ``shared`` (e.g. the ``Params`` a scorer holds).  Stops after
    ``limit`` objects (the size so far is then a lower bound).
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
    """A value whose size in bytes is already known (measured where it was made).

    :class:`ByteCache` keeps such a value with this size instead of measuring it
    again: a long pair's records scored in a worker process (pages/_offload.py) are
    measured there, off the server's interpreter.
    """

    value: T
    nbytes: int


@dataclass
class _Flight:
    """A computation in progress: the others wait on ``done``."""

    done: threading.Event = field(default_factory=threading.Event)
    value: Any = None
    error: BaseException | None = None


class ByteCache:
    """LRU cache of immutable values, bounded by the sum of their sizes in bytes.

    Thread-safe; one computation per key at a time (callers asking for a key that
    is being computed wait for it, and share its value or its exception).
    """

    def __init__(self, max_bytes: int, *, sizer: Callable[[Any], int] = deep_size) -> None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be >= 0, got {max_bytes}")
        self.max_bytes = max_bytes
        self._sizer = sizer
        self._lock = threading.Lock()
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._flights: dict[Hashable, _Flight] = {}
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def keys(self) -> list[Hashable]:
        """The keys kept now, least recently used first."""
        with self._lock:
            return list(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The cached value of ``key``, computing it with ``compute()`` once if missing."""
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return item[0]  # type: ignore[no-any-return]
            flight = self._flights.get(key)
            owner = flight is None
            if flight is None:
                flight = self._flights[key] = _Flight()
                self.misses += 1
        if not owner:
            flight.done.wait()
            if flight.error is not None:
                raise flight.error
            return flight.value  # type: ignore[no-any-return]
        try:
            value = compute()
        except BaseException as exc:
            flight.error = exc
            raise
        else:
            flight.value = value
            self._store(key, value)
            return value
        finally:
            with self._lock:
                self._flights.pop(key, None)
            flight.done.set()

    def _store(self, key: Hashable, value: Any) -> None:
        if not self.max_bytes:
            size = 0
        elif isinstance(value, Sized):
            size = value.nbytes
        else:
            size = self._sizer(value)
        if not self.max_bytes or size > self.max_bytes:
            return  # larger than the whole budget: used once, not kept
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._items[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes and self._items:
                _, (_, dropped) = self._items.popitem(last=False)
                self.bytes -= dropped


def _budget_from_env() -> int:
    raw = os.environ.get(APP_CACHE_ENV, "").strip()
    if not raw:
        return DEFAULT_APP_CACHE_MB * 1024 * 1024
    try:
        mb = float(raw)
    except ValueError:
        mb = -1.0
    if not mb >= 0:  # also NaN
        print(
            f"{APP_CACHE_ENV}={raw!r} is not a number of megabytes >= 0; "
            f"using {DEFAULT_APP_CACHE_MB}",
            file=sys.stderr,
        )
        return DEFAULT_APP_CACHE_MB * 1024 * 1024
    return int(mb * 1024 * 1024)


#: The app's one cache budget (analyses, near misses, stage steps), shared by all sessions.
APP_CACHE = ByteCache(_budget_from_env())


# ---------------------------------------------------------------------------
# one-time loading, shared by the sessions that ask at the same time
# ---------------------------------------------------------------------------


@dataclass
class LoadJob:
    """A one-time job's state: its last progress report, and whether it has ended."""

    fraction: float = 0.0
    message: str = ""
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def report(self, fraction: float, message: str) -> None:
        self.fraction = min(max(fraction, 0.0), 1.0)
        self.message = message


_JOBS: dict[Hashable, LoadJob] = {}
_JOBS_LOCK = threading.Lock()


def load_once(
    key: Hashable,
    job: Callable[[Callable[[float, str], None]], None],
    show: Callable[[float, str], None] | None = None,
    *,
    poll: float = 0.2,
) -> None:
    """Run ``job(report)`` once per process for ``key``; concurrent callers wait for it.

    The caller that starts the job passes its reports to ``show`` as they come;
    callers that find it running call ``show`` with its latest report every
    ``poll`` seconds until it ends.  A job that failed is forgotten (the next
    caller tries again) and its exception is raised in every waiting caller.

    ``show`` may raise (Streamlit stops a session's script at its next call when
    the user reruns or leaves): the job still runs to its end -- other sessions
    may be waiting for it -- and the exception is raised afterwards in the caller
    whose ``show`` raised it, never in the others.
    """
    for _ in range(3):  # a job cut short by its own caller's stop is started again
        with _JOBS_LOCK:
            state = _JOBS.get(key)
            owner = state is None
            if state is None:
                state = _JOBS[key] = LoadJob()
        if state.done.is_set() and state.error is None:
            return
        if owner:
            _run_job(key, state, job, show)
            return
        stopped: BaseException | None = None
        while not state.done.wait(poll):
            if show is not None and stopped is None:
                try:
                    show(state.fraction, state.message)
                except BaseException as exc:  # the caller's own stop: wait, then raise it
                    stopped = exc
        if stopped is not None:
            raise stopped
        if state.error is None:
            return
        if isinstance(state.error, Exception):
            raise state.error
    raise RuntimeError(f"loading {key!r} was interrupted three times")


def _run_job(
    key: Hashable,
    state: LoadJob,
    job: Callable[[Callable[[float, str], None]], None],
    show: Callable[[float, str], None] | None,
) -> None:
    stopped: BaseException | None = None

    def report(fraction: float, message: str) -> None:
        nonlocal stopped
        state.report(fraction, message)
        if show is not None and stopped is None:
            try:
                show(state.fraction, message)
            except BaseException as exc:  # see load_once: finish the job, raise later
                stopped = exc

    try:
        job(report)
    except BaseException as exc:
        state.error = exc
        with _JOBS_LOCK:
            _JOBS.pop(key, None)
        raise
    finally:
        state.done.set()
    if stopped is not None:
        raise stopped
