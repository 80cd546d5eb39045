"""Corpus-level statistics: bootstrap confidence intervals, paired tests, segment differences.

The corpus score is Meteor 1.5's (``MeteorStats.addStats``: statistics summed, the formula
applied once); the mean of segment scores is reported beside it.  The rules, with their
numbers, are in docs/corpus-ids.md ("The paired test"):

* :func:`bootstrap`: resamples ``numpy.random.default_rng(seed).integers(0, n, size=n)``;
  the interval is sacreBLEU's ``estimate_ci`` (:func:`ci_bounds`).
* :func:`paired_bootstrap` (Koehn 2004): both systems resampled with the same indices;
  two-sided ``p = min(1, 2·(k + 1)/(B + 1))``, ``k = min(#{δ_b ≤ 0}, #{δ_b ≥ 0})`` (Davison
  & Hinkley's count, doubled), so ``p < 1 − L`` only when the interval excludes 0.
  ``p_value_sacrebleu`` is sacreBLEU's ``_paired_bs_test``, except 1 (not 1/(B + 1)) when
  both systems score the same in every resample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from meteor.analysis.resampling import (
    MAX_BOOTSTRAP_DRAWS,
    MAX_BOOTSTRAP_SAMPLES,
    MIN_BOOTSTRAP_SAMPLES,
    Interval,
    check_samples,
    check_settings,
    ci_bounds,
    common_segments,
    resample_indices,
    resampled_matrices,
    row_stats,
    segments_of,
    stats_matrix,
)
from meteor.params import Params
from meteor.scoring import compute
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "MAX_BOOTSTRAP_DRAWS",
    "MAX_BOOTSTRAP_SAMPLES",
    "MIN_BOOTSTRAP_SAMPLES",
    "CorpusIntervals",
    "Interval",
    "PairedBootstrap",
    "PairedStat",
    "SegmentDiff",
    "bootstrap",
    "ci_bounds",
    "common_segments",
    "paired_bootstrap",
    "resample_indices",
    "segment_differences",
    "stats_matrix",
]

#: Bootstrap resamples by default (sacreBLEU and compare-mt use 1,000).
DEFAULT_SAMPLES = 1000
#: Default seed (sacreBLEU's ``SACREBLEU_SEED`` default).
DEFAULT_SEED = 12345


# ---------------------------------------------------------------------------
# bootstrap records
# ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CorpusIntervals:
    """Bootstrap intervals of one system's corpus score and mean segment score."""

    corpus: Interval
    mean_segment: Interval
    n_samples: int
    seed: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "corpus_score": self.corpus.to_dict(),
            "mean_segment_score": self.mean_segment.to_dict(),
            "samples": self.n_samples,
            "seed": self.seed,
            "method": "bootstrap over segments; corpus score recomputed from summed statistics",
        }


@dataclass(frozen=True, slots=True)
class PairedStat:
    """A paired comparison of one statistic (corpus score or mean segment score): A's and
    B's intervals, the observed ``b − a`` and the interval of its resamples, the two-sided
    ``p_value`` and ``p_value_sacrebleu`` (module docstring), and the share of resamples
    each system wins (Koehn's win ratio)."""

    a: Interval
    b: Interval
    difference: float
    difference_interval: Interval
    p_value: float
    b_wins: float
    a_wins: float
    p_value_sacrebleu: float = math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "difference": self.difference,
            "difference_interval": self.difference_interval.to_dict(),
            "p_value": self.p_value,
            "p_value_sacrebleu": self.p_value_sacrebleu,
            "b_wins": self.b_wins,
            "a_wins": self.a_wins,
        }


@dataclass(frozen=True, slots=True)
class PairedBootstrap:
    """Paired bootstrap of system B against baseline A on ``n_segments`` paired segments
    (of ``segments_a`` and ``segments_b``); ``corpus.a``/``corpus.b`` are scores on them."""

    name_a: str
    name_b: str
    corpus: PairedStat
    mean_segment: PairedStat
    n_samples: int
    seed: int | None
    n_segments: int = 0
    segments_a: int = 0
    segments_b: int = 0

    @property
    def all_segments(self) -> bool:
        """Both systems were compared on every segment either has."""
        return self.n_segments == self.segments_a == self.segments_b

    @property
    def p_value(self) -> float:
        """p-value of the corpus-score difference."""
        return self.corpus.p_value

    def to_dict(self) -> dict[str, Any]:
        return {
            "baseline": self.name_a,
            "system": self.name_b,
            "corpus_score": self.corpus.to_dict(),
            "mean_segment_score": self.mean_segment.to_dict(),
            "samples": self.n_samples,
            "seed": self.seed,
            "paired_segments": self.n_segments,
            "segments_baseline": self.segments_a,
            "segments_system": self.segments_b,
            "test": "paired bootstrap (Koehn 2004), two-sided",
            "p_value_definition": (
                "min(1, 2 * (min(#{b: dB_b <= 0}, #{b: dB_b >= 0}) + 1) / (samples + 1)) "
                "with dB_b = sB_b - sA_b: two-sided, never 0; p < 1 - level only when "
                "difference_interval excludes 0"
            ),
            "p_value_sacrebleu_definition": (
                "(#{b: |dB_b| - mean_b |dB_b| > |sB - sA|} + 1) / (samples + 1), "
                "sacreBLEU's paired bootstrap; in effect one tail"
            ),
        }


