"""The worker side of cluster scoring: one scorer per process, loaded once
(:func:`meteor.batch.process_scorer`).

:class:`MeteorWorkerPlugin` loads a preset's resources on every worker that joins, under
a machine-wide lock (the first worker of a machine builds the paraphrase index, the
others map the same file); :func:`score_partition` is the task every partition runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin, get_worker

from meteor import batch, resources
from meteor.batch import SCORERS, collection_paused, spec_key
from meteor.errors import ResourceError
from meteor.io.record_files import segment_record
from meteor.metric import Meteor
from meteor.params import VERSION, Params
from meteor.runners.transport import encode

__all__ = ["MeteorWorkerPlugin", "load_scorer", "score_partition", "worker_state"]

_FAILURES: dict[str, str] = {}
_LOAD_SECONDS: dict[str, float] = {}


def load_scorer(key: str, params: Params, preset: str | None) -> Meteor:
    """This process's scorer for ``key`` (:func:`meteor.batch.process_scorer`), its
    resources loaded the first time under the machine's lock (workers that start together
    wait for the first one to build the paraphrase index)."""

    def build() -> Meteor:
        t0 = time.perf_counter()
        with resources.file_lock(resources.cache_dir() / "worker-setup.lock"):
            m = Meteor(params=params)
            m.preset = preset  # the caller's preset name goes into every signature
            m.prepare()
        _LOAD_SECONDS[key] = time.perf_counter() - t0
        _FAILURES.pop(key, None)
        return m

    return batch.process_scorer(key, build)


def _where() -> str:
    try:
        return f"worker {get_worker().address}"
    except ValueError:
        return "this process"


class MeteorWorkerPlugin(WorkerPlugin):
    """Loads a scorer's resources once on every worker, including workers that join later.

    A failure does not stop the worker: it is recorded and reported by
    :func:`prepare_workers` (naming the worker) and by any task sent there.
    """

    idempotent = True  # registering the same configuration again changes nothing

    def __init__(self, params: Params, preset: str | None) -> None:
        self.params = params
        self.preset = preset
        self.name = spec_key(params, preset)

    async def setup(self, worker: Any) -> None:
        # in a thread: the worker's event loop keeps answering the scheduler meanwhile
        await asyncio.get_running_loop().run_in_executor(None, self._load)

    def _load(self) -> None:
        try:
            load_scorer(self.name, self.params, self.preset)
        except Exception as exc:
            _FAILURES[self.name] = f"{type(exc).__name__}: {exc}"


def worker_state(key: str) -> dict[str, Any]:
    """What a worker says about ``key`` (run by :func:`prepare_workers` on each worker)."""
    return {
        "ready": key in SCORERS,
        "error": _FAILURES.get(key),
        "load_seconds": _LOAD_SECONDS.get(key),
        "version": VERSION,
        "pid": os.getpid(),
        "mapped": _mapped_indexes(),
    }


def _mapped_indexes() -> list[str]:
    """Paraphrase index files this process has memory-mapped (Linux ``/proc``; else [])."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
            found = {line.split(None, 5)[-1].strip() for line in fh if ".idx" in line}
    except OSError:
        return []
    return sorted(p for p in found if Path(p).name.startswith("paraphrase-"))


def score_partition(
    key: str,
    params: Params,
    preset: str | None,
    numbers: Sequence[int],
    hyps: Sequence[Any],
    refs: Sequence[Any],
    form: str,
) -> list[Any]:
    """Score one partition on a worker, results in the partition's order.

    ``form``: ``"records"`` (compact records, :mod:`meteor.runners.transport`),
    ``"candidates"`` (the same with candidate lists) or ``"lines"`` (per segment its
    JSONL line, score, corpus contribution and number of references).
    """
    try:
        m = load_scorer(key, params, preset)
    except ResourceError as exc:
        raise ResourceError(f"{_where()} cannot load the METEOR resources: {exc}") from exc
    with collection_paused():
        found = batch.score_segments(
            m, hyps, refs, candidates=form == "candidates", numbers=numbers
        )
        if form != "lines":
            return [encode(r) for r in found]
        return [
            (
                json.dumps(segment_record(r, k + 1), ensure_ascii=False, allow_nan=False) + "\n",
                r.score,
                r.stats.corpus_contribution(perfect_rule=params.perfect_rule),
                len(r.refs),
            )
            for k, r in zip(numbers, found, strict=True)
        ]
