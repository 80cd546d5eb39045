"""Tune's parameter points (:class:`Point`) scored on the sufficient statistics
(:class:`StatArrays`, aligned once) by Meteor 1.5's formula (:func:`meteor.scoring.formula`,
many segments and points at once), and the objectives measured on them (:class:`Rows`,
folds of whole groups).  The search is :mod:`meteor.analysis.tune`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import Judged, system_human
from meteor.errors import InputError
from meteor.metric import Meteor
from meteor.params import Params
from meteor.runners.parallel import score_corpus
from meteor.runtime import Progress
from meteor.scoring import formula, formula_plan, perfect_rows
from meteor.types import Stats, module_slot

Array = np.ndarray


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class _Fields:
    """The statistics by field: hypothesis and reference lengths, function words, per-slot
    content and function matches, chunks, matched words (:data:`_STAT_FIELDS`)."""

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


_STAT_FIELDS = ("hl", "rl", "hf", "rf", "hc", "rc", "hfm", "rfm", "chunks", "hw", "rw")


@dataclass(frozen=True)
class StatArrays(_Fields):
    """Sufficient statistics as arrays: ``R`` references × ``n`` rows (× ``W`` slots).

    ``valid[r, i]``: row ``i`` has a reference ``r`` (the first is always there).
    """

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

        return _terms({f: flat(getattr(self, f)) for f in _STAT_FIELDS}, perfect_rule)

    @cached_property
    def _terms_perfect(self) -> _Terms:
        return self._flat_terms(True)

    @cached_property
    def _terms_plain(self) -> _Terms:
        return self._flat_terms(False)


@dataclass(frozen=True)
class Point:
    """``B`` parameter points: α, β, γ, δ of shape ``(B,)``, weights ``(B, W)`` by statistics
    slot (0: a module not in use); ``nltk``: per point, whether Fmean is computed in nltk's
    order (:func:`meteor.scoring.formula`); ``order``: the slots in the settings' module
    order (default: slot order)."""

    alpha: Array
    beta: Array
    gamma: Array
    delta: Array
    weights: Array
    nltk: Array | None = None
    order: tuple[int, ...] | None = None

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
            np.array([formula_plan(p)[1] for p in params], dtype=bool),
            tuple(module_slot(m) for m in params[0].modules) if params else None,
        )

    def __len__(self) -> int:
        return len(self.alpha)

    def take(self, idx: Array | slice) -> Point:
        """Points ``idx`` (indices, a mask or a slice)."""
        return Point(
            self.alpha[idx], self.beta[idx], self.gamma[idx], self.delta[idx],
            self.weights[idx], None if self.nltk is None else self.nltk[idx], self.order,
        )  # fmt: skip


#: Points scored together (arrays of ``CHUNK × rows`` stay in the CPU cache).
CHUNK = 32


@dataclass(frozen=True)
class _Terms(_Fields):
    """The statistics as :func:`meteor.scoring.formula` reads them (per row ``(m,)``, or
    ``(B, m)`` per point; matches ``(W, …)`` by slot), and which rows are perfect segments."""

    perfect: Array | bool

    def point(self, k: int) -> _Terms:
        """The terms of point ``k`` (terms of shape ``(…, B, m)``)."""
        pick = {f: getattr(self, f)[..., k, :] for f in _STAT_FIELDS}
        perfect = self.perfect if self.perfect is False else self.perfect[..., k, :]  # type: ignore[index]
        return _Terms(**pick, perfect=perfect)


def _terms(v: Mapping[str, Array], perfect_rule: bool) -> _Terms:
    """From the statistics by :class:`StatArrays` field name (``hl``, ``rl``, … ``rw``)."""

    def slots(x: Array) -> Array:
        return np.ascontiguousarray(np.moveaxis(x, -1, 0))

    perfect: Array | bool = False
    if perfect_rule:
        perfect = perfect_rows(
            v["hc"].sum(-1) + v["hfm"].sum(-1), v["hl"], v["rc"].sum(-1) + v["rfm"].sum(-1),
            v["rl"], v["chunks"],
        )  # fmt: skip
    return _Terms(
        v["hl"], v["rl"], v["hf"], v["rf"],
        slots(v["hc"]), slots(v["rc"]), slots(v["hfm"]), slots(v["rfm"]),
        v["chunks"], v["hw"], v["rw"], perfect,
    )  # fmt: skip


def _kernel(t: _Terms, pt: Point) -> Array:
    """The score of ``B`` points on the rows of ``t``: ``(B, m)``, the floats
    :func:`meteor.scoring.compute` gives (a weight slot no point uses would add +0.0)."""
    w = pt.weights
    order = pt.order if pt.order is not None else range(w.shape[1])
    slots = [(k, w[:, k : k + 1]) for k in order if k < w.shape[1] and np.any(w[:, k] != 0)]
    nltk = pt.nltk[:, None] if pt.nltk is not None and pt.nltk.any() else False
    score = formula(
        (t.hl, t.rl, t.hf, t.rf),
        (t.hc, t.rc, t.hfm, t.rfm),
        (t.chunks, t.hw, t.rw),
        slots,
        (pt.alpha[:, None], pt.beta[:, None], pt.gamma[:, None], pt.delta[:, None]),
        nltk_arithmetic=nltk,
        perfect=t.perfect,
    )[-1]
    return np.broadcast_to(score, (len(pt), t.hl.shape[-1]))


def _chosen(stats: StatArrays, pt: Point, perfect_rule: bool) -> tuple[Array, Array]:
    """Per point and row: the segment score and the index of the reference it came from
    (the first best, as :meth:`meteor.Meteor.score` picks it)."""
    t = stats.terms(perfect_rule)
    n_refs, n = stats.hl.shape
    scores = np.empty((len(pt), n))
    best = np.zeros((len(pt), n), dtype=np.int64)
    for start in range(0, len(pt), CHUNK):
        part = pt.take(slice(start, start + CHUNK))
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
    """``(B, S)``: each system's corpus score under every point: the sum of the statistics
    of each segment's best reference (:meth:`meteor.stats.Stats.corpus_contribution`).  With
    one reference the sums are taken once for every point."""
    one_hot = np.zeros((len(systems), n_systems))
    one_hot[np.arange(len(systems)), systems] = 1.0
    vectors = ("hc", "rc", "hfm", "rfm")

    def sums(f: str, x: Array) -> Array:  # (..., n[, W]) → (..., S[, W])
        if f in vectors:
            return np.einsum("...nw,ns->...sw", x, one_hot)
        return x @ one_hot

    def corpus_terms(v: dict[str, Array]) -> _Terms:
        if perfect_rule:  # Stats.corpus_contribution(perfect_rule=True)
            perfect = perfect_rows(v["hw"], v["hl"], v["rw"], v["rl"], v["chunks"])
            v = {**v, "chunks": np.where(perfect, 0.0, v["chunks"])}
        s = {f: sums(f, v[f]) for f in _STAT_FIELDS}
        return _terms(s, perfect_rule)

    if stats.hl.shape[0] == 1:
        t = corpus_terms({f: getattr(stats, f)[0] for f in _STAT_FIELDS})
        out = np.empty((len(pt), n_systems))
        for start in range(0, len(pt), CHUNK):
            part = pt.take(slice(start, start + CHUNK))
            out[start : start + len(part)] = _kernel(t, part)
        return out
    _, best = _chosen(stats, pt, perfect_rule)

    def pick(x: Array) -> Array:  # (R, n[, W]) → (B, n[, W]) by each point's best reference
        idx = best[(...,) + (None,) * (x.ndim - 2)]
        return np.take_along_axis(x[None], idx[:, None], axis=1)[:, 0]

    t = corpus_terms({f: pick(getattr(stats, f)) for f in _STAT_FIELDS})  # (B, S) per point
    out = np.empty((len(pt), n_systems))
    for k in range(len(pt)):
        out[k] = _kernel(t.point(k), pt.take(slice(k, k + 1)))[0]
    return out


def align_statistics(
    judged: Judged, params: Params, preset: str | None = None, *, workers: int | None = 1,
    progress: Progress | None = None,
) -> StatArrays:  # fmt: skip
    """Align every row once under ``params`` (each reference on its own) → statistics."""
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
        return cls(data, local_sys.astype(np.int64), k, system_human(human, local_sys, k), human)

    @cached_property
    def human_ranks(self) -> Array:
        """The human scores' average ranks over all rows (flattened Spearman)."""
        return np.asarray(st.scipy_stats().rankdata(self.flat_human), dtype=float)


