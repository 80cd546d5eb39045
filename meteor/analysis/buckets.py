"""compare-mt style buckets of a corpus, every system side by side.

**Segment buckets** score each bucket as a corpus: METEOR from its summed statistics (Meteor
1.5's rule: ``corpus_score`` of exactly its segments), its bootstrap interval
(:func:`meteor.analysis.significance.bootstrap` on those segments), P, R and fragmentation.
Bucketings: ``ref_length`` (the scored reference's tokens; edges ``(10, 25, 50)`` give Meteor
X-Ray's 1–10, 11–25, 26–50, 51+; an empty reference counts in the first), ``length_ratio``
(hypothesis / reference length; an empty reference: the last) and ``label:<column>`` (a label
the input carries per segment id: domain, document…).

**Word buckets** put each word in one bucket: its recall is the share of its reference words
matched, its precision that of its hypothesis words, F their METEOR harmonic mean with the
run's alpha (METEOR, interval and fragmentation are segment quantities: not given).
Bucketings: ``ref_frequency`` (compare-mt's: occurrences of the lower-cased word in the scored
references or a given counts table: 0, 1, 2, 3–4, 5–9, 10–99, 100–999, 1000+) and
``word_class`` (function vs content words, the flag the preset's function-word list sets).
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meteor.analysis.resampling import row_stats, stats_matrix
from meteor.analysis.significance import DEFAULT_SEED, bootstrap_records
from meteor.params import Params
from meteor.scoring import compute
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "FREQUENCY_EDGES",
    "LENGTH_EDGES",
    "RATIO_EDGES",
    "Bucket",
    "BucketTable",
    "frequency_counts",
    "label_buckets",
    "length_buckets",
    "ratio_buckets",
    "word_class_buckets",
    "frequency_buckets",
]

#: Meteor X-Ray's reference-length buckets: 1–10, 11–25, 26–50, 51+.
LENGTH_EDGES: tuple[int, ...] = (10, 25, 50)
#: Length-ratio buckets: <0.8, 0.8–0.95, 0.95–1.05, 1.05–1.2, ≥1.2.
RATIO_EDGES: tuple[float, ...] = (0.8, 0.95, 1.05, 1.2)
#: Word-frequency buckets (compare-mt's): lower bounds 0, 1, 2, 3, 5, 10, 100, 1000.
FREQUENCY_EDGES: tuple[int, ...] = (0, 1, 2, 3, 5, 10, 100, 1000)


@dataclass(frozen=True, slots=True)
class Bucket:
    """One bucket of one system: ``count`` segments, or reference words (word buckets, whose
    ``meteor``, ``low``, ``high`` and ``frag`` are ``None`` and ``hyp_words`` is given)."""

    system: str
    label: str
    count: int
    precision: float
    recall: float
    fmean: float
    meteor: float | None = None
    low: float | None = None
    high: float | None = None
    frag: float | None = None
    hyp_words: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "bucket": self.label,
            "count": self.count,
            "meteor": self.meteor,
            "interval": None if self.low is None else [self.low, self.high],
            "precision": self.precision,
            "recall": self.recall,
            "fmean": self.fmean,
            "fragmentation": self.frag,
            "hyp_words": self.hyp_words,
        }


@dataclass(frozen=True, slots=True)
class BucketTable:
    """A bucketing: its bucket labels in order and every system's buckets.

    ``unit`` is ``"segments"`` or ``"words"``.
    """

    name: str
    title: str
    unit: str
    labels: tuple[str, ...]
    rows: tuple[Bucket, ...]

    def get(self, system: str, label: str) -> Bucket | None:
        return next((b for b in self.rows if b.system == system and b.label == label), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "unit": self.unit,
            "buckets": list(self.labels),
            "rows": [b.to_dict() for b in self.rows],
        }


#: A segment's bucket: ``key(system, position, record)`` (``None``: in no bucket).
Key = Callable[[str, int, MeteorResult], str | None]


def _is_edge(e: float) -> bool:
    """A finite number ≥ 0 (an int too large for a float, ``10**400``, is not)."""
    try:
        return math.isfinite(e) and e >= 0
    except (OverflowError, TypeError):
        return False


def _check_edges(edges: Sequence[float], what: str) -> None:
    if not edges:
        raise ValueError(f"{what}: give at least one bucket edge")
    if not all(_is_edge(e) for e in edges):
        raise ValueError(
            f"{what}: bucket edges must be non-negative numbers, got {str(list(edges))[:200]}"
        )
    if any(b <= a for a, b in zip(edges, edges[1:], strict=False)):
        raise ValueError(f"{what}: bucket edges must increase, got {list(edges)}")


def _segment_table(
    name: str,
    title: str,
    results: Mapping[str, CorpusResult],
    labels: Sequence[str],
    key: Key,
    params: Params,
    n_samples: int,
    seed: int | None,
    level: float,
) -> BucketTable:
    rows: list[Bucket] = []
    for system, result in results.items():
        groups: dict[str, list[int]] = {lab: [] for lab in labels}
        for k, seg in enumerate(result.segments):
            lab = key(system, k, seg)
            if lab is not None:
                groups.setdefault(lab, []).append(k)
        mat = stats_matrix(result.segments, params)  # once per system, a bucket's rows sliced off
        for lab in labels:
            where = groups[lab]
            if not where:
                rows.append(Bucket(system, lab, 0, math.nan, math.nan, math.nan))
                continue
            b = compute(row_stats(mat[where].sum(axis=0)), params)  # the summed statistics
            low = high = None
            if n_samples:
                segs = [result.segments[k] for k in where]
                ci = bootstrap_records(segs, params, n_samples, seed, level)[2]
                low, high = ci.corpus.low, ci.corpus.high
            rows.append(
                Bucket(system, lab, len(where), b.precision, b.recall, b.fmean, b.score, low,
                       high, b.frag)
            )  # fmt: skip
    return BucketTable(name, title, "segments", tuple(labels), tuple(rows))


def length_buckets(
    results: Mapping[str, CorpusResult],
    params: Params,
    *,
    edges: Sequence[int] = LENGTH_EDGES,
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    level: float = 0.95,
) -> BucketTable:
    """Segments by the scored reference's length in tokens (module docstring)."""
    _check_edges(edges, "reference length")
    edges = [int(e) for e in edges]
    labels = [f"{lo + 1}–{e}" for lo, e in zip([0, *edges], edges, strict=False)]
    labels.append(f"{edges[-1] + 1}+")

    def key(_system: str, _k: int, seg: MeteorResult) -> str:
        n = seg.stats.ref_len
        return next((labels[i] for i, e in enumerate(edges) if n <= e), labels[-1])

    return _segment_table(
        "ref_length", "Reference length (tokens)", results, labels, key, params, n_samples,
        seed, level,
    )  # fmt: skip


