"""Which METEOR setting agrees best with people?  Tuning (issue 34, "Tune").

:func:`tune` searches α, β, γ, δ and the stage weights of a METEOR setting for the best
agreement with a human score column (any segment-level measure of
:mod:`meteor.analysis.agreement_stats`, or system-level Pearson/Kendall), as Meteor 1.5's
``Trainer`` does, but faster:

* **Aligning once.**  None of α, β, γ, δ or the weights changes an alignment
  (:data:`STATS_ONLY`): Meteor 1.5's beam search ranks partial alignments with fixed
  search weights (exact 1, others 0.5, :func:`meteor.aligners.beam.search_weight`), and
  the greedy and stagewise aligners read no weight.  So the corpus is aligned once
  under the base setting and every parameter point is scored from the per-segment
  sufficient statistics (:class:`StatArrays`), vectorised with numpy over all segments
  and many points at once (:func:`segment_scores`, :func:`system_scores`).  Every other
  field (stages and their order, aligner, beam width, normalisation, function words …)
  changes the alignment or the statistics: a different base setting means aligning again
  (tune once per base setting).  With several references the best reference of each
  segment depends on the parameters: each reference is aligned once and the best is
  picked per point, as :meth:`meteor.Meteor.score` does (the first wins ties).
* **Search** (:func:`search`): a grid over α, β, γ, δ, then coordinate descent over
  α, β, γ, δ and each weight on shrinking steps until no step helps.
* **Honest generalisation** (``tune(folds=k, groups=...)``): k-fold cross-validation with folds
  made of whole groups (a document/talk column, or the systems): no group has rows on
  both sides.  Each fold is tuned on the other folds and measured on its own rows, next
  to the base setting and chrF on the same rows, each with its bootstrap interval.

The result (:class:`TuneResult`) is JSON-serialisable and writes a preset file
(:meth:`TuneResult.preset_document`) that :func:`meteor.presets.load_preset_file`,
``Meteor(preset_file=...)`` and every command's ``--preset-file`` read.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import scipy.stats

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import Estimate, Judged, _rows, _system_human
from meteor.errors import InputError
from meteor.params import Params
from meteor.types import Stats, module_slot

__all__ = [
    "ALIGNMENT_FIELDS",
    "OBJECTIVES",
    "STATS_ONLY",
    "FoldResult",
    "Point",
    "StatArrays",
    "TuneResult",
    "align_statistics",
    "group_folds",
    "objective_values",
    "search",
    "segment_scores",
    "system_scores",
    "tune",
]

Array = np.ndarray
Progress = Callable[[float, str], None]

#: The fields a parameter point changes: they leave every alignment as it is.
STATS_ONLY: tuple[str, ...] = ("alpha", "beta", "gamma", "delta", "weights")
#: Every other field of :class:`~meteor.params.Params` changes the alignment or the
#: statistics (stages and their order, aligner, tokens, function words): re-align.
ALIGNMENT_FIELDS: tuple[str, ...] = (
    "lang", "modules", "aligner", "beam_size", "norm", "no_punct", "stemmer",
    "function_words", "perfect_rule", "java_keys", "fold_yo", "embedding_threshold",
    "tokenizer",
)  # fmt: skip
#: Objectives: every segment-level measure, and the system-level ones.
OBJECTIVES: tuple[str, ...] = (*st.MEASURES, "system_pearson", "system_kendall")
#: Short names the CLI accepts.
ALIASES: dict[str, str] = {
    "kendall": "kendall_flat",
    "pearson": "pearson_flat",
    "spearman": "spearman_flat",
    "darr": "darr_flat",
}
#: The grid searched first (the jar's Trainer also starts from a grid).
GRID: dict[str, tuple[float, ...]] = {
    "alpha": (0.5, 0.65, 0.8, 0.9, 0.95),
    "beta": (0.2, 0.5, 1.0, 2.0, 3.0),
    "gamma": (0.0, 0.2, 0.4, 0.6, 0.8),
    "delta": (0.5, 0.65, 0.75, 0.85, 0.95),
}
_RANGES = {"alpha": (0.0, 1.0), "beta": (0.0, 20.0), "gamma": (0.0, 1.0), "delta": (0.0, 1.0)}
_STEP = {"alpha": 0.1, "beta": 0.5, "gamma": 0.1, "delta": 0.1, "weight": 0.2}


def canonical_objective(name: str) -> str:
    """An objective's key (aliases resolved).

    Raises:
        InputError: an unknown objective, listing the known ones.
    """
    key = ALIASES.get(name, name)
    if key not in OBJECTIVES:
        raise InputError(
            f"unknown objective {name!r}; choose from {', '.join([*ALIASES, *OBJECTIVES])}"
        )
    return key


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class StatArrays:
    """Sufficient statistics as arrays: ``R`` references × ``n`` rows (× ``W`` slots).

    ``valid[r, i]``: row ``i`` has a reference ``r`` (the first is always there).
    """

    hl: Array
    rl: Array
    hf: Array
    rf: Array
    hc: Array
    rc: Array
    hfm: Array
    rfm: Array
    chunks: Array
    hw: Array
    rw: Array
    valid: Array

    @classmethod
    def build(cls, per_ref: Sequence[Sequence[Stats | None]], width: int) -> StatArrays:
        """From ``per_ref[r][i]`` (None: row ``i`` has no reference ``r``)."""
        first = per_ref[0]
        filled = [[s if s is not None else first[i] for i, s in enumerate(r)] for r in per_ref]

        def scalar(name: str) -> Array:
            return np.array([[float(getattr(s, name)) for s in r] for r in filled])

        def vec(name: str) -> Array:
            out = np.zeros((len(filled), len(first), width))
            for k, r in enumerate(filled):
                for i, s in enumerate(r):
                    v = getattr(s, name)
                    m = min(len(v), width)
                    out[k, i, :m] = v[:m]
            return out

        return cls(
            scalar("hyp_len"), scalar("ref_len"),
            scalar("hyp_function_words"), scalar("ref_function_words"),
            vec("hyp_content_matches"), vec("ref_content_matches"),
            vec("hyp_function_matches"), vec("ref_function_matches"),
            scalar("chunks"), scalar("hyp_word_matches"), scalar("ref_word_matches"),
            np.array([[s is not None for s in r] for r in per_ref], dtype=bool),
        )  # fmt: skip

    @property
    def n_rows(self) -> int:
        return int(self.hl.shape[1])

    def take(self, rows: Array) -> StatArrays:
        """The statistics of some rows."""
        return StatArrays(
            *(getattr(self, f)[:, rows] for f in self.__dataclass_fields__)  # type: ignore[arg-type]
        )

    def terms(self, perfect_rule: bool) -> _Terms:
        """The formula's parameter-free parts over the ``R·n`` (reference, row) pairs."""
        return self._terms_perfect if perfect_rule else self._terms_plain

    def _flat_terms(self, perfect_rule: bool) -> _Terms:
        def flat(x: Array) -> Array:
            return x.reshape((-1,) + x.shape[2:])

        fields = ("hl", "rl", "hf", "rf", "hc", "rc", "hfm", "rfm", "chunks", "hw", "rw")
        return _terms({f: flat(getattr(self, f)) for f in fields}, perfect_rule)

    @cached_property
    def _terms_perfect(self) -> _Terms:
        return self._flat_terms(True)

    @cached_property
    def _terms_plain(self) -> _Terms:
        return self._flat_terms(False)


