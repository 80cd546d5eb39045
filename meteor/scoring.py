"""Statistics from an alignment, and the METEOR formula from statistics.

Reproduces Meteor 1.5 ``Aligner.align`` (counts, Aligner.java:223-285) and
``MeteorScorer.computeMetrics`` (MeteorScorer.java:361-420; ``meteor-1.5.md``
section 11), with Java's IEEE arithmetic: a division by zero gives ±inf or NaN
instead of raising, and a NaN score becomes 0.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from meteor.aligners import get_aligner
from meteor.module_registry import MODULE_ORDER, module_slot
from meteor.params import Params
from meteor.rules import is_perfect_segment
from meteor.stats import Breakdown, Stats, counted_stats
from meteor.types import Match, chunk_starts

__all__ = [
    "Breakdown",
    "compute",
    "formula",
    "formula_plan",
    "pow_each",
    "perfect_rows",
    "stats_from_alignment",
    "stats_from_raw",
]

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
) -> Stats:
    """Count lengths, function words, per-module matches and chunks (unweighted)."""
    raw = sorted(
        ((m.module, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end) for m in matches),
        key=lambda c: c[3],
    )
    return stats_from_raw(raw, hyp_function, ref_function)


def stats_from_raw(
    matches: Sequence[tuple[Any, ...]],
    hyp_function: Sequence[bool],
    ref_function: Sequence[bool],
) -> Stats:
    """:func:`stats_from_alignment` of :data:`~meteor.types.Candidate`-like tuples in
    reference order (Meteor 1.5 ``Aligner.align`` counts; chunks by
    :func:`~meteor.types.chunk_starts`, ``Aligner.getCountAndChunks``).
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
    return counted_stats(
        (len(hyp_function), len(ref_function), sum(hyp_function), sum(ref_function)),
        (tuple(hc), tuple(rc), tuple(hf), tuple(rf)),
        len(chunk_starts(matches)),
        hm,
        rm,
    )


def uses_nltk_arithmetic(params: Params) -> bool:
    """nltk's settings (an aligner reproducing nltk, δ 0.5, every weight 1, no perfect rule):
    then Fmean is computed in nltk's order (``single_meteor_score``), so the ``nltk`` and
    ``hf`` presets give nltk's floats bit for bit."""
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
    return slots, max(k for k, _ in slots) + 1, uses_nltk_arithmetic(params)


#: The settings :func:`compute` was last called with and their plan (:func:`_plan`): a corpus
#: computes every segment with the same ``Params`` object.  Held, so its ``id`` stays its own.
_LAST_PLAN: tuple[Params | None, Any] = (None, None)


def compute(
    stats: Stats, params: Params, *, power: Callable[[float, float], float] | None = None
) -> Breakdown:
    """The METEOR formula on one segment's (or a corpus's summed) sufficient statistics:
    :func:`formula` on the values of ``stats`` (its docstring has the formula).

    ``power``: ``frag^β`` (default C's ``pow``, :func:`_pow`); the jar's HotSpot
    ``Math.pow`` is :func:`meteor.compat.pycocoevalcap.java_pow`."""
    global _LAST_PLAN
    last, plan = _LAST_PLAN
    if last is not params:  # hashing a Params (its every field) costs a microsecond
        plan = _plan(params)
        _LAST_PLAN = (params, plan)  # one tuple: threads see the pair or the one before
    slots, width, nltk_arithmetic = plan
    perfect = params.perfect_rule and is_perfect_segment(
        sum(stats.hyp_content_matches) + sum(stats.hyp_function_matches),
        stats.hyp_len,
        sum(stats.ref_content_matches) + sum(stats.ref_function_matches),
        stats.ref_len,
        stats.chunks,
    )
    return Breakdown(
        *formula(
            (stats.hyp_len, stats.ref_len, stats.hyp_function_words, stats.ref_function_words),
            stats.per_module(width),
            (stats.chunks, stats.hyp_word_matches, stats.ref_word_matches),
            slots,
            (params.alpha, params.beta, params.gamma, params.delta),
            nltk_arithmetic=nltk_arithmetic,
            perfect=perfect,
            power=power,
        )
    )


def formula_plan(params: Params) -> tuple[tuple[tuple[int, float], ...], bool]:
    """What :func:`formula` reads of ``params`` besides α β γ δ: each module's statistics
    slot with its weight, and whether Fmean is computed in nltk's order."""
    slots, _, nltk_arithmetic = _plan(params)
    return slots, nltk_arithmetic


#: A float (one segment or corpus) or a numpy array of them (many rows, many points).
Num = Any


