"""Streaming: score inputs of any length with a bounded number of partitions in flight.

:func:`score_stream` yields records in input order as partitions complete;
:func:`score_stream_lines` has the workers write the JSONL lines too (much less
work per segment for the client); :class:`StreamTotals` sums the statistics on the
way, so the corpus score needs no records kept.  Inputs come from
:func:`meteor.runners.cluster.inputs.iter_segments`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from distributed import Client

from meteor import batch
from meteor.metric import Meteor
from meteor.params import Params
from meteor.runners.cluster.client import (
    DEFAULT_TIMEOUT,
    Partition,
    Progress,
    as_meteor,
    prepare_workers,
    run_partitions,
)
from meteor.runners.transport import Decoder
from meteor.stats import Breakdown, BreakdownFields
from meteor.types import MeteorResult, Stats

__all__ = ["SegmentLine", "StreamSummary", "StreamTotals", "score_stream", "score_stream_lines"]


def _stream(
    meteor_or_params: Meteor | Params,
    segments: Iterable[tuple[str, str | Sequence[str]]],
    client: Client,
    form: str,
    partition_size: int,
    max_in_flight: int | None,
    progress: Progress | None,
    total: int | None,
    timeout: float,
) -> Iterator[list[Any]]:
    meteor = as_meteor(meteor_or_params)
    batch.check_count("partition_size", partition_size, segments=True)
    states = prepare_workers(client, meteor, timeout=timeout)
    in_flight = max_in_flight or max(4, 4 * len(states))
    counter = itertools.count()

    def parts() -> Iterator[Partition]:
        it = iter(segments)
        while True:
            block = list(itertools.islice(it, partition_size))
            if not block:
                return
            numbers = [next(counter) for _ in block]
            yield numbers, [h for h, _ in block], [r for _, r in block]

    done = [0]

    def on_done(count: int) -> None:
        done[0] += count
        if progress:
            frac = min(1.0, done[0] / total) if total else 0.0
            of = f" of {total:,}" if total else ""
            progress(frac, f"scored {done[0]:,}{of} segments")

    yield from run_partitions(
        client,
        meteor,
        parts(),
        form=form,
        max_in_flight=in_flight,
        timeout=timeout,
        on_done=on_done,
    )


def score_stream(
    meteor_or_params: Meteor | Params,
    segments: Iterable[tuple[str, str | Sequence[str]]],
    *,
    client: Client,
    partition_size: int = 500,
    max_in_flight: int | None = None,
    progress: Progress | None = None,
    total: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Iterator[MeteorResult]:
    """Score ``(hyp, refs)`` pairs from an iterable of any length; records in input order.

    At most ``max_in_flight`` partitions (default: four per worker) are read and not yet
    handed back, so memory stays bounded; each record is yielded as soon as its partition
    and all before it are done (sum them with :class:`StreamTotals`).  Records carry no
    candidate lists.

    Args:
        segments: e.g. :func:`iter_segments`.
        total: the number of segments if known (for the progress fraction).

    Raises:
        as :func:`score_corpus_dask`.
    """
    args = (partition_size, max_in_flight, progress, total, timeout)
    for chunk in _stream(meteor_or_params, segments, client, "records", *args):
        decoder = Decoder()  # per partition: memory stays bounded
        for e in chunk:
            yield decoder.decode(e)


@dataclass(frozen=True, slots=True)
class SegmentLine:
    """A segment scored on a worker, for output: its JSONL line and its corpus share.

    Attributes:
        line: the JSON object and ``\\n``, exactly as :func:`meteor.io.record_files.segments_jsonl`
            writes the segment's record (1-based ``segment`` number, no system).
        score: the segment's score.
        contribution: what it adds to the corpus statistics
            (:meth:`meteor.types.Stats.corpus_contribution`).
        nrefs: how many references it has.
    """

    line: str
    score: float
    contribution: Stats
    nrefs: int


def score_stream_lines(
    meteor_or_params: Meteor | Params,
    segments: Iterable[tuple[str, str | Sequence[str]]],
    *,
    client: Client,
    partition_size: int = 500,
    max_in_flight: int | None = None,
    progress: Progress | None = None,
    total: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Iterator[SegmentLine]:
    """:func:`score_stream`, but the workers also write each record's JSONL line: the
    client only passes lines on and sums statistics (:meth:`StreamTotals.add_line`)."""
    args = (partition_size, max_in_flight, progress, total, timeout)
    for chunk in _stream(meteor_or_params, segments, client, "lines", *args):
        for line, score, contribution, nrefs in chunk:
            yield SegmentLine(line, score, contribution, nrefs)


@dataclass(frozen=True, slots=True)
class StreamSummary(BreakdownFields):
    """Corpus numbers of a streamed run (:class:`StreamTotals`), without the records.

    Equal to the fields of :meth:`meteor.Meteor.combine`'s result on the same segments;
    ``breakdown`` holds the formula's numbers, ``precision`` … ``score`` read it.
    """

    stats: Stats
    breakdown: Breakdown
    mean_segment_score: float
    n_segments: int
    signature: str


class StreamTotals:
    """Sums segment records one at a time (Meteor 1.5 ``addStats``, :class:`meteor.batch.Totals`),
    keeping no records."""

    def __init__(self, meteor: Meteor) -> None:
        self.meteor = meteor
        self._totals = batch.Totals(meteor.params)

    def add(self, r: MeteorResult) -> MeteorResult:
        """Count a record; returns it (for use inside a generator expression)."""
        self._totals.add_record(r)
        return r

    def add_line(self, s: SegmentLine) -> str:
        """Count a :class:`SegmentLine`; returns its JSONL line."""
        self._totals.add(s.contribution, s.score, s.nrefs)
        return s.line

    def summary(self) -> StreamSummary:
        t = self._totals
        return StreamSummary(
            t.stats,
            t.breakdown(),
            t.mean(),
            t.n,
            self.meteor.signature(t.nrefs),
        )
