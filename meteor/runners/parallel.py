"""Scoring a corpus over several processes (:func:`score_corpus`), numbers unchanged.

Each worker process builds its own :class:`~meteor.Meteor` from the (picklable,
frozen) params once and scores chunks of distinct segments; records come back in
the compact form of :mod:`meteor.runners.transport` and are put back in input
order, so the result equals :meth:`meteor.Meteor.corpus_score` (without candidate
lists).  Workers are forked when this process runs a single thread (they inherit
the loaded resources) and started by a fork server otherwise; they ignore Ctrl-C,
which the parent handles by stopping them, and die with their parent.  A Dask
cluster is the other way to scale out (:mod:`meteor.runners.cluster`).
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from meteor import batch
from meteor.batch import by_reference, unique_pairs
from meteor.metric import Meteor
from meteor.params import Params
from meteor.runners.transport import Decoder, Encoded, encode
from meteor.runtime import Progress, gc_paused
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "MIN_PARALLEL_SEGMENTS",
    "MIN_PARALLEL_SEGMENTS_FRESH",
    "default_workers",
    "run_in_workers",
    "run_tasks",
    "score_corpus",
]

#: Below this many segments :func:`score_corpus` stays in one process (forked workers
#: inherit the loaded resources, so they start at once).
MIN_PARALLEL_SEGMENTS = 500
#: The same when workers must start afresh (``forkserver``/``spawn``, e.g. inside a
#: multi-threaded app): each imports the package and loads resources (~2 s).
MIN_PARALLEL_SEGMENTS_FRESH = 2000

R = TypeVar("R")


def default_workers() -> int:
    """The CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


_WORKER: Meteor | None = None


def _die_with_parent(os_parent: int | None) -> None:
    """Worker side: Ctrl-C is the parent's to handle (it stops the workers itself), SIGTERM
    ends the worker at once, and on Linux the worker dies with its parent
    (``PR_SET_PDEATHSIG``: a parent killed with SIGKILL cannot stop its workers).

    ``os_parent``: the scoring process's pid when the worker was forked from it, to catch
    a parent that died before the request took effect (``None`` under a fork server).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not a handler inherited from the parent
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
            if os_parent is not None and os.getppid() != os_parent:
                os._exit(1)  # the parent died before the request took effect


#: How often the loop waiting for the workers looks for a signal held back (seconds).
_SIGNAL_POLL_S = 0.1


class _signals_at_safe_points:  # noqa: N801 - used as a context manager, like a function
    """Ctrl-C and SIGTERM, while a worker pool runs, act where the pool can be unwound.

    Raised inside ``concurrent.futures.wait`` while it takes its futures' locks, a
    ``KeyboardInterrupt`` leaves some taken for ever and ``shutdown(wait=True)`` hangs.
    So for the pool's lifetime a signal with a Python handler is only recorded, and
    :meth:`check`, called between waits, runs that handler.  Signals at their default
    action or ignored are left alone; off the main thread this does nothing.
    """

    def __init__(self) -> None:
        self.caught: list[int] = []
        self._previous: dict[int, Callable[[int, Any], Any]] = {}

    def _record(self, signum: int, _frame: Any) -> None:
        self.caught.append(signum)

    def check(self) -> None:
        """Run the handler of each signal held back (it may raise)."""
        while self.caught:
            sig = self.caught.pop(0)
            self._previous[sig](sig, None)

    def __enter__(self) -> _signals_at_safe_points:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                handler = signal.getsignal(sig)
                if callable(handler):
                    self._previous[sig] = handler
                    signal.signal(sig, self._record)
        return self

    def __exit__(self, *_: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        for sig in self.caught:  # came while the pool shut down
            signal.raise_signal(sig)  # the handler now in place acts (it may raise)


def _stop_workers(pool: ProcessPoolExecutor, grace: float = 1.0) -> None:
    """Terminate a pool's worker processes now (SIGTERM, then SIGKILL after ``grace`` s).

    A worker stopped while sending a result leaves half a message in the result pipe,
    and the executor would wait for the rest for ever: once the workers are dead,
    closing the pipe's last write end turns that wait into a broken pool.
    """
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.terminate()
    deadline = time.monotonic() + grace
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
    if not any(_still_running(proc) for proc in procs):
        writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
        with contextlib.suppress(Exception):
            if writer is not None:
                writer.close()


def _still_running(proc: Any) -> bool:
    try:
        return bool(proc.is_alive())
    except Exception:  # a process object already closed
        return False


def _init_worker(params: Params, preset: str | None) -> None:
    """A worker's one scorer, loaded now (:func:`meteor.batch.process_scorer`)."""
    global _WORKER

    def build() -> Meteor:
        m = Meteor(params=params)
        m.preset = preset  # keep the caller's signature (preset name) on every record
        return m

    _WORKER = batch.process_scorer(batch.spec_key(params, preset), build)


