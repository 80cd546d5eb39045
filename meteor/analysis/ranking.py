"""N systems ranked: corpus METEOR with intervals, every pairwise test, clusters.

As docs/report.md ("Ranking") states: every pair is tested on its common segments by
approximate randomisation on the sufficient statistics (sacreBLEU's ``_paired_ar_test``:
``p = (#{t : |Δ_t| ≥ |Δ|} + 1) / (T + 1)``) and by the paired bootstrap
(:func:`meteor.analysis.significance.paired_bootstrap`); one named test decides, its
p-values adjusted over all comparisons (:mod:`meteor.analysis.multiple_comparisons`).
Clusters are this project's own rule (:data:`CLUSTER_RULE`; neither WMT's human-evaluation
clustering, Akhbardeh et al. 2021 §3, nor sacreBLEU's); a decision within
:data:`BORDERLINE` of ``alpha`` is listed (:attr:`Ranking.borderline`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from meteor.analysis.multiple_comparisons import (
    CORRECTIONS,
    adjust_p_values,
    check_correction,
    correction_name,
)
from meteor.analysis.resampling import (
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
    SystemSamples,
    bootstrap_records,
    common_segments,
    paired_record,
    paired_segments,
    stats_matrix,
)
from meteor.params import Params
from meteor.scoring import compute
from meteor.stats import Breakdown, BreakdownFields
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "BORDERLINE",
    "CLUSTER_RULE",
    "CORRECTIONS",
    "ClusterDecision",
    "DEFAULT_TRIALS",
    "MAX_TRIALS",
    "TESTS",
    "PairTest",
    "Ranking",
    "SystemRow",
    "approximate_randomisation",
    "check_ranking_options",
    "named_test",
    "randomisation_p_values",
    "rank_systems",
]

CLUSTER_RULE = (
    "greedy top-anchored clusters (this project's rule, neither WMT's human-evaluation "
    "clustering nor a sacreBLEU feature): systems sorted by corpus METEOR, best first; "
    "each next system joins the current cluster unless its difference from that "
    "cluster's top system is significant, in which case it opens a new cluster"
)

#: The tests that can decide significance: approximate randomisation, paired bootstrap.
TESTS = ("ar", "bootstrap")
_TEST_NAMES = {"ar": "approximate randomisation", "bootstrap": "paired bootstrap"}
#: Randomisation trials by default (sacreBLEU's ``--paired-ar-n``).
DEFAULT_TRIALS = 10_000
#: Most randomisation trials accepted.
MAX_TRIALS = 1_000_000
#: A cluster decision whose adjusted p is this close to ``alpha`` is listed as borderline.
BORDERLINE = 0.01


def named_test(test: str) -> str:
    """``approximate randomisation`` or ``paired bootstrap``."""
    check_test(test)
    return _TEST_NAMES[test]


def check_test(test: str) -> None:
    if test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)}; got {test!r}")


Progress = Callable[[str], None]


def approximate_randomisation(
    a: Sequence[MeteorResult],
    b: Sequence[MeteorResult],
    params: Params,
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = DEFAULT_SEED,
) -> float:
    """Approximate-randomisation p-value of corpus METEOR ``b − a`` (module docstring) on
    the two systems' records of the same segments, in the same order (the swaps:
    :func:`~meteor.analysis.resampling.swap_masks`)."""
    if len(a) != len(b) or not a:
        raise ValueError(
            f"approximate randomisation needs the same segments: {len(a)} and {len(b)}"
        )
    _check_trials(trials)
    mats = [stats_matrix(a, params), stats_matrix(b, params)]
    return randomisation_p_values(mats, [(0, 1)], params, trials, seed)[0]


def check_ranking_options(*, test: str, correction: str, trials: int, alpha: float) -> None:
    """:func:`rank_systems`'s test options, each refused with a message naming it."""
    check_test(test)
    check_correction(correction)
    _check_trials(trials)
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")


def _check_trials(trials: int) -> None:
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ValueError(f"n_trials must be a positive whole number, got {trials!r}")
    if trials > MAX_TRIALS:
        raise ValueError(f"n_trials is {trials:,}; at most {MAX_TRIALS:,} are accepted")


