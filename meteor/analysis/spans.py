"""Is METEOR right about where a translation is wrong? Human error spans beside the alignment.

The definitions (error token, flagged, the four cells, a cell's cost) are docs/spans.md's: a
token is an error token when ``token.start < span.end and span.start < token.end`` for a span
of :data:`meteor.io.spans.SEVERITY_RANK` ≥ 1.  This module counts per segment; the corpus
table is :mod:`meteor.analysis.spans_table`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

import numpy as np

from meteor.io.spans import Annotation, ErrorSpan
from meteor.params import Params
from meteor.scoring import compute
from meteor.types import Alignment, MeteorResult, candidate_of, chunk_starts

__all__ = [
    "CELLS",
    "RATER_RULES",
    "SegmentSpans",
    "SpanCounts",
    "TokenLabel",
    "count_spans",
    "label_tokens",
    "segment_spans",
    "span_classes",
]

RaterRule = Literal["union", "majority"]
RATER_RULES: tuple[RaterRule, ...] = ("union", "majority")
#: The four cells, in display order.
CELLS = ("unmatched_error", "unmatched_ok", "matched_error", "matched_ok")
_SEVERITY_ORDER = ("Critical", "Major", "Minor", "BAD")
_RANK_NAME = {3: "Critical", 2: "Major", 1: "Minor"}


@dataclass(frozen=True, slots=True)
class TokenLabel:
    """One hypothesis token (``start``, ``end``: its characters), what METEOR did with it and
    what the raters said.  ``stage``: the module that matched it, ``None`` if unmatched;
    ``severity``: its worst human severity of rank ≥ 1 (``Minor``, ``Major``, ``Critical``,
    ``BAD``), ``None`` for no error; ``categories``: those of the error spans over it (sorted);
    ``raters``: how many marked it; ``error``: an error token under the rater rule.
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
        return asdict(self) | {"categories": list(self.categories), "cell": self.cell}


def _candidates(alignment: Alignment) -> Sequence[tuple[Any, ...]]:
    """The matches as candidate tuples (module, hyp start, hyp end, …), read from a
    deferred alignment without building its records."""
    raw = alignment.pending()
    return raw if raw is not None else tuple(map(candidate_of, alignment.matches))


def _stages(alignment: Alignment) -> list[str | None]:
    """Per hypothesis token, the module of the match that covers it (``None``: none)."""
    out: list[str | None] = [None] * len(alignment.hyp)
    for module, hs, he, *_ in _candidates(alignment):
        name = getattr(module, "value", str(module))
        for i in range(hs, he):
            out[i] = name
    return out


def _worst(spans: Sequence[ErrorSpan]) -> str:
    """The worst severity of error spans (rank ≥ 1): ``BAD`` when all are QE's ``BAD``."""
    if all(x.severity == "BAD" for x in spans):
        return "BAD"
    return _RANK_NAME.get(max(x.rank for x in spans), "Minor")


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
        if sp.rank < 1:
            continue
        # tokens with start < sp.end and sp.start < end (ends ascend with starts)
        for i in range(bisect_right(ends, sp.start), bisect_left(starts, sp.end)):
            over.setdefault(i, []).append(sp)
    need = len(annotation.raters) / 2
    out: dict[int, tuple[bool, str, tuple[str, ...], int]] = {}
    for i, spans in over.items():
        who = len({x.rater for x in spans})
        error = raters == "union" or who > need
        out[i] = (error, _worst(spans), tuple(sorted({x.category for x in spans})), who)
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
        sev, cats = (worst, cats) if error else (None, ())
        out.append(TokenLabel(i, tok.text, tok.start, tok.end, stages[i], sev, cats, who, error))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SegmentSpans:
    """One segment: its labelled tokens (:func:`label_tokens`), the tokens per cell
    (:data:`CELLS`), the score points each cell's unmatched tokens cost, and the errors with no
    span (``omissions``, in no cell)."""

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
    system, seg_id, omissions = (
        (annotation.system, annotation.seg_id, len(annotation.omissions))
        if annotation
        else ("", "", 0)
    )
    return SegmentSpans(system, seg_id, result.score, tokens, counts, cost, omissions, raters)


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
    #: chunk breaks against span boundaries, summed (:func:`break_counts`): positions
    #: between two matched tokens, chunk breaks, span boundaries, breaks at a boundary
    breaks: tuple[int, int, int, int] = (0, 0, 0, 0)

    def sums(self) -> np.ndarray:
        return self.matrix.sum(axis=0)


def span_classes(annotations: Iterable[Annotation]) -> tuple[str, ...]:
    """``all``, then every severity and every category of an error span (rank ≥ 1) of the
    annotations, in a fixed order: the rows of a span table, the same for every setting."""
    spans = [s for a in annotations for s in a.spans if s.rank >= 1]
    sev = {_worst([s]) for s in spans}
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
    breaks = [0, 0, 0, 0]
    for i, (r, a) in enumerate(zip(results, annotations, strict=True)):
        alignment = r.alignment if isinstance(r, MeteorResult) else r
        cands = _candidates(alignment)
        covered = {i for c in cands for i in range(c[1], c[2])}
        marked = _marked(alignment, a, raters)
        for q, x in enumerate(_breaks(cands, len(alignment.hyp), marked)):
            breaks[q] += x
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
    b0, b1, b2, b3 = breaks
    return SpanCounts(tuple(classes), mat, n_tokens, omissions, (b0, b1, b2, b3))


def _breaks(
    cands: Sequence[tuple[Any, ...]],
    n: int,
    marked: dict[int, tuple[bool, str, tuple[str, ...], int]],
) -> tuple[int, int, int, int]:
    """(positions between two consecutive matched tokens, chunk breaks there, span boundaries
    there — one an error token, the other not —, positions that are both) in one hypothesis;
    chunks by :func:`meteor.types.chunk_starts`."""
    chunk: dict[int, int] = {}
    starts = set(chunk_starts(cands))
    cid = -1
    for k, c in enumerate(cands):
        cid += k in starts
        for i in range(c[1], c[2]):
            chunk[i] = cid
    positions = brk = bnd = both = 0
    for i in range(n - 1):
        if i not in chunk or i + 1 not in chunk:
            continue
        positions += 1
        is_break = chunk[i] != chunk[i + 1]
        e1 = marked.get(i, (False,))[0]
        e2 = marked.get(i + 1, (False,))[0]
        is_bound = e1 != e2
        brk += is_break
        bnd += is_bound
        both += is_break and is_bound
    return positions, brk, bnd, both