@dataclass(frozen=True)
class Point:
    """Parameter points, ``B`` of them: α, β, γ, δ of shape ``(B,)``, weights ``(B, W)``
    by statistics slot (a slot of a module not in use has weight 0)."""

    alpha: Array
    beta: Array
    gamma: Array
    delta: Array
    weights: Array

    @classmethod
    def of(cls, params: Sequence[Params], width: int) -> Point:
        w = np.zeros((len(params), width))
        for b, p in enumerate(params):
            for m, x in p.weights:
                w[b, module_slot(m)] = x
        return cls(
            np.array([p.alpha for p in params]),
            np.array([p.beta for p in params]),
            np.array([p.gamma for p in params]),
            np.array([p.delta for p in params]),
            w,
        )

    def __len__(self) -> int:
        return len(self.alpha)

    def slice(self, start: int, stop: int) -> Point:
        """Points ``start … stop − 1``."""
        return Point(*(getattr(self, f)[start:stop] for f in self.__dataclass_fields__))  # type: ignore[arg-type]


#: Points scored together (arrays of ``CHUNK × rows`` stay in the CPU cache).
CHUNK = 32


@dataclass(frozen=True)
class _Terms:
    """The parameter-free parts of the formula, per row (``(m,)``, or ``(B, m)`` per point):
    ``hyp_len = δ·ch + hf`` (``ch = len − 2f``), ``M_hyp = δ·Σ w·dh + Σ w·fh`` per slot
    (``dh = content − function matches``, ``fh`` = function matches), the same for the
    reference, and ``frag`` (0 for a perfect segment under the perfect rule)."""

    ch: Array
    hf: Array
    cr: Array
    rf: Array
    dh: Array  # (W, ...) by slot
    fh: Array
    dr: Array
    fr: Array
    frag: Array


def _terms(v: Mapping[str, Array], perfect_rule: bool) -> _Terms:
    """From the statistics by :class:`StatArrays` field name (``hl``, ``rl``, … ``rw``)."""
    hl, rl, hf, rf = v["hl"], v["rl"], v["hf"], v["rf"]
    hc, rc, hfm, rfm = v["hc"], v["rc"], v["hfm"], v["rfm"]
    chunks, hw, rw = v["chunks"], v["hw"], v["rw"]

    def slots(x: Array) -> Array:
        return np.ascontiguousarray(np.moveaxis(x, -1, 0))

    with np.errstate(all="ignore"):
        frag = chunks / ((hw + rw) / 2)
    if perfect_rule:
        perfect = (
            (hc.sum(-1) + hfm.sum(-1) == hl) & (rc.sum(-1) + rfm.sum(-1) == rl) & (chunks == 1)
        )
        frag = np.where(perfect, 0.0, frag)
    return _Terms(
        hl - 2.0 * hf, hf, rl - 2.0 * rf, rf,
        slots(hc - hfm), slots(hfm), slots(rc - rfm), slots(rfm), frag,
    )  # fmt: skip