def _score_chunk(
    indices: Sequence[int], hyps: Sequence[str], refs: Sequence[str | Sequence[str]]
) -> list[Encoded]:
    """Score segments in a worker; records travel compactly (:mod:`meteor.runners.transport`).

    The chunk holds every pair of its references (:func:`by_reference`), so the memos
    are emptied after it: a worker's memory stays that of one chunk.
    """
    assert _WORKER is not None
    try:
        with batch.collection_paused():
            found = batch.score_segments(_WORKER, hyps, refs, candidates=False, numbers=indices)
            return [encode(r) for r in found]
    finally:
        _WORKER.clear_memos()


def _mp_context() -> Any:
    """``fork`` when single-threaded (fast, inherits loaded resources); else forkserver."""
    methods = mp.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return mp.get_context("fork")
    if "forkserver" in methods:
        return mp.get_context("forkserver")
    return mp.get_context("spawn")


def score_corpus(
    meteor_or_params: Meteor | Params,
    hyps: Sequence[str],
    refs: Sequence[str] | Sequence[Sequence[str]],
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
    client: Any = None,
) -> CorpusResult:
    """Score a corpus over several processes (module docstring); results in input order.

    Small inputs (fewer than :data:`MIN_PARALLEL_SEGMENTS`, or
    :data:`MIN_PARALLEL_SEGMENTS_FRESH` when the workers cannot be forked) or ``workers=1``
    stay in this process, and so does the work when no worker process can be started
    (with a ``RuntimeWarning``).

    Args:
        meteor_or_params: a configured scorer (its preset name goes into the
            signature) or bare params.
        hyps: one hypothesis per segment.
        refs: one reference per segment, or a sequence of references per segment.
        workers: processes to use (default: every CPU available).
        progress: ``progress(fraction, message)`` callback, called in this process.
        chunk_size: segments per task (default: about eight tasks per worker,
            between 16 and 500 segments each).
        client: a :class:`distributed.Client`: score on that Dask cluster instead
            (:func:`meteor.runners.cluster.score_corpus_dask`; ``workers`` is not used).

    Raises:
        TypeError, ValueError: bad inputs (:func:`meteor.batch.check_corpus`, an
            empty corpus is a :class:`~meteor.errors.InputError`), or an error raised
            while scoring a segment.
    """
    meteor = (
        meteor_or_params
        if isinstance(meteor_or_params, Meteor)
        else Meteor(params=meteor_or_params)
    )
    batch.check_corpus(hyps, refs)  # the checks of every runner (meteor.batch)
    batch.check_count("workers", workers)
    batch.check_count("chunk_size", chunk_size, segments=True)
    if client is not None:
        from meteor.runners.cluster import score_corpus_dask

        return score_corpus_dask(
            meteor, hyps, refs, client=client, progress=progress, partition_size=chunk_size
        )
    n_workers = min(workers or default_workers(), max(1, len(hyps)))
    ctx = _mp_context()
    fork = ctx.get_start_method() == "fork"
    threshold = MIN_PARALLEL_SEGMENTS if fork else MIN_PARALLEL_SEGMENTS_FRESH
    first, where = unique_pairs(hyps, refs)
    if n_workers <= 1 or len(first) < threshold:
        return batch.corpus_score(meteor, hyps, refs, candidates=False, progress=progress)
    size = chunk_size or max(16, min(500, math.ceil(len(first) / (n_workers * 8))))
    try:
        with gc_paused():  # before the pool starts its threads
            unique = _score_parallel(meteor, hyps, refs, first, ctx, n_workers, size, progress)
        segments = [unique[pos] for pos in where]
    except (BrokenProcessPool, OSError) as exc:  # no usable worker processes
        warnings.warn(
            f"parallel scoring failed ({exc}); scoring in one process",
            RuntimeWarning,
            stacklevel=2,
        )
        return batch.corpus_score(meteor, hyps, refs, candidates=False, progress=progress)
    return batch.combine(meteor, segments)


