"""The statistics behind :func:`meteor.analysis.agreement.correlate` (numbers only, no scoring).

Rows are (system, segment) pairs; ``items[r]`` is the index of row ``r``'s source segment
("item").  The measures are those of docs/agreement.md: Kendall τ-b, Pearson and Spearman
(``scipy.stats``) and WMT's DARR τ-like (a metric tie is discordant, WMT20/21), flattened or
grouped by item as mt-metrics-eval computes them; at system level Pearson and Kendall τ-b.
Intervals: percentile bootstrap over items or systems.  Significance: PERM-BOTH (Deutsch
et al. 2021, :func:`perm_both`) and Williams' test (:func:`williams`).
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from meteor.analysis.resampling import Interval, resample_indices, swap_masks
from meteor.json_numbers import json_number
from meteor.runtime import compiled


def scipy_stats() -> Any:
    """``scipy.stats``, imported on first use (~0.6 s, ~60 MB)."""
    import scipy.stats

    return scipy.stats


__all__ = [
    "scipy_stats",
    "MEASURES",
    "Estimate",
    "SegmentData",
    "darr_pairs",
    "item_pearson",
    "kendall_b",
    "kendall_b_samples",
    "order_codes",
    "pearson",
    "pearson_rows",
    "ranks_within_rows",
    "per_item",
    "perm_both",
    "segment_estimate",
    "segment_measure",
    "spearman",
    "spearman_resample",
    "standardised",
    "system_estimate",
    "williams",
    "within_item_pairs",
]

Array = np.ndarray

#: The segment-level measures, by key: (statistic, convention).
MEASURES: dict[str, tuple[str, str]] = {
    "kendall_flat": ("Kendall τ-b", "flattened"),
    "kendall_item": ("Kendall τ-b", "grouped by item"),
    "pearson_flat": ("Pearson", "flattened"),
    "pearson_item": ("Pearson", "grouped by item"),
    "spearman_flat": ("Spearman", "flattened"),
    "spearman_item": ("Spearman", "grouped by item"),
    "darr_flat": ("DARR τ-like", "flattened"),
    "darr_item": ("DARR τ-like", "by item, pair-weighted (= all pairs pooled, WMT's DARR)"),
}


def _quiet(fn: Callable[[], float]) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's ConstantInputWarning: NaN is the answer
        value = float(fn())
    return value if math.isfinite(value) else math.nan


def standardised(x: Sequence[float] | Array) -> Array:
    """``x`` divided by its largest magnitude (no correlation, rank or sign changes), so
    that no measure's sums under- or overflow whatever the scale.  Values that are all
    zero, or not finite, are returned as they are."""
    a = np.asarray(x, dtype=float)
    if not len(a):
        return a
    with np.errstate(invalid="ignore"):
        top = float(np.max(np.abs(a)))
    return a / top if math.isfinite(top) and top > 0 else a


def kendall_b(x: Sequence[float] | Array, y: Sequence[float] | Array) -> float:
    """Kendall's τ-b (``scipy.stats.kendalltau``); NaN when either side is constant."""
    if len(x) < 2:
        return math.nan
    return _quiet(lambda: scipy_stats().kendalltau(x, y, variant="b").statistic)


def order_codes(values: Array) -> tuple[Array, int]:
    """Integer codes that keep the order and the ties of ``values`` (any shape): each value's
    index among the distinct values, sorted; and how many distinct values there are."""
    distinct, codes = np.unique(values, return_inverse=True)
    return codes.reshape(np.shape(values)).astype(np.int64), max(1, len(distinct))


def kendall_b_samples(
    x: Array,
    y_codes: Array,
    k: int,
    items: Array | None = None,
    draws: Array | None = None,
) -> Array | None:
    """Kendall's τ-b of ``x`` with each row of ``y_codes`` (``(B, n)``, :func:`order_codes`
    below ``k``), or of ``x`` with ``y_codes[0]`` on each resample of items (rows of
    ``draws``; a row counts as often as its item is drawn): :func:`kendall_b` of each sample,
    bit for bit, in C (``meteor_native._kendall``: scipy's integer counts and formula,
    ``scipy/stats/_stats_py.py`` 1.17) without sorting per sample.  ``None`` when the C part
    is not installed or ``x`` has a NaN: the caller then calls :func:`kendall_b`."""
    part = compiled("_kendall")
    x = np.asarray(x, dtype=float)
    if part is None or np.isnan(x).any():
        return None
    order, gx = _x_order(x)
    gy = np.ascontiguousarray(np.atleast_2d(y_codes)[:, order], dtype=np.int64)
    if draws is None:
        samples, item_of, n_items, drawn = len(gy), gx, 0, None
    else:
        samples = len(draws)
        item_of = np.ascontiguousarray(np.asarray(items, dtype=np.int64)[order])
        n_items = int(item_of.max()) + 1 if len(item_of) else 0
        drawn = np.ascontiguousarray(draws, dtype=np.int64)
    return _tau_b(part.tau_counts(gx, gy, k, samples, item_of, n_items, drawn), samples)