def _pearson_rows(x: Array, y: Array) -> Array:
    """Pearson's r of each row of ``y`` (B, n) with ``x`` (n,); NaN where constant, as in
    scipy.  One pass each for ``Σ y``, ``Σ y·x̃`` and ``Σ y²``; a row whose variance is small
    next to ``Σ y²`` (the shortcut would lose digits) is done the two-pass way."""
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
        ranks = st.scipy_stats().rankdata(seg, axis=1)
        return _pearson_rows(rows.human_ranks, ranks)
    if key == "spearman_item":  # all points' ranks at once; Pearson per item by bincount
        n = data.n_items
        ones = np.ones(n)
        ranks = st.ranks_within_rows(seg, data.items)
        return np.array(
            [st.aggregate(key, st.item_pearson(data.human_ranks, r, data.items, n), ones)
             for r in ranks]
        )  # fmt: skip
    if key in ("darr_flat", "darr_item"):
        better, worse, item = data.darr
        sign = np.where(seg[:, better] > seg[:, worse], 1.0, -1.0)
        if key == "darr_flat":
            return sign.mean(axis=1) if len(better) else np.full(len(seg), np.nan)
        n = data.n_items
        weight = np.bincount(item, minlength=n).astype(float)
        return np.array([st.aggregate(key, np.bincount(item, s, n), weight) for s in sign])
    return np.array([st.segment_measure(key, data, s) for s in seg])