def _score_parallel(
    meteor: Meteor,
    hyps: Sequence[str],
    refs: Sequence[str] | Sequence[Sequence[str]],
    first: Sequence[int],
    ctx: Any,
    n_workers: int,
    size: int,
    progress: Progress | None,
) -> list[MeteorResult]:
    """Records of the segments ``first`` (distinct pairs), in that order (chunks cut
    from :func:`by_reference`'s order)."""
    n_all, n = len(hyps), len(first)
    order = by_reference(refs, first)
    results: list[MeteorResult | None] = [None] * n
    done = 0
    if ctx.get_start_method() == "fork":  # loaded once here; the forked workers inherit them
        meteor.prepare((lambda _f, message: progress(0.0, message)) if progress else None)
    if progress:
        progress(0.0, f"scoring {n_all:,} segments with {n_workers} processes")
    chunks = [order[s : s + size] for s in range(0, n, size)]

    def task_args(at: list[int]) -> tuple[Any, ...]:
        idx = [first[pos] for pos in at]
        return idx, [hyps[k] for k in idx], [refs[k] for k in idx]

    def finished(k: int, encoded: list[Encoded]) -> None:
        nonlocal done
        at = chunks[k]
        for pos, e in zip(at, encoded, strict=True):
            results[pos] = decoder.decode(e)
        done += len(at)
        if progress:  # distinct pairs scored, scaled to the caller's segment count
            shown = round(done / n * n_all)
            progress(done / n, f"scored {shown:,} of {n_all:,} segments")

    decoder = Decoder()
    run_in_workers(
        _score_chunk,
        [task_args(at) for at in chunks],
        workers=n_workers,
        on_result=finished,
        initializer=_init_worker,
        initargs=(meteor.params, meteor.preset),
        ctx=ctx,
    )
    assert all(r is not None for r in results)
    return results  # type: ignore[return-value]


def _start_worker(
    os_parent: int | None, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    """A worker's start: it dies with its parent (:func:`_die_with_parent`), then
    ``initializer(*initargs)`` runs."""
    _die_with_parent(os_parent)
    if initializer is not None:
        initializer(*initargs)


def run_tasks(
    tasks: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]],
    workers: int,
    on_result: Callable[[int, Any], None] | None = None,
    what: str = "work",
) -> list[Any]:
    """Every task ``fn(*args)`` and its results in task order: in ``min(workers, tasks)``
    processes (:func:`run_in_workers`; ``fn`` a module-level function) when that is more
    than one, else in this process — also, with a :class:`RuntimeWarning`, when no worker
    process can run.  ``on_result(k, value)`` as task ``k`` finishes (called again for
    every task when the work falls back to this process)."""
    results: list[Any] = [None] * len(tasks)

    def finished(k: int, value: Any) -> None:
        results[k] = value
        if on_result is not None:
            on_result(k, value)

    n_workers = min(workers, len(tasks))
    if n_workers > 1:
        try:
            run_in_workers(_call, list(tasks), workers=n_workers, on_result=finished)
            return results
        except (BrokenProcessPool, OSError) as exc:
            warnings.warn(
                f"parallel {what} failed ({exc}); {what} in one process",
                RuntimeWarning,
                stacklevel=2,
            )
    for k, (fn, args) in enumerate(tasks):
        finished(k, fn(*args))
    return results


def _call(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """One task of :func:`run_tasks` in a worker: ``fn(*args)``."""
    return fn(*args)


def run_in_workers(
    task: Callable[..., R],
    tasks: Sequence[tuple[Any, ...]],
    *,
    workers: int,
    on_result: Callable[[int, R], None],
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    ctx: Any = None,
) -> None:
    """Run ``task(*args)`` for every ``args`` of ``tasks`` in ``workers`` processes: the
    project's one worker pool.

    ``on_result(k, value)`` is called in this process as task ``k`` finishes.  ``task`` and
    ``initializer`` must be module-level functions.  Workers are started as
    :func:`_mp_context` (or ``ctx``) says; Ctrl-C and SIGTERM stop them at once
    (:class:`_signals_at_safe_points`, :func:`_stop_workers`).

    Raises:
        BrokenProcessPool, OSError: no worker process could run (the caller may work in
            this process instead); any error a task raised.
    """
    ctx = ctx if ctx is not None else _mp_context()
    os_parent = os.getpid() if ctx.get_start_method() == "fork" else None
    with _signals_at_safe_points() as stop:
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=ctx,
            initializer=_start_worker,
            initargs=(os_parent, initializer, initargs),
        )
        try:
            pending = {pool.submit(task, *args): k for k, args in enumerate(tasks)}
            while pending:
                stop.check()
                finished, _ = wait(pending, timeout=_SIGNAL_POLL_S, return_when=FIRST_COMPLETED)
                for fut in finished:
                    on_result(pending.pop(fut), fut.result())
        except BaseException:  # Ctrl-C, SIGTERM (meteor.cli.files), a failed task
            _stop_workers(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
