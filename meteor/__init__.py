"""METEOR alignment workbench: every official METEOR number, with the alignment behind it.

Quick start::

    import meteor
    r = meteor.score("A fast brown fox leapt over a lazy dog",
                     "The quick brown fox jumps over the lazy dog")   # Meteor 1.5 default
    r.score, r.precision, r.recall, r.alignment.matches, r.signature

Presets (:data:`meteor.presets.PRESETS`) reproduce Meteor 1.5 (``meteor-1.5``, its other
tasks, ``meteor-1.5-paper2005``, ``meteor-1.5-ru``), the 2005 paper (``paper-2005``), NLTK
(``nltk``), HF evaluate (``hf``) and the seed documents.  The public surface is
``meteor.__all__`` (pinned by ``tests/unit/test_public_api.py``, described in docs/api.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from meteor import presets
from meteor.analysis.explain.record import Explanation, explain, explain_score
from meteor.analysis.reconcile import reconcile
from meteor.errors import (
    CandidateLimitError,
    ClusterError,
    InputError,
    ParamError,
    ResourceError,
    SettingsMismatchError,
    StagewiseSearchError,
)
from meteor.languages import get_language
from meteor.metric import Meteor
from meteor.module_registry import Module
from meteor.params import VERSION, Params
from meteor.presets import PRESETS, get_preset, preset_names
from meteor.stats import Stats
from meteor.types import Alignment, Chunk, CorpusResult, Match, MeteorResult, Span, Token

if TYPE_CHECKING:
    from meteor.analysis.agreement import correlate
    from meteor.analysis.corpus_report import CorpusReport
    from meteor.analysis.tune import tune

#: Public names whose modules load scipy.stats (~0.6 s, ~60 MB): imported on first use
#: (PEP 562), so ``import meteor`` and ``meteor score`` do not pay for them.
_LAZY = {"correlate": "meteor.analysis.agreement", "tune": "meteor.analysis.tune"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'meteor' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__version__ = VERSION

__all__ = [
    "PRESETS",
    "Alignment",
    "CandidateLimitError",
    "Chunk",
    "ClusterError",
    "CorpusResult",
    "Explanation",
    "InputError",
    "Match",
    "Meteor",
    "MeteorResult",
    "Module",
    "ParamError",
    "Params",
    "ResourceError",
    "SettingsMismatchError",
    "Span",
    "StagewiseSearchError",
    "Stats",
    "Token",
    "corpus_score",
    "correlate",
    "explain",
    "explain_score",
    "get_language",
    "get_preset",
    "preset_names",
    "presets",
    "reconcile",
    "report",
    "score",
    "sentence_score",
    "tune",
]


def sentence_score(
    hyp: str,
    refs: str | Sequence[str],
    preset: str | None = None,
    *,
    params: Params | None = None,
    lang: str | None = None,
    **overrides: Any,
) -> MeteorResult:
    """Score one hypothesis against one or several references (a :class:`Meteor` per call;
    to score many pairs, build one :class:`Meteor`).

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


#: The same as :func:`sentence_score` (kept as a documented alias).
score = sentence_score


def corpus_score(
    hyps: Sequence[str],
    refs: Sequence[str] | Sequence[Sequence[str]],
    preset: str | None = None,
    *,
    params: Params | None = None,
    lang: str | None = None,
    workers: int | None = None,
    client: Any = None,
    **overrides: Any,
) -> CorpusResult:
    """Score a corpus from summed sufficient statistics (and the mean of segment scores).

    ``refs`` is one reference per segment, or a sequence of references per segment.
    The numbers are the same on every path: this process (:meth:`Meteor.corpus_score`),
    ``workers=N`` processes (:func:`meteor.runners.parallel.score_corpus`; segment records
    then carry **no** candidate lists) or a Dask ``client``
    (:func:`meteor.runners.cluster.score_corpus_dask`; ``workers`` is not used).
    """
    from meteor.batch import check_corpus

    check_corpus(hyps, refs)  # every runner's checks, before anything loads or starts
    m = Meteor(preset, params=params, lang=lang, **overrides)
    if workers is not None and client is None:
        from meteor.runners.parallel import score_corpus

        return score_corpus(m, hyps, refs, workers=workers)
    if client is not None:
        from meteor.runners.cluster import score_corpus_dask

        return score_corpus_dask(m, hyps, refs, client=client, candidates=True)
    return m.corpus_score(hyps, refs)


def report(
    corpus: Any,
    refs: Sequence[str] | Sequence[Sequence[str]] | None = None,
    preset: str | None = None,
    *,
    params: Params | None = None,
    lang: str | None = None,
    workers: int | None = None,
    test: str = "ar",
    correction: str = "holm",
    n_trials: int = 10_000,
    **options: Any,
) -> CorpusReport:
    """The corpus report of N systems: one call, one frozen record with ``to_dict()``.

    ``test``: the paired test that decides significance, ``"ar"`` (approximate
    randomisation, the default) or ``"bootstrap"`` (paired bootstrap); the other's p is
    shown beside it.  ``correction``: ``"holm"`` (default), ``"bonferroni"`` or ``"none"``
    over the pairwise tests.  ``n_trials``: randomisation trials (10,000, sacreBLEU's).

    ``corpus`` is a :class:`meteor.io.read.Corpus` (as :func:`meteor.io.read.load_corpus`
    reads files, segments paired by id), or a mapping ``system name → hypotheses`` with
    ``refs`` (one reference, or a sequence of references, per segment).  ``options``:
    :func:`meteor.analysis.corpus_report.build_report`'s (``n_samples``, ``seed``, ``labels``,
    ``word_counts``, ``length_edges``, ``compare`` …).  Returns a
    :class:`meteor.analysis.corpus_report.CorpusReport`; its exports are
    :mod:`meteor.analysis.report_text` and :mod:`meteor.viz.report_html`.
    """
    from meteor.analysis.corpus_report import corpus_report
    from meteor.io.read import Corpus

    if not isinstance(corpus, Corpus):
        if not isinstance(corpus, Mapping):
            raise TypeError(
                "report takes a Corpus (meteor.io.read.load_corpus) or a mapping {system name: "
                f"hypotheses}}, got {type(corpus).__name__}"
            )
        if refs is None:
            raise InputError("report: give refs with a mapping of system hypotheses")
        ref_rows = tuple((r,) if isinstance(r, str) else tuple(r) for r in refs)
        systems = tuple((str(name), tuple(hyps)) for name, hyps in dict(corpus).items())
        corpus = Corpus(systems, ref_rows, tuple(str(k + 1) for k in range(len(ref_rows))))
    elif refs is not None:
        raise InputError("report: a Corpus carries its references; do not give refs too")
    m = Meteor(preset, params=params, lang=lang)
    return corpus_report(
        corpus, m, workers=workers, test=test, correction=correction, n_trials=n_trials, **options
    )