def _kernel(t: _Terms, pt: Point) -> Array:
    """:func:`meteor.scoring.compute` for ``B`` points on the rows of ``t``: ``(B, m)``.

    One pass per elementary operation over ``B × m`` arrays, in place (the chunks of
    :data:`CHUNK` points keep them in cache); a weight slot no point uses is skipped.
    IEEE arithmetic as Java's (x/0 = ±inf, 0/0 = NaN; a NaN or negative score → 0).
    """
    m = t.ch.shape[-1]
    shape = (len(pt), m)
    used = [k for k in range(pt.weights.shape[1]) if np.any(pt.weights[:, k] != 0)]
    a, b, g, d = (x[:, None] for x in (pt.alpha, pt.beta, pt.gamma, pt.delta))
    w = pt.weights
    p, r, tmp = np.zeros(shape), np.zeros(shape), np.empty(shape)

    def matches(dx: Array, fx: Array, out: Array) -> None:  # δ·Σ w·d + Σ w·f
        for k in used:
            np.multiply(w[:, k : k + 1], dx[k], out=tmp)
            out += tmp
        out *= d
        for k in used:
            np.multiply(w[:, k : k + 1], fx[k], out=tmp)
            out += tmp

    with np.errstate(all="ignore"):
        matches(t.dh, t.fh, p)
        np.multiply(d, t.ch, out=tmp)
        tmp += t.hf
        p /= tmp  # precision
        matches(t.dr, t.fr, r)
        np.multiply(d, t.cr, out=tmp)
        tmp += t.rf
        r /= tmp  # recall
        np.divide(1.0 - a, p, out=p)
        np.divide(a, r, out=r)
        p += r
        np.divide(1.0, p, out=p)  # Fmean = 1/((1−α)/P + α/R)
        np.power(t.frag, b, out=r)  # frag^β (x^0 = 1 for every x, as Java's Math.pow)
        r *= g
        np.subtract(1.0, r, out=r)
        p *= r
    return np.fmax(p, 0.0, out=p)  # NaN → 0, negative → 0, +inf stays


def _chosen(stats: StatArrays, pt: Point, perfect_rule: bool) -> tuple[Array, Array]:
    """Per point and row: the segment score and the index of the reference it came from."""
    t = stats.terms(perfect_rule)
    n_refs, n = stats.hl.shape
    scores = np.empty((len(pt), n))
    best = np.zeros((len(pt), n), dtype=np.int64)
    for start in range(0, len(pt), CHUNK):
        part = pt.slice(start, start + CHUNK)
        s = _kernel(t, part)  # (b, R·n)
        if n_refs == 1:
            scores[start : start + len(part)] = s
            continue
        s = s.reshape(len(part), n_refs, n)
        s = np.where(stats.valid[None, :, :], s, -1.0)
        k = np.argmax(s, axis=1)  # the first maximum: the first reference wins ties
        best[start : start + len(part)] = k
        scores[start : start + len(part)] = np.take_along_axis(s, k[:, None, :], axis=1)[:, 0, :]
    return scores, best


def segment_scores(stats: StatArrays, pt: Point, perfect_rule: bool = True) -> Array:
    """``(B, n)``: every row's segment score under every point (no aligning)."""
    return _chosen(stats, pt, perfect_rule)[0]


def system_scores(
    stats: StatArrays, pt: Point, systems: Array, n_systems: int, perfect_rule: bool = True
) -> Array:
    """``(B, S)``: each system's corpus score (Meteor 1.5's sum of the statistics of each
    segment's best reference, a perfect segment's chunks left out) under every point.

    With one reference the sums do not depend on the point: they are taken once and every
    point is scored on them together; with several, each point sums its own best references.
    """
    one_hot = np.zeros((len(systems), n_systems))
    one_hot[np.arange(len(systems)), systems] = 1.0
    fields = ("hl", "rl", "hf", "rf", "hc", "rc", "hfm", "rfm", "chunks", "hw", "rw")

    vectors = ("hc", "rc", "hfm", "rfm")

    def sums(f: str, x: Array) -> Array:  # (..., n[, W]) → (..., S[, W])
        if f in vectors:
            return np.einsum("...nw,ns->...sw", x, one_hot)
        return x @ one_hot

    def corpus_terms(v: dict[str, Array]) -> _Terms:
        perfect = (v["hw"] == v["hl"]) & (v["rw"] == v["rl"]) & (v["chunks"] == 1)
        v = {**v, "chunks": np.where(perfect, 0.0, v["chunks"])}
        s = {f: sums(f, v[f]) for f in fields}
        return _terms(s, perfect_rule)

    if stats.hl.shape[0] == 1:
        t = corpus_terms({f: getattr(stats, f)[0] for f in fields})
        out = np.empty((len(pt), n_systems))
        for start in range(0, len(pt), CHUNK):
            part = pt.slice(start, start + CHUNK)
            out[start : start + len(part)] = _kernel(t, part)
        return out
    _, best = _chosen(stats, pt, perfect_rule)

    def pick(x: Array) -> Array:  # (R, n[, W]) → (B, n[, W]) by each point's best reference
        idx = best[(...,) + (None,) * (x.ndim - 2)]
        return np.take_along_axis(x[None], idx[:, None], axis=1)[:, 0]

    t = corpus_terms({f: pick(getattr(stats, f)) for f in fields})  # (B, S) per point
    out = np.empty((len(pt), n_systems))
    for k in range(len(pt)):
        one = _Terms(*(getattr(t, f)[..., k, :] for f in t.__dataclass_fields__))  # type: ignore[arg-type]
        out[k] = _kernel(one, pt.slice(k, k + 1))[0]
    return out


