"""N systems ranked: corpus METEOR with intervals, every pairwise test, clusters.

**Tests.**  Every pair of systems is compared twice on the segments both have
(paired by segment id, :func:`meteor.analysis.significance.common_segments`):

* the **paired bootstrap** of :func:`meteor.analysis.significance.paired_bootstrap` (its
  two-sided p-value, the one that agrees with its interval), and
* **approximate randomisation** on the sufficient statistics (:func:`approximate_randomisation`,
  sacreBLEU's ``_paired_ar_test`` for BLEU/chrF): in each trial every segment's two
  statistics rows are swapped between the systems with probability ½, both corpus
  scores are recomputed from the summed rows, and
  ``p = (#{t : |s_B,t − s_A,t| ≥ |s_B − s_A|} + 1) / (T + 1)``.

A difference is **significant** when both p-values are below ``alpha`` (0.05).  With
``N`` systems ``N·(N − 1)/2`` comparisons are made; no correction for multiple
comparisons is applied, and the record says how many were made (Bonferroni's
threshold ``alpha / comparisons`` is stated beside it).

**Clusters** (the WMT / sacreBLEU style).  Systems are sorted by corpus score, best
first.  The first system opens cluster 1; each next system joins the current
cluster unless its difference from the cluster's *top* system is significant,
in which case it opens the next cluster.  So no system in a cluster is
significantly worse than that cluster's top system.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from meteor.analysis.resampling import (
    check_samples,
    check_settings,
    integer_product,
    resampled_matrices,
    row_stats,
    scores_of_sums,
    swap_masks,
)
from meteor.analysis.significance import (
    DEFAULT_SEED,
    CorpusIntervals,
    Interval,
    PairedBootstrap,
    bootstrap_matrix,
    common_segments,
    paired_record,
    paired_segments,
    scores_of,
    stats_matrix,
)
from meteor.params import Params
from meteor.scoring import compute
from meteor.stats import Breakdown, BreakdownFields
from meteor.types import CorpusResult, MeteorResult, Stats

__all__ = [
    "CLUSTER_RULE",
    "PairTest",
    "Ranking",
    "SystemRow",
    "approximate_randomisation",
    "rank_systems",
    "summed_score",
]

CLUSTER_RULE = (
    "systems sorted by corpus METEOR; a system opens a new cluster when its difference "
    "from the top system of the current cluster is significant (p < alpha in both the "
    "paired bootstrap and approximate randomisation), else it joins that cluster"
)

Progress = Callable[[str], None]


def summed_score(segments: Sequence[MeteorResult], params: Params) -> tuple[float, Any]:
    """Corpus METEOR of ``segments`` from their summed statistics (Meteor 1.5's rule),
    and the formula's :class:`~meteor.scoring.Breakdown`."""
    total = Stats()
    for s in segments:
        total = total + s.stats.corpus_contribution(perfect_rule=params.perfect_rule)
    b = compute(total, params)
    return b.score, b


def approximate_randomisation(
    a: Sequence[MeteorResult],
    b: Sequence[MeteorResult],
    params: Params,
    *,
    trials: int = 1000,
    seed: int | None = DEFAULT_SEED,
) -> float:
    """Approximate-randomisation p-value of corpus METEOR ``b − a`` (module docstring).

    ``a`` and ``b`` are the two systems' records of the same segments, in the same order.
    Trial ``t`` swaps segment ``i`` when ``rng.random(n)[i] < 0.5`` on
    ``rng = numpy.random.default_rng(seed)``, one draw per trial in order.
    """
    if len(a) != len(b) or not a:
        raise ValueError(
            f"approximate randomisation needs the same segments: {len(a)} and {len(b)}"
        )
    _check_trials(trials)
    return _randomisation_p(stats_matrix(a, params), stats_matrix(b, params), params, trials, seed)


def _check_trials(trials: int) -> None:
    if trials < 1:
        raise ValueError(f"trials must be positive, got {trials}")


def _randomisation_p(
    ma: np.ndarray, mb: np.ndarray, params: Params, trials: int, seed: int | None
) -> float:
    """:func:`approximate_randomisation` on the two systems' :func:`stats_matrix`.

    The trials go in batches: a batch's swap masks times the rows' differences give
    every trial's moved statistics (exact integers), :func:`scores_of_sums` both scores.
    """
    sum_a, sum_b = ma.sum(axis=0), mb.sum(axis=0)
    observed = abs(
        compute(row_stats(sum_b), params).score - compute(row_stats(sum_a), params).score
    )
    delta = mb - ma
    if not delta.any():
        return 1.0  # the same statistics in every segment: every trial ties
    hits = 0
    for swaps in swap_masks(len(ma), trials, seed):
        moved = integer_product(swaps.astype(np.float64), delta)
        sa = scores_of_sums(sum_a + moved, params)
        sb = scores_of_sums(sum_b - moved, params)
        hits += int(np.sum(np.abs(sb - sa) >= observed - 1e-12))
    return (hits + 1) / (trials + 1)


@dataclass(frozen=True, slots=True)
class SystemRow(BreakdownFields):
    """One system of the ranking table: the bootstrap intervals and the formula's breakdown
    of its corpus score that the row summarises (``precision`` … ``score`` read from it).

    ``corpus`` is corpus METEOR from summed statistics with its bootstrap interval;
    ``mean_segment`` the mean of segment scores (a different number, labelled so).
    """

    name: str
    rank: int
    cluster: int
    segments: int
    intervals: CorpusIntervals
    breakdown: Breakdown

    @property
    def corpus(self) -> Interval:
        return self.intervals.corpus

    @property
    def mean_segment(self) -> Interval:
        return self.intervals.mean_segment

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.name,
            "rank": self.rank,
            "cluster": self.cluster,
            "segments": self.segments,
            "corpus_meteor": self.corpus.to_dict(),
            "mean_of_segment_scores": self.mean_segment.to_dict(),
            "precision": self.precision,
            "recall": self.recall,
            "fragmentation": self.frag,
        }


