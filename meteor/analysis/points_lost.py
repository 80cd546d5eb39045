"""Where the points go: per system, and for two systems head to head.

Per system (:func:`system_losses`): the most-missed reference words (per lower-cased word of
the scored references, its occurrences and how often it is unmatched: recall loss), the
unmatched hypothesis words (precision loss), what each stage rescued (matched reference words
per module and their share, from the summed statistics) and the fragmentation distribution
(ten bins of 0.1, the last holding 0.9–1.0; a segment with no match has no fragmentation and
is in no bin).  Two systems (:func:`head_to_head`), on the segment ids both have: the segments
where each wins most, and the reference words each matches that the other leaves unmatched in
the same segment (multiset difference).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meteor.analysis.significance import common_segments, segment_differences
from meteor.types import CorpusResult, MeteorResult, Stats, module_order

__all__ = ["FRAG_BINS", "HeadToHead", "SegmentWin", "SystemLoss", "head_to_head", "system_losses"]

#: Fragmentation histogram: ten bins of width 0.1 over [0, 1].
FRAG_BINS = 10


@dataclass(frozen=True, slots=True)
class SystemLoss:
    """Where one system loses its points (module docstring)."""

    system: str
    missed_ref_words: tuple[tuple[str, int, int], ...]  # (word, missed, occurrences)
    unmatched_hyp_words: tuple[tuple[str, int, int], ...]  # (word, unmatched, occurrences)
    stage_matches: tuple[tuple[str, int, float], ...]  # (module, matched ref words, share)
    frag_histogram: tuple[int, ...]  # segments per bin of 0.1
    unmatched_ref_total: int
    ref_total: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "most_missed_reference_words": [
                {"word": w, "missed": m, "occurrences": n} for w, m, n in self.missed_ref_words
            ],
            "unmatched_hypothesis_words": [
                {"word": w, "unmatched": m, "occurrences": n}
                for w, m, n in self.unmatched_hyp_words
            ],
            "stage_matches": [
                {"module": mod, "matched_reference_words": c, "share": s}
                for mod, c, s in self.stage_matches
            ],
            "fragmentation_histogram": {
                "bin_width": 1 / FRAG_BINS,
                "segments": list(self.frag_histogram),
            },
            "unmatched_reference_words": self.unmatched_ref_total,
            "reference_words": self.ref_total,
        }


@dataclass(frozen=True, slots=True)
class SegmentWin:
    """A segment both systems translated, with each one's score and text."""

    seg_id: str
    score_a: float
    score_b: float
    hyp_a: str
    hyp_b: str
    ref: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "seg_id": self.seg_id,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "difference_b_minus_a": self.score_b - self.score_a,
            "hyp_a": self.hyp_a,
            "hyp_b": self.hyp_b,
            "ref": self.ref,
        }


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """System ``a`` against ``b`` on ``common`` segments."""

    a: str
    b: str
    common: int
    a_wins: tuple[SegmentWin, ...]
    b_wins: tuple[SegmentWin, ...]
    words_only_a: tuple[tuple[str, int], ...]  # reference words a matches and b misses
    words_only_b: tuple[tuple[str, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "common_segments": self.common,
            "segments_a_wins_most": [w.to_dict() for w in self.a_wins],
            "segments_b_wins_most": [w.to_dict() for w in self.b_wins],
            "reference_words_only_a_matches": [
                {"word": w, "count": c} for w, c in self.words_only_a
            ],
            "reference_words_only_b_matches": [
                {"word": w, "count": c} for w, c in self.words_only_b
            ],
        }


def _word_counts(segs: Sequence[MeteorResult], side: str) -> tuple[Counter[str], Counter[str]]:
    total: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    for seg in segs:
        al = seg.alignment
        toks, hits = (al.ref, al.ref_matched()) if side == "ref" else (al.hyp, al.hyp_matched())
        for tok, hit in zip(toks, hits, strict=True):
            w = tok.text.lower()
            total[w] += 1
            if not hit:
                missed[w] += 1
    return total, missed


def _most(counts: Counter[str], top: int) -> tuple[tuple[str, int], ...]:
    """The ``top`` most counted words, the most first (ties alphabetical)."""
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top])


def _top(total: Counter[str], missed: Counter[str], top: int) -> tuple[tuple[str, int, int], ...]:
    return tuple((w, m, total[w]) for w, m in _most(missed, top))


def system_losses(
    name: str, result: CorpusResult, *, modules: Sequence[str] = (), top: int = 20
) -> SystemLoss:
    """Where ``name`` loses its points (module docstring); ``top`` words of each list.

    ``modules``: the stages the run used (each listed even when it matched nothing).
    """
    segs = result.segments
    ref_total, ref_missed = _word_counts(segs, "ref")
    hyp_total, hyp_missed = _word_counts(segs, "hyp")
    total = sum((s.stats for s in segs), Stats())
    order = module_order()
    _hc, rc, _hf, rf = total.per_module(len(order))
    per_module = [(order[k].value, rc[k] + rf[k]) for k in range(len(order))]
    matched = sum(c for _, c in per_module)
    stages = tuple(
        (mod, c, c / matched if matched else 0.0) for mod, c in per_module if c or mod in modules
    )
    hist = [0] * FRAG_BINS
    for s in segs:
        if math.isfinite(s.frag):  # no match at all: fragmentation undefined (NaN), not drawn
            hist[min(FRAG_BINS - 1, max(0, int(s.frag * FRAG_BINS)))] += 1
    return SystemLoss(
        name,
        _top(ref_total, ref_missed, top),
        _top(hyp_total, hyp_missed, top),
        stages,
        tuple(hist),
        sum(ref_missed.values()),
        sum(ref_total.values()),
    )


def head_to_head(
    a: str,
    b: str,
    results: Mapping[str, CorpusResult],
    ids: Mapping[str, Sequence[str]],
    *,
    top: int = 10,
) -> HeadToHead:
    """Segments and words where ``a`` or ``b`` wins most, on the ids both have."""
    ra, rb = results[a], results[b]
    diffs = segment_differences(ra, rb, ids=(ids[a], ids[b]))
    pos_a, _ = common_segments(ids[a], ids[b])

    def win(d: Any) -> SegmentWin:
        sa, sb = ra.segments[d.index], rb.segments[d.position_b]
        ref = sa.refs[sa.best_ref_index] if sa.refs else ""
        return SegmentWin(ids[a][d.index], d.score_a, d.score_b, sa.hyp, sb.hyp, ref)

    b_wins = tuple(win(d) for d in diffs[:top] if d.difference > 0)
    a_wins = tuple(win(d) for d in reversed(diffs[-top:]) if d.difference < 0)
    only_a: Counter[str] = Counter()
    only_b: Counter[str] = Counter()

    def matched(seg: MeteorResult) -> Counter[str]:  # the lower-cased reference words matched
        al = seg.alignment
        return Counter(t.text.lower() for t, h in zip(al.ref, al.ref_matched(), strict=True) if h)

    for d in diffs:
        ma, mb = matched(ra.segments[d.index]), matched(rb.segments[d.position_b])
        only_a.update(ma - mb)
        only_b.update(mb - ma)

    return HeadToHead(
        a, b, len(pos_a), a_wins, b_wins, _most(only_a, top * 2), _most(only_b, top * 2)
    )