def formula(
    lengths: tuple[Num, Num, Num, Num],
    per_slot: Sequence[Any],
    chunk_counts: tuple[Num, Num, Num],
    slots: Sequence[tuple[int, Num]],
    alpha_beta_gamma_delta: tuple[Num, Num, Num, Num],
    *,
    nltk_arithmetic: Num = False,
    perfect: Num = False,
    power: Callable[[Any, Any], Any] | None = None,
) -> tuple[Num, Num, Num, Num, Num, Num, Num, Num, Num, Num]:
    """The METEOR formula (``MeteorScorer.computeMetrics``, MeteorScorer.java:361-420;
    ``meteor-1.5.md`` section 11) on sufficient statistics: the one home of P, R, Fmean,
    the penalty and the score, for one segment (floats) or many at once (numpy arrays).

    ``L = δ·(len − f) + (1−δ)·f``, ``M = Σ_module w·(δ·content + (1−δ)·function)``,
    ``P = M_hyp/L_hyp``, ``R = M_ref/L_ref``, ``Fmean = 1/((1−α)/P + α/R)``,
    ``frag = chunks / mean(matched words)`` (0 where ``perfect``: a perfect segment
    under the perfect rule), ``penalty = γ·frag^β``, ``score = max(0, Fmean·(1−penalty))``
    and NaN → 0.  The summation order follows MeteorScorer.java, with Java's IEEE
    arithmetic (x/0 = ±inf, 0/0 = NaN) and C's ``pow`` (:func:`_pow`, :func:`pow_each`), so values
    agree with the Java tool to the last bit where possible, and arrays give exactly
    the floats of one value at a time.  Where ``nltk_arithmetic`` (nltk's settings,
    :func:`uses_nltk_arithmetic`; a bool or, per point, a bool array) Fmean is nltk's
    ``P·R / (αP + (1−α)R)``.

    Args:
        lengths: hypothesis and reference lengths, then their function-word counts.
        per_slot: hypothesis content, reference content, hypothesis function and
            reference function matches, each indexed by statistics slot (``x[k]``).
        chunk_counts: chunks, matched hypothesis words, matched reference words.
        slots: ``(slot, weight)`` of each module in the settings' order.
        alpha_beta_gamma_delta: the four parameters (floats, or arrays that broadcast
            against the statistics, e.g. one row per parameter point).
        power: ``frag^β`` instead of C's ``pow`` value by value (the jar's own
            ``Math.pow``: :func:`meteor.compat.pycocoevalcap.java_pow`).

    Returns:
        ``(L_hyp, L_ref, M_hyp, M_ref, P, R, Fmean, frag, penalty, score)``
        (:class:`~meteor.stats.Breakdown`'s fields in order).
    """
    hl, rl, hfw, rfw = lengths
    hc, rc, hf, rf = per_slot
    chunks, hwm, rwm = chunk_counts
    a, b, g, d = alpha_beta_gamma_delta
    if isinstance(hl, (int, float)) and isinstance(a, (int, float)):
        matched = _matched(hl, rl, hfw, rfw, hc, rc, hf, rf, slots, d, _div)
        return _scored(matched, chunks, hwm, rwm, a, b, g, nltk_arithmetic, perfect,
                       power or _pow, _div, _floor)  # fmt: skip
    import numpy as np

    with np.errstate(all="ignore"):
        same = _shared_points(d, slots)
        if same is None:
            matched = _matched(hl, rl, hfw, rfw, hc, rc, hf, rf, slots, d, np.divide)
        else:  # points that share δ and the weights share L, M, P and R: computed once each
            first, inverse = same
            matched = tuple(
                np.take(x, inverse, axis=0) if np.ndim(x) == 2 else x
                for x in _matched(hl, rl, hfw, rfw, hc, rc, hf, rf,
                                  [(k, w[first]) for k, w in slots], d[first], np.divide)
            )  # fmt: skip
        return _scored(matched, chunks, hwm, rwm, a, b, g, nltk_arithmetic, perfect,
                       power or pow_each, np.divide, _floor_each)  # fmt: skip


def _shared_points(d: Any, slots: Sequence[tuple[int, Num]]) -> tuple[Any, Any] | None:
    """For ``B`` points (δ and weights of shape ``(B, 1)``) with repeats among their (δ,
    weights): one index of each distinct point and every point's distinct one; else None.
    (A tune chunk of the grid has 5 distinct δ in 32 points; coordinate descent varies α,
    β or γ with δ and the weights fixed.)"""
    import numpy as np

    if not (isinstance(d, np.ndarray) and d.ndim == 2 and d.shape[1] == 1 and len(d) > 1):
        return None
    ws = [w for _, w in slots]
    if not all(isinstance(w, np.ndarray) and w.shape == d.shape for w in ws):
        return None
    _, first, inverse = np.unique(
        np.concatenate([d, *ws], axis=1), axis=0, return_index=True, return_inverse=True
    )
    if len(first) == len(d):
        return None
    return first, inverse.reshape(-1)