class SystemSamples(NamedTuple):
    """One system's :func:`stats_matrix`, segment scores, intervals and resamples (corpus
    scores, mean segment scores), which a pair on the same segments reuses."""

    mat: np.ndarray
    scores: np.ndarray
    intervals: CorpusIntervals
    samples: tuple[np.ndarray, np.ndarray]


def bootstrap(
    result: CorpusResult | Sequence[MeteorResult],
    params: Params,
    *,
    n_samples: int = DEFAULT_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    level: float = 0.95,
) -> CorpusIntervals:
    """Bootstrap intervals of the corpus score and of the mean segment score.

    ``params``: the parameters ``result`` was scored with; ``seed`` None: fresh entropy.

    Raises:
        ValueError: an empty corpus, or a bad ``n_samples`` / ``level``.
    """
    return bootstrap_records(segments_of(result), params, n_samples, seed, level)[2]


def bootstrap_records(
    segs: Sequence[MeteorResult], params: Params, n_samples: int, seed: int | None, level: float
) -> SystemSamples:
    """:func:`bootstrap`'s checks and numbers for a corpus's records."""
    check_samples(n_samples, level, len(segs))
    if not segs:
        raise ValueError("cannot bootstrap an empty corpus")
    check_settings([("the corpus", segs)], params, "a bootstrap")
    mat, scores = stats_matrix(segs, params), scores_of(segs)
    ((corpus, means),) = resampled_matrices([mat], [scores], params, n_samples, seed)
    observed, observed_mean = _observed(mat, scores, params)
    intervals = CorpusIntervals(
        Interval.of(observed, corpus, level),
        Interval.of(observed_mean, means, level),
        n_samples,
        seed,
    )
    return SystemSamples(mat, scores, intervals, (corpus, means))


def scores_of(segs: Sequence[MeteorResult]) -> np.ndarray:
    return np.array([s.score for s in segs], dtype=np.float64)


def _observed(mat: np.ndarray, scores: np.ndarray, params: Params) -> tuple[float, float]:
    """Corpus METEOR from the summed rows (exact integers, Meteor 1.5's sum) and the
    mean of the segment scores."""
    score = compute(row_stats(mat.sum(axis=0)), params).score
    return score, math.fsum(scores.tolist()) / len(scores)


def _p_sacrebleu(a: np.ndarray, b: np.ndarray, observed: float) -> float:
    """sacreBLEU's paired-bootstrap p-value (module docstring)."""
    if observed == 0.0 and np.array_equal(a, b):
        return 1.0  # the same scores in every resample: no evidence of a difference
    diffs = np.abs(b - a)
    centred = diffs - diffs.mean()
    count = int(np.sum(centred > abs(observed)))
    return (count + 1) / (len(diffs) + 1)


def _p_two_sided(diff: np.ndarray) -> float:
    """``min(1, 2·(k + 1)/(B + 1))``, ``k`` the resampled differences on the far side
    of 0 (module docstring): never 0."""
    tail = min(int(np.sum(diff <= 0)), int(np.sum(diff >= 0)))
    return min(1.0, 2 * (tail + 1) / (len(diff) + 1))


def _paired_stat(
    obs_a: float, obs_b: float, a: np.ndarray, b: np.ndarray, level: float
) -> PairedStat:
    diff = b - a
    return PairedStat(
        a=Interval.of(obs_a, a, level),
        b=Interval.of(obs_b, b, level),
        difference=obs_b - obs_a,
        difference_interval=Interval.of(obs_b - obs_a, diff, level),
        p_value=_p_two_sided(diff),
        b_wins=float(np.mean(b > a)),
        a_wins=float(np.mean(a > b)),
        p_value_sacrebleu=_p_sacrebleu(a, b, obs_b - obs_a),
    )


def paired_bootstrap(
    a: CorpusResult | Sequence[MeteorResult],
    b: CorpusResult | Sequence[MeteorResult],
    params: Params,
    *,
    names: tuple[str, str] = ("A", "B"),
    n_samples: int = DEFAULT_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    level: float = 0.95,
    ids: tuple[Sequence[str], Sequence[str]] | None = None,
) -> PairedBootstrap:
    """Paired bootstrap resampling of system B against baseline A (module docstring).

    ``b`` has the same references as ``a`` in the same order, or, with ``ids`` (A's and B's
    segment ids), any segments: the test runs on the ids both have.

    Raises:
        ValueError: different segment counts (without ``ids``) or references, no
            segment in common, bad options; :class:`~meteor.signatures.SettingsMismatchError`
            when the systems (or ``params``) differ in settings.
    """
    sa, sb, _, n_a, n_b = paired_segments(a, b, params, names, n_samples, level, ids)
    mats = [stats_matrix(sa, params), stats_matrix(sb, params)]
    scores = [scores_of(sa), scores_of(sb)]
    samples = resampled_matrices(mats, scores, params, n_samples, seed)
    return paired_record(names, mats, scores, samples, params, (n_samples, seed, level), (n_a, n_b))