def ratio_buckets(
    results: Mapping[str, CorpusResult],
    params: Params,
    *,
    edges: Sequence[float] = RATIO_EDGES,
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    level: float = 0.95,
) -> BucketTable:
    """Segments by hypothesis length / reference length: ``[e_i, e_{i+1})`` buckets."""
    _check_edges(edges, "length ratio")
    labels = [f"<{edges[0]:g}"]
    labels += [f"{a:g}–{b:g}" for a, b in zip(edges, edges[1:], strict=False)]
    labels.append(f"≥{edges[-1]:g}")

    def key(_system: str, _k: int, seg: MeteorResult) -> str:
        ref = seg.stats.ref_len
        ratio = seg.stats.hyp_len / ref if ref else math.inf
        return next((labels[i] for i, e in enumerate(edges) if ratio < e), labels[-1])

    return _segment_table(
        "length_ratio", "Length ratio (hypothesis / reference)", results, labels, key,
        params, n_samples, seed, level,
    )  # fmt: skip


def label_buckets(
    results: Mapping[str, CorpusResult],
    params: Params,
    column: str,
    labels_by_id: Mapping[str, str],
    ids: Mapping[str, Sequence[str]],
    *,
    n_samples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    level: float = 0.95,
) -> BucketTable:
    """Segments by a label of the input (``labels_by_id``: segment id → label).

    A segment whose id has no label is left out of every bucket.
    """
    order: dict[str, None] = {}
    for system in results:
        for x in ids[system]:
            if x in labels_by_id:
                order.setdefault(labels_by_id[x], None)

    def key(system: str, k: int, _seg: MeteorResult) -> str | None:
        return labels_by_id.get(ids[system][k])

    return _segment_table(
        f"label:{column}", f"Label: {column}", results, list(order), key, params, n_samples,
        seed, level,
    )  # fmt: skip


