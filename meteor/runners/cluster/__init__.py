"""Corpus scoring on a Dask cluster (``dask`` + ``distributed``).

METEOR's corpus score is built from additive per-segment statistics (Meteor 1.5
``MeteorStats.addStats``), so a corpus maps onto map-reduce: the distinct
(hypothesis, references) pairs are cut into partitions, each worker scores its
partitions with the same loop as one process (the corpus runner's core,
:func:`meteor.batch.score_segments`) and sends the records back in the compact form of
:mod:`meteor.runners.transport`; the client puts them back in input order and sums
their statistics (:func:`meteor.batch.combine`).  The corpus score, every per-segment record, the
bootstrap intervals and the paired tests are therefore those of a run in one
process (tested: ``==`` on the records, identical floats).

* **Resources once per worker.**  :class:`MeteorWorkerPlugin` loads the preset's
  resources when a worker joins (and on every worker that joins later); the
  scorer lives in a per-process cache that tasks use.  The paraphrase index is
  memory-mapped from the per-user cache (:mod:`meteor.languages.paraphrase`); the first
  worker of a machine builds it under an inter-process lock, the others wait for
  it and map the same file.
* **Faults.**  A worker that dies mid-run loses its tasks to the scheduler, which
  runs them again on another worker (scoring is deterministic, so the result is
  the same).  An unreachable scheduler, a scheduler without workers, a worker
  that cannot load the resources, a task that killed too many workers, or no
  worker for :data:`DEFAULT_TIMEOUT` seconds during a run: a :class:`ClusterError`
  that says what to do, never a hang.
* **Larger than memory.**  :func:`iter_segments` reads text, TSV or JSONL files
  lazily; :func:`score_stream` keeps a bounded number of partitions in flight and
  yields records in input order as partitions complete; :class:`StreamTotals`
  sums the statistics on the way (the corpus score without keeping records).
  :func:`score_stream_lines` has the workers write the JSONL lines too, so the
  client's cost per segment (the limit on how many workers one client can feed)
  drops several-fold.
* **Tables.**  :func:`score_frame` adds score columns to a pandas or
  ``dask.dataframe`` frame.

The package, module by module: :mod:`~meteor.runners.cluster.worker` (what runs
on a worker), :mod:`~meteor.runners.cluster.client` (connecting, the run loop,
:func:`score_corpus_dask`), :mod:`~meteor.runners.cluster.stream` (streaming and
running totals), :mod:`~meteor.runners.cluster.inputs` (lazy file reading),
:mod:`~meteor.runners.cluster.frame` (data frames) and ``__main__`` (the command
``meteor stream``).  This module is the public API: import
from here.
"""

from __future__ import annotations

from meteor.errors import ClusterError
from meteor.runners.cluster.client import (
    DEFAULT_TIMEOUT,
    connect,
    prepare_workers,
    score_corpus_dask,
)
from meteor.runners.cluster.frame import score_frame
from meteor.runners.cluster.inputs import iter_segments
from meteor.runners.cluster.stream import (
    SegmentLine,
    StreamSummary,
    StreamTotals,
    score_stream,
    score_stream_lines,
)
from meteor.runners.cluster.worker import MeteorWorkerPlugin

__all__ = [
    "DEFAULT_TIMEOUT",
    "ClusterError",
    "MeteorWorkerPlugin",
    "SegmentLine",
    "StreamSummary",
    "StreamTotals",
    "connect",
    "iter_segments",
    "prepare_workers",
    "score_corpus_dask",
    "score_frame",
    "score_stream",
    "score_stream_lines",
]
