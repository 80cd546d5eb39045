"""Scoring that survives failed segments: find every one, keep every other record.

:func:`report_failures` writes what was scored, names what was not and gives exit
status 1 (no corpus score: it would silently leave segments out).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meteor.cli.files import EXIT_SCORING, one_line
from meteor.cli.output import Records, print_segments, write_files
from meteor.metric import Meteor, Progress
from meteor.runners.parallel import score_corpus
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "MAX_FAILURES_SHOWN",
    "ScoredSystem",
    "SegmentFailure",
    "report_failures",
    "score_system",
]


@dataclass(frozen=True, slots=True)
class SegmentFailure:
    """A segment that could not be scored: 0-based index and the reason."""

    index: int
    message: str


@dataclass(frozen=True, slots=True)
class ScoredSystem:
    """A system's corpus result, or (when some segments failed) the records of the
    others by 0-based index and the failures."""

    result: CorpusResult | None
    segments: tuple[tuple[int, MeteorResult], ...]
    failures: tuple[SegmentFailure, ...]


#: Segments scored together while looking for the ones that fail.
_SEARCH_BLOCK = 256


def score_system(
    meteor: Meteor,
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    client: Any = None,
) -> ScoredSystem:
    """Score a system (:func:`meteor.runners.parallel.score_corpus`; on the cluster with a
    Dask ``client``); a segment that cannot be scored (the stage-wise aligner's search
    budget, the candidate limit, the length limit) does not lose the others: only then
    are the segments scored again here, in blocks, a failing block one by one."""
    try:
        result = score_corpus(meteor, hyps, refs, workers=workers, progress=progress, client=client)
        return ScoredSystem(result, (), ())
    except (ValueError, TypeError):
        pass
    done: list[tuple[int, MeteorResult]] = []
    failures: list[SegmentFailure] = []
    n = len(hyps)
    for start in range(0, n, _SEARCH_BLOCK):
        idx = list(range(start, min(n, start + _SEARCH_BLOCK)))
        try:
            found = meteor.score_segments(
                [hyps[k] for k in idx], [refs[k] for k in idx], candidates=False, numbers=idx
            )
            done.extend(zip(idx, found, strict=True))
            continue
        except (ValueError, TypeError):
            pass
        for k in idx:
            try:
                (rec,) = meteor.score_segments([hyps[k]], [refs[k]], candidates=False)
                done.append((k, rec))
            except (ValueError, TypeError) as exc:
                reason = exc.__cause__ if exc.__cause__ is not None else exc
                failures.append(SegmentFailure(k, " ".join(str(reason).split())))
    return ScoredSystem(None, tuple(done), tuple(failures))


#: Failing segments named one per line on stderr before the rest are counted.
MAX_FAILURES_SHOWN = 20


def _segment_label(k: int, ids: Sequence[str]) -> str:
    seg_id = ids[k] if k < len(ids) else str(k + 1)
    return f"segment {k + 1}" + ("" if seg_id == str(k + 1) else f" (id {seg_id})")


def report_failures(
    args: argparse.Namespace,
    modules: Sequence[Any],
    corpus: Any,
    results: dict[str, CorpusResult],
    failed: dict[str, ScoredSystem],
) -> int:
    """Write every segment that was scored (with its number and id: the gaps are
    visible), name every one that was not; exit status 1, no corpus score."""
    records: Records = {
        name: (
            list(enumerate(results[name].segments))
            if name in results
            else sorted(failed[name].segments, key=lambda x: x[0])
        )
        for name, _ in corpus.systems
    }
    written = write_files(args, modules, corpus, records)
    if args.format in ("jsonl", "csv"):
        print_segments(sys.stdout, args.format, corpus, records)
        written.append("stdout")
    sys.stdout.flush()
    _name_failures(failed, corpus)
    n_all = sum(len(hyps) for _, hyps in corpus.systems)
    total_failed = sum(len(s.failures) for s in failed.values())
    rest = (
        f"the other segments were written to {', '.join(written)}"
        if written
        else "give --jsonl/--csv/--align-out to keep the segments that were scored"
    )
    sys.stderr.write(
        f"meteor: error: {total_failed:,} of {n_all:,} segments could not be scored; no corpus "
        f"score is printed (it would leave them out); {rest}\n"
    )
    return EXIT_SCORING


def _name_failures(failed: dict[str, ScoredSystem], corpus: Any) -> None:
    """One stderr line per failed segment (at most :data:`MAX_FAILURES_SHOWN`), then a count."""
    shown = 0
    for name, scored in failed.items():
        for f in scored.failures:
            if shown < MAX_FAILURES_SHOWN:
                where = f"system {name!r}, " if len(corpus.systems) > 1 else ""
                label = _segment_label(f.index, corpus.ids_of(name))
                sys.stderr.write(f"meteor: error: {one_line(f'{where}{label}: {f.message}')}\n")
            shown += 1
    if shown > MAX_FAILURES_SHOWN:
        sys.stderr.write(f"meteor: error: … and {shown - MAX_FAILURES_SHOWN:,} more\n")