# --------------------------------------------------------------------------- objectives


@dataclass(frozen=True)
class Rows:
    """The human side of the objectives on some rows, prepared once."""

    data: st.SegmentData
    systems: Array
    n_systems: int
    sys_human: Array
    flat_human: Array

    @classmethod
    def build(
        cls, human: Array, darr: Array, items: Array, systems: Array, n_systems: int,
        threshold: float,
    ) -> Rows:  # fmt: skip
        _, local_items = np.unique(items, return_inverse=True)
        data = st.SegmentData.build(human, local_items.astype(np.int64), darr, threshold)
        present, local_sys = np.unique(systems, return_inverse=True)
        k = len(present)
        return cls(data, local_sys.astype(np.int64), k, _system_human(human, local_sys, k), human)

    @cached_property
    def human_ranks(self) -> Array:
        """The human scores' average ranks over all rows (flattened Spearman)."""
        return np.asarray(scipy.stats.rankdata(self.flat_human), dtype=float)


def _pearson_rows(x: Array, y: Array) -> Array:
    """Pearson's r of each row of ``y`` (B, n) with ``x`` (n,); NaN where constant.

    One pass for ``Σ y``, one for ``Σ y·x̃`` (``x̃`` centred) and one for ``Σ y²``; a row whose
    variance is small next to ``Σ y²`` (where that shortcut would lose digits) is done the
    two-pass way, and a constant row is NaN as in scipy.
    """
    n = y.shape[1]
    xc = x - x.mean()
    sxx = float(xc @ xc)
    sy = y.sum(axis=1)
    syy_raw = np.einsum("bn,bn->b", y, y)
    syy = syy_raw - sy * sy / n
    sxy = y @ xc - sy / n * float(xc.sum())
    careful = ~(syy > 1e-6 * syy_raw)
    if np.any(careful):
        yc = y[careful] - y[careful].mean(axis=1, keepdims=True)
        sxy[careful] = yc @ xc
        syy[careful] = (yc * yc).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = sxy / np.sqrt(syy * sxx)
    const = np.zeros(len(y), dtype=bool)
    const[careful] = np.ptp(y[careful], axis=1) == 0
    if np.ptp(x) == 0:
        const[:] = True
    r[const] = np.nan
    return np.clip(r, -1.0, 1.0)


def _kendall_pairs(x: Array, y: Array, i: Array, j: Array) -> Array:
    """τ-b over the pairs ``(i, j)``, per row of ``y``."""
    a = np.sign(x[i] - x[j])
    b = np.sign(y[:, i] - y[:, j])
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (b @ a) / np.sqrt(float(a @ a) * (b * b).sum(axis=1))
    return np.clip(tau, -1.0, 1.0)


def objective_values(key: str, rows: Rows, seg: Array, sys_scores: Array | None = None) -> Array:
    """The objective ``key`` for each row of ``seg`` (``(B, n)`` segment scores; system-level
    objectives need ``sys_scores`` ``(B, S)``).  Equal to :func:`correlate`'s measures (tested)."""
    data = rows.data
    if key == "system_pearson":
        assert sys_scores is not None
        return _pearson_rows(rows.sys_human, sys_scores)
    if key == "system_kendall":
        assert sys_scores is not None
        i, j = np.triu_indices(rows.n_systems, k=1)
        return _kendall_pairs(rows.sys_human, sys_scores, i, j)
    if key == "pearson_flat":
        return _pearson_rows(data.human, seg)
    if key == "kendall_item":
        i, j, item = data.pairs  # grouped by item: one run of pairs per item
        out = np.full(len(seg), np.nan)
        if not len(i):
            return out
        a = np.sign(data.human[i] - data.human[j])
        starts = np.flatnonzero(np.r_[True, item[1:] != item[:-1]])
        aa = np.add.reduceat(a * a, starts)
        b = np.sign(seg[:, i] - seg[:, j])
        num = np.add.reduceat(b * a, starts, axis=1)
        bb = np.add.reduceat(np.abs(b), starts, axis=1)  # b·b: b ∈ {−1, 0, 1}
        den = np.sqrt(aa * bb)
        with np.errstate(invalid="ignore", divide="ignore"):
            tau = np.clip(np.where(den > 0, num / den, np.nan), -1.0, 1.0)
        ok = np.isfinite(tau)
        count = ok.sum(axis=1)
        total = np.where(ok, tau, 0.0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / np.maximum(count, 1), np.nan)
    if key == "spearman_flat":
        ranks = scipy.stats.rankdata(seg, axis=1)
        return _pearson_rows(rows.human_ranks, ranks)
    if key in ("darr_flat", "darr_item"):
        better, worse, item = data.darr
        sign = np.where(seg[:, better] > seg[:, worse], 1.0, -1.0)
        if key == "darr_flat":
            return sign.mean(axis=1) if len(better) else np.full(len(seg), np.nan)
        n = data.n_items
        weight = np.bincount(item, minlength=n).astype(float)
        return np.array([st.aggregate(key, np.bincount(item, s, n), weight) for s in sign])
    return np.array([st.segment_measure(key, data, s) for s in seg])


