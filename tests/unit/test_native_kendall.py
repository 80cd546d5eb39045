"""The bootstrap and PERM-BOTH samples of Kendall's τ-b and Spearman's ρ (flattened) equal
scipy's on every sample, bit for bit: ``meteor_native._kendall`` (scipy's integer counts in
C) and the resample ranks of ``spearman_resample`` against ``scipy.stats`` per sample."""

from __future__ import annotations

import numpy as np
import pytest

from meteor.analysis import agreement_stats as st
from meteor.analysis.resampling import resample_indices
from meteor.runtime import compiled

needs_c = pytest.mark.skipif(
    compiled("_kendall") is None, reason="meteor_native._kendall not built"
)


def _data(
    rng: np.random.Generator, n: int, levels: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows with many ties (``levels`` distinct values a side) in items of 1–6 rows."""
    items = np.sort(rng.integers(0, max(1, n // 3), n))
    _, items = np.unique(items, return_inverse=True)
    x = np.round(rng.normal(size=n) * levels) / levels
    y = rng.integers(0, levels, n).astype(float) * 0.25
    return x, y, items.astype(np.int64)


def _rows(data: st.SegmentData, drawn: np.ndarray) -> np.ndarray:
    """The rows of one resample of items, in the order bootstrap_segment lays them out."""
    return np.concatenate([np.flatnonzero(data.items == i) for i in drawn] or [np.zeros(0, int)])


CASES = [
    (n, levels, seed) for n in (2, 3, 7, 40, 257) for levels in (1, 2, 5, 1000) for seed in (0, 1)
]


@needs_c
@pytest.mark.parametrize(("n", "levels", "seed"), CASES)
def test_bootstrap_kendall_equals_scipy_per_resample(n: int, levels: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x, y, items = _data(rng, n, levels)
    data = st.SegmentData.build(x, items)
    draws = resample_indices(data.n_items, 30, seed)
    fast = st.bootstrap_segment("kendall_flat", data, y, draws)
    slow = np.array([st.kendall_b(x[r], y[r]) for r in (_rows(data, d) for d in draws)])
    assert np.array_equal(fast, slow, equal_nan=True)


@needs_c
@pytest.mark.parametrize(("n", "levels", "seed"), CASES)
def test_permuted_kendall_equals_scipy_per_sample(n: int, levels: int, seed: int) -> None:
    rng = np.random.default_rng(seed + 10)
    x, y, _ = _data(rng, n, levels)
    ys = np.stack([rng.permutation(y) for _ in range(20)] + [np.full(n, 0.5), y])
    fast = st.kendall_b_samples(x, *st.order_codes(ys))
    assert fast is not None
    slow = np.array([st.kendall_b(x, row) for row in ys])
    assert np.array_equal(fast, slow, equal_nan=True)


@needs_c
def test_kendall_counts_special_values() -> None:
    x = np.array([-np.inf, -0.0, 0.0, 1.0, np.inf, np.inf, 2.0])
    ys = np.array([[np.inf, 3.0, 3.0, -np.inf, 0.0, -0.0, 1e308], [1, 2, 3, 4, 5, 6, 7.0]])
    fast = st.kendall_b_samples(x, *st.order_codes(ys))
    assert fast is not None
    assert np.array_equal(fast, [st.kendall_b(x, row) for row in ys])
    assert st.kendall_b_samples(np.full(7, np.nan), *st.order_codes(ys)) is None  # scipy decides


@pytest.mark.parametrize(("n", "levels", "seed"), CASES)
def test_bootstrap_spearman_equals_scipy_per_resample(n: int, levels: int, seed: int) -> None:
    rng = np.random.default_rng(seed + 20)
    x, y, items = _data(rng, n, levels)
    data = st.SegmentData.build(x, items)
    draws = resample_indices(data.n_items, 30, seed)
    fast = st.bootstrap_segment("spearman_flat", data, y, draws)
    slow = np.array([st.spearman(x[r], y[r]) for r in (_rows(data, d) for d in draws)])
    assert np.array_equal(fast, slow, equal_nan=True)


@pytest.mark.parametrize("sided", ["two", "one"])
def test_perm_both_the_same_with_and_without_the_c_part(
    sided: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(5)
    x, a, items = _data(rng, 120, 7)
    b = np.round(a + rng.normal(size=120) * 0.3, 1)
    data = st.SegmentData.build(x, items)
    with_c = st.perm_both("kendall_flat", data, a, b, 200, 3, sided)
    monkeypatch.setattr(st, "compiled", lambda part: None)
    assert st.kendall_b_samples(x, *st.order_codes(a)) is None
    assert st.perm_both("kendall_flat", data, a, b, 200, 3, sided) == with_c


@needs_c
@pytest.mark.parametrize("n", [1, 2, 3, 10, 30])
def test_system_bootstrap_kendall_equals_scipy_per_resample(n: int) -> None:
    rng = np.random.default_rng(n)
    human = np.round(rng.normal(size=n), 1)
    metric = np.round(rng.random(n), 2)
    fast = st.bootstrap_system(st.kendall_b, human, metric, 200, 7)
    slow = [st.kendall_b(human[i], metric[i]) for i in resample_indices(n, 200, 7)]
    assert np.array_equal(fast, slow, equal_nan=True)


@needs_c
@pytest.mark.parametrize(("n", "levels", "seed"), CASES)
def test_swap_counts_are_tau_counts_of_both_permuted_columns(
    n: int, levels: int, seed: int
) -> None:
    """PERM-BOTH's two columns counted in one call: the counts tau_counts gives each column."""
    part = compiled("_kendall")
    rng = np.random.default_rng(seed + 30)
    x, a, _ = _data(rng, n, levels)
    b = np.round(a + rng.normal(size=n), 1)
    (ca, cb), k = st.order_codes(np.stack([a, b]))
    order = np.argsort(x, kind="stable")
    gx = st.order_codes(x[order])[0]
    masks = rng.random((9, n)) < 0.5
    masks[0] = False  # no swap: A and B themselves
    sa, sb = ca[order].copy(), cb[order].copy()
    raw = part.swap_counts(gx, sa, sb, k, np.ascontiguousarray(masks[:, order]))
    got = np.frombuffer(raw, dtype=np.int64).reshape(9, 2, 5)
    for m, side in ((masks, 0), (~masks, 1)):
        cols = np.ascontiguousarray(np.where(m, cb, ca)[:, order])
        expected = part.tau_counts(gx, cols, k, 9, gx, 0, None)
        assert np.array_equal(got[:, side], np.frombuffer(expected, dtype=np.int64).reshape(9, 5))
    with pytest.raises(ValueError, match="masks"):
        part.swap_counts(gx, sa, sb, k, np.ascontiguousarray(masks, dtype=np.int64))


def _spearman_one_at_a_time(data: st.SegmentData, m: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """bootstrap_segment's per-resample path for spearman_flat (the pure-Python one)."""
    ranks = (st.order_codes(data.human)[0], st.order_codes(m)[0])
    counts = [np.bincount(d, minlength=data.n_items)[data.items] for d in draws]
    rows = [_rows(data, d) for d in draws]
    return np.array([st.spearman_resample(*ranks, w, r) for w, r in zip(counts, rows, strict=True)])


@needs_c
@pytest.mark.parametrize(("n", "levels", "seed"), CASES)
def test_spearman_resamples_equal_the_per_resample_path(n: int, levels: int, seed: int) -> None:
    """The C sums of every resample, then numpy's float steps, give spearman_resample's value
    on each resample, bit for bit (constant sides NaN)."""
    rng = np.random.default_rng(seed + 40)
    x, y, items = _data(rng, n, levels)
    data = st.SegmentData.build(x, items)
    draws = resample_indices(data.n_items, 40, seed)
    ranks = (st.order_codes(x)[0], st.order_codes(y)[0])
    fast = st.spearman_resamples(*ranks, data.items, data.n_items, draws)
    assert fast is not None
    assert np.array_equal(fast, _spearman_one_at_a_time(data, y, draws), equal_nan=True)


def test_spearman_bootstrap_the_same_without_the_c_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real corpus shape (items of 1–6 rows, many ties): the bootstrap of spearman_flat is
    the same array with the C part and without it (one resample at a time)."""
    rng = np.random.default_rng(9)
    x, y, items = _data(rng, 600, 12)
    data = st.SegmentData.build(x, items)
    draws = resample_indices(data.n_items, 100, 4)
    with_c = st.bootstrap_segment("spearman_flat", data, y, draws)
    monkeypatch.setattr(st, "compiled", lambda part: None)
    assert st.spearman_resamples(*st.order_codes(np.stack([x, y]))[0], items, 1, draws) is None
    assert np.array_equal(st.bootstrap_segment("spearman_flat", data, y, draws), with_c)


@needs_c
def test_spearman_resamples_leave_large_resamples_to_the_exact_path() -> None:
    """A resample that could pass the rows whose sums stay exact in float64 is not summed in C."""
    items = np.repeat(np.arange(2), 60_000)
    codes = np.arange(len(items)) % 7
    draws = resample_indices(2, 3, 0)
    assert st.spearman_resamples(codes, codes, items, 2, draws) is None


@needs_c
@pytest.mark.parametrize("sided", ["two", "one"])
def test_perm_both_kept_masks_equal_streamed_batches(
    sided: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The masks of a test kept for the next one (drawn once per process) give the p-values
    the masks drawn batch by batch give, for several pairs on the same rows, and the scipy
    path's."""
    rng = np.random.default_rng(11)
    x, a, items = _data(rng, 300, 9)
    b = np.round(a + rng.normal(size=300) * 0.4, 1)
    c = np.round(a - rng.normal(size=300) * 0.2, 1)
    data = st.SegmentData.build(x, items)
    kept = [
        st.perm_both("kendall_flat", data, p, q, 150, 7, sided) for p, q in ((a, b), (a, c), (b, c))
    ]
    monkeypatch.setattr(st, "_KEPT_SWAPS", 0)
    streamed = [
        st.perm_both("kendall_flat", data, p, q, 150, 7, sided) for p, q in ((a, b), (a, c), (b, c))
    ]
    assert kept == streamed
    monkeypatch.setattr(st, "compiled", lambda part: None)
    assert st.perm_both("kendall_flat", data, a, c, 150, 7, sided) == kept[1]


@pytest.mark.parametrize("kept", [32_000_000, 0])
def test_perm_both_with_no_permutations_is_p_one(
    kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--permutations 0`` (the bootstrap only): Δ is measured and p is 1/1 on every path —
    no permutation is drawn, none is counted (the C path once raised on an empty draw)."""
    rng = np.random.default_rng(5)
    x, a, items = _data(rng, 60, 7)
    b = np.round(a + rng.normal(size=60) * 0.3, 1)
    data = st.SegmentData.build(x, items)
    monkeypatch.setattr(st, "_KEPT_SWAPS", kept)
    delta, p = st.perm_both("kendall_flat", data, a, b, 0, 3, "two")
    assert p == 1.0 and delta == st.perm_both("kendall_flat", data, a, b, 50, 3, "two")[0]
    monkeypatch.setattr(st, "compiled", lambda part: None)
    assert st.perm_both("kendall_flat", data, a, b, 0, 3, "two") == (delta, p)


@needs_c
def test_the_c_counts_refuse_values_out_of_range() -> None:
    """A y rank at or above ``k`` or a drawn item at or above ``n_items`` is a ValueError
    naming the argument, never a read past the tables."""
    part = compiled("_kendall")
    i64 = np.array([0, 0, 1, 1], dtype=np.int64)
    items = np.array([0, 0, 1, 1], dtype=np.int64)
    good = np.array([[0, 1]], dtype=np.int64)
    assert len(part.tau_counts(i64, i64, 2, 1, items, 2, good)) == 5 * 8
    with pytest.raises(ValueError, match="gy values below k"):
        part.tau_counts(i64, i64 + 1, 2, 1, items, 2, good)
    with pytest.raises(ValueError, match="draws below n_items"):
        part.tau_counts(i64, i64, 2, 1, items, 2, good + 1)
    assert len(part.spearman_sums(i64, i64, 2, 2, items, 2, good)) == 6 * 8
    with pytest.raises(ValueError, match="draws below n_items"):
        part.spearman_sums(i64, i64, 2, 2, items, 2, good - 1)


def test_a_run_keeps_no_swap_masks_after_it() -> None:
    """The masks shared by a run's PERM-BOTH tests are freed when ``correlate`` returns
    (a server process keeps none between runs), and the p-values do not depend on it."""
    from meteor.analysis.agreement import correlate
    from meteor.analysis.judged import load_judged

    rng = np.random.default_rng(2)
    lines = ["system\tseg_id\thyp\tref\thuman_score"]
    words = "the a cat dog sat ran on in mat park".split()
    refs = [" ".join(rng.choice(words, 6)) for _ in range(40)]
    for system in ("s1", "s2"):
        for k, ref in enumerate(refs):
            hyp = " ".join(rng.choice(words, 6))
            lines.append(f"{system}\t{k}\t{hyp}\t{ref}\t{rng.normal():.3f}")
    judged = load_judged([("j.tsv", ("\n".join(lines) + "\n").encode())], "human_score")
    runs = [
        correlate(
            judged, presets=("meteor-1.5", "nltk"), n_bootstrap=5, n_permutations=50, workers=1
        )  # fmt: skip
        for _ in range(2)
    ]
    assert st._ordered_swaps.cache_info().currsize == 0
    assert runs[0].comparisons == runs[1].comparisons