def frequency_counts(results: Mapping[str, CorpusResult]) -> Counter[str]:
    """Occurrences of each lower-cased word in the scored references, each segment (known by
    its references' text) once, from the first system that has it."""
    counts: Counter[str] = Counter()
    seen: set[tuple[str, ...]] = set()
    for result in results.values():
        for seg in result.segments:
            if seg.refs in seen:
                continue
            seen.add(seg.refs)
            counts.update(t.text.lower() for t in seg.alignment.ref)
    return counts


def _word_table(
    name: str,
    title: str,
    results: Mapping[str, CorpusResult],
    labels: Sequence[str],
    key: Callable[[str, bool], str],
    params: Params,
) -> BucketTable:
    rows: list[Bucket] = []
    bucket = functools.cache(key)  # each word's bucket, looked up once
    for system, result in results.items():
        ref_n: Counter[str] = Counter()
        ref_m: Counter[str] = Counter()
        hyp_n: Counter[str] = Counter()
        hyp_m: Counter[str] = Counter()
        for seg in result.segments:
            al = seg.alignment
            for tok, hit in zip(al.ref, al.ref_matched(), strict=True):
                lab = bucket(tok.text, tok.function_word)
                ref_n[lab] += 1
                ref_m[lab] += hit
            for tok, hit in zip(al.hyp, al.hyp_matched(), strict=True):
                lab = bucket(tok.text, tok.function_word)
                hyp_n[lab] += 1
                hyp_m[lab] += hit
        for lab in labels:
            p = hyp_m[lab] / hyp_n[lab] if hyp_n[lab] else math.nan
            r = ref_m[lab] / ref_n[lab] if ref_n[lab] else math.nan
            a = params.alpha
            if math.isnan(p) or math.isnan(r):
                f = math.nan
            elif p == 0 or r == 0:
                f = 0.0
            else:
                f = p * r / (a * p + (1 - a) * r)
            rows.append(Bucket(system, lab, ref_n[lab], p, r, f, hyp_words=hyp_n[lab]))
    return BucketTable(name, title, "words", tuple(labels), tuple(rows))


def frequency_buckets(
    results: Mapping[str, CorpusResult],
    params: Params,
    *,
    counts: Mapping[str, int] | None = None,
    edges: Sequence[int] = FREQUENCY_EDGES,
) -> BucketTable:
    """Words by their frequency in the references (or in ``counts``): module docstring."""
    _check_edges(edges, "word frequency")
    freq = (
        frequency_counts(results) if counts is None else {k.lower(): v for k, v in counts.items()}
    )
    labels = [
        str(lo) if nxt - 1 == lo else f"{lo}–{nxt - 1}"
        for lo, nxt in zip(edges, edges[1:], strict=False)
    ]
    labels.append(f"{edges[-1]}+")

    def key(word: str, _fw: bool) -> str:
        n = freq.get(word.lower(), 0)
        k = max((i for i, e in enumerate(edges) if n >= e), default=0)
        return labels[k]

    source = "the references" if counts is None else "the given counts"
    return _word_table("ref_frequency", f"Word frequency in {source}", results, labels, key, params)


def word_class_buckets(results: Mapping[str, CorpusResult], params: Params) -> BucketTable:
    """Function words vs content words (the language's function-word list)."""
    labels = ("function", "content")
    return _word_table(
        "word_class", "Function vs content words", results, labels,
        lambda _w, fw: "function" if fw else "content", params,
    )  # fmt: skip
