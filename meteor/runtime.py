"""Process-wide switches for scoring runs.

:func:`use_native` is the one switch of the compiled parts (``./native`` and PyStemmer's
C Snowball for English), on unless ``METEOR_PURE_PYTHON`` is, read once per process;
they give the same numbers as the Python code they replace.  :func:`compiled` is how a
module finds its C part.  :func:`check_environment` refuses an unreadable
``METEOR_PURE_PYTHON`` or ``METEOR_MAX_CANDIDATES``.

:func:`gc_paused` turns the cyclic garbage collector off while a corpus is scored:
scoring makes no reference cycles, and collections walking the language resources
took about a quarter of a run (9,832 WMT21 segments, ``meteor-1.5``).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import os
import threading
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType

from meteor.errors import ParamError

__all__ = [
    "Progress",
    "CANDIDATE_LIMIT_ENV",
    "PART_API",
    "PURE_PYTHON_ENV",
    "candidate_limit_env",
    "check_environment",
    "compiled",
    "gc_paused",
    "pure_python",
    "use_native",
]

#: The callback a long run reports to: ``progress(fraction done in [0, 1], message)``.
Progress = Callable[[float, str], None]

#: Set to ``1``/``true``/``yes``/``on`` to run the Python code even where compiled code
#: is installed (``./native`` and the English Snowball stemmer); ``0``/``false``/``no``/
#: ``off`` or unset: compiled code where installed.
PURE_PYTHON_ENV = "METEOR_PURE_PYTHON"
#: Environment variable that replaces the candidate limit (any aligner, any beam).
CANDIDATE_LIMIT_ENV = "METEOR_MAX_CANDIDATES"

_ON = frozenset({"1", "true", "yes", "on"})
_OFF = frozenset({"", "0", "false", "no", "off"})


def _flag(name: str) -> bool | None:
    """A yes/no environment variable: ``True``, ``False``, or ``None`` when unreadable."""
    value = os.environ.get(name, "").strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    return None


def pure_python() -> bool:
    """``METEOR_PURE_PYTHON`` is on (``1``, ``true``, ``yes``, ``on``, any case; an
    unreadable value counts as off here and is refused by :func:`check_environment`)."""
    return _flag(PURE_PYTHON_ENV) is True


def candidate_limit_env() -> int | None:
    """``METEOR_MAX_CANDIDATES`` as a positive whole number, or ``None`` when unset.

    Raises:
        ParamError: a value that is not a positive whole number (``_`` and ``,``
            group digits: ``1_000_000``).
    """
    env = os.environ.get(CANDIDATE_LIMIT_ENV, "").strip()
    if not env:
        return None
    try:
        value = int(env.replace("_", "").replace(",", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise ParamError(
            f"the environment variable {CANDIDATE_LIMIT_ENV} must be a positive whole number "
            f"of candidate matches, got {env!r}; unset it for the aligner's own limit"
        )
    return value


def check_environment() -> None:
    """Refuse an environment variable of the scorer that cannot be read, naming it.

    Raises:
        ParamError: ``METEOR_PURE_PYTHON`` not one of 1/true/yes/on or 0/false/no/off
            (or empty), or ``METEOR_MAX_CANDIDATES`` not a positive whole number.
    """
    if _flag(PURE_PYTHON_ENV) is None:
        raise ParamError(
            f"the environment variable {PURE_PYTHON_ENV} must be 1/true/yes/on or "
            f"0/false/no/off, got {os.environ.get(PURE_PYTHON_ENV, '')!r}"
        )
    candidate_limit_env()


@functools.cache
def use_native() -> bool:
    """The one switch of the compiled parts: ``False`` when :func:`pure_python` is on
    (read once per process, so the parts are on or off together)."""
    return not pure_python()


#: The version of each C part's functions the Python code calls; a part's ``API``
#: constant says which it has (1 when it has none).  A part built before the version
#: asked here (a stale ``pip install ./native``) counts as not installed, with a warning.
PART_API: dict[str, int] = {
    "_beam": 2,  # pair_stats
    "_greedy": 2,  # nltk_pair
    "_kendall": 2,  # swap_counts, spearman_sums
    "_normalize": 2,  # every line (runs of dots too)
    "_phrases": 2,  # phrases_block
    "_tokens": 2,  # line_tokens takes the text (dropped dots)
}


def compiled(part: str) -> ModuleType | None:
    """The C part ``meteor_native.<part>`` (``pip install ./native``), or ``None`` when it
    is not installed, :func:`use_native` is off or the part is older than
    :data:`PART_API` asks: then the caller runs its Python code, which gives the same
    results."""
    if not use_native():
        return None
    try:
        module = importlib.import_module(f"meteor_native.{part}")
    except ImportError:
        return None
    built, needed = getattr(module, "API", 1), PART_API.get(part, 1)
    if built < needed:
        _warn_stale(part, built, needed)
        return None
    return module


@functools.cache
def _warn_stale(part: str, built: int, needed: int) -> None:
    """Says once per process and part that a stale build runs the (slower) Python code."""
    warnings.warn(
        f"meteor_native.{part} was built for older code (API {built}, this code needs "
        f"{needed}): the Python code runs instead (same numbers, slower); rebuild it with "
        "pip install ./native",
        RuntimeWarning,
        stacklevel=3,
    )


_GC_LOCK = threading.Lock()
_GC_PAUSES = 0


@contextlib.contextmanager
def gc_paused(*, worker: bool = False) -> Iterator[None]:
    """No cyclic garbage collection during a scoring run (module docstring).

    Paused only when this process runs one thread, since the switch is process-wide, or
    ``worker`` says every thread of the process scores, and only when it was on;
    re-enabled when the last paused run ends.
    """
    global _GC_PAUSES
    with _GC_LOCK:
        alone = worker or threading.active_count() == 1
        pause = alone and (_GC_PAUSES > 0 or gc.isenabled())
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
