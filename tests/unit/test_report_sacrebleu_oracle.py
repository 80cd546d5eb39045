"""sacreBLEU is the oracle of the report's paired tests where it has the same test
(issue 42): its ``_paired_ar_test`` and ``_paired_bs_test`` run on our per-segment
statistics through sacreBLEU's own ``Metric`` interface (a stand-in whose corpus score is
METEOR of the summed rows).

* **Approximate randomisation**: given sacreBLEU's swap masks, every one of the report's
  randomisation p-values is sacreBLEU's exactly; with our own draws (10,000 trials each)
  they agree within the Monte-Carlo error.  One definitional difference, outside these
  cases: a trial whose difference *equals* the observed one counts for us (``≥``,
  Riezler & Maxwell 2005) and not for sacreBLEU (``>``); and two identical systems give
  p = 1 here, 1/(T+1) there.
* **Paired bootstrap**: given the same resample indices, sacreBLEU's p is the record's
  ``p_value_sacrebleu`` exactly.  The report's own bootstrap p (two-sided,
  ``2(k+1)/(B+1)``) is not a sacreBLEU test.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from sacrebleu import significance as sb

import meteor
from meteor.analysis import ranking
from meteor.analysis.ranking import randomisation_p_values, rank_systems
from meteor.analysis.resampling import resample_indices, row_stats, stats_matrix
from meteor.io.read import load_corpus
from meteor.scoring import compute

DEMO = Path(meteor.__file__).parent / "data" / "agreement" / "wmt21_ru-en_da_demo.tsv"
SEED = 12345


@pytest.fixture(scope="module")
def demo() -> tuple[dict[str, meteor.CorpusResult], meteor.Meteor]:
    corpus = load_corpus([(DEMO.name, DEMO.read_bytes())])
    m = meteor.Meteor("meteor-1.5")
    return {n: m.corpus_score(list(h), list(corpus.refs_of(n))) for n, h in corpus.systems}, m


class MeteorStats:
    """sacreBLEU's ``Metric`` interface on our statistics rows: a system's "statistics" are
    its :func:`stats_matrix`, its corpus score METEOR of their sum (Meteor 1.5's rule)."""

    def __init__(self, mat: np.ndarray, params: Any) -> None:
        self.mat, self.params = mat, params

    def _extract_corpus_statistics(self, hyps: Any, refs: Any) -> np.ndarray:
        return self.mat

    def _compute_score_from_stats(self, sums: np.ndarray) -> SimpleNamespace:
        return SimpleNamespace(score=compute(row_stats(np.asarray(sums)), self.params).score)

    def _aggregate_and_compute(self, stats: np.ndarray) -> SimpleNamespace:
        return self._compute_score_from_stats(np.asarray(stats, dtype=np.float64).sum(axis=0))


def _sacrebleu(test: Any, ma: np.ndarray, mb: np.ndarray, params: Any, n: int, **kw: Any) -> float:
    """sacreBLEU's p of system B against baseline A."""
    base = MeteorStats(ma, params)
    info = {"meteor": (ma, base._aggregate_and_compute(ma))}
    _, res = test(info, "B", [""] * len(ma), None, {"meteor": MeteorStats(mb, params)},
                  n_samples=n, seed=SEED, **kw)  # fmt: skip
    return float(res["meteor"].p_value)


def _sacrebleu_masks(n: int, trials: int, seed: int | None) -> Iterator[np.ndarray]:
    """sacreBLEU's draws (``rng.integers(2, size=(T, n), dtype=bool)``) as our swap masks:
    keeping or swapping a segment gives the same |difference| either way round."""
    yield np.random.default_rng(seed).integers(2, size=(trials, n), dtype=bool)


def test_randomisation_p_values_are_sacrebleus_given_its_draws(demo, monkeypatch) -> None:
    results, m = demo
    trials = 1000
    monkeypatch.setattr(ranking, "swap_masks", _sacrebleu_masks)
    rk = rank_systems(results, m.params, n_samples=100, trials=trials, seed=SEED)
    assert rk.comparisons == 55
    for pair in rk.pairs:
        ma = stats_matrix(results[pair.a].segments, m.params)
        mb = stats_matrix(results[pair.b].segments, m.params)
        want = _sacrebleu(sb._paired_ar_test, ma, mb, m.params, trials)
        assert pair.p_randomisation == want, (pair.a, pair.b)


def test_randomisation_agrees_with_sacrebleu_within_monte_carlo_error(demo) -> None:
    """Our own draws, 10,000 trials as sacreBLEU's default, on pairs from clear to close."""
    results, m = demo
    names = sorted(results, key=lambda n: -results[n].score)
    trials = 10_000
    for a, b in ((names[0], names[-1]), (names[1], names[2]), (names[3], names[6])):
        ma = stats_matrix(results[a].segments, m.params)
        mb = stats_matrix(results[b].segments, m.params)
        ours = randomisation_p_values([ma, mb], [(0, 1)], m.params, trials, SEED)[0]
        theirs = _sacrebleu(sb._paired_ar_test, ma, mb, m.params, trials)
        se = math.sqrt(max(theirs * (1 - theirs), 1e-4) * 2 / trials)
        assert abs(ours - theirs) <= 4 * se, (a, b, ours, theirs)


class _SameIndices:
    """A generator whose ``choice`` gives our resample indices (sacreBLEU draws its own)."""

    def __init__(self, indices: np.ndarray) -> None:
        self.indices = indices

    def __call__(self, seed: int | None) -> _SameIndices:
        return self

    def choice(self, n: int, size: tuple[int, int], replace: bool) -> np.ndarray:
        assert size == self.indices.shape and replace
        return self.indices


def test_bootstrap_p_is_sacrebleus_given_the_same_resamples(demo, monkeypatch) -> None:
    results, m = demo
    samples = 300
    rk = rank_systems(results, m.params, n_samples=samples, trials=100, seed=SEED)
    ours = resample_indices(len(results[rk.pairs[0].a].segments), samples, SEED)
    monkeypatch.setattr(sb.np.random, "default_rng", _SameIndices(ours))
    for pair in rk.pairs[:12]:
        ma = stats_matrix(results[pair.a].segments, m.params)
        mb = stats_matrix(results[pair.b].segments, m.params)
        want = _sacrebleu(sb._paired_bs_test, ma, mb, m.params, samples)
        assert pair.paired.corpus.p_value_sacrebleu == pytest.approx(want, abs=1e-12)
        assert pair.p_bootstrap > 0