def paired_segments(
    a: CorpusResult | Sequence[MeteorResult],
    b: CorpusResult | Sequence[MeteorResult],
    params: Params,
    names: tuple[str, str],
    n_samples: int,
    level: float,
    ids: tuple[Sequence[str], Sequence[str]] | None,
) -> tuple[
    tuple[MeteorResult, ...],
    tuple[MeteorResult, ...],
    tuple[tuple[int, ...], tuple[int, ...]] | None,
    int,
    int,
]:
    """:func:`paired_bootstrap`'s checks: the paired segments of A and of B, their
    positions in A's and B's records (``None``: all, in order), and how many each has."""
    sa, sb = segments_of(a), segments_of(b)
    n_a, n_b = len(sa), len(sb)
    positions = None
    if ids is not None:
        ids_a, ids_b = ids
        if len(ids_a) != n_a or len(ids_b) != n_b:
            raise ValueError(f"ids: {len(ids_a)} and {len(ids_b)} ids for {n_a} and {n_b} segments")
        pos_a, pos_b = positions = common_segments(ids_a, ids_b)
        if not pos_a and sa and sb:
            raise ValueError(
                f"systems {names[0]} and {names[1]} have no segment id in common; "
                "a paired test needs segments both systems translated"
            )
        sa, sb = tuple(sa[k] for k in pos_a), tuple(sb[k] for k in pos_b)
        labels = [ids_a[k] for k in pos_a]
    else:
        labels = [str(k + 1) for k in range(len(sa))]
    check_samples(n_samples, level, len(sa))
    if len(sa) != len(sb):
        raise ValueError(f"system {names[0]} has {len(sa)} segments but {names[1]} has {len(sb)}")
    if not sa:
        raise ValueError("cannot bootstrap an empty corpus")
    for label, x, y in zip(labels, sa, sb, strict=True):
        if x.refs != y.refs:
            raise ValueError(
                f"segment {label} has different references for {names[0]} and {names[1]}; "
                "a paired test needs the same references"
            )
    check_settings([(names[0], sa), (names[1], sb)], params, "a paired test")
    return sa, sb, positions, n_a, n_b


def paired_record(
    names: tuple[str, str],
    mats: Sequence[np.ndarray],
    scores: Sequence[np.ndarray],
    samples: Sequence[tuple[np.ndarray, np.ndarray]],
    params: Params,
    options: tuple[int, int | None, float],
    records: tuple[int, int],
) -> PairedBootstrap:
    """The :class:`PairedBootstrap` of A's and B's paired rows and their resamples;
    ``options``: (samples, seed, level); ``records``: how many records A and B have."""
    n_samples, seed, level = options
    (ca, ma), (cb, mb) = samples
    obs = [_observed(m, s, params) for m, s in zip(mats, scores, strict=True)]
    return PairedBootstrap(
        names[0],
        names[1],
        _paired_stat(obs[0][0], obs[1][0], ca, cb, level),
        _paired_stat(obs[0][1], obs[1][1], ma, mb, level),
        n_samples,
        seed,
        len(mats[0]),
        records[0],
        records[1],
    )


# ---------------------------------------------------------------------------
# per-segment differences between two systems
# ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SegmentDiff:
    """One segment's score under A and B: ``index`` its 0-based position in A's records,
    ``index_b`` in B's (None: the same), ``seg_id`` its id when paired by id."""

    index: int
    score_a: float
    score_b: float
    index_b: int | None = None
    seg_id: str | None = None

    @property
    def difference(self) -> float:
        return self.score_b - self.score_a

    @property
    def position_b(self) -> int:
        """The segment's 0-based position in B's records."""
        return self.index if self.index_b is None else self.index_b


def segment_differences(
    a: CorpusResult | Sequence[MeteorResult],
    b: CorpusResult | Sequence[MeteorResult],
    *,
    ids: tuple[Sequence[str], Sequence[str]] | None = None,
) -> list[SegmentDiff]:
    """Segments sorted from B's largest win to B's largest loss (ties by index); with
    ``ids`` (A's and B's segment ids), the segments both have, paired by id."""
    sa, sb = segments_of(a), segments_of(b)
    if ids is not None:
        pos_a, pos_b = common_segments(*ids)
        diffs = [
            SegmentDiff(i, sa[i].score, sb[j].score, j, ids[0][i])
            for i, j in zip(pos_a, pos_b, strict=True)
        ]
    else:
        if len(sa) != len(sb):
            raise ValueError(f"A has {len(sa)} segments but B has {len(sb)}")
        diffs = [
            SegmentDiff(k, x.score, y.score) for k, (x, y) in enumerate(zip(sa, sb, strict=True))
        ]
    return sorted(diffs, key=lambda d: (-d.difference, d.index))
