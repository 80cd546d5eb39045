"""Is METEOR right about where a translation is wrong? Human error spans beside the alignment.

Definitions (the CLI's ``--help`` and docs/spans.md state the same):

* A hypothesis token is an **error token** when its character interval ``[start, end)``
  (the offsets the alignment record carries, :class:`meteor.types.Token`) overlaps a
  human error span of severity Minor or worse (:data:`meteor.io.spans.SEVERITY_RANK`
  ≥ 1): ``token.start < span.end and span.start < token.end``.  Raters: ``union`` (any
  rater's span) or ``majority`` (the spans of more than half of the raters who annotated
  the segment overlap it).  Errors with no span (omissions) mark no token; they are
  counted apart.
* A token is **flagged** when METEOR's alignment covers it in no match (an unmatched
  hypothesis word).
* The four cells: ``unmatched_error`` (METEOR saw it), ``unmatched_ok`` (METEOR's blind
  spot: a paraphrase or synonym it did not match), ``matched_error`` (an error METEOR
  cannot see: :attr:`TokenLabel.stage` names the stage that matched it) and
  ``matched_ok``.
* Per corpus: precision = flagged error tokens / flagged tokens, recall = flagged error
  tokens / error tokens, F1 = 2PR / (P + R), all summed over the segments.  By severity
  (a token's worst severity) and by category (a token counts in each category that marks
  it): the same measures on the tokens that are errors of that class or no error at all
  (tokens marked only with other classes are left out), so precision stays "of the
  flagged tokens that are this kind of error or none, the share that is this kind".
* Intervals: percentile bootstrap over segments (the resamples of
  :func:`meteor.analysis.significance.resample_indices`, the same draws as METEOR's own
  bootstrap with that seed; bounds by :func:`~meteor.analysis.significance.ci_bounds`).
  Two settings: paired bootstrap on the same resamples, two-sided p-value
  ``min(1, 2·min(#{Δ ≤ 0}, #{Δ ≥ 0}) / B)`` of the F1 difference
  (:class:`~meteor.analysis.significance.PairedStat`, as for scores).
* Cost of a cell (:func:`segment_spans`): how much higher the segment's score would be
  if the cell's unmatched tokens were not in the hypothesis (the statistics with those
  tokens taken out of the hypothesis length, :func:`meteor.scoring.compute`); matched
  cells cost nothing.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from meteor.analysis.significance import Interval, PairedStat, ci_bounds
from meteor.io.spans import SEVERITY_RANK, Annotation, ErrorSpan, SpanSet
from meteor.params import Params
from meteor.scoring import compute
from meteor.types import Alignment, MeteorResult, candidate_of

__all__ = [
    "CELLS",
    "RATER_RULES",
    "ClassRow",
    "SegmentSpans",
    "SettingSpans",
    "SpanCounts",
    "SpanReport",
    "TokenLabel",
    "compare_settings",
    "count_spans",
    "label_tokens",
    "segment_spans",
    "span_classes",
    "setting_table",
    "span_report",
]

RaterRule = Literal["union", "majority"]
RATER_RULES: tuple[RaterRule, ...] = ("union", "majority")
#: The four cells, in display order.
CELLS = ("unmatched_error", "unmatched_ok", "matched_error", "matched_ok")
_SEVERITY_ORDER = ("Critical", "Major", "Minor", "BAD")
_RANK_NAME = {3: "Critical", 2: "Major", 1: "Minor"}
Progress = Callable[[float, str], None]


@dataclass(frozen=True, slots=True)
class TokenLabel:
    """One hypothesis token, what METEOR did with it and what the raters said.

    Attributes:
        index: the token's position in the hypothesis.
        text: the token as the aligner compared it.
        start, end: its characters in the hypothesis.
        stage: the module that matched it (``exact``, ``stem``…), ``None`` if unmatched.
        severity: its worst human severity of rank ≥ 1 (``Minor``, ``Major``,
            ``Critical``, ``BAD``), ``None`` for no error.
        categories: the categories of the error spans over it (sorted).
        raters: how many raters marked it with an error.
        error: an error token under the rater rule.
    """

    index: int
    text: str
    start: int
    end: int
    stage: str | None
    severity: str | None
    categories: tuple[str, ...]
    raters: int
    error: bool

    @property
    def flagged(self) -> bool:
        return self.stage is None

    @property
    def cell(self) -> str:
        return ("unmatched_" if self.stage is None else "matched_") + (
            "error" if self.error else "ok"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "stage": self.stage,
            "severity": self.severity,
            "categories": list(self.categories),
            "raters": self.raters,
            "error": self.error,
            "cell": self.cell,
        }


def _stages(alignment: Alignment) -> list[str | None]:
    """Per hypothesis token, the module of the match that covers it (``None``: none)."""
    out: list[str | None] = [None] * len(alignment.hyp)
    raw = alignment.pending()
    spans: Iterable[tuple[Any, int, int]] = (
        ((c[0], c[1], c[2]) for c in raw)
        if raw is not None
        else ((m.module, m.hyp.start, m.hyp.end) for m in alignment.matches)
    )
    for module, hs, he in spans:
        name = getattr(module, "value", str(module))
        for i in range(hs, he):
            out[i] = name
    return out


def _marked(
    alignment: Alignment, annotation: Annotation | None, raters: RaterRule
) -> dict[int, tuple[bool, str, tuple[str, ...], int]]:
    """The tokens some error span (rank ≥ 1) overlaps: index → (error under the rater
    rule, worst severity, categories, raters).  Each span finds its tokens by bisection
    on the tokens' character offsets."""
    if raters not in RATER_RULES:
        raise ValueError(f"raters must be one of {', '.join(RATER_RULES)}, got {raters!r}")
    if annotation is None or not annotation.spans:
        return {}
    hyp = alignment.hyp
    starts = [t.start for t in hyp]
    ends = [t.end for t in hyp]
    over: dict[int, list[ErrorSpan]] = {}
    for sp in annotation.spans:
        if SEVERITY_RANK[sp.severity.lower()] < 1:
            continue
        # tokens with start < sp.end and sp.start < end (ends ascend with starts)
        for i in range(bisect_right(ends, sp.start), bisect_left(starts, sp.end)):
            over.setdefault(i, []).append(sp)
    need = len(annotation.raters) / 2
    out: dict[int, tuple[bool, str, tuple[str, ...], int]] = {}
    for i, spans in over.items():
        who = len({x.rater for x in spans})
        ranks = [SEVERITY_RANK[x.severity.lower()] for x in spans]
        worst = (
            "BAD"
            if all(x.severity == "BAD" for x in spans)
            else _RANK_NAME.get(max(ranks), "Minor")
        )
        error = raters == "union" or who > need
        out[i] = (error, worst, tuple(sorted({x.category for x in spans})), who)
    return out


