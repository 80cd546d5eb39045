"""Statistics from an alignment, and the METEOR formula from statistics.

Reproduces Meteor 1.5 ``Aligner.align`` (counts, Aligner.java:223-285) and
``MeteorScorer.computeMetrics`` (MeteorScorer.java:361-420; ``meteor-1.5.md``
section 11), with Java's IEEE arithmetic: a division by zero gives ±inf or NaN
instead of raising, and a NaN score becomes 0.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from typing import Any

from meteor.aligners import get_aligner
from meteor.module_registry import MODULE_ORDER, module_slot
from meteor.params import Params
from meteor.rules import is_perfect_segment
from meteor.stats import Breakdown, Stats
from meteor.types import Match, chunk_starts

__all__ = ["Breakdown", "compute", "stats_from_alignment", "stats_from_raw"]

_NAN = float("nan")
_MODULE_INDEX = {m: k for k, m in enumerate(MODULE_ORDER)}
_INF = float("inf")


def _div(a: float, b: float) -> float:
    """Java double division: x/0 is ±inf, 0/0 and NaN operands give NaN."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return _NAN
        return math.copysign(_INF, a) * math.copysign(1.0, b)
    return a / b


def _mul(a: float, b: float) -> float:
    """Java double multiplication (0·inf is NaN rather than an error)."""
    if (math.isinf(a) and b == 0.0) or (math.isinf(b) and a == 0.0):
        return _NAN
    return a * b


def _pow(a: float, b: float) -> float:
    """``Math.pow`` for the values frag and β can take (frag ≥ 0 or NaN, β ≥ 0)."""
    if b == 0.0:
        return 1.0
    if math.isnan(a):
        return _NAN
    if math.isinf(a):
        return _INF
    return math.pow(a, b)


def stats_from_alignment(
    matches: Sequence[Match],
    hyp_function: Sequence[bool],
    ref_function: Sequence[bool],
    *,
    chunks: int | None = None,
) -> Stats:
    """Count lengths, function words, per-module matches and chunks (unweighted).

    ``chunks``: the number of chunks when the caller has already counted them
    (:func:`~meteor.types.chunk_matches`), else they are counted here.
    """
    raw = sorted(
        ((m.module, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end) for m in matches),
        key=lambda c: c[3],
    )
    stats = stats_from_raw(raw, hyp_function, ref_function)
    if chunks is None or chunks == stats.chunks:
        return stats
    return dataclasses.replace(stats, chunks=chunks)


def stats_from_raw(
    matches: Sequence[tuple[Any, ...]],
    hyp_function: Sequence[bool],
    ref_function: Sequence[bool],
) -> Stats:
    """:func:`stats_from_alignment` of matches as plain tuples, in reference order.

    Each match starts ``(module, hyp_start, hyp_end, ref_start, ref_end, …)``
    (:data:`~meteor.types.Candidate`); no record is needed.  Chunks are counted by the
    one chunk rule, :func:`~meteor.types.chunk_starts` (Meteor 1.5
    ``Aligner.getCountAndChunks``), as :func:`~meteor.types.chunk_matches` groups them.
    """
    n = len(MODULE_ORDER)
    hc, rc, hf, rf = [0] * n, [0] * n, [0] * n, [0] * n
    hm = rm = 0
    index = _MODULE_INDEX
    for c in matches:
        module, hs, he, rs, re_ = c[:5]
        k = index.get(module)
        if k is None:  # a registered stage: its slot comes after the built-in six
            k = module_slot(module)
            grow = [0] * (k + 1 - len(hc))
            for vec in (hc, rc, hf, rf):
                vec += grow
        f = int(hyp_function[hs]) if he - hs == 1 else sum(hyp_function[hs:he])
        hf[k] += f
        hc[k] += he - hs - f
        f = int(ref_function[rs]) if re_ - rs == 1 else sum(ref_function[rs:re_])
        rf[k] += f
        rc[k] += re_ - rs - f
        hm += he - hs
        rm += re_ - rs
    return Stats(
        len(hyp_function),
        len(ref_function),
        sum(hyp_function),
        sum(ref_function),
        _shared(tuple(hc)),
        _shared(tuple(rc)),
        _shared(tuple(hf)),
        _shared(tuple(rf)),
        len(chunk_starts(matches)),
        hm,
        rm,
    )


