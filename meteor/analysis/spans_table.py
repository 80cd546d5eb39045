"""Per corpus and per setting: the span table.

From :func:`meteor.analysis.spans.count_spans`: token-level precision, recall and F1 of "METEOR
left it unmatched" against "people marked it an error", overall, by severity and by category,
with percentile bootstrap intervals over segments (the draws of
:func:`meteor.analysis.significance.resample_indices`) and a paired test of two settings' F1
on the same resamples.  :func:`span_report` scores every setting and builds it all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from meteor.analysis.resampling import count_batches
from meteor.analysis.significance import Interval, PairedStat
from meteor.analysis.spans import RaterRule, SpanCounts, count_spans, span_classes
from meteor.io.spans import SpanSet
from meteor.json_numbers import json_number, json_ready
from meteor.runners.parallel import score_corpus
from meteor.runtime import Progress

__all__ = [
    "ClassRow",
    "SettingSpans",
    "SpanReport",
    "compare_settings",
    "setting_table",
    "span_report",
]


def _prf(sums: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 of class ``k`` from summed rows (last axis: columns)."""
    fp = sums[..., 0]
    err = sums[..., 1 + 2 * k]
    tp = sums[..., 2 + 2 * k]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(tp + fp > 0, tp / (tp + fp), np.nan)
        r = np.where(err > 0, tp / err, np.nan)
        f = np.where(err + tp + fp > 0, 2 * tp / (err + tp + fp), np.nan)
    return p, r, f


@dataclass(frozen=True, slots=True)
class ClassRow:
    """Precision, recall and F1 of one class (``all``, a severity, a category)."""

    name: str
    error_tokens: int
    flagged: int
    flagged_errors: int
    precision: Interval
    recall: Interval
    f1: Interval

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        return d | {k: json_ready(d[k].to_dict()) for k in ("precision", "recall", "f1")}


def _resampled_sums(
    matrices: Sequence[np.ndarray], n_samples: int, seed: int | None
) -> list[np.ndarray]:
    """Summed rows of every bootstrap resample of the segments, per matrix (the settings'
    counts of the same segments, on the same draws): shape (samples, its columns).  Resample
    ``b`` draws row ``b`` of :func:`resample_indices`, here in batches (not 80 MB at once).
    """
    matrix = np.hstack(matrices)
    n, width = matrix.shape
    out = np.zeros((0, width))
    if n_samples and n:
        from scipy.sparse import csr_matrix

        out = np.empty((n_samples, width))
        # mostly zeros (a segment has few categories): scipy's sparse product, 10× the dense one
        by_column = csr_matrix(matrix.T)
        b0 = 0
        for counts in count_batches(n, n_samples, seed):
            out[b0 : b0 + len(counts)] = (by_column @ counts.T).T  # whole numbers < 2**53: exact
            b0 += len(counts)
    edges = np.cumsum([0, *(m.shape[1] for m in matrices)])
    return [out[:, lo:hi] for lo, hi in zip(edges[:-1], edges[1:], strict=True)]


@dataclass(frozen=True, slots=True)
class SettingSpans:
    """The span table of one setting (a preset or a preset file)."""

    preset: str
    signature: str
    rows: tuple[ClassRow, ...]
    segments: int
    tokens: int
    omissions: int
    breaks: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def overall(self) -> ClassRow:
        return self.rows[0]

    def breaks_dict(self) -> dict[str, Any]:
        """METEOR's chunk breaks against the span boundaries (:func:`meteor.analysis.spans.
        count_spans`): over the positions between two matched hypothesis tokens."""
        positions, brk, bnd, both = self.breaks
        return {
            "positions": positions,
            "chunk_breaks": brk,
            "span_boundaries": bnd,
            "both": both,
            "precision": both / brk if brk else None,
            "recall": both / bnd if bnd else None,
            "definition": "positions between two consecutive matched hypothesis tokens; a "
            "chunk break: the two are in different chunks; a span boundary: one is an error "
            "token and the other not; precision = both / chunk breaks, recall = both / span "
            "boundaries",
        }

    def to_dict(self) -> dict[str, Any]:
        o = self.overall

        def by(kind: str) -> list[dict[str, Any]]:
            return [
                r.to_dict() | {"name": r.name.split(":", 1)[1]}
                for r in self.rows
                if r.name.startswith(f"{kind}:")
            ]

        return {
            "preset": self.preset,
            "signature": self.signature,
            "segments": self.segments,
            "tokens": self.tokens,
            "error_tokens": o.error_tokens,
            "flagged": o.flagged,
            "flagged_errors": o.flagged_errors,
            "precision": json_number(o.precision.value),
            "recall": json_number(o.recall.value),
            "f1": json_number(o.f1.value),
            "intervals": {
                k: v for k, v in o.to_dict().items() if k in ("precision", "recall", "f1")
            },
            "omissions": self.omissions,
            "chunk_breaks": self.breaks_dict(),
            "by_severity": by("severity"),
            "by_category": by("category"),
        }


