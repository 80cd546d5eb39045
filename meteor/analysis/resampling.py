"""The bootstrap's machinery (the tests and their records are
:mod:`meteor.analysis.significance`): segment statistics as a matrix (:func:`stats_matrix`),
the resamples (``numpy.random.default_rng(seed).integers(0, n, size=n)``, in sample order)
rescored with the formula (:func:`resampled_matrices`), the interval (:func:`ci_bounds`),
the checks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from meteor.module_registry import module_order
from meteor.params import Params
from meteor.scoring import formula, formula_plan, perfect_rows
from meteor.signatures import check_same_settings
from meteor.stats import Stats
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "Interval",
    "MAX_BOOTSTRAP_DRAWS",
    "MAX_BOOTSTRAP_SAMPLES",
    "MIN_BOOTSTRAP_SAMPLES",
    "ci_bounds",
    "common_segments",
    "count_batches",
    "resample_indices",
    "scores_of_sums",
    "stats_matrix",
    "swap_masks",
]


# ---------------------------------------------------------------------------
# statistics as a matrix
# ---------------------------------------------------------------------------
def _stats_row_of(s: Stats, width: int) -> list[int]:
    """The fields in order, each per-module tuple ``width`` (``len(module_order())``) wide."""
    vecs = (
        s.hyp_content_matches,
        s.ref_content_matches,
        s.hyp_function_matches,
        s.ref_function_matches,
    )
    row = [s.hyp_len, s.ref_len, s.hyp_function_words, s.ref_function_words]
    for v in vecs:
        row += v
        if len(v) < width:
            row += [0] * (width - len(v))
    row += (s.chunks, s.hyp_word_matches, s.ref_word_matches)
    return row


def row_stats(row: Sequence[float]) -> Stats:
    """The :class:`Stats` of a (summed) :func:`stats_matrix` row, laid out as
    :func:`_stats_row_of` writes it: four counts, the four per-module tuples, three counts."""
    v = [int(round(x)) for x in row]
    w = len(module_order())
    hc, rc, hf, rf = (tuple(v[4 + k * w : 4 + (k + 1) * w]) for k in range(4))
    chunks, hyp_matched, ref_matched = v[4 + 4 * w :]
    return Stats(v[0], v[1], v[2], v[3], hc, rc, hf, rf, chunks, hyp_matched, ref_matched)


def stats_matrix(segments: Sequence[MeteorResult] | Sequence[Stats], params: Params) -> np.ndarray:
    """One row per segment: what it adds to the corpus statistics under ``params``
    (:meth:`Stats.corpus_contribution`, float64 exact ints), so summing rows reproduces
    :meth:`meteor.Meteor.combine`."""
    width = len(module_order())
    rule = params.perfect_rule
    rows = [
        _stats_row_of(
            (s.stats if isinstance(s, MeteorResult) else s).corpus_contribution(perfect_rule=rule),
            width,
        )
        for s in segments
    ]
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), 7 + 4 * width)


#: Most multiply-adds per matrix product in :func:`integer_product`: OpenBLAS runs a
#: product this small on one thread (its threshold), which busy cores do not slow down.
SINGLE_THREAD_WORK = 65_536 * 4


def integer_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for matrices of whole numbers in float64, in blocks of rows small enough
    for one BLAS thread (every partial sum is exact below 2**53: the blocks change no value)."""
    rows = max(1, SINGLE_THREAD_WORK // max(1, a.shape[1] * b.shape[1]))
    if len(a) <= rows:
        return a @ b
    out = np.empty((len(a), b.shape[1]), dtype=np.float64)
    for k in range(0, len(a), rows):
        out[k : k + rows] = a[k : k + rows] @ b
    return out


def scores_of_sums(sums: np.ndarray, params: Params) -> np.ndarray:
    """``compute(row_stats(row), params).score`` for every row of ``sums`` (summed
    :func:`stats_matrix` rows), bit for bit: :func:`meteor.scoring.formula` on the columns."""
    s = np.asarray(sums, dtype=np.float64)
    if s.ndim != 2:
        raise ValueError(f"sums must be a matrix, got shape {s.shape}")
    w = (s.shape[1] - 7) // 4
    cols = s.T  # one row per statistic: column k of each per-module block is cols[start + k]
    hc, rc, hf, rf = (cols[4 + j * w : 4 + (j + 1) * w] for j in range(4))
    chunks, hwm, rwm = cols[4 + 4 * w], cols[5 + 4 * w], cols[6 + 4 * w]
    plan, nltk_arithmetic = formula_plan(params)
    slots = [(k, wt) for k, wt in plan if k < w]  # a stage registered later matched nothing
    perfect = (
        perfect_rows(hc.sum(axis=0) + hf.sum(axis=0), cols[0], rc.sum(axis=0) + rf.sum(axis=0),
                     cols[1], chunks)
        if params.perfect_rule
        else False
    )  # fmt: skip
    score = formula(
        (cols[0], cols[1], cols[2], cols[3]),
        (hc, rc, hf, rf),
        (chunks, hwm, rwm),
        slots,
        (params.alpha, params.beta, params.gamma, params.delta),
        nltk_arithmetic=nltk_arithmetic,
        perfect=perfect,
    )[-1]
    return np.asarray(score, dtype=np.float64).reshape(len(s))


# ---------------------------------------------------------------------------
# resampling
# ---------------------------------------------------------------------------
def resample_indices(n: int, n_samples: int, seed: int | None) -> np.ndarray:
    """All resample indices at once, shape ``(n_samples, n)``: row ``b`` is the ``b``-th
    ``rng.integers(0, n, size=n)`` of ``rng = numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    return (
        np.stack([rng.integers(0, n, size=n) for _ in range(n_samples)])
        if n_samples
        else (np.zeros((0, n), dtype=np.int64))
    )


@dataclass(frozen=True, slots=True)
class Interval:
    """A statistic on the actual corpus (``value``), its mean over the bootstrap resamples
    and its confidence interval (``low``, ``high`` at ``level``)."""

    value: float
    mean: float
    low: float
    high: float
    level: float

    @property
    def half_width(self) -> float:
        """Half the interval width (sacreBLEU prints ``score ± this``)."""
        return (self.high - self.low) / 2

    @classmethod
    def of(cls, value: float, samples: np.ndarray, level: float) -> Interval:
        """``value`` with the mean and the :func:`ci_bounds` interval of its finite
        resamples (a correlation is NaN on a resample without variance)."""
        low, high = ci_bounds(samples, level)
        finite = np.asarray(samples, dtype=np.float64)
        finite = finite[np.isfinite(finite)]
        return cls(value, float(np.mean(finite)) if len(finite) else math.nan, low, high, level)

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def ci_bounds(samples: np.ndarray | Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The one percentile rule of every interval: ``(s[k], s[B − k − 1])`` of the sorted
    finite samples (``B`` of them), ``k = floor(B·(1 − level)/2)``; NaN without any.  The
    order statistic of sacreBLEU's ``estimate_ci``, not ``numpy.percentile``'s interpolation."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    s = np.asarray(samples, dtype=np.float64)
    s = np.sort(s[np.isfinite(s)])
    b = len(s)
    if b == 0:
        return math.nan, math.nan
    k = int(math.floor(b * (1.0 - level) / 2.0 + 1e-9))
    return float(s[k]), float(s[b - k - 1])


def swap_masks(n: int, trials: int, seed: int | None) -> Iterator[np.ndarray]:
    """The swaps of a paired permutation test (approximate randomisation, PERM-BOTH), in
    batches of trials: row ``t`` swaps pair ``i`` where ``rng.random(n)[i] < 0.5`` on
    ``rng = numpy.random.default_rng(seed)``, one draw per trial in order (not
    ``scipy.stats.permutation_test``, whose draws differ and which is ~40 times slower here)."""
    for rng, size in _batches(n, trials, seed):
        yield rng.random((size, n)) < 0.5


def _batches(n: int, total: int, seed: int | None) -> Iterator[tuple[np.random.Generator, int]]:
    """``total`` draws of ``n`` values in batches of at most 64 (and about 4,000,000 values),
    all from one ``numpy.random.default_rng(seed)``: (the generator, the batch's size)."""
    rng = np.random.default_rng(seed)
    batch = max(1, min(64, 4_000_000 // max(n, 1)))
    for done in range(0, total, batch):
        yield rng, min(batch, total - done)


def count_batches(n: int, n_samples: int, seed: int | None) -> Iterator[np.ndarray]:
    """Yield ``(batch, n)`` matrices: how often each segment is drawn in each resample."""
    for rng, size in _batches(n, n_samples, seed):
        counts = np.empty((size, n), dtype=np.float64)
        for r in range(size):
            counts[r] = np.bincount(rng.integers(0, n, size=n), minlength=n)
        yield counts


#: Fewest resamples for a 95 % interval: below 40, ``k = floor(B·0.025)`` is 0 (:func:`ci_bounds`).
MIN_BOOTSTRAP_SAMPLES = 40
#: Most bootstrap resamples accepted (each costs about 30 µs plus its draws).
MAX_BOOTSTRAP_SAMPLES = 100_000
#: Most segment draws (resamples × segments) per bootstrap: about 5-20 s on one core.
MAX_BOOTSTRAP_DRAWS = 200_000_000


def check_samples(n_samples: int, level: float, n_segments: int = 0) -> None:
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


def segments_of(x: CorpusResult | Sequence[MeteorResult]) -> tuple[MeteorResult, ...]:
    return x.segments if isinstance(x, CorpusResult) else tuple(x)


def check_settings(
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


def resampled_matrices(
    mats: Sequence[np.ndarray],
    seg_scores: Sequence[np.ndarray],
    params: Params,
    n_samples: int,
    seed: int | None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per system given as :func:`stats_matrix` and segment scores: (resampled corpus
    scores, resampled mean segment scores); a batch of resamples is a matrix of draw counts
    times the statistics matrix, scored at once by :func:`scores_of_sums`."""
    n = len(mats[0])
    corpus = [np.empty(n_samples) for _ in mats]
    means = [np.empty(n_samples) for _ in mats]
    b = 0
    for counts in count_batches(n, n_samples, seed):
        for k in range(len(mats)):
            means[k][b : b + len(counts)] = (counts @ seg_scores[k]) / n
            sums = integer_product(counts, mats[k])
            corpus[k][b : b + len(counts)] = scores_of_sums(sums, params)
        b += len(counts)
    return list(zip(corpus, means, strict=True))
