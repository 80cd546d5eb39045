"""Why a score is what it is, as one record: :class:`Explanation` and :func:`explain_score`.

The pieces live in :mod:`meteor.analysis.explain` (pure functions of a result and the
parameters); this module gathers them into one frozen record that the API
(``meteor.explain_score``), the CLI (``python -m meteor explain``, ``score --explain``)
and the app's Inspect page ("why this score": one call, displayed as is) all give.

Why the function is named ``explain_score`` and not ``explain``: ``meteor.analysis.explain``
is the submodule :mod:`meteor.analysis.explain`, imported by the pages and by user code as
``from meteor import explain`` (``explain.unmatched_costs(...)``).  A package
attribute ``meteor.analysis.explain`` bound to a function would shadow that submodule for
``from meteor import explain`` callers, breaking them, so the function has its own name.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from meteor.analysis.explain import (
    ChunkBreak,
    NearMiss,
    WaterfallStep,
    WordCost,
    chunk_break_costs,
    near_misses,
    unmatched_costs,
    waterfall,
)
from meteor.metric import Meteor
from meteor.params import Params
from meteor.types import MeteorResult

__all__ = ["Explanation", "explain_score"]


def _plain(value: Any) -> Any:
    """A JSON-ready copy: dataclasses → dicts, enums → values, tuples → lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Explanation:
    """What each loss of one segment's score cost, and what-if scores.

    Attributes:
        score: the segment's METEOR score.
        waterfall: 1.0 → unmatched words (hypothesis, reference) → partial
            credit → fragmentation → the score (:func:`meteor.analysis.explain.waterfall`).
        word_costs: per unmatched word, the score if it alone were matched by the
            best enabled stage (``score_if_matched``) and the gain; largest gain first
            (:func:`meteor.analysis.explain.unmatched_costs`).
        chunk_breaks: per break between consecutive chunks, the words on either
            side and the score with one chunk fewer (``score_if_joined``)
            (:func:`meteor.analysis.explain.chunk_break_costs`).
        near_misses: unmatched word pairs another stage, stemmer or alignment
            choice would match, with the score if added (:func:`meteor.analysis.explain.near_misses`).
    """

    score: float
    waterfall: tuple[WaterfallStep, ...]
    word_costs: tuple[WordCost, ...]
    chunk_breaks: tuple[ChunkBreak, ...]
    near_misses: tuple[NearMiss, ...]

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON-ready data (enums as their values, tuples as lists)."""
        out: dict[str, Any] = _plain(self)
        return out


def explain_score(result: MeteorResult, scorer_or_params: Meteor | Params) -> Explanation:
    """Explain ``result`` (made by ``scorer_or_params``): costs, what-if scores, near misses.

    Every number is recomputed by the engine's own scoring formula
    (:func:`meteor.scoring.compute`, Meteor 1.5's ``computeMetrics``) on modified
    statistics; nothing is estimated.  Pass the :class:`Meteor` that scored the
    result (``Params`` alone builds a new scorer, loading the language once).
    """
    meteor = (
        scorer_or_params
        if isinstance(scorer_or_params, Meteor)
        else Meteor(params=scorer_or_params)
    )
    params = meteor.params
    return Explanation(
        score=result.score,
        waterfall=waterfall(result.stats, params),
        word_costs=unmatched_costs(result, params),
        chunk_breaks=chunk_break_costs(result, params),
        near_misses=near_misses(result, meteor),
    )