# --------------------------------------------------------------------------- search


@dataclass(frozen=True)
class _Space:
    """The searched parameters: base params, the weighted modules and the statistics."""

    base: Params
    stats: StatArrays
    width: int
    perfect_rule: bool
    tune_weights: bool

    def params(self, values: Mapping[str, float], weights: Mapping[Any, float]) -> Params:
        return self.base.replace(
            alpha=values["alpha"], beta=values["beta"], gamma=values["gamma"],
            delta=values["delta"], weights=tuple(weights.items()),
        )  # fmt: skip


#: Objectives searched with a screen, and their screen: every point is scored and measured
#: by the screen (flattened Pearson is one matrix product), and only the best
#: :func:`screen_size` of them get the exact, costlier objective (scipy's τ-b, ranks, pairs
#: within items); the others are left out (-inf).  Every value the search compares, and so its
#: choice, is the exact objective.
SCREENED: dict[str, str] = {
    "kendall_flat": "pearson_flat",
    "spearman_flat": "pearson_flat",
    "kendall_item": "pearson_item",
    "spearman_item": "pearson_item",
}


def screen_size(n_points: int) -> int:
    """How many of ``n_points`` screened points get the exact objective: all of up to 16
    (every coordinate-descent step), then 1 in 16 (at least 16)."""
    return n_points if n_points <= 16 else max(16, -(-n_points // 16))


def evaluate_points(
    stats: StatArrays, rows: Rows, key: str, pt: Point, perfect_rule: bool = True,
    screen: bool = True,
) -> Array:  # fmt: skip
    """The objective ``key`` under each point (``(B,)``), :data:`CHUNK` points at a time so
    the scores stay in cache while they are measured.  With ``screen`` and ``key`` in
    :data:`SCREENED`, only the :func:`screen_size` best by their screen (Pearson) are measured
    exactly; the others are -inf."""
    screened = screen and key in SCREENED and len(pt) > screen_size(len(pt))
    first = SCREENED[key] if screened else key
    out = np.empty(len(pt))
    for start in range(0, len(pt), CHUNK):
        part = pt.slice(start, start + CHUNK)
        if key.startswith("system_"):
            sys_scores = system_scores(stats, part, rows.systems, rows.n_systems, perfect_rule)
            out[start : start + len(part)] = objective_values(
                key, rows, np.zeros((len(part), 0)), sys_scores
            )
        else:
            seg = segment_scores(stats, part, perfect_rule)
            out[start : start + len(part)] = objective_values(first, rows, seg)
    if not screened:
        return out
    keep = np.argsort(-np.where(np.isfinite(out), out, -np.inf), kind="stable")
    keep = np.sort(keep[: screen_size(len(pt))])
    exact = np.full(len(pt), -np.inf)
    best = Point(*(getattr(pt, f)[keep] for f in pt.__dataclass_fields__))  # type: ignore[arg-type]
    for start in range(0, len(keep), CHUNK):
        part = best.slice(start, start + CHUNK)
        seg = segment_scores(stats, part, perfect_rule)
        exact[keep[start : start + len(part)]] = objective_values(key, rows, seg)
    return exact


def _evaluate(
    space: _Space, rows: Rows, idx: Array | None, key: str, points: Sequence[Params]
) -> Array:
    stats = space.stats if idx is None else space.stats.take(idx)
    return evaluate_points(stats, rows, key, Point.of(points, space.width), space.perfect_rule)


def _better(value: float, best: float) -> bool:
    return math.isfinite(value) and (not math.isfinite(best) or value > best + 1e-12)


def search(
    space: _Space,
    rows: Rows,
    key: str,
    *,
    idx: Array | None = None,
    rounds: int = 6,
    progress: Progress | None = None,
) -> tuple[Params, float, int]:
    """Grid over α β γ δ (weights as given), then coordinate descent over α β γ δ and each
    weight, halving the steps each round.  Returns ``(best params, value, points tried)``."""
    if idx is not None:  # the rows' statistics, taken once for the whole search
        space = _Space(space.base, space.stats.take(idx), space.width, space.perfect_rule,
                       space.tune_weights)  # fmt: skip
        idx = None
    base = space.base
    weights = dict(base.weights)
    grid = [
        space.params(dict(zip(GRID, combo, strict=True)), weights)
        for combo in itertools.product(*GRID.values())
    ]
    values = _evaluate(space, rows, idx, key, [base, *grid])
    tried = len(values)
    finite = np.where(np.isfinite(values), values, -np.inf)
    k = int(np.argmax(finite))
    best, best_value = ([base, *grid][k], float(values[k]))
    if progress is not None:
        progress(0.3, f"grid: {tried:,} points, best {best_value:.4f}")
    names = ["alpha", "beta", "gamma", "delta"]
    if space.tune_weights:
        names += [f"w:{m.value}" for m, _ in base.weights]
    for r in range(rounds):
        scale = 0.5**r
        improved = False
        for name in names:
            cur = {n: getattr(best, n) for n in ("alpha", "beta", "gamma", "delta")}
            w = dict(best.weights)
            if name.startswith("w:"):
                mod = next(m for m in w if m.value == name[2:])
                lo, hi, step, now = 0.0, 1.0, _STEP["weight"] * scale, w[mod]
            else:
                lo, hi = _RANGES[name]
                step, now = _STEP[name] * scale, cur[name]
            cands = sorted({min(hi, max(lo, round(now + s * step, 10))) for s in range(-4, 5)})
            cands = [c for c in cands if c != now]
            pts: list[Params] = []
            for c in cands:
                if name.startswith("w:"):
                    pts.append(space.params(cur, {**w, mod: c}))
                else:
                    pts.append(space.params({**cur, name: c}, w))
            if not pts:
                continue
            vals = _evaluate(space, rows, idx, key, pts)
            tried += len(vals)
            j = int(np.argmax(np.where(np.isfinite(vals), vals, -np.inf)))
            if _better(float(vals[j]), best_value):
                best, best_value, improved = pts[j], float(vals[j]), True
        if progress is not None:
            progress(0.3 + 0.7 * (r + 1) / rounds, f"round {r + 1}: best {best_value:.4f}")
        if not improved and r >= 1:
            break
    return best, best_value, tried


# --------------------------------------------------------------------------- folds


def group_folds(groups: Sequence[str], k: int) -> list[Array]:
    """``k`` folds of row indices made of whole groups (largest groups first, each to the
    fold with the fewest rows; ties by name): no group is split between folds.

    Raises:
        InputError: fewer groups than folds, or ``k < 2``.
    """
    if k < 2:
        raise InputError(f"cross-validation needs at least 2 folds, got {k}")
    labels = np.asarray(groups, dtype=object)
    names, inverse, counts = np.unique(labels.astype(str), return_inverse=True, return_counts=True)
    if len(names) < k:
        raise InputError(f"{k} folds need at least {k} groups; the data has {len(names)}")
    order = sorted(range(len(names)), key=lambda g: (-counts[g], names[g]))
    sizes = [0] * k
    fold_of = np.empty(len(names), dtype=np.int64)
    for g in order:
        f = min(range(k), key=lambda x: (sizes[x], x))
        fold_of[g] = f
        sizes[f] += int(counts[g])
    row_fold = fold_of[inverse]
    return [np.flatnonzero(row_fold == f) for f in range(k)]


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class FoldResult:
    """One fold: the setting tuned on the other folds, and the held-out agreement of it,
    the base setting and chrF on this fold's rows (with bootstrap intervals)."""

    fold: int
    n_rows: int
    groups: tuple[str, ...]
    train_value: float
    params: Params
    tuned: Estimate
    base: Estimate
    chrf: Estimate | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "fold": self.fold,
            "rows": self.n_rows,
            "groups": list(self.groups),
            "train_value": _num(self.train_value),
            "params": {k: v for k, v in self.params.to_dict().items()
                       if k in ("alpha", "beta", "gamma", "delta", "weights")},
            "held_out": {
                "tuned": self.tuned.to_dict(),
                "base": self.base.to_dict(),
                "chrf": self.chrf.to_dict() if self.chrf else None,
            },
        }  # fmt: skip


def _num(x: float) -> float | None:
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class TuneResult:
    """What :func:`tune` found, how, and how well it generalises."""

    objective: str
    base_name: str
    base: Params
    params: Params
    value: float
    base_value: float
    n_points: int
    seconds: float
    align_seconds: float
    n_rows: int
    data: str
    data_sha256: str
    human_column: str
    higher_is_better: bool
    group_by: str | None
    folds: tuple[FoldResult, ...] = field(default=())

    def cv_mean(self, which: str) -> float:
        vals = [getattr(f, which).value for f in self.folds if getattr(f, which) is not None]
        vals = [v for v in vals if math.isfinite(v)]
        return float(np.mean(vals)) if vals else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "objective": self.objective,
            "base": self.base_name,
            "value": _num(self.value),
            "base_value": _num(self.base_value),
            "params": self.params.to_dict(),
            "signature": self.params.signature(),
            "points": self.n_points,
            "seconds": round(self.seconds, 3),
            "align_seconds": round(self.align_seconds, 3),
            "rows": self.n_rows,
            "data": self.data,
            "data_sha256": self.data_sha256,
            "human_column": self.human_column,
            "higher_is_better": self.higher_is_better,
            "cross_validation": None if not self.folds else {
                "group_by": self.group_by,
                "folds": [f.to_dict() for f in self.folds],
                "mean": {"tuned": _num(self.cv_mean("tuned")), "base": _num(self.cv_mean("base")),
                         "chrf": _num(self.cv_mean("chrf"))},
            },
        }  # fmt: skip

    def preset_document(self, name: str | None = None) -> dict[str, Any]:
        """The preset file's content (JSON; :func:`meteor.presets.load_preset_file`)."""
        cv = self.to_dict()["cross_validation"]
        return {
            "format": "meteor-preset",
            "version": 1,
            "name": name or f"tuned-{self.base_name}",
            "description": (
                f"{self.base_name} with α β γ δ and weights tuned for {self.objective} "
                f"against {self.human_column} on {self.data} ({self.n_rows:,} rows; tuned on "
                "all of it)"
            ),
            "base_preset": self.base_name,
            "params": self.params.to_dict(),
            "tuned_on": {
                "data": self.data,
                "sha256": self.data_sha256,
                "rows": self.n_rows,
                "human_column": self.human_column,
                "higher_is_better": self.higher_is_better,
                "objective": self.objective,
                "value": _num(self.value),
                "base_value": _num(self.base_value),
                "cross_validation": None if cv is None else {"group_by": cv["group_by"],
                                                             "mean": cv["mean"]},
            },
        }  # fmt: skip