def randomisation_p_values(
    mats: Sequence[np.ndarray],
    pairs: Sequence[tuple[int, int]],
    params: Params,
    trials: int,
    seed: int | None,
) -> list[float]:
    """:func:`approximate_randomisation` of every pair ``(a, b)`` of systems given as
    :func:`stats_matrix` rows of the same segments (``mats[a]``, ``mats[b]``).

    Every pair draws the same swaps, so a batch's masks ``S`` are multiplied once per
    system: ``S·m_b − S·m_a`` is the same exact integers as ``S·(m_b − m_a)``, so every
    p-value is the one the pair alone gives.
    """
    sums = [m.sum(axis=0) for m in mats]
    observed = [
        abs(compute(row_stats(sums[j]), params).score - compute(row_stats(sums[i]), params).score)
        for i, j in pairs
    ]
    # the same statistics in every segment: every trial ties, p = 1
    live = [k for k, (i, j) in enumerate(pairs) if not np.array_equal(mats[i], mats[j])]
    hits = dict.fromkeys(live, 0)
    used = sorted({x for k in live for x in pairs[k]})
    if live:
        for swaps in swap_masks(len(mats[0]), trials, seed):
            masks = swaps.astype(np.float64)
            moved_of = {x: integer_product(masks, mats[x]) for x in used}
            moved = [(pairs[k], moved_of[pairs[k][1]] - moved_of[pairs[k][0]]) for k in live]
            grid_a = np.concatenate([sums[i] + m for (i, _), m in moved])
            grid_b = np.concatenate([sums[j] - m for (_, j), m in moved])
            both = scores_of_sums(np.concatenate([grid_a, grid_b]), params)
            gap = np.abs(both[len(grid_a) :] - both[: len(grid_a)]).reshape(len(live), len(masks))
            for row, k in enumerate(live):
                hits[k] += int(np.sum(gap[row] >= observed[k] - 1e-12))
    return [(hits[k] + 1) / (trials + 1) if k in hits else 1.0 for k in range(len(pairs))]


@dataclass(frozen=True, slots=True)
class SystemRow(BreakdownFields):
    """One system of the ranking table: its bootstrap intervals (``corpus``: corpus METEOR
    from summed statistics; ``mean_segment``: the mean of segment scores) and the formula's
    breakdown of its corpus score (``precision`` … ``score`` read from it)."""

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
    paired bootstrap it summarises, the randomisation test's p-value, the deciding
    ``test`` (``"ar"`` or ``"bootstrap"``), its p-value adjusted for multiple comparisons
    (:attr:`Ranking.correction`) and the verdict (``p_adjusted < alpha``)."""

    paired: PairedBootstrap
    p_randomisation: float
    test: str
    p_adjusted: float
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

    def p_raw(self, test: str) -> float:
        """The unadjusted p of ``test`` (``"ar"`` or ``"bootstrap"``)."""
        check_test(test)
        return self.p_randomisation if test == "ar" else self.p_bootstrap

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "common_segments": self.common,
            "difference_b_minus_a": self.difference,
            "difference_interval": [self.difference_low, self.difference_high],
            "p_paired_bootstrap": self.p_bootstrap,
            "p_approximate_randomisation": self.p_randomisation,
            "decided_by": named_test(self.test),
            "p_adjusted": self.p_adjusted,
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
    test: str
    correction: str
    borderline: tuple[ClusterDecision, ...]
    cluster_rule: str = CLUSTER_RULE

    @property
    def adjusted_label(self) -> str:
        """The adjusted p's column title: ``adjusted p (Holm, randomisation)``."""
        short = "randomisation" if self.test == "ar" else "bootstrap"
        return f"adjusted p ({correction_name(self.correction)}, {short})"

    @property
    def decision(self) -> str:
        """The significance rule in one sentence, as every output prints it."""
        ar = f"approximate randomisation ({self.trials:,} trials)"
        bs = f"paired bootstrap ({self.samples:,} resamples)"
        deciding, other = (ar, bs) if self.test == "ar" else (bs, ar)
        corr = (
            "with no multiple-comparison correction"
            if self.correction == "none"
            else f"after the {correction_name(self.correction)} correction over "
            f"{self.comparisons} comparisons"
        )
        return (
            f"significant: {deciding} p < {self.alpha:g} {corr}; the {other} p is shown beside it"
        )

    def adjusted_p_values(self, test: str) -> tuple[float, ...]:
        """``test``'s p-values of :attr:`pairs` (in their order) after :attr:`correction`."""
        return adjust_p_values([p.p_raw(test) for p in self.pairs], self.correction)

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
            "test": self.test,
            "test_name": named_test(self.test),
            "multiple_comparison_correction": self.correction,
            "decision": self.decision,
            "bootstrap_samples": self.samples,
            "randomisation_trials": self.trials,
            "seed": self.seed,
            "level": self.level,
            "paired_on_common_segment_ids": self.paired_on_common_ids,
            "clusters": [list(c) for c in self.clusters()],
            "cluster_rule": self.cluster_rule,
            "borderline_cluster_decisions": [d.to_dict() for d in self.borderline],
        }


