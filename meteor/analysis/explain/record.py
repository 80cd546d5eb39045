"""Why a score is what it is, as one record: :class:`Explanation` and :func:`explain`.

The pieces of :mod:`meteor.analysis.explain.parts` gathered into the one frozen record that the
API (``meteor.explain(result)``), the CLI (``explain``, ``score --explain``) and the app's
Inspect page all give.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from meteor.analysis.explain.parts import (
    ChunkBreak,
    NearMiss,
    WaterfallStep,
    WordCost,
    chunk_break_costs,
    near_misses,
    unmatched_costs,
    waterfall,
)
from meteor.json_numbers import json_ready
from meteor.metric import Meteor
from meteor.params import Params
from meteor.types import MeteorResult

__all__ = ["Explanation", "explain", "explain_score", "scorer_of"]


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
    """What each loss of one segment's score cost, and what-if scores: the ``waterfall``, the
    ``word_costs`` (:func:`~meteor.analysis.explain.parts.unmatched_costs`), the
    ``chunk_breaks`` (:func:`~meteor.analysis.explain.parts.chunk_break_costs`) and the
    ``near_misses`` of :mod:`meteor.analysis.explain.parts`."""

    score: float
    waterfall: tuple[WaterfallStep, ...]
    word_costs: tuple[WordCost, ...]
    chunk_breaks: tuple[ChunkBreak, ...]
    near_misses: tuple[NearMiss, ...]

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON-ready data (enums as their values, tuples as lists,
        numbers as :func:`~meteor.json_numbers.json_ready` writes them)."""
        out: dict[str, Any] = json_ready(_plain(self))
        return out


def scorer_of(result: MeteorResult) -> Meteor:
    """The scorer of a preset's unchanged settings that made ``result``, from its signature.

    Raises:
        ValueError: the signature names no preset, or a changed one (``NAME+custom``), or
            the preset's scorer signs differently (another version): pass the scorer or
            its ``Params`` instead.
    """
    fields = dict(part.partition(":")[::2] for part in result.signature.split("|")[1:])
    name = fields.get("preset", "")
    if not name or name.endswith("+custom"):
        raise ValueError(
            f"the result was scored with settings no preset names ({result.signature}); "
            "pass the Meteor scorer or the Params that made it: explain(result, scorer)"
        )
    scorer = Meteor(name)
    if scorer.signature(len(result.refs)) != result.signature:
        raise ValueError(
            f"preset {name!r} now signs {scorer.signature(len(result.refs))}, not "
            f"{result.signature}: pass the scorer that made the result"
        )
    return scorer


def explain(result: MeteorResult, scorer: Meteor | Params | None = None) -> Explanation:
    """Explain ``result``: every number recomputed by :func:`meteor.scoring.compute` (Meteor
    1.5's ``computeMetrics``) on modified statistics.  ``scorer``: the :class:`Meteor` (or its
    :class:`Params`) that made the result; left out, the preset its signature names
    (:func:`scorer_of`).
    """
    if not isinstance(result, MeteorResult):
        raise TypeError(
            f"explain takes a MeteorResult (explain(meteor.score(hyp, ref))), got "
            f"{type(result).__name__}"
        )
    if scorer is not None and not isinstance(scorer, (Meteor, Params)):
        raise TypeError(
            f"the scorer must be the Meteor or the Params that made the result, got "
            f"{type(scorer).__name__} (a preset's name: explain(result, Meteor({scorer!r:.40})))"
        )
    if scorer is None:
        meteor = scorer_of(result)
    elif isinstance(scorer, Meteor):
        meteor = scorer
    else:
        meteor = Meteor(params=scorer)
    params = meteor.params
    return Explanation(
        score=result.score,
        waterfall=waterfall(result.stats, params),
        word_costs=unmatched_costs(result, params),
        chunk_breaks=chunk_break_costs(result, params),
        near_misses=near_misses(result, meteor),
    )


def explain_score(result: MeteorResult, scorer_or_params: Meteor | Params) -> Explanation:
    """The same as :func:`explain` (its earlier name, kept as a documented alias)."""
    return explain(result, scorer_or_params)