#: One object per distinct per-module count tuple (a corpus run keeps four per segment;
#: a few hundred distinct ones cover a WMT set).  Cleared when it gets large.
_COUNTS: dict[tuple[int, ...], tuple[int, ...]] = {}
_MAX_COUNTS = 1 << 16


def _shared(counts: tuple[int, ...]) -> tuple[int, ...]:
    """``counts`` itself or an equal tuple made before (tuples are immutable)."""
    got = _COUNTS.get(counts)
    if got is None:
        if len(_COUNTS) >= _MAX_COUNTS:
            _COUNTS.clear()
        got = _COUNTS[counts] = counts
    return got


def _nltk_arithmetic(params: Params) -> bool:
    """nltk's settings (an aligner reproducing nltk, δ 0.5, every weight 1, no perfect rule).

    Then P and R are nltk's ``matches / length`` exactly, and Fmean is computed
    in nltk's order (``single_meteor_score``), so the ``nltk`` and ``hf`` presets
    give nltk's floats bit for bit rather than to the last few bits.
    """
    return (
        get_aligner(params.aligner).nltk_arithmetic
        and params.delta == 0.5
        and not params.perfect_rule
        and all(w == 1.0 for _, w in params.weights)
    )


@functools.lru_cache(maxsize=256)
def _plan(params: Params) -> tuple[tuple[tuple[int, float], ...], int, bool]:
    """What :func:`compute` reads of ``params`` besides α β γ δ, once per settings: each
    module's statistics slot and weight, the width of the statistics, nltk's arithmetic."""
    slots = tuple((module_slot(m), params.weight(m)) for m in params.modules)
    return slots, max(k for k, _ in slots) + 1, _nltk_arithmetic(params)


def compute(stats: Stats, params: Params) -> Breakdown:
    """The METEOR formula on sufficient statistics.

    ``L = δ·(len − f) + (1−δ)·f``, ``M = Σ_module w·(δ·content + (1−δ)·function)``,
    ``P = M_hyp/L_hyp``, ``R = M_ref/L_ref``, ``Fmean = 1/((1−α)/P + α/R)``,
    ``frag = chunks / mean(matched words)`` (0 for a perfect single chunk when
    ``params.perfect_rule``), ``penalty = γ·frag^β``, ``score = max(0, Fmean·(1−penalty))``
    and NaN → 0.  The summation order follows MeteorScorer.java so values agree
    with the Java tool to the last bit where possible; under nltk's settings
    (:func:`_nltk_arithmetic`) Fmean is nltk's ``P·R / (αP + (1−α)R)``.
    """
    a, b, g, d = params.alpha, params.beta, params.gamma, params.delta
    hyp_len = d * (stats.hyp_len - stats.hyp_function_words) + (1.0 - d) * stats.hyp_function_words
    ref_len = d * (stats.ref_len - stats.ref_function_words) + (1.0 - d) * stats.ref_function_words
    slots, width, nltk_arithmetic = _plan(params)
    hc, rc, hf, rf = stats.per_module(width)
    hm = rm = 0.0  # each sum in MeteorScorer's order: content matches, then function words
    for k, w in slots:
        hm += hc[k] * w * d
        rm += rc[k] * w * d
    for k, w in slots:
        hm += hf[k] * w * (1.0 - d)
        rm += rf[k] * w * (1.0 - d)
    precision = _div(hm, hyp_len)
    recall = _div(rm, ref_len)
    if nltk_arithmetic:
        # nltk's single_meteor_score: P·R / (αP + (1−α)R), to the last bit
        fmean = _div(_mul(precision, recall), a * precision + (1.0 - a) * recall)
    else:
        fmean = _div(1.0, _div(1.0 - a, precision) + _div(a, recall))
    total_h = sum(stats.hyp_content_matches) + sum(stats.hyp_function_matches)
    total_r = sum(stats.ref_content_matches) + sum(stats.ref_function_matches)
    if params.perfect_rule and is_perfect_segment(
        total_h, stats.hyp_len, total_r, stats.ref_len, stats.chunks
    ):
        frag = 0.0
    else:
        frag = _div(float(stats.chunks), (stats.hyp_word_matches + stats.ref_word_matches) / 2)
    penalty = _mul(g, _pow(frag, b))
    score = _mul(fmean, 1.0 - penalty)
    score = 0.0 if math.isnan(score) else max(score, 0.0)
    return Breakdown(hyp_len, ref_len, hm, rm, precision, recall, fmean, frag, penalty, score)
