"""Long pairs are scored in a worker process, off the server's interpreter (not a page).

Sessions are threads of one server process sharing one GIL; a 7,000-character pair costs
about 2 s of CPU, during which the other sessions and the health endpoint wait.  So a pair
of more than :data:`LONG_WORDS` words is scored, with its explanation, in a worker
(:class:`Offloader`: ``METEOR_APP_WORKERS`` processes, default 1, ``spawn``-ed at a lower
CPU priority), which sends back the records the server would make (:func:`analyse_here`,
:func:`meteor.explain`) through the batch core (:func:`meteor.batch.score_segments`).
``METEOR_APP_WORKERS=0`` scores in the server; a dead worker is replaced, the pair scored
in the server meanwhile.  Plain Python, no streamlit: tests/app/test_offload.py.
"""

from __future__ import annotations

import functools
import gc
import json
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from meteor import batch
from meteor.analysis import compare_settings
from meteor.analysis.explain.record import Explanation, explain
from meteor.errors import ParamError
from meteor.memo import Sized, deep_size
from meteor.metric import Meteor
from meteor.params import Params
from meteor.scoring import Breakdown
from meteor.types import MeteorResult
from pages._cache import env_number

T = TypeVar("T")

WORKERS_ENV = "METEOR_APP_WORKERS"
DEFAULT_WORKERS = 1
#: Pairs with more words than this (hypothesis + longest reference) go to the worker; a
#: typical pair takes ~20 ms in the server, less than a round trip to another process.
LONG_WORDS = 300
#: The worker's CPU priority, relative to the server's (``os.nice``).
WORKER_NICENESS = 10


@dataclass(frozen=True)
class Analysis:
    """A pair scored under one setting: the record, its breakdown and sensitivity curves."""

    result: MeteorResult
    params: Params
    breakdown: Breakdown
    curves: tuple[compare_settings.Curve, ...]


def make_scorer(preset: str, overrides: str) -> Meteor:
    """``Meteor(preset, **overrides)`` from the pages' JSON overrides; ParamError names a field."""
    over = json.loads(overrides)
    if "modules" in over and not over["modules"]:
        raise ParamError("modules must name at least one stage (e.g. exact)")
    doc = over.pop("preset_file", None)  # an uploaded preset file: its signature names it
    if doc is not None:
        return Meteor(preset_file=str(doc).encode("utf-8"), **over)
    return Meteor(preset, **over)


def pair_record(m: Meteor, hyp: str, refs: tuple[str, ...]) -> MeteorResult:
    """The pair's record (with candidates) from the batch core, as a corpus run makes it;
    an error is the scorer's own, naming no segment.  The pair's texts stay in the memos
    (its explanation scores it again)."""
    (r,) = batch.score_segments(m, [hyp], [list(refs)], name_errors=False, forget=False)
    return r


def analyse_here(m: Meteor, hyp: str, refs: tuple[str, ...]) -> Analysis:
    """Score the pair with ``m`` in this process: the record, breakdown and curves."""
    r = pair_record(m, hyp, refs)
    return Analysis(
        result=r,
        params=m.params,
        breakdown=m.breakdown(r),
        curves=compare_settings.sensitivity(r.stats, m.params),
    )


def pair_words(hyp: str, refs: tuple[str, ...]) -> int:
    """Words of the hypothesis plus its longest reference (whitespace-separated)."""
    return len(hyp.split()) + max((len(r.split()) for r in refs), default=0)


def is_long(hyp: str, refs: tuple[str, ...]) -> bool:
    """Whether the pair is scored in the worker (when there is one)."""
    return pair_words(hyp, refs) > LONG_WORDS


# -- in the worker process -------------------------------------------------------------


def _worker_init(server_pid: int) -> None:
    """Lower the worker's CPU priority, and end it when the server process is gone (a killed
    server cannot stop its pool; ``PR_SET_PDEATHSIG`` fires when the *thread* that started
    the worker ends): a daemon thread checks every second that its parent is the server."""
    global _IN_WORKER
    _IN_WORKER = True
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not permitted here: same priority, still off the server's GIL
        pass

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="meteor-offload-watch", daemon=True).start()


#: True in the app's worker process; the server scores a pair itself only while its worker
#: is being replaced, and never freezes its own objects (its sessions come and go).
_IN_WORKER = False


def _worker_scorer(preset: str, overrides: str) -> Meteor:
    """This process's scorer for the setting, loaded once (:func:`meteor.batch.process_scorer`)."""
    build = functools.partial(make_scorer, preset, overrides)
    return batch.process_scorer(("app", preset, overrides), build, freeze=_IN_WORKER)


def _sized(preset: str, overrides: str, make: Callable[[Meteor], T]) -> Sized[T]:
    """``make(scorer)`` with its size in bytes, in the worker.  A long pair makes millions of
    short-lived objects and no cycles: the collector is off for the job
    (:func:`meteor.batch.collection_paused`)."""
    with batch.collection_paused():
        m = _worker_scorer(preset, overrides)
        value = make(m)
        return Sized(value, deep_size(value, shared=(m.params,)))


def score_pair(hyp: str, refs: tuple[str, ...], preset: str, overrides: str) -> Sized[Analysis]:
    """The pair's analysis with its size in bytes (run in the worker): the score card's."""
    return _sized(preset, overrides, lambda m: analyse_here(m, hyp, refs))


def explain_pair(
    hyp: str, refs: tuple[str, ...], preset: str, overrides: str
) -> Sized[Explanation]:
    """Why the pair got its score (:func:`meteor.explain`), with its size (run in the worker).
    Asked apart from :func:`score_pair`: the score card need not wait for the near misses."""
    return _sized(preset, overrides, lambda m: explain(pair_record(m, hyp, refs), m))


def warm(preset: str) -> int:
    """Load a preset's resources and what explanations use (nltk) in the worker; its pid."""
    from meteor.resources import import_nltk

    _worker_scorer(preset, "{}")  # loaded, and frozen out of the collector's sight
    import_nltk()
    gc.freeze()  # nltk's modules too: they never become garbage
    return os.getpid()


# -- in the server process -------------------------------------------------------------


class Offloader:
    """A lazily started process pool; ``run`` calls a function there (or here, without one)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self.restarts = 0

    @property
    def enabled(self) -> bool:
        return self.workers > 0

    def _get_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_init,
                    initargs=(os.getpid(),),
                )
            return self._pool

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
                self.restarts += 1
        pool.shutdown(wait=False, cancel_futures=True)

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker (its exceptions raised here); in this process if there
        is none or it died."""
        if not self.enabled:
            return fn(*args)
        pool = self._get_pool()
        try:
            return pool.submit(fn, *args).result()
        except BrokenProcessPool:  # the worker was killed: a new pool next time
            self._discard(pool)
            return fn(*args)

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


#: The app's one pool of workers for long pairs (``METEOR_APP_WORKERS``, default 1).
OFFLOADER = Offloader(
    int(
        env_number(
            WORKERS_ENV,
            DEFAULT_WORKERS,
            int,
            lambda n: 0 <= n <= (os.cpu_count() or 1),
            "a number of processes from 0 to the CPU count",
        )
    )
)
