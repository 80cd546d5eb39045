"""The bootstrap's machinery: segment statistics as a matrix, the resamples, the checks.

:func:`stats_matrix` puts each segment's contribution to the corpus statistics in a
row; :func:`resample_indices` / ``_count_batches`` draw the resamples
(``numpy.random.default_rng(seed).integers(0, n, size=n)``, in sample order);
``_resampled`` rescores every resample with the formula; :func:`ci_bounds` reads an
interval off the sorted samples; :func:`common_segments` pairs two systems by id.
The tests and their records are :mod:`meteor.analysis.significance`, which re-exports
the public names here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import numpy as np

from meteor.module_registry import module_order
from meteor.params import Params
from meteor.scoring import compute
from meteor.signatures import check_same_settings
from meteor.stats import Stats
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "MAX_BOOTSTRAP_DRAWS",
    "MAX_BOOTSTRAP_SAMPLES",
    "MIN_BOOTSTRAP_SAMPLES",
    "ci_bounds",
    "common_segments",
    "resample_indices",
    "stats_matrix",
]


# ---------------------------------------------------------------------------
# statistics as a matrix
# ---------------------------------------------------------------------------
_STATS_FIELDS = tuple(f.name for f in fields(Stats))


def _stats_row(s: Stats) -> list[int]:
    """The fields in order, each per-module tuple as wide as :func:`module_order` (a
    registered stage's slot is there whether or not this segment used it)."""
    row: list[int] = []
    width = len(module_order())
    for name in _STATS_FIELDS:
        v = getattr(s, name)
        if isinstance(v, tuple):
            row.extend(v)
            row.extend([0] * (width - len(v)))
        else:
            row.append(v)
    return row


def row_stats(row: Sequence[float]) -> Stats:
    vals = [int(round(x)) for x in row]
    out: list[Any] = []
    pos = 0
    width = len(module_order())
    template = Stats()
    for name in _STATS_FIELDS:
        if isinstance(getattr(template, name), tuple):
            out.append(tuple(vals[pos : pos + width]))
            pos += width
        else:
            out.append(vals[pos])
            pos += 1
    return Stats(*out)


def stats_matrix(segments: Sequence[MeteorResult] | Sequence[Stats]) -> np.ndarray:
    """One row per segment: what it adds to the corpus statistics (float64, exact ints).

    The row is :meth:`Stats.corpus_contribution`, so summing rows reproduces
    :meth:`meteor.Meteor.combine` including Meteor 1.5's perfect-segment chunk rule.
    """
    rows = [
        _stats_row((s.stats if isinstance(s, MeteorResult) else s).corpus_contribution())
        for s in segments
    ]
    width = len(_stats_row(Stats()))
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), width)


# ---------------------------------------------------------------------------
# resampling
# ---------------------------------------------------------------------------
def resample_indices(n: int, n_samples: int, seed: int | None) -> np.ndarray:
    """All resample indices at once, shape ``(n_samples, n)`` (for tests and small corpora).

    Row ``b`` is what the ``b``-th call of ``rng.integers(0, n, size=n)`` returns on
    ``rng = numpy.random.default_rng(seed)``; :func:`bootstrap` draws the same rows
    one at a time.
    """
    rng = np.random.default_rng(seed)
    return (
        np.stack([rng.integers(0, n, size=n) for _ in range(n_samples)])
        if n_samples
        else (np.zeros((0, n), dtype=np.int64))
    )


