"""Comparing settings on one pair: the score as α, β, γ or δ moves (same statistics, the
engine's own :func:`meteor.scoring.compute`), and which matches two settings share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from meteor.params import RANGES, Params
from meteor.scoring import compute
from meteor.stats import Stats
from meteor.types import Match, MeteorResult

__all__ = ["Curve", "MatchDiff", "match_diff", "sensitivity"]


# -- sensitivity -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Curve:
    """The score as one parameter moves, everything else (statistics included) fixed."""

    param: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    current_x: float
    current_y: float


SENSITIVE_PARAMS: tuple[str, ...] = ("alpha", "beta", "gamma", "delta")


def sensitivity(
    stats: Stats,
    params: Params,
    names: Sequence[str] = SENSITIVE_PARAMS,
    points: int = 41,
    *,
    highs: Mapping[str, float] | None = None,
) -> tuple[Curve, ...]:
    """Score curves over each parameter's range (β up to max(3, 2β), capped at its range).

    ``highs``: the upper end of a parameter's curve instead (capped at its range), so that
    several settings' curves cover one x-range.  No aligner looks at α, β, γ or δ (Meteor
    1.5's beam search uses fixed weights), so re-scoring the same statistics is exact.
    """
    out = []
    for name in names:
        lo, hi = RANGES[name]
        cur = float(getattr(params, name))
        if highs and name in highs:
            hi = min(hi, float(highs[name]))
        elif name == "beta":
            hi = min(hi, max(3.0, 2 * cur))
        xs = tuple(lo + (hi - lo) * k / (points - 1) for k in range(points))
        ys = tuple(compute(stats, params.replace(**{name: x})).score for x in xs)
        out.append(Curve(name, xs, ys, cur, compute(stats, params).score))
    return tuple(out)


# -- two settings on one pair ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchDiff:
    """Matches of settings A and B on the same pair (see :func:`match_diff`).

    ``same_tokens`` is False when the two settings tokenised the pair differently.
    """

    only_a: tuple[Match, ...]
    only_b: tuple[Match, ...]
    both: tuple[tuple[Match, Match], ...]
    same_tokens: bool


def match_diff(a: MeteorResult, b: MeteorResult) -> MatchDiff:
    """Matches of A and B on one pair: by positions, or when the tokens differ (NLTK keeps
    ``night,`` as one token) by words, the k-th ``we → we`` of A with the k-th of B."""
    same = (
        a.alignment.hyp_words == b.alignment.hyp_words
        and a.alignment.ref_words == b.alignment.ref_words
    )

    def keyed(ms: Sequence[Match]) -> dict[tuple[object, ...], Match]:
        out: dict[tuple[object, ...], Match] = {}
        seen: dict[tuple[object, ...], int] = {}
        for m in ms:
            if same:
                base: tuple[object, ...] = (m.hyp.start, m.hyp.end, m.ref.start, m.ref.end)
            else:
                base = (m.hyp_words, m.ref_words)
            k = seen.get(base, 0)
            seen[base] = k + 1
            out[(*base, k)] = m
        return out

    ka, kb = keyed(a.matches), keyed(b.matches)
    return MatchDiff(
        tuple(m for k, m in ka.items() if k not in kb),
        tuple(m for k, m in kb.items() if k not in ka),
        tuple((m, kb[k]) for k, m in ka.items() if k in kb),
        same,
    )