def check_tunable(key: str, rows: Rows, judged: Judged) -> None:
    """Refuse data on which ``key`` is undefined for every setting.

    Raises:
        InputError: saying why (too few rows, equal human scores, no DARR pairs).
    """
    data = rows.data
    why: str | None = None
    if key.startswith("system_"):
        if rows.n_systems < 2:
            why = f"{rows.n_systems} system: a system-level correlation needs 2 or more"
        elif np.all(rows.sys_human == rows.sys_human[0]):
            why = "the systems' mean human scores are all equal"
    elif len(data.human) < 2:
        why = f"{len(data.human)} row: a correlation needs 2 or more"
    elif key.startswith("darr"):
        if not len(data.darr[0]):
            column = judged.darr_column or judged.human_column
            why = (
                f"no DARR pairs: no two outputs of one item differ in {column!r} by more than "
                "the DARR threshold (give --darr-column with raw scores, or a lower "
                "--darr-threshold)"
            )
    elif np.all(data.human == data.human[0]):
        why = f"the human scores ({judged.human_column!r}) are all equal"
    elif key.endswith("_item") and not np.any(
        np.isfinite(st.per_item("kendall_item", data, data.human)[0])
    ):
        why = "no item has 2 or more outputs whose human scores differ"
    if why is not None:
        raise InputError(f"nothing to tune on: the objective {key} is undefined here: {why}")


@dataclass(frozen=True)
class RowData:
    """The human side of every row (system-major, corpus order), for :class:`Rows`."""

    human: Array
    darr: Array
    items: Array
    systems: Array
    n_systems: int
    darr_threshold: float

    def rows(self, idx: Array | None = None) -> Rows:
        """The rows ``idx`` (default: all) prepared for the objectives."""
        at = slice(None) if idx is None else idx
        return Rows.build(self.human[at], self.darr[at], self.items[at], self.systems[at],
                          self.n_systems, self.darr_threshold)  # fmt: skip


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