@dataclass(frozen=True, slots=True)
class PairTest:
    """System ``b`` against ``a`` (``a`` ranked higher) on their ``common`` segments: the
    paired bootstrap it summarises, the randomisation test's p-value and the verdict."""

    paired: PairedBootstrap
    p_randomisation: float
    significant: bool

    @property
    def a(self) -> str:
        return self.paired.name_a

    @property
    def b(self) -> str:
        return self.paired.name_b

    @property
    def common(self) -> int:
        return self.paired.n_segments

    @property
    def difference(self) -> float:
        return self.paired.corpus.difference

    @property
    def difference_low(self) -> float:
        return self.paired.corpus.difference_interval.low

    @property
    def difference_high(self) -> float:
        return self.paired.corpus.difference_interval.high

    @property
    def p_bootstrap(self) -> float:
        return self.paired.corpus.p_value

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "common_segments": self.common,
            "difference_b_minus_a": self.difference,
            "difference_interval": [self.difference_low, self.difference_high],
            "p_paired_bootstrap": self.p_bootstrap,
            "p_approximate_randomisation": self.p_randomisation,
            "significant": self.significant,
        }


@dataclass(frozen=True, slots=True)
class Ranking:
    """The ranking table, every pairwise test and the clusters."""

    systems: tuple[SystemRow, ...]
    pairs: tuple[PairTest, ...]
    comparisons: int
    alpha: float
    samples: int
    trials: int
    seed: int | None
    level: float
    paired_on_common_ids: bool
    cluster_rule: str = CLUSTER_RULE

    def pair(self, a: str, b: str) -> PairTest:
        for p in self.pairs:
            if {p.a, p.b} == {a, b}:
                return p
        raise KeyError(f"no comparison of {a!r} and {b!r}")

    def clusters(self) -> tuple[tuple[str, ...], ...]:
        out: dict[int, list[str]] = {}
        for row in self.systems:
            out.setdefault(row.cluster, []).append(row.name)
        return tuple(tuple(v) for _, v in sorted(out.items()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "systems": [r.to_dict() for r in self.systems],
            "pairs": [p.to_dict() for p in self.pairs],
            "comparisons": self.comparisons,
            "alpha": self.alpha,
            "bonferroni_threshold": self.alpha / self.comparisons if self.comparisons else None,
            "multiple_comparison_correction": "none",
            "bootstrap_samples": self.samples,
            "randomisation_trials": self.trials,
            "seed": self.seed,
            "level": self.level,
            "paired_on_common_segment_ids": self.paired_on_common_ids,
            "clusters": [list(c) for c in self.clusters()],
            "cluster_rule": self.cluster_rule,
        }


def rank_systems(
    results: Mapping[str, CorpusResult],
    params: Params,
    *,
    ids: Mapping[str, Sequence[str]] | None = None,
    n_samples: int = 1000,
    trials: int | None = None,
    seed: int | None = DEFAULT_SEED,
    level: float = 0.95,
    alpha: float = 0.05,
    progress: Progress | None = None,
) -> Ranking:
    """Rank the systems, test every pair (bootstrap and randomisation), cluster them.

    Args:
        results: each system's scored corpus (scored once, with ``params``).
        params: the settings they were scored with.
        ids: each system's segment ids (pairs are then tested on the ids both have);
            without it every system must have the same segments in the same order.
        n_samples: bootstrap resamples; ``trials``: randomisation trials (default the same).
        seed: seed of every resampling; ``level``: interval level; ``alpha``: test level.
        progress: called with a short line per step.
    """
    if not results:
        raise ValueError("a ranking needs at least one system")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    opts = _Options(n_samples, n_samples if trials is None else trials, seed, level, alpha)
    names = list(results)
    say = progress or (lambda _msg: None)
    sampled = {name: _bootstrap_system(name, results[name], params, opts, say) for name in names}
    order = sorted(names, key=lambda n: (-results[n].score, names.index(n)))
    common_all = True
    tests: dict[tuple[str, str], PairTest] = {}
    for hi, lo in itertools.combinations(order, 2):
        say(f"compare {hi} / {lo}")
        pair_ids = None if ids is None else (ids[hi], ids[lo])
        if pair_ids is not None:
            pos_a, pos_b = common_segments(*pair_ids)
            if len(pos_a) != len(results[hi].segments) or len(pos_b) != len(results[lo].segments):
                common_all = False
            if not pos_a:
                continue  # nothing in common: no test (the record's comparisons says so)
        elif not results[hi].segments:
            continue
        tests[(hi, lo)] = _pair_test((hi, lo), results, sampled, params, pair_ids, opts)
    clusters = _clusters(order, tests)
    rows = [
        _system_row(name, rank, clusters[name], results[name], sampled[name].intervals)
        for rank, name in enumerate(order, start=1)
    ]
    return Ranking(
        tuple(rows),
        tuple(tests.values()),
        len(tests),
        alpha,
        opts.samples,
        opts.trials,
        seed,
        level,
        ids is not None and not common_all,
    )


@dataclass(frozen=True, slots=True)
class _Options:
    samples: int
    trials: int
    seed: int | None
    level: float
    alpha: float


@dataclass(frozen=True, slots=True)
class _Sampled:
    """One system's statistics matrix, segment scores, intervals and resamples (all
    its segments), kept so that a pair on the same segments reuses the resamples."""

    mat: np.ndarray
    scores: np.ndarray
    intervals: CorpusIntervals
    samples: tuple[np.ndarray, np.ndarray]


def _bootstrap_system(
    name: str, result: CorpusResult, params: Params, opts: _Options, say: Progress
) -> _Sampled:
    """:func:`~meteor.analysis.significance.bootstrap` of one system, keeping its parts."""
    say(f"bootstrap {name}")
    segs = result.segments
    check_samples(opts.samples, opts.level, len(segs))
    if not segs:
        raise ValueError("cannot bootstrap an empty corpus")
    check_settings([("the corpus", segs)], params, "a bootstrap")
    mat, scores = stats_matrix(segs, params), scores_of(segs)
    intervals, samples = bootstrap_matrix(mat, scores, params, opts.samples, opts.seed, opts.level)
    return _Sampled(mat, scores, intervals, samples)


def _pair_test(
    names: tuple[str, str],
    results: Mapping[str, CorpusResult],
    sampled: Mapping[str, _Sampled],
    params: Params,
    pair_ids: tuple[Sequence[str], Sequence[str]] | None,
    opts: _Options,
) -> PairTest:
    """The paired bootstrap (:func:`~meteor.analysis.significance.paired_bootstrap`'s
    numbers) and the randomisation test of ``names[1]`` against ``names[0]``.

    The paired resamples use the same draws as each system's own bootstrap, so when
    the pair covers all of both systems' records in order they are those resamples.
    """
    hi, lo = names
    _, _, positions, n_a, n_b = paired_segments(
        results[hi], results[lo], params, names, opts.samples, opts.level, pair_ids
    )
    a, b = sampled[hi], sampled[lo]
    if positions is None or (
        positions[0] == tuple(range(n_a)) and positions[1] == tuple(range(n_b))
    ):
        mats, scores, samples = [a.mat, b.mat], [a.scores, b.scores], [a.samples, b.samples]
    else:
        rows_a, rows_b = list(positions[0]), list(positions[1])
        mats = [a.mat[rows_a], b.mat[rows_b]]
        scores = [a.scores[rows_a], b.scores[rows_b]]
        samples = resampled_matrices(mats, scores, params, opts.samples, opts.seed)
    pb = paired_record(
        names, mats, scores, samples, params, (opts.samples, opts.seed, opts.level), (n_a, n_b)
    )
    _check_trials(opts.trials)
    p_ar = _randomisation_p(mats[0], mats[1], params, opts.trials, opts.seed)
    p_bs = pb.corpus.p_value
    return PairTest(pb, p_ar, bool(p_bs < opts.alpha and p_ar < opts.alpha))


def _clusters(order: Sequence[str], tests: Mapping[tuple[str, str], PairTest]) -> dict[str, int]:
    """Each system's cluster (module docstring): a new one when the difference from the
    current cluster's top system is significant (or was not tested)."""
    clusters: dict[str, int] = {}
    top = order[0]
    cluster = 1
    for name in order:
        if name != top:
            t = tests.get((top, name))
            if t is None or t.significant:
                cluster += 1
                top = name
        clusters[name] = cluster
    return clusters


def _system_row(
    name: str, rank: int, cluster: int, r: CorpusResult, ci: CorpusIntervals
) -> SystemRow:
    return SystemRow(name, rank, cluster, len(r.segments), ci, r.breakdown)
