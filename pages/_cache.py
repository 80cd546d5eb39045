"""Process-wide caches of the app, shared by every session and bounded in bytes (not a page).

``st.cache_data`` unpickles a new copy per session on every hit (a long pair's analysis:
3 MB pickled, 1.4 s); the pages only read these frozen records, so one object serves all:

* :data:`APP_CACHE`: a :class:`meteor.memo.ByteBoundedMemo` (single flight per key) for
  analyses, near misses, figures and stage steps: ``METEOR_APP_CACHE_MB`` megabytes
  (default 256; ``0`` turns it off);
* :func:`load_once`: a one-time job (loading a setting's resources) several sessions may
  ask for at once: the first runs it, the others wait and see its progress.

Plain Python, no streamlit: tests/app/test_app_cache.py.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from meteor.memo import ByteBoundedMemo

APP_CACHE_ENV = "METEOR_APP_CACHE_MB"
DEFAULT_APP_CACHE_MB = 256


def env_number(
    name: str, default: float, parse: Callable[[str], float], ok: Callable[[float], bool], what: str
) -> float:
    """The environment variable ``name`` read by ``parse``; ``default`` when it is unset, and
    (said on stderr) when it cannot be parsed or is not ``ok`` (``what`` it must be)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = parse(raw)
    except ValueError:
        value = None
    if value is None or not ok(value):
        print(f"{name}={raw!r} is not {what}; using {default}", file=sys.stderr)
        return default
    return value


def _budget_from_env() -> int:
    mb = env_number(
        APP_CACHE_ENV, DEFAULT_APP_CACHE_MB, float, lambda x: x >= 0, "a number of megabytes >= 0"
    )  # NaN is not >= 0: the default
    return int(mb * 1024 * 1024)


#: The app's one cache budget (analyses, near misses, stage steps), shared by all sessions.
APP_CACHE = ByteBoundedMemo(_budget_from_env())


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
    """Run ``job(report)`` once per process for ``key``; concurrent callers wait for it,
    shown its latest report every ``poll`` seconds.  A failed job is forgotten (the next
    caller tries again) and its exception raised in every waiting caller.

    ``show`` may raise (Streamlit stops a script at its next call when the user reruns or
    leaves): the job still runs to its end -- other sessions may wait for it -- and the
    exception is raised afterwards in that caller only.
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
