"""METEOR alignment workbench: every official METEOR number, with the alignment behind it.

Quick start::

    import meteor
    r = meteor.score("A fast brown fox leapt over a lazy dog",
                     "The quick brown fox jumps over the lazy dog")   # Meteor 1.5 default
    r.score, r.precision, r.recall, r.alignment.matches, r.signature

Presets (:data:`meteor.presets.PRESETS`) reproduce Meteor 1.5 (``meteor-1.5``,
its other tasks, ``meteor-1.5-paper2005``, ``meteor-1.5-ru``), the 2005 paper
(``paper-2005``), NLTK (``nltk``), HF evaluate (``hf``) and the seed documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meteor.languages import ResourceError, get_language
from meteor.metric import Meteor
from meteor.params import VERSION, ParamError, Params
from meteor.presets import PRESETS, get_preset, preset_names
from meteor.signatures import SettingsMismatchError
from meteor.types import (
    Alignment,
    Chunk,
    CorpusResult,
    Match,
    MeteorResult,
    Module,
    Span,
    Stats,
    Token,
)

__version__ = VERSION

__all__ = [
    "PRESETS",
    "Alignment",
    "Chunk",
    "CorpusResult",
    "Match",
    "Meteor",
    "MeteorResult",
    "Module",
    "ParamError",
    "Params",
    "ResourceError",
    "SettingsMismatchError",
    "Span",
    "Stats",
    "Token",
    "corpus_score",
    "get_language",
    "get_preset",
    "preset_names",
    "score",
]


def score(
    hyp: str,
    refs: str | Sequence[str],
    preset: str | None = None,
    *,
    params: Params | None = None,
    lang: str | None = None,
    **overrides: Any,
) -> MeteorResult:
    """Score one hypothesis against one or several references.

    Args:
        hyp: the hypothesis text (raw; the preset's normaliser tokenises it).
        refs: one reference string or a list of them (best wins, first wins ties).
        preset: a preset name (default: the language's Meteor 1.5 preset).
        params: explicit :class:`Params` instead of a preset.
        lang: language code; must agree with the preset.
        **overrides: any :class:`Params` field, e.g. ``alpha=0.9``.

    Returns:
        The full :class:`MeteorResult` record.
    """
    return Meteor(preset, params=params, lang=lang, **overrides).score(hyp, refs)


def corpus_score(
    hyps: Sequence[str],
    refs: Sequence[str] | Sequence[Sequence[str]],
    preset: str | None = None,
    *,
    params: Params | None = None,
    lang: str | None = None,
    client: Any = None,
    **overrides: Any,
) -> CorpusResult:
    """Score a corpus from summed sufficient statistics (and the mean of segment scores).

    With ``client`` (a :class:`distributed.Client`) the segments are scored on that
    Dask cluster (:func:`meteor.cluster.score_corpus_dask`); the result is the same.
    """
    m = Meteor(preset, params=params, lang=lang, **overrides)
    if client is not None:
        from meteor.cluster import score_corpus_dask

        return score_corpus_dask(m, hyps, refs, client=client, candidates=True)
    return m.corpus_score(hyps, refs)