# --------------------------------------------------------------------------- tune


def align_statistics(
    judged: Judged, params: Params, preset: str | None = None, *, workers: int | None = 1,
    progress: Progress | None = None,
) -> StatArrays:  # fmt: skip
    """Align every row once under ``params`` (each reference on its own) → statistics."""
    from meteor.analysis.parallel import score_corpus
    from meteor.metric import Meteor

    m = Meteor(preset) if preset is not None and Meteor(preset).params == params else None
    scorer = m if m is not None else Meteor(params=params)
    corpus = judged.corpus
    n_refs = max(1, corpus.n_refs)
    per_ref: list[list[Stats | None]] = [[] for _ in range(n_refs)]
    total = len(corpus.systems) * n_refs
    done = 0
    for name, hyps in corpus.systems:
        refs = corpus.refs_of(name)
        for r in range(n_refs):

            def step(fraction: float, message: str, done: int = done, name: str = name) -> None:
                if progress is not None:
                    progress((done + fraction) / total, f"aligning {name}: {message}")

            these = [rs[r] if r < len(rs) else rs[0] for rs in refs]
            result = score_corpus(scorer, hyps, these, workers=workers, progress=step)
            per_ref[r].extend(
                s.stats if r < len(rs) else None
                for s, rs in zip(result.segments, refs, strict=True)
            )
            done += 1
    width = max(max(len(s.hyp_content_matches) for s in col if s is not None) for col in per_ref)
    width = max(width, *(module_slot(m) + 1 for m in params.modules))
    return StatArrays.build(per_ref, width)


