"""Process-wide switches for scoring runs.

:func:`pure_python` says whether the compiled parts (``./native``: the beam search,
synonym pairs, paraphrase look-up, normaliser, token records and nltk's greedy
alignment; PyStemmer's C Snowball for English) are switched off by ``METEOR_PURE_PYTHON=1``: they give the same numbers as
the Python code they replace, and CI runs the parity suites both ways.  :func:`compiled`
is how a module finds its C part.

:func:`gc_paused` turns Python's cyclic garbage collector off while a corpus is
scored, in processes that run one thread.  Measured on 9,832 WMT21 segments
(``meteor-1.5``, one process): collections took about a quarter of the run time,
walking the language resources and the records made so far again and again, and
found nothing: scoring makes no reference cycles, so everything it drops is freed
by reference counting at once.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import threading
from collections.abc import Iterator
from types import ModuleType

__all__ = ["PURE_PYTHON_ENV", "compiled", "gc_paused", "pure_python"]

#: Set (to anything but ``0``) to run the Python code even where compiled code is
#: installed: the beam search (``./native``) and the English Snowball stemmer.
PURE_PYTHON_ENV = "METEOR_PURE_PYTHON"


def pure_python() -> bool:
    """``METEOR_PURE_PYTHON`` is set to something other than ``0`` (or empty)."""
    return os.environ.get(PURE_PYTHON_ENV, "0").strip() not in ("", "0")


def compiled(part: str) -> ModuleType | None:
    """The C part ``meteor_native.<part>`` (``pip install ./native``), or ``None`` when it
    is not installed or :func:`pure_python` is on: then the caller runs its Python code,
    which gives the same results."""
    if pure_python():
        return None
    try:
        return importlib.import_module(f"meteor_native.{part}")
    except ImportError:
        return None


_GC_LOCK = threading.Lock()
_GC_PAUSES = 0


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection during a scoring run in a single-threaded process.

    Scoring makes no reference cycles (every object it drops is freed by reference
    counting at once), but it allocates millions of short-lived objects, and each
    allocation burst starts a collection that walks the live containers -- the
    language resources and the records made so far included: a quarter of the run
    time.  Paused only when this process runs one thread (a worker process, the
    CLI, a script), since the switch is process-wide, and only when it was on;
    re-enabled when the last paused run ends.
    """
    global _GC_PAUSES
    with _GC_LOCK:
        pause = threading.active_count() == 1 and (_GC_PAUSES > 0 or gc.isenabled())
        if pause:
            _GC_PAUSES += 1
            gc.disable()
    try:
        yield
    finally:
        if pause:
            with _GC_LOCK:
                _GC_PAUSES -= 1
                if _GC_PAUSES == 0:
                    gc.enable()