def label_tokens(
    result: MeteorResult | Alignment, annotation: Annotation | None, raters: RaterRule = "union"
) -> tuple[TokenLabel, ...]:
    """Each hypothesis token with METEOR's stage and the raters' errors over it (module
    docstring); ``annotation`` ``None``: no error anywhere."""
    alignment = result.alignment if isinstance(result, MeteorResult) else result
    stages = _stages(alignment)
    marked = _marked(alignment, annotation, raters)
    out: list[TokenLabel] = []
    for i, tok in enumerate(alignment.hyp):
        error, worst, cats, who = marked.get(i, (False, "", (), 0))
        out.append(
            TokenLabel(
                i,
                tok.text,
                tok.start,
                tok.end,
                stages[i],
                worst if error else None,
                cats if error else (),
                who,
                error,
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SegmentSpans:
    """One segment: its labelled tokens, the four cells and what each cost.

    Attributes:
        tokens: :func:`label_tokens`.
        counts: tokens per cell (:data:`CELLS`).
        cost: per cell, score points lost to its unmatched tokens (module docstring).
        omissions: errors with no span (not in any cell).
        raters: the rater rule used.
    """

    system: str
    seg_id: str
    score: float
    tokens: tuple[TokenLabel, ...]
    counts: dict[str, int]
    cost: dict[str, float]
    omissions: int
    raters: RaterRule

    @property
    def disagreement(self) -> int:
        """Blind spots plus unseen errors: the tokens where METEOR and people disagree."""
        return self.counts["unmatched_ok"] + self.counts["matched_error"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "seg_id": self.seg_id,
            "score": self.score,
            "raters": self.raters,
            "cells": {c: {"tokens": self.counts[c], "cost": self.cost[c]} for c in CELLS},
            "omissions": self.omissions,
            "tokens": [t.to_dict() for t in self.tokens],
        }


def segment_spans(
    result: MeteorResult,
    annotation: Annotation | None,
    params: Params,
    raters: RaterRule = "union",
) -> SegmentSpans:
    """:func:`label_tokens` with the four cells and each cell's cost (module docstring).

    ``params``: the settings that scored ``result`` (``Meteor.params``)."""
    tokens = label_tokens(result, annotation, raters)
    counts = {c: 0 for c in CELLS}
    for t in tokens:
        counts[t.cell] += 1
    hyp = result.alignment.hyp
    cost: dict[str, float] = {}
    for c in CELLS:
        gone = [t.index for t in tokens if t.cell == c and t.flagged]
        if not gone:
            cost[c] = 0.0
            continue
        funcs = sum(1 for i in gone if hyp[i].function_word)
        s = result.stats
        fewer = replace(
            s, hyp_len=s.hyp_len - len(gone), hyp_function_words=s.hyp_function_words - funcs
        )
        cost[c] = compute(fewer, params).score - result.score
    return SegmentSpans(
        annotation.system if annotation else "",
        annotation.seg_id if annotation else "",
        result.score,
        tokens,
        counts,
        cost,
        len(annotation.omissions) if annotation else 0,
        raters,
    )


# --------------------------------------------------------------------------- per corpus


@dataclass(frozen=True, slots=True)
class SpanCounts:
    """Per segment counts of one setting, the matrix the table and its bootstrap read.

    ``matrix[i]``: segment i's ``flagged_ok`` (flagged tokens with no error), then per
    class (:attr:`classes`) its error tokens and its flagged error tokens.  Class 0 is
    ``all``; then ``severity:<name>`` and ``category:<name>``.
    """

    classes: tuple[str, ...]
    matrix: np.ndarray
    tokens: int
    omissions: int

    def sums(self) -> np.ndarray:
        return self.matrix.sum(axis=0)


def span_classes(annotations: Iterable[Annotation]) -> tuple[str, ...]:
    """``all``, then every severity and every category of an error span (rank ≥ 1) of the
    annotations, in a fixed order: the rows of a span table, the same for every setting."""
    spans = [s for a in annotations for s in a.spans if s.rank >= 1]
    sev = {_RANK_NAME.get(s.rank, "Minor") if s.severity != "BAD" else "BAD" for s in spans}
    cats = sorted({s.category for s in spans})
    return (
        "all",
        *(f"severity:{s}" for s in _SEVERITY_ORDER if s in sev),
        *(f"category:{c}" for c in cats),
    )


def count_spans(
    results: Sequence[MeteorResult | Alignment],
    annotations: Sequence[Annotation],
    raters: RaterRule = "union",
    classes: Sequence[str] | None = None,
) -> SpanCounts:
    """Count every segment's tokens by class (:class:`SpanCounts`); ``results[i]`` is
    the record of the hypothesis ``annotations[i]`` annotates.  ``classes``: those to
    count (default: ``all`` and every severity and category met, in a fixed order)."""
    if len(results) != len(annotations):
        raise ValueError(f"{len(results)} records for {len(annotations)} annotations")
    if classes is None:
        classes = span_classes(annotations)
    col = {c: k for k, c in enumerate(classes)}
    mat = np.zeros((len(results), 1 + 2 * len(classes)), dtype=np.float64)
    n_tokens = 0
    for i, (r, a) in enumerate(zip(results, annotations, strict=True)):
        alignment = r.alignment if isinstance(r, MeteorResult) else r
        raw = alignment.pending()
        covered: set[int] = set()
        for c in raw if raw is not None else map(candidate_of, alignment.matches):
            covered.update(range(c[1], c[2]))
        marked = _marked(alignment, a, raters)
        row = mat[i]
        n_tok = len(alignment.hyp)
        n_tokens += n_tok
        errors = [j for j, m in marked.items() if m[0]]
        row[0] = n_tok - len(covered) - sum(1 for j in errors if j not in covered)
        for j in errors:
            _, worst, cats, _ = marked[j]
            flagged = j not in covered
            for key in ("all", f"severity:{worst}", *(f"category:{c}" for c in cats)):
                k = col.get(key)
                if k is not None:
                    row[1 + 2 * k] += 1
                    row[2 + 2 * k] += flagged
    omissions = sum(len(a.omissions) for a in annotations)
    return SpanCounts(tuple(classes), mat, n_tokens, omissions)


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
        return {
            "name": self.name,
            "error_tokens": self.error_tokens,
            "flagged": self.flagged,
            "flagged_errors": self.flagged_errors,
            "precision": _interval_dict(self.precision),
            "recall": _interval_dict(self.recall),
            "f1": _interval_dict(self.f1),
        }


def _num(x: float) -> float | None:
    return None if math.isnan(x) else x


def _interval_dict(i: Interval) -> dict[str, Any]:
    return {k: (_num(v) if isinstance(v, float) else v) for k, v in i.to_dict().items()}


def _interval(value: float, samples: np.ndarray, level: float) -> Interval:
    ok = samples[~np.isnan(samples)]
    low, high = ci_bounds(ok, level) if len(ok) else (math.nan, math.nan)
    mean = float(np.mean(ok)) if len(ok) else math.nan
    return Interval(float(value), mean, low, high, level)


def _resampled_sums(matrix: np.ndarray, n_samples: int, seed: int | None) -> np.ndarray:
    """Summed rows of every bootstrap resample of the segments, shape (samples, columns).

    Resample ``b`` draws the segments of row ``b`` of :func:`resample_indices` (the ``b``-th
    ``rng.integers(0, n, size=n)`` of ``numpy.random.default_rng(seed)``), drawn here in
    batches rather than all at once (10,000 segments × 1,000 resamples would be 80 MB).
    """
    n, width = matrix.shape
    if n_samples == 0 or n == 0:
        return np.zeros((0, width))
    from scipy.sparse import csr_matrix

    rng = np.random.default_rng(seed)
    out = np.empty((n_samples, width))
    # mostly zeros (a segment has few categories): scipy's sparse product, 10× the dense one
    by_column = csr_matrix(matrix.T)
    batch = max(1, min(64, 4_000_000 // n))
    for b0 in range(0, n_samples, batch):
        rows = min(batch, n_samples - b0)
        counts = np.empty((n, rows))
        for r in range(rows):
            counts[:, r] = np.bincount(rng.integers(0, n, size=n), minlength=n)
        out[b0 : b0 + rows] = (by_column @ counts).T  # whole numbers < 2**53: exact
    return out


@dataclass(frozen=True, slots=True)
class SettingSpans:
    """The span table of one setting (a preset or a preset file)."""

    preset: str
    signature: str
    rows: tuple[ClassRow, ...]
    segments: int
    tokens: int
    omissions: int

    @property
    def overall(self) -> ClassRow:
        return self.rows[0]

    def to_dict(self) -> dict[str, Any]:
        o = self.overall
        return {
            "preset": self.preset,
            "signature": self.signature,
            "segments": self.segments,
            "tokens": self.tokens,
            "error_tokens": o.error_tokens,
            "flagged": o.flagged,
            "flagged_errors": o.flagged_errors,
            "precision": _num(o.precision.value),
            "recall": _num(o.recall.value),
            "f1": _num(o.f1.value),
            "intervals": {
                "precision": _interval_dict(o.precision),
                "recall": _interval_dict(o.recall),
                "f1": _interval_dict(o.f1),
            },
            "omissions": self.omissions,
            "by_severity": [
                r.to_dict() | {"name": r.name.split(":", 1)[1]}
                for r in self.rows
                if r.name.startswith("severity:")
            ],
            "by_category": [
                r.to_dict() | {"name": r.name.split(":", 1)[1]}
                for r in self.rows
                if r.name.startswith("category:")
            ],
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
    boot = resampled if resampled is not None else _resampled_sums(counts.matrix, n_samples, seed)
    rows = []
    for k, name in enumerate(counts.classes):
        p, r, f = _prf(sums, k)
        bp, br, bf = _prf(boot, k)
        tp = int(sums[2 + 2 * k])
        rows.append(
            ClassRow(
                name,
                int(sums[1 + 2 * k]),
                tp + int(sums[0]),
                tp,
                _interval(float(p), bp, level),
                _interval(float(r), br, level),
                _interval(float(f), bf, level),
            )
        )
    return SettingSpans(
        preset, signature, tuple(rows), counts.matrix.shape[0], counts.tokens, counts.omissions
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
    if resampled is None:
        w = a.matrix.shape[1]
        both = _resampled_sums(np.hstack([a.matrix, b.matrix]), n_samples, seed)
        resampled = (both[:, :w], both[:, w:])
    fa = _prf(resampled[0], 0)[2]
    fb = _prf(resampled[1], 0)[2]
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
        _interval(va, fa, level),
        _interval(vb, fb, level),
        vb - va,
        _interval(vb - va, d, level),
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
                    "f1_difference": _num(c.difference),
                    "interval": _interval_dict(c.difference_interval),
                    "p_value": _num(c.p_value),
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
    from meteor.runners.parallel import score_corpus

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
    boot = _resampled_sums(np.hstack([c.matrix for _, _, c in counted]), n_samples, seed)
    w = counted[0][2].matrix.shape[1]
    parts = [boot[:, k * w : (k + 1) * w] for k in range(len(counted))]
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