def ci_bounds(samples: np.ndarray | Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """``(s[k], s[B − k − 1])`` of the sorted samples, ``k = floor(B·(1 − level)/2)``."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    s = np.sort(np.asarray(samples, dtype=np.float64))
    b = len(s)
    if b == 0:
        return math.nan, math.nan
    k = int(math.floor(b * (1.0 - level) / 2.0 + 1e-9))
    return float(s[k]), float(s[b - k - 1])


def _count_batches(n: int, n_samples: int, seed: int | None) -> Any:
    """Yield ``(batch, n)`` matrices: how often each segment is drawn in each resample."""
    rng = np.random.default_rng(seed)
    batch = max(1, min(64, 4_000_000 // max(n, 1)))
    done = 0
    while done < n_samples:
        size = min(batch, n_samples - done)
        counts = np.empty((size, n), dtype=np.float64)
        for r in range(size):
            counts[r] = np.bincount(rng.integers(0, n, size=n), minlength=n)
        done += size
        yield counts


#: Fewest resamples for a 95 % interval: below 40, ``k = floor(B·0.025)`` is 0 and the
#: "interval" is the resamples' minimum and maximum (:func:`ci_bounds`); the CLI refuses it.
MIN_BOOTSTRAP_SAMPLES = 40
#: Most bootstrap resamples accepted (each costs about 30 µs plus its draws).
MAX_BOOTSTRAP_SAMPLES = 100_000
#: Most segment draws (resamples × segments) per bootstrap: about 5-20 s on one core.
MAX_BOOTSTRAP_DRAWS = 200_000_000


def _check_samples(n_samples: int, level: float, n_segments: int = 0) -> None:
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive whole number, got {n_samples!r}")
    if n_samples > MAX_BOOTSTRAP_SAMPLES:
        raise ValueError(
            f"n_samples is {n_samples:,}; at most {MAX_BOOTSTRAP_SAMPLES:,} bootstrap "
            "resamples are accepted (1,000 is usual)"
        )
    if n_samples * n_segments > MAX_BOOTSTRAP_DRAWS:
        raise ValueError(
            f"{n_samples:,} bootstrap resamples of {n_segments:,} segments are too many "
            f"(resamples × segments ≤ {MAX_BOOTSTRAP_DRAWS:,}); use at most "
            f"{MAX_BOOTSTRAP_DRAWS // n_segments:,} resamples"
        )
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")


def _segments_of(x: CorpusResult | Sequence[MeteorResult]) -> tuple[MeteorResult, ...]:
    return x.segments if isinstance(x, CorpusResult) else tuple(x)


def _check_settings(
    systems: Sequence[tuple[str, Sequence[MeteorResult]]], params: Params, what: str
) -> None:
    """Every record of every system, and ``params``, must have the same settings."""
    items: list[tuple[str, str]] = []
    for name, segs in systems:
        first: dict[str, int] = {}
        for k, seg in enumerate(segs):
            first.setdefault(seg.signature, k)
        items += [(f"{name} segment {k + 1}", sig) for sig, k in first.items()]
    items.append(("the parameters given", params.signature()))
    check_same_settings(items, what)


def common_segments(
    ids_a: Sequence[str], ids_b: Sequence[str]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Positions in A and in B of the segment ids both have, in A's order.

    Raises:
        ValueError: an id repeated in A or in B (naming it).
    """
    for name, ids in (("A", ids_a), ("B", ids_b)):
        if len(set(ids)) != len(ids):
            dup = next(x for x, c in Counter(ids).items() if c > 1)
            raise ValueError(f"system {name} repeats segment id {dup!r}")
    where_b = {x: k for k, x in enumerate(ids_b)}
    pairs = [(k, where_b[x]) for k, x in enumerate(ids_a) if x in where_b]
    return tuple(k for k, _ in pairs), tuple(j for _, j in pairs)


def _resampled(
    systems: Sequence[tuple[MeteorResult, ...]],
    params: Params,
    n_samples: int,
    seed: int | None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per system: (resampled corpus scores, resampled mean segment scores)."""
    n = len(systems[0])
    mats = [stats_matrix(segs) for segs in systems]
    seg_scores = [np.array([s.score for s in segs], dtype=np.float64) for segs in systems]
    corpus = [np.empty(n_samples) for _ in systems]
    means = [np.empty(n_samples) for _ in systems]
    b = 0
    for counts in _count_batches(n, n_samples, seed):
        for k in range(len(systems)):
            sums = counts @ mats[k]
            means[k][b : b + len(counts)] = (counts @ seg_scores[k]) / n
            for r in range(len(counts)):
                corpus[k][b + r] = compute(row_stats(sums[r]), params).score
        b += len(counts)
    return list(zip(corpus, means, strict=True))