def _estimate(key: str, rows: Rows, scores: Array, draws: int, seed: int) -> Estimate:
    data = rows.data
    value = float(objective_values(key, rows, scores[None, :])[0])
    if key.startswith("system_"):
        raise AssertionError("system-level estimates go through _sys_estimate")
    samples = st.bootstrap_segment(key, data, scores, st.item_draws(data.n_items, draws, seed))
    low, high = st.percentile(samples, 0.95)
    return Estimate(value, low, high, st.item_count(key, data, scores))


def _sys_estimate(key: str, rows: Rows, sys_scores: Array, draws: int, seed: int) -> Estimate:
    fn = st.pearson if key == "system_pearson" else st.kendall_b
    samples = st.bootstrap_system(fn, rows.sys_human, sys_scores, draws, seed)
    low, high = st.percentile(samples, 0.95)
    return Estimate(fn(rows.sys_human, sys_scores), low, high, rows.n_systems)


def _chrf(judged: Judged) -> tuple[Array, Array]:
    from meteor.analysis.agreement import _baseline_scores

    m = _baseline_scores(judged, "chrf", None)
    return np.asarray(m.segment, dtype=float), np.asarray(m.system, dtype=float)


def tune(
    judged: Judged,
    *,
    preset: str | None = None,
    params: Params | None = None,
    lang: str | None = None,
    objective: str = "kendall_flat",
    weights: bool = True,
    folds: int = 0,
    groups: Sequence[str] | str | None = None,
    group_name: str | None = None,
    darr_threshold: float = 25.0,
    n_bootstrap: int = 1000,
    seed: int = 12345,
    rounds: int = 6,
    data_name: str = "data",
    data_sha256: str = "",
    workers: int | None = 1,
    progress: Progress | None = None,
) -> TuneResult:
    """Tune α, β, γ, δ (and, with ``weights``, each stage's weight) of a base setting.

    Args:
        judged: the corpus and its human scores (:func:`meteor.analysis.agreement.load_judged`).
        preset, params, lang: the base setting (as :class:`meteor.Meteor` takes them);
            its stages, aligner and every field of :data:`ALIGNMENT_FIELDS` stay fixed.
        objective: a key of :data:`OBJECTIVES` (or an alias of :data:`ALIASES`).
        folds: ``k ≥ 2``: also k-fold cross-validation grouped by ``groups``.
        groups: per row (system-major, corpus order) a group label such as the document
            id, or ``"system"``: the folds never split a group.
        group_name: what the labels are (e.g. the column's name), for the record.
        n_bootstrap, seed: the held-out intervals (resamples of items; of systems for
            a system-level objective).
        data_name, data_sha256: what the data was (they go into the preset file).
        workers: processes for the one alignment.
        progress: ``progress(fraction, message)``.

    Raises:
        InputError: an unknown objective, bad folds or groups.
    """
    from meteor.metric import resolve_params

    key = canonical_objective(objective)
    base, base_name = resolve_params(preset, params, lang)
    name = base_name or "custom"

    def stage(lo: float, hi: float) -> Progress | None:
        if progress is None:
            return None
        return lambda f, msg: progress(lo + (hi - lo) * f, msg)

    t0 = time.perf_counter()
    stats = align_statistics(judged, base, base_name, workers=workers, progress=stage(0, 0.5))
    align_seconds = time.perf_counter() - t0
    human, darr, items, systems = _rows(judged)
    n_sys = len(judged.corpus.systems)
    width = stats.hc.shape[2]
    space = _Space(base, stats, width, base.perfect_rule, weights)
    all_rows = Rows.build(human, darr, items, systems, n_sys, darr_threshold)
    fold_rows: list[Array] = []
    if folds:
        if groups is None:
            raise InputError("cross-validation needs groups: a document column or 'system'")
        if isinstance(groups, str):
            if groups != "system":
                raise InputError(f"groups must be per-row labels or 'system', got {groups!r}")
            labels: Sequence[str] = [judged.corpus.systems[s][0] for s in systems]
        else:
            labels = list(groups)
        if len(labels) != len(human):
            raise InputError(f"{len(labels)} group labels for {len(human)} rows")
        fold_rows = group_folds(labels, folds)
    n_stages = 1 + len(fold_rows)
    t1 = time.perf_counter()
    best, value, tried = search(space, all_rows, key, rounds=rounds,
                                progress=stage(0.5, 0.5 + 0.5 / n_stages))  # fmt: skip
    seconds = time.perf_counter() - t1
    base_value = float(_evaluate(space, all_rows, None, key, [base])[0])
    results: list[FoldResult] = []
    if fold_rows:
        chrf_seg, _ = _chrf(judged) if not key.startswith("system_") else (None, None)
        label_arr = np.asarray(labels, dtype=object)
        for f, held in enumerate(fold_rows):
            train = np.setdiff1d(np.arange(len(human)), held)
            tr_rows = Rows.build(human[train], darr[train], items[train], systems[train], n_sys,
                                 darr_threshold)  # fmt: skip
            lo = 0.5 + 0.5 * (f + 1) / n_stages
            fold_best, fold_value, n = search(
                space, tr_rows, key, idx=train, rounds=rounds,
                progress=stage(lo, lo + 0.5 / n_stages),
            )  # fmt: skip
            tried += n
            ho = Rows.build(human[held], darr[held], items[held], systems[held], n_sys,
                            darr_threshold)  # fmt: skip
            sub = stats.take(held)
            pts = Point.of([fold_best, base], width)
            if key.startswith("system_"):
                sys_s = system_scores(sub, pts, ho.systems, ho.n_systems, base.perfect_rule)
                tuned_e = _sys_estimate(key, ho, sys_s[0], n_bootstrap, seed)
                base_e = _sys_estimate(key, ho, sys_s[1], n_bootstrap, seed)
                chrf_e = None
            else:
                seg = segment_scores(sub, pts, base.perfect_rule)
                tuned_e = _estimate(key, ho, seg[0], n_bootstrap, seed)
                base_e = _estimate(key, ho, seg[1], n_bootstrap, seed)
                assert chrf_seg is not None
                chrf_e = _estimate(key, ho, chrf_seg[held], n_bootstrap, seed)
            results.append(
                FoldResult(
                    f + 1,
                    len(held),
                    tuple(sorted(set(map(str, label_arr[held])))),
                    fold_value,
                    fold_best,
                    tuned_e,
                    base_e,
                    chrf_e,
                )  # fmt: skip
            )
    return TuneResult(
        key, name, base, best, value, base_value, tried, seconds, align_seconds,
        len(human), data_name, data_sha256, judged.human_column, judged.higher_is_better,
        None if not folds else ("system" if groups == "system" else group_name or "label"), tuple(results),
    )  # fmt: skip
