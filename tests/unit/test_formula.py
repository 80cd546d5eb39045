"""The METEOR formula has one home (:func:`meteor.scoring.formula`): the scalar
:func:`~meteor.scoring.compute`, the bootstrap's :func:`~meteor.analysis.resampling.scores_of_sums`
and tune's many-point :func:`~meteor.analysis.tune_scoring.segment_scores` give the same
floats, bit for bit, so a tuned setting's reported agreement is the one ``correlate``
measures for it."""

from __future__ import annotations

import numpy as np
import pytest

from meteor.analysis import tune_scoring as tp
from meteor.analysis.resampling import scores_of_sums, stats_matrix
from meteor.module_registry import module_slot
from meteor.presets import get_preset
from meteor.scoring import compute, pow_each
from meteor.stats import Stats


def _random_stats(n: int, seed: int) -> list[Stats]:
    """Segments with every kind of count (perfect ones, empty sides, function words)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        h, r = (int(x) for x in rng.integers(0, 25, 2))
        hf, rf = int(rng.integers(0, h + 1)), int(rng.integers(0, r + 1))
        m = int(rng.integers(0, min(h, r) + 1))
        mods = [0] * 6
        for _ in range(m):
            mods[int(rng.integers(0, 6))] += 1
        fm = [int(rng.integers(0, x + 1)) for x in mods]
        content = tuple(a - b for a, b in zip(mods, fm, strict=True))
        chunks = 1 if k % 7 == 0 and m else int(rng.integers(min(m, 1), m + 1))
        if k % 7 == 0:  # a perfect segment
            h = r = m
            hf = rf = sum(fm)
        out.append(Stats(h, r, hf, rf, content, content, tuple(fm), tuple(fm), chunks, m, m))
    return out


PRESETS = ["meteor-1.5", "meteor-1.5-ru", "ru", "nltk", "paper-2005", "meteor-1.5-adq"]


@pytest.mark.parametrize("name", PRESETS)
def test_tune_scores_points_as_compute_does(name: str) -> None:
    base = get_preset(name).params
    stats = _random_stats(300, 1)
    width = max(6, *(module_slot(m) + 1 for m in base.modules))
    arrays = tp.StatArrays.build([stats], width)
    rng = np.random.default_rng(2)
    points = [base] + [
        base.replace(alpha=float(rng.random()), beta=float(rng.random() * 3),
                     gamma=float(rng.random()), delta=float(rng.random()))
        for _ in range(40)
    ]  # fmt: skip
    got = tp.segment_scores(arrays, tp.Point.of(points, width), base.perfect_rule)
    want = np.array([[compute(s, p).score for s in stats] for p in points])
    assert np.array_equal(got, want)


@pytest.mark.parametrize("name", PRESETS)
def test_summed_statistics_score_as_compute_does(name: str) -> None:
    params = get_preset(name).params
    stats = _random_stats(200, 3)
    mat = stats_matrix(stats, params)
    rng = np.random.default_rng(4)
    sums = np.stack([mat[rng.integers(0, len(mat), size=len(mat))].sum(axis=0) for _ in range(30)])
    sums = np.vstack([mat, sums])  # single segments too: NaN, perfect and empty rows
    got = scores_of_sums(sums, params)
    from meteor.analysis.resampling import row_stats

    want = np.array([compute(row_stats(row), params).score for row in sums])
    assert np.array_equal(got, want)


def test_pow_each_is_math_pow_value_by_value() -> None:
    import math

    frag = np.array([0.0, 0.1, 1 / 3, 0.5, 1.0, np.nan, np.inf, 0.123456789])
    beta = np.array([[0.0], [0.2], [1.4], [3.0]])
    got = pow_each(frag, beta)
    for i, b in enumerate(beta[:, 0]):
        for j, f in enumerate(frag):
            want = 1.0 if b == 0 else math.pow(f, b)
            assert got[i, j] == want or (math.isnan(want) and math.isnan(got[i, j]))
