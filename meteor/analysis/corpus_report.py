"""A corpus report a researcher can publish: one call, one frozen record.

:func:`corpus_report` scores each system once, then builds from those records the ranking
(:mod:`meteor.analysis.ranking`), the buckets (:mod:`meteor.analysis.buckets`) and where the
points go (:mod:`meteor.analysis.points_lost`), as docs/report.md describes them; systems
that cover different segments are paired on the segment ids both have.  The exports are
:mod:`meteor.analysis.report_text` (LaTeX, Markdown, JSON) and :mod:`meteor.viz.report_html`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meteor.analysis.buckets import (
    LENGTH_EDGES,
    RATIO_EDGES,
    BucketTable,
    frequency_buckets,
    label_buckets,
    length_buckets,
    ratio_buckets,
    word_class_buckets,
)
from meteor.analysis.points_lost import HeadToHead, SystemLoss, head_to_head, system_losses
from meteor.analysis.ranking import DEFAULT_TRIALS, Ranking, check_ranking_options, rank_systems
from meteor.analysis.significance import DEFAULT_SAMPLES, DEFAULT_SEED
from meteor.io.read import Corpus
from meteor.metric import Meteor
from meteor.params import Params
from meteor.runners.parallel import score_corpus
from meteor.types import CorpusResult

__all__ = ["CorpusReport", "build_report", "corpus_report"]

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class CorpusReport:
    """The whole analysis of N systems on one set of references (module docstring).

    ``signature``: the settings every number was computed with; ``segments``: the segment ids
    of the corpus; ``system_segments``: ``(system, segments it has)`` in input order;
    ``losses``: per system in ranking order; ``versus``: ``None`` with one system.
    """

    signature: str
    preset: str | None
    sources: tuple[str, ...]
    segments: int
    system_segments: tuple[tuple[str, int], ...]
    ranking: Ranking
    buckets: tuple[BucketTable, ...]
    losses: tuple[SystemLoss, ...]
    versus: HeadToHead | None
    notes: tuple[str, ...] = field(default=())

    @property
    def systems(self) -> tuple[str, ...]:
        """System names in ranking order."""
        return tuple(r.name for r in self.ranking.systems)

    def to_dict(self) -> dict[str, Any]:
        return {
            "signature": self.signature,
            "preset": self.preset,
            "data": {
                "sources": list(self.sources),
                "segments": self.segments,
                "systems": [{"system": s, "segments": n} for s, n in self.system_segments],
            },
            "ranking": self.ranking.to_dict(),
            "buckets": [b.to_dict() for b in self.buckets],
            "where_the_points_go": [x.to_dict() for x in self.losses],
            "head_to_head": None if self.versus is None else self.versus.to_dict(),
            "notes": list(self.notes),
        }


def build_report(
    results: Mapping[str, CorpusResult],
    params: Params,
    *,
    ids: Mapping[str, Sequence[str]],
    segments: int | None = None,
    preset: str | None = None,
    sources: Sequence[str] = (),
    labels: Mapping[str, Mapping[str, str]] | None = None,
    word_counts: Mapping[str, int] | None = None,
    length_edges: Sequence[int] = LENGTH_EDGES,
    ratio_edges: Sequence[float] = RATIO_EDGES,
    n_samples: int = DEFAULT_SAMPLES,
    n_trials: int = DEFAULT_TRIALS,
    test: str = "ar",
    correction: str = "holm",
    seed: int | None = DEFAULT_SEED,
    level: float = 0.95,
    alpha: float = 0.05,
    compare: tuple[str, str] | None = None,
    progress: Progress | None = None,
) -> CorpusReport:
    """The report from systems already scored once with ``params``.

    Args:
        results, ids: each system's scored corpus (in input order) and segment ids.
        labels: label column name → (segment id → label): one bucketing each.
        word_counts: word → count for the frequency buckets (default: the references).
        compare: the two systems head to head (default: the top two of the ranking).
        n_samples, n_trials: bootstrap resamples; approximate-randomisation trials (10,000,
            sacreBLEU's default).
        test: the test that decides significance, ``"ar"`` (approximate randomisation) or
            ``"bootstrap"``; ``correction``: ``"holm"``, ``"bonferroni"`` or ``"none"``.
    """
    if not results:
        raise ValueError("a report needs at least one system")
    say = progress or (lambda _msg: None)
    for name in results:
        if len(ids[name]) != len(results[name].segments):
            raise ValueError(f"system {name!r}: {len(ids[name])} ids for its records")
    ranking = rank_systems(
        results, params, ids=ids, n_samples=n_samples, trials=n_trials, seed=seed, level=level,
        alpha=alpha, test=test, correction=correction, progress=progress,
    )  # fmt: skip
    order = [r.name for r in ranking.systems]
    ranked = {n: results[n] for n in order}
    say("buckets")
    kw: dict[str, Any] = {"n_samples": n_samples, "seed": seed, "level": level}
    tables = [  # systems in ranking order
        length_buckets(ranked, params, edges=length_edges, **kw),
        ratio_buckets(ranked, params, edges=ratio_edges, **kw),
        *(
            label_buckets(ranked, params, c, by_id, ids, **kw)
            for c, by_id in (labels or {}).items()
        ),
        frequency_buckets(ranked, params, counts=word_counts),
        word_class_buckets(ranked, params),
    ]
    say("where the points go")
    modules = [m.value for m in params.modules]
    losses = tuple(system_losses(n, ranked[n], modules=modules) for n in order)
    versus = _versus(results, ids, order, compare)
    all_ids = {x for name in results for x in ids[name]}
    notes = _notes(ranking)
    return CorpusReport(
        params.signature(preset=preset) if preset else params.signature(),
        preset,
        tuple(sources),
        segments if segments is not None else len(all_ids),
        tuple((n, len(results[n].segments)) for n in results),
        ranking,
        tuple(tables),
        losses,
        versus,
        tuple(notes),
    )


def _versus(
    results: Mapping[str, CorpusResult],
    ids: Mapping[str, Sequence[str]],
    order: Sequence[str],
    compare: tuple[str, str] | None,
) -> HeadToHead | None:
    """The two systems head to head: ``compare``, else the top two (none with one system)."""
    if compare is not None:
        for name in compare:
            if name not in results:
                raise ValueError(f"--compare: no system {name!r}; systems: {', '.join(results)}")
        return head_to_head(compare[0], compare[1], results, ids)
    if len(order) >= 2:
        return head_to_head(order[0], order[1], results, ids)
    return None


def _notes(ranking: Ranking) -> list[str]:
    notes = []
    if ranking.paired_on_common_ids:
        notes.append(
            "systems cover different segments: each pair was compared on the segment ids "
            "both have (see common_segments of each comparison)"
        )
    if any(math.isnan(r.corpus.low) for r in ranking.systems):
        notes.append("some intervals are undefined (too few segments)")
    notes += [d.note(ranking.alpha) for d in ranking.borderline]
    return notes


def corpus_report(
    corpus: Corpus,
    metric: Meteor | str | None = None,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    **options: Any,
) -> CorpusReport:
    """Score every system of ``corpus`` once and build its report (:func:`build_report`).

    ``metric``: a :class:`Meteor`, a preset name or ``None`` (the default preset);
    ``workers``: processes (:mod:`meteor.runners.parallel`); ``progress``: called with a
    short line per step.
    """
    check_ranking_options(
        test=options.get("test", "ar"),
        correction=options.get("correction", "holm"),
        trials=options.get("n_trials", DEFAULT_TRIALS),
        alpha=options.get("alpha", 0.05),
    )
    m = metric if isinstance(metric, Meteor) else Meteor(metric)
    say = progress or (lambda _msg: None)
    results: dict[str, CorpusResult] = {}
    ids: dict[str, tuple[str, ...]] = {}
    for name, hyps in corpus.systems:
        say(f"score {name} ({len(hyps):,} segments)")
        refs = corpus.refs_of(name)  # in this process unless workers are given
        results[name] = score_corpus(
            m, list(hyps), list(refs), workers=1 if workers is None else workers
        )
        ids[name] = corpus.ids_of(name)
    return build_report(
        results,
        m.params,
        ids=ids,
        segments=corpus.n_segments,
        preset=m.preset,
        sources=corpus.sources,
        progress=progress,
        **options,
    )
