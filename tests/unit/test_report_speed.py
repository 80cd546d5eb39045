"""The report's statistics as arrays (issue 35, speed): the same floats, fewer steps.

Every resample's corpus score comes from :func:`meteor.analysis.resampling.scores_of_sums`
(the formula on columns), not from a ``Stats`` record and ``compute`` per resample; a
pair of systems on the same segments reuses each system's bootstrap resamples.  The
numbers must not move: the vectorised formula is checked bit for bit against
``compute``, and the ranking's pairwise numbers against the public tests.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

import meteor
from meteor.analysis import resampling, significance
from meteor.analysis.ranking import approximate_randomisation, rank_systems
from meteor.analysis.resampling import row_stats, scores_of_sums, stats_matrix
from meteor.analysis.significance import paired_bootstrap
from meteor.scoring import compute

REFS = [
    "the cat sat on the mat",
    "a dog ran in the park this morning",
    "we like green tea",
    "the weather is nice today and the sun is shining over the old town",
    "he reads a long book about the history of the city",
    "birds sing",
    "she bought fresh bread and milk at the small shop",
    "it rained all night",
    "",
    "the the the",
]
HYPS = {
    "good": [
        "the cat sat on the mat",
        "a dog ran in the park this morning",
        "we like green tea",
        "the weather is nice today and the sun shines over the old town",
        "he reads a long book about the city history",
        "birds sing",
        "she bought fresh bread and milk in the small shop",
        "it rained all night",
        "nothing",
        "the",
    ],
    "bad": [
        "cat mat",
        "dog the park",
        "tea green",
        "weather nice sun town",
        "book city",
        "sing",
        "bread milk shop",
        "night rain",
        "",
        "xyz",
    ],
    "mid": [
        "the cat sits on a mat",
        "a dog runs in a park",
        "we like tea",
        "the weather is good and the sun shines",
        "he reads a book about the city",
        "birds are singing",
        "she bought bread and milk",
        "it rained all the night",
        "",
        "the the",
    ],
}


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


@pytest.mark.parametrize("preset", ["meteor-1.5", "nltk", "meteor-1.5-paper2005", "hf"])
def test_scores_of_sums_is_compute_bit_for_bit(preset: str) -> None:
    m = meteor.Meteor(preset)
    segs = [s for h in HYPS.values() for s in m.corpus_score(h, REFS).segments]
    mat = stats_matrix(segs, m.params)
    rng = np.random.default_rng(3)
    counts = np.stack([np.bincount(rng.integers(0, len(segs), 5), minlength=len(segs))
                       for _ in range(200)]).astype(np.float64)  # fmt: skip
    sums = np.vstack([counts @ mat, mat, np.zeros((1, mat.shape[1]))])  # single rows, empty
    got = scores_of_sums(sums, m.params)
    want = [compute(row_stats(row), m.params).score for row in sums]
    assert [_bits(x) for x in got] == [_bits(x) for x in want]
    assert len({_bits(x) for x in want}) > 20  # many different scores
    assert want[-1] == 0.0 and max(want) > 0.9  # the empty row; a perfect segment's row


def test_ranking_pairs_are_the_public_tests_numbers_also_on_common_ids() -> None:
    """The pairs the ranking tests (reused or sliced resamples) equal paired_bootstrap and
    approximate_randomisation run on their own, with systems on different segments."""
    m = meteor.Meteor("meteor-1.5")
    keep = {"good": range(10), "bad": range(2, 10), "mid": [9, 0, 1, 2, 3, 4, 5, 6, 7]}
    results, ids = {}, {}
    for name, rows in keep.items():
        rows = list(rows)
        results[name] = m.corpus_score([HYPS[name][k] for k in rows], [REFS[k] for k in rows])
        ids[name] = tuple(f"s{k}" for k in rows)
    rk = rank_systems(results, m.params, ids=ids, n_samples=120, trials=90, seed=5)
    assert rk.paired_on_common_ids and rk.comparisons == 3
    for pair in rk.pairs:
        pb = paired_bootstrap(
            results[pair.a], results[pair.b], m.params, names=(pair.a, pair.b), n_samples=120,
            seed=5, ids=(ids[pair.a], ids[pair.b]),
        )  # fmt: skip
        common = [x for x in ids[pair.a] if x in set(ids[pair.b])]
        sa = [results[pair.a].segments[ids[pair.a].index(x)] for x in common]
        sb = [results[pair.b].segments[ids[pair.b].index(x)] for x in common]
        assert pair.common == pb.n_segments == len(common)
        assert pair.difference == pb.corpus.difference
        assert (pair.difference_low, pair.difference_high) == (
            pb.corpus.difference_interval.low,
            pb.corpus.difference_interval.high,
        )
        assert pair.p_bootstrap == pb.corpus.p_value
        assert pair.p_randomisation == approximate_randomisation(
            sa, sb, m.params, trials=90, seed=5
        )
    for row in rk.systems:
        ci = significance.bootstrap(results[row.name], m.params, n_samples=120, seed=5)
        assert (row.corpus, row.mean_segment) == (ci.corpus, ci.mean_segment)


def test_integer_product_is_exact_in_single_thread_blocks() -> None:
    """The resamples' sums are products of whole numbers: computed in blocks of rows of at
    most SINGLE_THREAD_WORK multiply-adds (one OpenBLAS thread: a busy machine's threads
    wait for each other), equal to ``a @ b`` exactly."""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 4, size=(300, 2000)).astype(np.float64)
    b = rng.integers(-40, 90, size=(2000, 31)).astype(np.float64)
    rows = resampling.SINGLE_THREAD_WORK // (2000 * 31)
    assert 1 <= rows < len(a)  # several blocks
    got = resampling.integer_product(a, b)
    assert np.array_equal(got, a @ b)
    assert np.array_equal(got, (a.astype(np.int64) @ b.astype(np.int64)).astype(np.float64))
    one = resampling.integer_product(a[:1], b[:, :1])
    assert one.shape == (1, 1) and one[0, 0] == a[0] @ b[:, 0]
