"""Corpus scoring on a Dask cluster (``dask`` + ``distributed``): the public API, import from here.

METEOR's corpus score sums additive per-segment statistics (Meteor 1.5
``MeteorStats.addStats``), so a corpus maps onto map-reduce: workers score partitions
(:func:`meteor.batch.score_segments`), the client puts the records back in input order
and sums them; every number equals a one-process run's.  docs/cluster.md.
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