def _matched(
    hl: Num, rl: Num, hfw: Num, rfw: Num, hc: Any, rc: Any, hf: Any, rf: Any,
    slots: Sequence[tuple[int, Num]], d: Num, div: Callable[[Any, Any], Any],
) -> tuple[Num, Num, Num, Num, Num, Num]:  # fmt: skip
    """The formula up to P and R: ``(L_hyp, L_ref, M_hyp, M_ref, P, R)``; ``div`` is Java's
    division of floats (:func:`_div`) or of arrays (``numpy.divide``, IEEE as Java)."""
    hyp_len = d * (hl - hfw) + (1.0 - d) * hfw
    ref_len = d * (rl - rfw) + (1.0 - d) * rfw
    hm: Num = 0.0
    rm: Num = 0.0
    for k, w in slots:  # each sum in MeteorScorer's order: content matches, then function words
        hm += hc[k] * w * d  # arrays: in place from the second term on (0.0 + x is x)
        rm += rc[k] * w * d
    for k, w in slots:
        hm += hf[k] * w * (1.0 - d)
        rm += rf[k] * w * (1.0 - d)
    return hyp_len, ref_len, hm, rm, div(hm, hyp_len), div(rm, ref_len)


def _scored(
    matched: tuple[Num, Num, Num, Num, Num, Num], chunks: Num, hwm: Num, rwm: Num,
    a: Num, b: Num, g: Num, nltk_arithmetic: Num, perfect: Num,
    power: Callable[[Any, Any], Any], div: Callable[[Any, Any], Any], floor: Callable[[Any], Any],
) -> tuple[Num, Num, Num, Num, Num, Num, Num, Num, Num, Num]:  # fmt: skip
    """The formula from P and R on: Fmean, frag, the penalty and the score."""
    precision, recall = matched[4], matched[5]
    if nltk_arithmetic is True:
        # nltk's single_meteor_score: P·R / (αP + (1−α)R), to the last bit
        fmean = div(precision * recall, a * precision + (1.0 - a) * recall)
    else:
        fmean = div(1.0, div(1.0 - a, precision) + div(a, recall))
        if nltk_arithmetic is not False and nltk_arithmetic.any():  # nltk's order per point
            nltk = div(precision * recall, a * precision + (1.0 - a) * recall)
            fmean = _where(nltk_arithmetic, nltk, fmean)
    frag = div(chunks * 1.0, (hwm + rwm) / 2)
    if perfect is True:
        frag = 0.0
    elif perfect is not False:
        frag = _where(perfect, 0.0, frag)
    penalty = g * power(frag, b)
    score = floor(fmean * (1.0 - penalty))
    return (*matched, fmean, frag, penalty, score)


def _floor(score: float) -> float:
    """A NaN score is 0, as is a negative one (Meteor 1.5)."""
    return 0.0 if math.isnan(score) else max(score, 0.0)


def _floor_each(score: Any) -> Any:
    """:func:`_floor` of every value, in place: ``fmax`` turns NaN and negative values to 0
    (a score is never -0.0: Fmean ≥ 0 and the penalty ≤ γ ≤ 1)."""
    import numpy as np

    return np.fmax(score, 0.0, out=score if isinstance(score, np.ndarray) else None)


def _where(cond: Any, x: Any, y: Any) -> Any:
    import numpy as np

    return np.where(cond, x, y)


def pow_each(frag: Any, beta: Any) -> Any:
    """C's ``pow(frag, β)`` (``math.pow``, as :func:`_pow`) of every value (arrays that
    broadcast), exactly: numpy's own ``power`` differs in the last bit on about 5 % of
    values, so each distinct (frag, β) pair is computed by ``math.pow`` once."""
    import numpy as np

    f = np.asarray(frag, dtype=np.float64)
    e = np.asarray(beta, dtype=np.float64)
    uf, fi = np.unique(f, return_inverse=True)
    ue, ei = np.unique(e, return_inverse=True)
    table = _pow_ufunc()(uf[None, :], ue[:, None]).astype(np.float64)  # [β, frag]
    if e.ndim == 2 and e.shape[1] == 1 and f.ndim == 1:  # a β per point, a frag per row
        return np.take(table[ei[:, 0]], fi, axis=1)
    return table[ei.reshape(e.shape), fi.reshape(f.shape)]


@functools.cache
def _pow_ufunc() -> Any:
    """``math.pow`` as a numpy ufunc (its loop in C: about 60 ns a value)."""
    import numpy as np

    return np.frompyfunc(math.pow, 2, 1)


def perfect_rows(
    hyp_matched: Any, hyp_len: Any, ref_matched: Any, ref_len: Any, chunks: Any
) -> Any:
    """:func:`meteor.rules.is_perfect_segment` of arrays, value by value."""
    return (hyp_matched == hyp_len) & (ref_matched == ref_len) & (chunks == 1)