def _x_order(x: Array) -> tuple[Array, Array]:
    """The rows in the order of ``x`` (stable) and their :func:`order_codes` (C's ``gx``)."""
    order = np.argsort(x, kind="stable")
    return order, order_codes(x[order])[0]


def _tau_b(raw: bytes, samples: int) -> Array:
    """τ-b of each sample's five counts (``meteor_native._kendall``), by scipy's formula."""
    tot, xtie, ytie, ntie, dis = np.frombuffer(raw, dtype=np.int64).reshape(samples, 5).T
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (tot - xtie - ytie + ntie - 2 * dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
    tau = np.minimum(1.0, np.maximum(-1.0, tau))
    tau[(xtie == tot) | (ytie == tot) | (tot == 0)] = np.nan
    return tau


#: Most swap-mask bytes (permutations × rows) kept for the next PERM-BOTH test on the same rows.
_KEPT_SWAPS = 32_000_000


@functools.lru_cache(maxsize=1)
def _ordered_swaps(n: int, trials: int, seed: int, order: bytes) -> Array:
    """Every permutation's swap mask, its rows in ``order`` (int64 bytes), read-only."""
    masks = np.concatenate(list(swap_masks(n, trials, seed)))[:, np.frombuffer(order, np.int64)]
    masks.flags.writeable = False
    return masks


def forget_swap_masks() -> None:
    """Free the swap masks kept for a run's PERM-BOTH tests (a long-lived server keeps none
    between runs)."""
    _ordered_swaps.cache_clear()


def _swapped_kendall(
    x: Array, ca: Array, cb: Array, k: int, trials: int, seed: int
) -> Array | None:
    """For PERM-BOTH on ``kendall_flat``: τ-b(A′) − τ-b(B′) of each permutation (A′: ``cb``
    where swapped, else ``ca``; B′ the other), bit for bit :func:`kendall_b_samples` of each
    column, both counted in one C call.  ``None`` when :func:`kendall_b_samples` would be."""
    part = compiled("_kendall")
    if part is None or np.isnan(x).any():
        return None
    order, gx = _x_order(np.asarray(x, dtype=float))
    sa = np.ascontiguousarray(ca[order], dtype=np.int64)
    sb = np.ascontiguousarray(cb[order], dtype=np.int64)
    n = len(order)
    if trials == 0:  # no permutation drawn: nothing to count (p = 1/1)
        return np.zeros(0)
    if n * trials <= _KEPT_SWAPS:
        batches: Iterable[Array] = [_ordered_swaps(n, trials, seed, order.tobytes())]
    else:
        batches = (masks[:, order] for masks in swap_masks(n, trials, seed))
    out = []
    for masks in batches:
        mask = np.ascontiguousarray(masks, dtype=np.bool_)
        tau = _tau_b(part.swap_counts(gx, sa, sb, k, mask), 2 * len(mask)).reshape(-1, 2)
        out.append(tau[:, 0] - tau[:, 1])
    return np.concatenate(out) if out else np.zeros(0)


def spearman_resample(x_groups: Array, y_groups: Array, weights: Array, rows: Array) -> float:
    """:func:`spearman` of ``(x, y)`` on the rows ``rows`` of a resample, bit for bit, from
    the dense ranks of ``x`` and ``y`` over all rows (``x_groups``, ``y_groups``) and how
    often each row is drawn (``weights``): a value's average rank is the weight of the
    smaller values plus (its own weight + 1) / 2 (``scipy.stats.rankdata``), then
    ``spearmanr``'s ``numpy.corrcoef`` step."""
    ranked = []
    for groups in (x_groups, y_groups):
        w = np.bincount(groups, weights).astype(float)
        if np.count_nonzero(w) < 2:
            return math.nan  # a constant side: scipy's NaN
        average = np.cumsum(w) - w + (w + 1.0) / 2.0
        ranked.append(average[groups[rows]])
    if len(rows) < 2:
        return math.nan
    value = _rank_corrcoef(ranked[0], ranked[1])
    return value if math.isfinite(value) else math.nan


#: Most rows a resample may have for :func:`spearman_resamples`: its sums of products of
#: centred ranks (at most 4 · rows³ in quarters) stay exact in float64 below 2**53.
_EXACT_RANK_ROWS = 100_000


def spearman_resamples(
    x_groups: Array, y_groups: Array, items: Array, n_items: int, draws: Array
) -> Array | None:
    """:func:`spearman_resample` on every resample of items (rows of ``draws``), bit for bit:
    centred average ranks are half-integers, so their sums of products are exact in any
    order; C counts them in integers (``meteor_native._kendall.spearman_sums``), then
    :func:`_rank_corrcoef`'s float steps run on every resample at once.  ``None`` when the C
    part is not installed or a resample could have more than :data:`_EXACT_RANK_ROWS` rows."""
    part = compiled("_kendall")
    items = np.ascontiguousarray(items, dtype=np.int64)
    draws = np.ascontiguousarray(draws, dtype=np.int64)
    largest = int(np.bincount(items).max()) if len(items) else 0
    if (
        part is None
        or len(items) == 0
        or draws.ndim != 2
        or draws.shape[1] != n_items
        or n_items * largest > _EXACT_RANK_ROWS
    ):
        return None
    kx, ky = int(x_groups.max()) + 1, int(y_groups.max()) + 1
    raw = part.spearman_sums(
        np.ascontiguousarray(x_groups, dtype=np.int64),
        np.ascontiguousarray(y_groups, dtype=np.int64),
        kx, ky, items, n_items, draws,
    )  # fmt: skip
    rows, distinct_x, distinct_y, xx, yy, xy = np.frombuffer(raw, np.int64).reshape(-1, 6).T
    inv = np.true_divide(1, rows - 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        sx = np.sqrt(xx / 4.0 * inv)
        sy = np.sqrt(yy / 4.0 * inv)
        r = np.clip(xy / 4.0 * inv / sy / sx, -1.0, 1.0)
    undefined = (distinct_x < 2) | (distinct_y < 2) | (rows < 2) | ~np.isfinite(r)
    return np.where(undefined, math.nan, r)


def _rank_corrcoef(a: Array, b: Array) -> float:
    """``numpy.corrcoef(numpy.column_stack([a, b]), rowvar=False)[1, 0]`` of two columns of
    average ranks, bit for bit: numpy's ``cov`` and ``corrcoef`` steps
    (``numpy/lib/_function_base_impl.py`` 2.4), each mean taken on the column itself (a sum
    of half-integers below 2**52 is exact in any order)."""
    x = np.array(np.column_stack([a, b]), ndmin=2, dtype=np.float64).T
    x -= np.array([a.mean(), b.mean()])[:, None]
    c = np.dot(x, x.T.conj())
    c *= np.true_divide(1, x.shape[1] - 1)
    stddev = np.sqrt(np.diag(c).real)
    c /= stddev[:, None]
    c /= stddev[None, :]
    np.clip(c.real, -1, 1, out=c.real)
    return float(c[1, 0])


def _constant(x: Sequence[float] | Array, y: Sequence[float] | Array) -> bool:
    """Fewer than two values, or either side constant: no correlation is defined."""
    return len(x) < 2 or np.ptp(np.asarray(x)) == 0 or np.ptp(np.asarray(y)) == 0


def pearson(x: Sequence[float] | Array, y: Sequence[float] | Array) -> float:
    """Pearson's r (``scipy.stats.pearsonr`` on the :func:`standardised` values, so that
    the scale of either side changes nothing); NaN when either side is constant."""
    if _constant(x, y):
        return math.nan
    sx, sy = standardised(x), standardised(y)
    return _quiet(lambda: scipy_stats().pearsonr(sx, sy).statistic)


def pearson_rows(x: Array, y: Array) -> Array | None:
    """:func:`pearson` of each row of ``x`` with the same row of ``y`` (``(B, n)``, or one
    side ``(n,)`` shared by every row), bit for bit: ``scipy.stats.pearsonr``'s statistic
    step by step along the last axis (``scipy/stats/_stats_py.py`` 1.17) on each row's
    :func:`standardised` values, without scipy's checks and p-value.  ``None`` when a value
    is not finite: the caller calls :func:`pearson`."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    y = np.atleast_2d(np.asarray(y, dtype=float))
    rows = max(len(x), len(y))
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        return None
    n = x.shape[-1]
    if n < 2:
        return np.full(rows, math.nan)
    const = np.broadcast_to((np.ptp(x, axis=-1) == 0) | (np.ptp(y, axis=-1) == 0), (rows,))
    scaled = []
    for v in (x, y):
        top = np.max(np.abs(v), axis=-1, keepdims=True)  # standardised(), row by row
        v = v / np.where(top > 0, top, 1.0)
        mean = np.mean(v, axis=-1, keepdims=True)
        centred = v - mean
        vmax = np.max(np.abs(centred), axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            norm = vmax * np.linalg.norm(centred / vmax, ord=2, axis=-1, keepdims=True)
            scaled.append(centred / norm)
    r = np.clip(np.vecdot(scaled[0], scaled[1]), -1.0, 1.0)  # along the last axis
    if n == 2:
        r = np.round(r)
    r = np.where(const | ~np.isfinite(r), math.nan, r)
    return np.broadcast_to(r, (rows,)).astype(float)


def spearman(x: Sequence[float] | Array, y: Sequence[float] | Array) -> float:
    """Spearman's ρ (``scipy.stats.spearmanr``); NaN when either side is constant."""
    if _constant(x, y):
        return math.nan
    return _quiet(lambda: scipy_stats().spearmanr(x, y).statistic)


def within_item_pairs(items: Array) -> tuple[Array, Array, Array]:
    """``(i, j, item)``: every pair of rows ``i < j`` of the same item."""
    order = np.argsort(items, kind="stable")
    groups = np.split(order, np.flatnonzero(np.diff(items[order])) + 1)
    tri = [(g, *np.triu_indices(len(g), k=1)) for g in groups]
    i = np.concatenate([g[a] for g, a, _ in tri])
    j = np.concatenate([g[b] for g, _, b in tri])
    return i, j, items[i]


def darr_pairs(darr: Array, items: Array, threshold: float) -> tuple[Array, Array, Array]:
    """WMT's DARR pairs: ``(better, worse, item)`` rows of the same item whose DARR
    scores (higher = better) differ by ``threshold`` or more (mt-metrics-eval's rule;
    a difference of 0 is never a pair)."""
    i, j, item = within_item_pairs(items)
    with np.errstate(over="ignore"):  # ±1e308 apart: an infinite difference is a pair
        diff = darr[i] - darr[j]
    keep = (np.abs(diff) >= threshold) & (diff != 0)
    i, j, item, diff = i[keep], j[keep], item[keep], diff[keep]
    better = np.where(diff > 0, i, j)
    worse = np.where(diff > 0, j, i)
    return better, worse, item


def _ranks_within(values: Array, items: Array) -> Array:
    """Average ranks of ``values`` within each item (``scipy.stats.rankdata`` per item)."""
    return ranks_within_rows(np.asarray(values, dtype=float)[None, :], items)[0]


#: Most cells (points × items × rows² of the largest item) compared at once.
_RANK_CELLS = 8_000_000


def ranks_within_rows(values: Array, items: Array) -> Array:
    """Average ranks within each item of every row of ``values`` (``(B, n)``), bit for bit
    ``scipy.stats.rankdata(method="average")`` per item: in a padded ``(items, largest)``
    table, a value's rank is the number below it plus half the number equal to it (itself
    included) plus ½.  Items of more than 64 rows are ranked by scipy, one at a time."""
    values = np.asarray(values, dtype=float)
    order = np.argsort(items, kind="stable")
    sorted_items = items[order]
    starts = np.flatnonzero(np.r_[True, sorted_items[1:] != sorted_items[:-1]])
    sizes = np.diff(np.r_[starts, len(order)])
    out = np.empty_like(values)
    if not len(order):
        return out
    width = int(sizes.max())
    if width > 64:
        for group in np.split(order, starts[1:]):
            out[:, group] = scipy_stats().rankdata(values[:, group], axis=1)
        return out
    slot = np.arange(len(order)) - np.repeat(starts, sizes)
    table = np.full((len(starts), width), -1)
    table[np.repeat(np.arange(len(starts)), sizes), slot] = order
    real = table >= 0
    step = max(1, _RANK_CELLS // (len(starts) * width * width))
    for b in range(0, len(values), step):
        v = np.where(real, values[b : b + step][:, np.maximum(table, 0)], np.nan)
        below = (v[..., None, :] < v[..., :, None]).sum(axis=-1)
        equal = (v[..., None, :] == v[..., :, None]).sum(axis=-1)
        out[b : b + step, table[real]] = (below + 0.5 * equal + 0.5)[:, real]
    return out


def item_pearson(x: Array, y: Array, items: Array, n_items: int) -> Array:
    """Pearson's r over the rows of each item (NaN: < 2 rows or a constant side), on the
    :func:`standardised` values (the scale of either side changes nothing)."""
    x, y = standardised(x), standardised(y)
    n = np.bincount(items, minlength=n_items).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = np.bincount(items, x, n_items) / n
        my = np.bincount(items, y, n_items) / n
        dx = x - mx[items]
        dy = y - my[items]
        sxy = np.bincount(items, dx * dy, n_items)
        sxx = np.bincount(items, dx * dx, n_items)
        syy = np.bincount(items, dy * dy, n_items)
        r = sxy / np.sqrt(sxx * syy)
    const = (_item_range(x, items, n_items) == 0) | (_item_range(y, items, n_items) == 0)
    r[const | (n < 2)] = np.nan
    return np.clip(r, -1.0, 1.0)


def _item_range(x: Array, items: Array, n_items: int) -> Array:
    hi = np.full(n_items, -np.inf)
    lo = np.full(n_items, np.inf)
    np.maximum.at(hi, items, x)
    np.minimum.at(lo, items, x)
    return hi - lo


@dataclass(frozen=True)
class SegmentData:
    """The human side of the segment-level measures, prepared once.

    Attributes:
        human: per row, the human score (higher = better).
        items: per row, its item's index (``0 … n_items − 1``).
        n_items: the number of items.
        pairs: ``within_item_pairs(items)``.
        darr: ``darr_pairs(...)`` (better, worse, item).
        human_ranks: per row, the human score's average rank within its item.
    """

    human: Array
    items: Array
    n_items: int
    pairs: tuple[Array, Array, Array]
    darr: tuple[Array, Array, Array]
    human_ranks: Array

    @classmethod
    def build(
        cls,
        human: Array,
        items: Array,
        darr: Array | None = None,
        threshold: float = 25.0,
        pairs: tuple[Array, Array] | None = None,
    ) -> SegmentData:
        """``pairs``: given ``(better rows, worse rows)`` (pairwise judgements of outputs
        of the same item) instead of the DARR pairs built from ``darr``."""
        human = np.asarray(human, dtype=float)
        items = np.asarray(items, dtype=np.int64)
        n_items = int(items.max()) + 1 if len(items) else 0
        if pairs is not None:
            better = np.asarray(pairs[0], dtype=np.int64)
            worse = np.asarray(pairs[1], dtype=np.int64)
            if np.any(items[better] != items[worse]):
                raise ValueError("a judged pair joins outputs of two different items")
            given = (better, worse, items[better])
        else:
            darr_values = human if darr is None else np.asarray(darr, dtype=float)
            given = darr_pairs(darr_values, items, threshold)
        return cls(
            human, items, n_items, within_item_pairs(items), given, _ranks_within(human, items)
        )


def per_item(key: str, data: SegmentData, metric: Array) -> tuple[Array, Array]:
    """Per item, ``(value, weight)`` of a grouped or pair measure.

    ``kendall_item``/``pearson_item``/``spearman_item``: the correlation over the item's
    systems (NaN where undefined) and weight 1; ``darr_flat``/``darr_item``: ``C − D``
    and ``C + D`` of the item's DARR pairs.
    """
    m = np.asarray(metric, dtype=float)
    n = data.n_items
    if key == "kendall_item":
        i, j, item = data.pairs
        a = np.sign(data.human[i] - data.human[j])
        b = np.sign(m[i] - m[j])
        num = np.bincount(item, a * b, n)
        den = np.sqrt(np.bincount(item, a * a, n) * np.bincount(item, b * b, n))
        with np.errstate(invalid="ignore", divide="ignore"):
            tau = np.where(den > 0, num / den, np.nan)
        return np.clip(tau, -1.0, 1.0), np.ones(n)
    if key == "pearson_item":
        return item_pearson(data.human, m, data.items, n), np.ones(n)
    if key == "spearman_item":
        ranks = _ranks_within(m, data.items)
        return item_pearson(data.human_ranks, ranks, data.items, n), np.ones(n)
    if key in ("darr_flat", "darr_item"):
        better, worse, item = data.darr
        concordant = (m[better] > m[worse]).astype(float)
        sign = 2.0 * concordant - 1.0  # a metric tie is discordant (WMT20/21)
        return np.bincount(item, sign, n), np.bincount(item, minlength=n).astype(float)
    raise ValueError(f"not a per-item measure: {key!r}")


def aggregate(key: str, value: Array, weight: Array, counts: Array | None = None) -> float:
    """A per-item measure's aggregate, each item counted ``counts`` times (a resample)."""
    c = np.ones(len(value)) if counts is None else counts
    if key in ("darr_flat", "darr_item"):  # by item: each item's τ weighted by its pairs
        total = float(np.sum(c * weight))
        return float(np.sum(c * value)) / total if total > 0 else math.nan
    ok = np.isfinite(value) & (c > 0)
    if not np.any(ok):
        return math.nan
    return float(np.sum(c[ok] * value[ok]) / np.sum(c[ok]))


_FLAT: dict[str, Callable[[Array, Array], float]] = {
    "kendall_flat": kendall_b,
    "pearson_flat": pearson,
    "spearman_flat": spearman,
}


def segment_measure(key: str, data: SegmentData, metric: Array) -> float:
    """One segment-level measure (:data:`MEASURES`) of a metric on ``data``."""
    if key in _FLAT:
        return _FLAT[key](data.human, np.asarray(metric, dtype=float))
    value, weight = per_item(key, data, metric)
    return aggregate(key, value, weight)


def item_count(key: str, data: SegmentData, metric: Array) -> int:
    """How many rows (flattened), items (grouped) or pairs (DARR) a measure counts."""
    if key in _FLAT:
        return len(data.human)
    value, weight = per_item(key, data, metric)
    if key == "darr_flat":
        return int(weight.sum())
    if key == "darr_item":
        return int(np.count_nonzero(weight))
    return int(np.count_nonzero(np.isfinite(value)))


def bootstrap_segment(key: str, data: SegmentData, metric: Array, draws: Array) -> Array:
    """A segment-level measure on each resample of items (rows of ``draws``)."""
    out = np.empty(len(draws))
    if key in _FLAT:
        m = np.asarray(metric, dtype=float)
        if key == "kendall_flat" and not np.isnan(m).any():
            fast = kendall_b_samples(data.human, *order_codes(m), data.items, draws)
            if fast is not None:
                return fast
        order = np.argsort(data.items, kind="stable")
        starts = np.searchsorted(data.items[order], np.arange(data.n_items))
        sizes = np.bincount(data.items, minlength=data.n_items)
        ranks = None
        if key == "spearman_flat" and not (np.isnan(data.human).any() or np.isnan(m).any()):
            ranks = (order_codes(data.human)[0], order_codes(m)[0])
            every = spearman_resamples(*ranks, data.items, data.n_items, draws)
            if every is not None:
                return every
        fn = _FLAT[key]
        # Pearson without scipy's per-call checks: scipy's arithmetic (pearson_rows)
        fast_pearson = key == "pearson_flat"
        for b, drawn in enumerate(draws):
            lengths = sizes[drawn]
            offsets = np.repeat(starts[drawn] - np.cumsum(lengths) + lengths, lengths)
            rows = order[offsets + np.arange(int(lengths.sum()))]
            r = pearson_rows(data.human[rows], m[rows]) if fast_pearson else None
            if r is not None:
                out[b] = r[0]
            elif ranks is None:
                out[b] = fn(data.human[rows], m[rows])
            else:
                weights = np.bincount(drawn, minlength=data.n_items)[data.items]
                out[b] = spearman_resample(ranks[0], ranks[1], weights, rows)
        return out
    value, weight = per_item(key, data, metric)
    for b, drawn in enumerate(draws):
        out[b] = aggregate(key, value, weight, np.bincount(drawn, minlength=data.n_items))
    return out


def bootstrap_system(
    fn: Callable[[Array, Array], float], human: Array, metric: Array, n_samples: int, seed: int
) -> Array:
    """A system-level correlation on each resample of the systems (seeded; the draws of
    :func:`~meteor.analysis.resampling.resample_indices`)."""
    draws = resample_indices(len(human), n_samples, seed)
    if fn is pearson and n_samples:
        fast = pearson_rows(human[draws], metric[draws])
        if fast is not None:
            return fast
    if fn is kendall_b and n_samples and not np.isnan(metric).any():
        fast = kendall_b_samples(human, *order_codes(metric), np.arange(len(human)), draws)
        if fast is not None:
            return fast
    out = np.array([fn(human[idx], metric[idx]) for idx in draws], dtype=np.float64)
    return out.reshape(n_samples)


def _zscore(x: Array) -> Array:
    sd = float(np.std(x))
    return (x - float(np.mean(x))) / sd if sd > 0 else x - float(np.mean(x))


def perm_both(
    key: str,
    data: SegmentData,
    a: Array,
    b: Array,
    n_permutations: int,
    seed: int,
    sided: str = "two",
) -> tuple[float, float]:
    """``(Δ = r(A) − r(B), p)`` by PERM-BOTH (Deutsch et al. 2021) on z-scored metrics.

    ``sided="two"``: p = (#{|Δ_perm| ≥ |Δ|} + 1)/(N + 1); ``"one"`` (mt-metrics-eval's
    reading, in the direction observed): p = (#{sign(Δ)·Δ_perm ≥ |Δ|} + 1)/(N + 1).
    """
    za = _zscore(np.asarray(a, dtype=float))
    zb = _zscore(np.asarray(b, dtype=float))
    delta = segment_measure(key, data, za) - segment_measure(key, data, zb)
    if not math.isfinite(delta):
        return math.nan, math.nan
    # τ-b in C needs only the order of the values: codes of both metrics' values, once
    coded = key == "kendall_flat" and not (np.isnan(za).any() or np.isnan(zb).any())
    (ca, cb), k = order_codes(np.stack([za, zb])) if coded else ((za, zb), 0)
    fast = _swapped_kendall(data.human, ca, cb, k, n_permutations, seed) if coded else None
    if fast is not None:
        diffs: Iterable[Array] = [fast]
    else:  # scipy per permutation, a batch of masks at a time
        diffs = (_swapped(key, data, za, zb, m) for m in swap_masks(len(za), n_permutations, seed))
    hits = 0
    for d in diffs:
        seen = np.abs(d) if sided == "two" else math.copysign(1.0, delta) * d
        hits += int(np.count_nonzero(np.isfinite(d) & (seen >= abs(delta) - 1e-12)))
    return delta, (hits + 1) / (n_permutations + 1)


def _swapped(key: str, data: SegmentData, za: Array, zb: Array, masks: Array) -> Array:
    """Δ of each permutation of a batch (``masks``: a row's swapped rows) by
    :func:`segment_measure` (scipy) on both permuted columns."""
    pa, pb = np.where(masks, zb, za), np.where(masks, za, zb)
    return np.array([segment_measure(key, data, x) - segment_measure(key, data, y)
                     for x, y in zip(pa, pb, strict=True)])  # fmt: skip


def williams(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """Williams' test of ``H0: ρ12 = ρ13`` for two dependent correlations sharing variable 1
    (the human score; 2 and 3 the metrics, ``n`` rows).  Williams (1959), in Steiger (1980,
    eq. 7) and Graham & Baldwin (2014, eq. 3), as the WMT metrics tasks use it::

        K = 1 − r12² − r13² − r23² + 2·r12·r13·r23
        t = (r12 − r13)·√((n − 1)(1 + r23))
            / √(2K·(n − 1)/(n − 3) + ((r12 + r13)/2)²·(1 − r23)³)

    distributed as Student's t with ``n − 3`` degrees of freedom under H0.

    Returns:
        ``(t, two-sided p)``; the one-sided p that metric 2 beats metric 3 (WMT's
        reading) is ``p / 2`` when ``t > 0``.  ``(0, 1)`` when ``r12 == r13``; NaN when
        ``n < 4`` or a correlation is NaN.
    """
    if n < 4 or not all(math.isfinite(r) for r in (r12, r13, r23)):
        return math.nan, math.nan
    if r12 == r13:
        return 0.0, 1.0
    k = 1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23
    den = 2.0 * k * (n - 1) / (n - 3) + ((r12 + r13) / 2.0) ** 2 * (1.0 - r23) ** 3
    if den <= 0.0:  # both metrics perfectly (anti)correlated: no sampling variance left
        return math.nan, math.nan
    t = (r12 - r13) * math.sqrt((n - 1) * (1.0 + r23)) / math.sqrt(den)
    return t, float(2.0 * scipy_stats().t.sf(abs(t), n - 3))


# --------------------------------------------------------------------------- estimates


@dataclass(frozen=True)
class Estimate:
    """A measure's bootstrap :class:`~meteor.analysis.resampling.Interval`, what it counted
    (``n``: rows, items, DARR pairs or systems) and ``reason``: why the value or the
    interval is undefined (shown as ``n/a``); None when all three are numbers."""

    interval: Interval
    n: int
    reason: str | None = None

    @property
    def value(self) -> float:
        return self.interval.value

    @property
    def low(self) -> float:
        return self.interval.low

    @property
    def high(self) -> float:
        return self.interval.high

    def to_dict(self) -> dict[str, Any]:
        return {"value": json_number(self.value), "low": json_number(self.low),
                "high": json_number(self.high), "n": self.n, "reason": self.reason}  # fmt: skip


def _all_equal(x: Array) -> bool:
    finite = np.asarray(x, dtype=float)
    return len(finite) > 0 and bool(np.all(finite == finite[0]))


def segment_reason(key: str, data: SegmentData, scores: Array) -> str:
    """Why the segment-level measure ``key`` of ``scores`` is undefined on ``data``."""
    m = np.asarray(scores, dtype=float)
    if key.startswith("darr"):
        return (
            "no pairs: no two outputs of one item differ by the DARR threshold or more"
            if not len(data.darr[0])
            else "no pair counted"
        )
    if key in _FLAT:
        if len(m) < 2:
            return "fewer than 2 rows"
        if _all_equal(data.human):
            return "the human scores are all equal"
        if _all_equal(m):
            return "the metric gives every row the same score"
        return "undefined on these rows"
    if data.n_items and np.all(_item_range(data.human, data.items, data.n_items) == 0):
        return "the human scores are equal within every item"
    return "no item has 2 or more outputs whose human scores differ and whose metric scores differ"


def _estimate(
    value: float, samples: Array, level: float, n: int, why: Callable[[], str]
) -> Estimate:
    """``value`` with the interval of its resamples, and why either is undefined."""
    interval = Interval.of(value, samples, level)
    reason = None
    if not math.isfinite(value):
        reason = why()
    elif not (math.isfinite(interval.low) and math.isfinite(interval.high)):
        reason = "the bootstrap resamples give no defined value"
    return Estimate(interval, n, reason)


def segment_estimate(
    key: str,
    data: SegmentData,
    scores: Array,
    draws: Array,
    level: float,
    value: float | None = None,
) -> Estimate:
    """One segment-level measure of ``scores`` with its bootstrap interval over the items
    ``draws`` (``value``: the measure when the caller has it already)."""
    if value is None:
        value = segment_measure(key, data, scores)
    samples = bootstrap_segment(key, data, scores, draws)
    count = item_count(key, data, scores)
    return _estimate(value, samples, level, count, lambda: segment_reason(key, data, scores))


def system_reason(human: Array, scores: Array) -> str:
    """Why a system-level correlation of ``scores`` with ``human`` is undefined."""
    if len(human) < 2:
        return "fewer than 2 systems"
    if _all_equal(human):
        return "the systems' mean human scores are all equal"
    if _all_equal(scores):
        return "the metric gives every system the same score"
    return "undefined on these systems"


def system_estimate(
    fn: Callable[[Array, Array], float],
    human: Array,
    scores: Array,
    n_bootstrap: int,
    seed: int,
    level: float,
    n: int,
) -> Estimate:
    """A system-level correlation ``fn`` with its bootstrap interval over the ``n`` systems."""
    samples = bootstrap_system(fn, human, scores, n_bootstrap, seed)
    return _estimate(fn(human, scores), samples, level, n, lambda: system_reason(human, scores))