@dataclass(frozen=True, slots=True)
class ClusterDecision:
    """One step of the clustering: ``system`` against its cluster's ``top`` system, the
    deciding test's adjusted p, and whether ``system`` opened a new cluster."""

    top: str
    system: str
    p_adjusted: float
    new_cluster: bool

    def note(self, alpha: float) -> str:
        """The sentence the report prints for a borderline decision."""
        verb = (
            f"opens a new cluster after {self.top}"
            if self.new_cluster
            else f"stays in the cluster of {self.top}"
        )
        return (
            f"{self.system} {verb} on an adjusted p of {self.p_adjusted:.4f}, within "
            f"{BORDERLINE:g} of alpha {alpha:g}: another seed or number of trials can move "
            "this cluster boundary"
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def rank_systems(
    results: Mapping[str, CorpusResult],
    params: Params,
    *,
    ids: Mapping[str, Sequence[str]] | None = None,
    n_samples: int = 1000,
    trials: int = DEFAULT_TRIALS,
    seed: int | None = DEFAULT_SEED,
    level: float = 0.95,
    alpha: float = 0.05,
    test: str = "ar",
    correction: str = "holm",
    progress: Progress | None = None,
) -> Ranking:
    """Rank the systems, test every pair (bootstrap and randomisation), cluster them.

    Args:
        results: each system's scored corpus, scored with ``params``.
        ids: each system's segment ids (pairs are then tested on the ids both have);
            without, every system has the same segments in the same order.
        test: the test that decides significance, ``"ar"`` or ``"bootstrap"``; the other
            is shown beside it.
        correction: ``"holm"``, ``"bonferroni"`` or ``"none"`` over the pairwise tests.
        progress: called with a short line per step.
    """
    if not results:
        raise ValueError("a ranking needs at least one system")
    check_ranking_options(test=test, correction=correction, trials=trials, alpha=alpha)
    names = list(results)
    say = progress or (lambda _msg: None)
    sampled: dict[str, SystemSamples] = {}
    for name in names:
        say(f"bootstrap {name}")
        sampled[name] = bootstrap_records(results[name].segments, params, n_samples, seed, level)
    order = sorted(names, key=lambda n: (-results[n].score, names.index(n)))
    common_all = True
    paired: dict[tuple[str, str], tuple[PairedBootstrap, list[np.ndarray] | None]] = {}
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
        paired[(hi, lo)] = _paired_bootstrap(
            (hi, lo), results, sampled, params, pair_ids, (n_samples, seed, level)
        )
    p_ar = _randomisation(paired, sampled, params, trials, seed, say)
    p_bs = {key: pb.corpus.p_value for key, (pb, _) in paired.items()}
    deciding = p_ar if test == "ar" else p_bs
    keys = list(paired)
    adjusted = dict(
        zip(keys, adjust_p_values([deciding[k] for k in keys], correction), strict=True)
    )
    tests = {
        key: PairTest(pb, p_ar[key], test, adjusted[key], bool(adjusted[key] < alpha))
        for key, (pb, _) in paired.items()
    }
    clusters, decisions = _clusters(order, tests)
    rows = [
        SystemRow(
            name,
            rank,
            clusters[name],
            len(results[name].segments),
            sampled[name].intervals,
            results[name].breakdown,
        )
        for rank, name in enumerate(order, start=1)
    ]
    borderline = tuple(
        d
        for d in decisions
        if math.isfinite(d.p_adjusted) and abs(d.p_adjusted - alpha) <= BORDERLINE
    )
    return Ranking(
        tuple(rows),
        tuple(tests.values()),
        len(tests),
        alpha,
        n_samples,
        trials,
        seed,
        level,
        ids is not None and not common_all,
        test,
        correction,
        borderline,
    )


def _paired_bootstrap(
    names: tuple[str, str],
    results: Mapping[str, CorpusResult],
    sampled: Mapping[str, SystemSamples],
    params: Params,
    pair_ids: tuple[Sequence[str], Sequence[str]] | None,
    options: tuple[int, int | None, float],
) -> tuple[PairedBootstrap, list[np.ndarray] | None]:
    """The paired bootstrap (``options``: samples, seed, level) of ``names[1]`` against
    ``names[0]``, and the pair's statistics rows when it covers only some of the systems'
    records (``None``: all, in order: each system's own resamples are reused)."""
    hi, lo = names
    n_samples, seed, level = options
    _, _, positions, n_a, n_b = paired_segments(
        results[hi], results[lo], params, names, n_samples, level, pair_ids
    )
    a, b = sampled[hi], sampled[lo]
    subset: list[np.ndarray] | None = None
    if positions is None or (
        positions[0] == tuple(range(n_a)) and positions[1] == tuple(range(n_b))
    ):
        mats, scores, samples = [a.mat, b.mat], [a.scores, b.scores], [a.samples, b.samples]
    else:
        rows_a, rows_b = list(positions[0]), list(positions[1])
        mats = subset = [a.mat[rows_a], b.mat[rows_b]]
        scores = [a.scores[rows_a], b.scores[rows_b]]
        samples = resampled_matrices(mats, scores, params, n_samples, seed)
    pb = paired_record(names, mats, scores, samples, params, options, (n_a, n_b))
    return pb, subset


def _randomisation(
    paired: Mapping[tuple[str, str], tuple[PairedBootstrap, list[np.ndarray] | None]],
    sampled: Mapping[str, SystemSamples],
    params: Params,
    trials: int,
    seed: int | None,
    say: Progress,
) -> dict[tuple[str, str], float]:
    """Every pair's randomisation p: the pairs on all of both systems' records together
    (:func:`randomisation_p_values`, grouped by segment count), the others one by one."""
    if paired:
        say(f"compare all pairs: approximate randomisation ({trials:,} trials)")
    out: dict[tuple[str, str], float] = {}
    groups: dict[int, list[tuple[str, str]]] = {}
    for key, (_, subset) in paired.items():
        if subset is None:
            groups.setdefault(len(sampled[key[0]].mat), []).append(key)
        else:
            out[key] = randomisation_p_values(subset, [(0, 1)], params, trials, seed)[0]
    for keys in groups.values():
        names = sorted({x for key in keys for x in key})
        mats = [sampled[x].mat for x in names]
        pairs = [(names.index(hi), names.index(lo)) for hi, lo in keys]
        ps = randomisation_p_values(mats, pairs, params, trials, seed)
        out.update(zip(keys, ps, strict=True))
    return out


def _clusters(
    order: Sequence[str], tests: Mapping[tuple[str, str], PairTest]
) -> tuple[dict[str, int], list[ClusterDecision]]:
    """Each system's cluster (module docstring): a new one when the difference from the
    current cluster's top system is significant (or was not tested); and each decision."""
    clusters: dict[str, int] = {}
    decisions: list[ClusterDecision] = []
    top = order[0]
    cluster = 1
    for name in order:
        if name != top:
            t = tests.get((top, name))
            opens = t is None or t.significant
            decisions.append(
                ClusterDecision(top, name, math.nan if t is None else t.p_adjusted, opens)
            )
            if opens:
                cluster += 1
                top = name
        clusters[name] = cluster
    return clusters, decisions