def setting_table(
    preset: str,
    signature: str,
    counts: SpanCounts,
    *,
    n_samples: int = 1000,
    seed: int | None = 12345,
    level: float = 0.95,
    resampled: np.ndarray | None = None,
) -> SettingSpans:
    """Precision, recall and F1 per class with bootstrap intervals (module docstring)."""
    sums = counts.sums()
    if resampled is None:
        (resampled,) = _resampled_sums([counts.matrix], n_samples, seed)
    rows = []
    for k, name in enumerate(counts.classes):
        p, r, f = _prf(sums, k)
        bp, br, bf = _prf(resampled, k)
        tp = int(sums[2 + 2 * k])
        rows.append(
            ClassRow(
                name,
                int(sums[1 + 2 * k]),
                tp + int(sums[0]),
                tp,
                Interval.of(float(p), bp, level),
                Interval.of(float(r), br, level),
                Interval.of(float(f), bf, level),
            )
        )
    return SettingSpans(
        preset,
        signature,
        tuple(rows),
        counts.matrix.shape[0],
        counts.tokens,
        counts.omissions,
        counts.breaks,
    )


def compare_settings(
    a: SpanCounts,
    b: SpanCounts,
    *,
    n_samples: int = 1000,
    seed: int | None = 12345,
    level: float = 0.95,
    resampled: tuple[np.ndarray, np.ndarray] | None = None,
) -> PairedStat:
    """Paired bootstrap of B's overall F1 against A's on the same segments (module docstring).

    ``resampled``: both settings' resampled sums, when already drawn with the same seed."""
    if a.matrix.shape[0] != b.matrix.shape[0]:
        raise ValueError("the two settings must be counted on the same segments")
    ra, rb = resampled or _resampled_sums([a.matrix, b.matrix], n_samples, seed)
    fa = _prf(ra, 0)[2]
    fb = _prf(rb, 0)[2]
    va = float(_prf(a.sums(), 0)[2])
    vb = float(_prf(b.sums(), 0)[2])
    d = fb - fa
    dd = d[~np.isnan(d)]
    p = (
        min(1.0, 2 * min(int(np.sum(dd <= 0)), int(np.sum(dd >= 0))) / len(dd))
        if len(dd)
        else math.nan
    )
    return PairedStat(
        Interval.of(va, fa, level),
        Interval.of(vb, fb, level),
        vb - va,
        Interval.of(vb - va, d, level),
        p,
        float(np.mean(dd > 0)) if len(dd) else math.nan,
        float(np.mean(dd < 0)) if len(dd) else math.nan,
    )


@dataclass(frozen=True, slots=True)
class SpanReport:
    """Every setting's span table on one annotated corpus, and each compared with the first."""

    raters: RaterRule
    segments: int
    settings: tuple[SettingSpans, ...]
    comparisons: tuple[tuple[str, str, PairedStat], ...]
    n_samples: int
    seed: int | None
    annotations: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "raters": self.raters,
            "segments": self.segments,
            "annotations": self.annotations,
            "definitions": {
                "error_token": "its character interval overlaps a human error span of "
                f"severity Minor or worse ({self.raters} of raters)",
                "flagged": "METEOR's alignment covers it in no match",
                "precision": "flagged error tokens / flagged tokens",
                "recall": "flagged error tokens / error tokens",
                "by_class": "tokens that are errors of the class or no error at all",
                "intervals": f"percentile bootstrap over segments, {self.n_samples} "
                f"resamples, seed {self.seed}",
                "comparison": "paired bootstrap of the F1 difference (setting - first "
                "setting), two-sided p = min(1, 2 min(#d<=0, #d>=0) / samples)",
            },
            "settings": [s.to_dict() for s in self.settings],
            "comparisons": [
                {
                    "baseline": a,
                    "setting": b,
                    "f1_difference": json_number(c.difference),
                    "interval": json_ready(c.difference_interval.to_dict()),
                    "p_value": json_number(c.p_value),
                }
                for a, b, c in self.comparisons
            ],
        }


def span_report(
    spans: SpanSet,
    refs: Sequence[Sequence[str]],
    settings: Sequence[tuple[str, Any]],
    *,
    raters: RaterRule = "union",
    n_samples: int = 1000,
    seed: int | None = 12345,
    level: float = 0.95,
    workers: int | None = 1,
    progress: Progress | None = None,
) -> SpanReport:
    """Score the annotated hypotheses with each setting and build every span table.

    Args:
        spans: the annotations (:func:`meteor.io.spans.read_spans`).
        refs: the references of each annotation's segment (same order).
        settings: ``(label, Meteor)`` per setting.
    """
    anns = spans.annotations
    if not settings:
        raise ValueError("no setting to score: give at least one preset or preset file")
    if len(refs) != len(anns):
        raise ValueError(f"{len(refs)} reference lists for {len(anns)} annotations")
    hyps = [a.hyp for a in anns]
    counted: list[tuple[str, str, SpanCounts]] = []
    classes = span_classes(anns)
    for k, (label, meteor) in enumerate(settings):

        def step(fraction: float, message: str, k: int = k, label: str = label) -> None:
            if progress is not None:
                progress((k + fraction) / len(settings), f"{label}: {message}")

        result = score_corpus(
            meteor, hyps, [tuple(r) for r in refs], workers=workers, progress=step
        )
        counts = count_spans(result.segments, anns, raters, classes)
        counted.append((label, result.signature, counts))
    # one draw of the resamples for every setting: the tables and the paired tests agree
    parts = _resampled_sums([c.matrix for _, _, c in counted], n_samples, seed)
    tables = tuple(
        setting_table(lbl, sig, c, level=level, resampled=parts[k])
        for k, (lbl, sig, c) in enumerate(counted)
    )
    comps = tuple(
        (
            counted[0][0],
            lbl,
            compare_settings(counted[0][2], c, level=level, resampled=(parts[0], parts[k])),
        )
        for k, (lbl, _, c) in enumerate(counted)
        if k
    )
    return SpanReport(raters, len(anns), tables, comps, n_samples, seed, spans.summary())
